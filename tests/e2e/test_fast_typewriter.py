"""The fake typewriter clock the authentic-speed tests give the installed command: it must
reach the console, the pacer and the plain console, or those tests wait at the real pace."""

import os
import subprocess
import sys

from support.terminal import fast_typewriter

PROBE = """
import inspect, time
from univac_ttt.console.app import ConsoleSettings
from univac_ttt.console.plain import PlainConsole
from univac_ttt.desk.pacing import TypewriterPacer
print(ConsoleSettings().clock.__name__,
      inspect.signature(PlainConsole.__init__).parameters["sleep"].default.__name__,
      inspect.signature(TypewriterPacer.__init__).parameters["clock"].default.__name__)
clock = ConsoleSettings().clock  # the fake clock read outside the real one, so a pause
fake = clock()                    # of the process between the two readings (a loaded
start = time.monotonic()          # machine) only lengthens the fake interval
time.sleep(0.05)
real = time.monotonic() - start
print((clock() - fake) / real > 5)
import os, signal
clock = ConsoleSettings().clock
os.kill(os.getpid(), signal.SIGUSR1)  # held
held = clock()
time.sleep(0.05)
print(clock() == held)
before = time.monotonic()
os.kill(os.getpid(), signal.SIGUSR1)  # let go: on from where it was held, no jump
time.sleep(0.01)
now = clock()
print(held < now <= held + (time.monotonic() - before) * 10)
os.kill(os.getpid(), signal.SIGUSR2)  # hurried: 25 times faster again, on from where it was
fake = clock()
start = time.monotonic()
time.sleep(0.05)
real = time.monotonic() - start
print(now <= fake <= now + (start - before) * 10 * 25 and (clock() - fake) / real > 10 * 5)
"""


def test_the_fake_clock_reaches_every_pacer_runs_faster_and_can_be_held_and_hurried():
    env = {**os.environ, **fast_typewriter(10)}
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["fast_clock", "fast_sleep", "fast_clock", "True",
                                    "True", "True", "True"]
    assert "fastclock:" not in result.stderr
