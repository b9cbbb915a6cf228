"""A fake clock for the typewriter in a command the tests start (issue 20).

Python imports ``sitecustomize`` at start-up from the path; the end-to-end tests of
authentic speed put this folder on ``PYTHONPATH`` (``support.terminal.fast_typewriter``) so
the installed command's typewriter runs ``UNIVAC_TTT_TEST_CLOCK_FACTOR`` times faster than
the wall: the same characters, one at a time, in the same order and at the same relative
pace, in a fraction of the time. The clock is injected where the program takes it, the
defaults of the console's settings, the pacer and the plain console (``time.monotonic`` and
``time.sleep``); prompt_toolkit's and asyncio's own timers keep real time. SIGUSR1 holds the
typewriter's clock still and the next SIGUSR1 lets it go on (``Terminal.hold_typewriter``);
SIGUSR2 makes it run SPEED_UP times faster from then on, for the rest of a line a test has
done looking at (``Terminal.hurry_typewriter``).
"""

from __future__ import annotations

import os
import signal
import sys
import time

FACTOR = float(os.environ.get("UNIVAC_TTT_TEST_CLOCK_FACTOR", "1"))
SPEED_UP = 25.0  # SIGUSR2: this many times faster again
_START = time.monotonic()
_held_at: float | None = None  # SIGUSR1 holds the clock still, and the next lets it go on
_held_for = 0.0
# (fake seconds at the last change of pace, running seconds then, the pace since): one
# tuple, replaced whole, so a reading between a signal's two assignments cannot mix them
_pace = (0.0, 0.0, FACTOR)


def _running(now: float) -> float:
    """Real seconds since start that the clock was not held."""
    return now - _START - _held_for


def fast_clock() -> float:
    now = time.monotonic() if _held_at is None else _held_at
    fake, since, factor = _pace
    return _START + fake + (_running(now) - since) * factor


def _hold_or_release(signum: int, frame: object) -> None:
    """A test holds the typewriter's time still (the paper stops mid-line, the typewriter
    still busy) while it looks at the screen however slow the machine is, then lets go."""
    global _held_at, _held_for
    if _held_at is None:
        _held_at = time.monotonic()
    else:
        _held_for += time.monotonic() - _held_at
        _held_at = None


def _hurry(signum: int, frame: object) -> None:
    """A test has seen what it looks at while the typewriter types: the rest comes
    SPEED_UP times faster, on from where the clock is (no jump)."""
    global _pace
    fake, since, factor = _pace
    now = time.monotonic() if _held_at is None else _held_at
    running = _running(now)
    _pace = (fake + (running - since) * factor, running, factor * SPEED_UP)


def fast_sleep(seconds: float) -> None:
    time.sleep(seconds / _pace[2])
    while _held_at is not None:  # held: the typewriter waits until it is let go
        time.sleep(0.01)


def _inject(function: object) -> int:
    """Replace the real clock and sleep among a function's defaults; how many were."""
    defaults = getattr(function, "__defaults__", None) or ()
    swapped = tuple(fast_clock if d is time.monotonic else fast_sleep if d is time.sleep
                    else d for d in defaults)
    function.__defaults__ = swapped  # type: ignore[attr-defined]
    return sum(a is not b for a, b in zip(defaults, swapped, strict=True))


def install() -> int:
    from univac_ttt.console.app import ConsoleSettings
    from univac_ttt.console.plain import PlainConsole
    from univac_ttt.desk.pacing import TypewriterPacer

    return (_inject(ConsoleSettings.__init__) + _inject(PlainConsole.__init__)
            + _inject(TypewriterPacer.__init__))


if FACTOR != 1:
    signal.signal(signal.SIGUSR1, _hold_or_release)
    signal.signal(signal.SIGUSR2, _hurry)
if FACTOR != 1 and install() < 3:  # a default moved: say so on the screen the test reads
    sys.stderr.write("fastclock: the typewriter's clock was not found\n")
