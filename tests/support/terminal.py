"""Drive a command in a real pseudo-terminal and read its screen as a person sees it.

pexpect gives the pseudo-terminal; pyte (a VT100 emulator) turns what the program writes
into screen lines, so tests can assert on what is displayed rather than on escape codes.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

from tests.support.screen_rows import PyteDisplay


class Terminal:
    def __init__(self, argv: list[str], columns: int = 100, rows: int = 30,
                 env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        environment = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
        environment.update(env or {})
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.rows = PyteDisplay(self.screen)  # read 50 times a second: changed rows only
        self.child = pexpect.spawn(argv[0], argv[1:], dimensions=(rows, columns),
                                   env=environment, cwd=cwd, timeout=10)
        # pexpect sleeps 50 ms before every send, for programs that lose keys typed before
        # they are ready; every test here waits for the screen first, so none is needed
        self.child.delaybeforesend = None
        self.raw = b""

    def pump(self, seconds: float = 0.2) -> None:
        """Read whatever the program writes for a while."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                return
            self.raw += data
            self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.rows.read())

    def wait_until(self, condition: Callable[[str], bool], timeout: float = 10.0,
                   what: str = "the condition") -> str:
        """Read until ``condition(screen text)`` holds; fail after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            self.pump(0.02)
            if condition(self.text()):
                return self.text()
            if time.monotonic() >= end:
                raise AssertionError(f"{what} never held on the screen:\n{self.text()}")

    def wait_for(self, needle: str, timeout: float = 10.0) -> str:
        return self.wait_until(lambda text: needle in text, timeout, repr(needle))

    def settle(self, quiet: float = 0.1, timeout: float = 5.0) -> str:
        """Read until the program has written nothing for ``quiet`` seconds: the screen
        it drew in answer to the last keys is whole (a wait on output, not a fixed sleep)."""
        end = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() < end and time.monotonic() - last < quiet:
            before = len(self.raw)
            self.pump(0.02)
            if len(self.raw) != before:
                last = time.monotonic()
        return self.text()

    def hold_typewriter(self) -> None:
        """Hold the command's fake typewriter clock still, or let it go on (``fast_typewriter``
        commands only): what the test looks at cannot run away on a slow machine."""
        os.kill(self.child.pid, signal.SIGUSR1)

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        self.child.setwinsize(rows, columns)

    def close(self) -> int | None:
        """Wait for the program to end by itself (10 s at most), then its exit status."""
        try:
            self.child.expect(pexpect.EOF, timeout=10)
        except pexpect.TIMEOUT:
            self.child.terminate(force=True)
        end = time.monotonic() + 10
        while self.child.isalive() and time.monotonic() < end:  # EOF comes just before exit
            time.sleep(0.005)
        if not self.child.isalive():
            self.child.delayafterclose = 0  # (pexpect's fixed 0.1 s for a child still going)
        self.child.close()
        return self.child.exitstatus


FAST_CLOCK = Path(__file__).resolve().parent / "fastclock"


def fast_typewriter(factor: float) -> dict[str, str]:
    """The environment in which the command's typewriter runs ``factor`` times faster than
    the wall (``fastclock/sitecustomize.py``): authentic pacing without real waiting."""
    path = os.pathsep.join(p for p in (str(FAST_CLOCK), os.environ.get("PYTHONPATH")) if p)
    return {"PYTHONPATH": path, "UNIVAC_TTT_TEST_CLOCK_FACTOR": str(factor)}


MONITOR_COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"


def start_monitor(columns: int = 120, rows: int = 40) -> Terminal:
    """The installed full-screen monitor, at its first prompt."""
    terminal = Terminal([MONITOR_COMMAND, "monitor"], columns=columns, rows=rows)
    terminal.wait_for("monitor>")
    return terminal


def quit_monitor(terminal: Terminal) -> None:
    """Ctrl-Q twice, and the monitor ends with status 0."""
    terminal.send("\x11\x11")
    assert terminal.close() == 0
