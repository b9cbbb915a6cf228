"""Drive a command in a real pseudo-terminal and read its screen as a person sees it.

pexpect gives the pseudo-terminal; pyte (a VT100 emulator) turns what the program writes
into screen lines, so tests can assert on what is displayed rather than on escape codes.

The installed ``univac-ttt`` runs, by default, as a fork of the test's own interpreter
that calls the script's ``launch.main`` on the pseudo-terminal (as support/command.py does
for piped commands): everything the script does but start an interpreter and import the
package, 0.2-0.3 s of CPU a terminal. ``--long`` (``UNIVAC_TTT_TEST_FRESH=1``), any other
program, and an environment with variables an interpreter reads as it starts, run the
program itself; tests/project/test_command_runner.py holds the two to the same screens.
"""

from __future__ import annotations

import fcntl
import importlib.util
import locale
import os
import pty
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import ptyprocess
import pyte

from tests.support.command import become_command, fresh_processes
from tests.support.screen_rows import PyteDisplay
from tests.support.xterm_screen import XtermScreen


class Terminal:
    def __init__(self, argv: list[str], columns: int = 100, rows: int = 30,
                 env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        environment = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
        environment.update(env or {})
        self.screen = XtermScreen(columns, rows)  # a real terminal's last column
        self.stream = pyte.ByteStream(self.screen)
        self.rows = PyteDisplay(self.screen)  # read 50 times a second: changed rows only
        spawn = ForkedCommand if forkable(argv, env) else pexpect.spawn
        self.child = spawn(argv[0], argv[1:], dimensions=(rows, columns), env=environment,
                           cwd=cwd, timeout=10)
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

    def hurry_typewriter(self) -> None:
        """The rest of the typing SPEED_UP (25) times faster (``fast_typewriter`` commands
        only): what the test looked at while it typed has been seen."""
        os.kill(self.child.pid, signal.SIGUSR2)

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
CLOCK_FACTOR = "UNIVAC_TTT_TEST_CLOCK_FACTOR"
# what a test may set for a forked command: read as it runs (TERM, the fake clock's
# factor), or met in the fork (the locale, when this interpreter's is UTF-8 as well; the
# fake clock's folder on the path, whose sitecustomize the fork runs itself)
FORKABLE_ENVIRONMENT = {"TERM", "LANG", "PYTHONPATH", CLOCK_FACTOR}


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


def forkable(argv: list[str], env: dict[str, str] | None) -> bool:
    """Whether the command may run as a fork of this interpreter (see the module's doc)."""
    command = shutil.which(argv[0])
    return (not fresh_processes() and command is not None and command == shutil.which(
        "univac-ttt") and set(env or {}) <= FORKABLE_ENVIRONMENT
        and (env or {}).get("PYTHONPATH", str(FAST_CLOCK)).split(os.pathsep)[0]
        == str(FAST_CLOCK)
        and locale.getpreferredencoding(False).lower().replace("-", "") == "utf8")


class ForkedCommand(pexpect.spawn):
    """pexpect's spawn whose child is a fork that runs the installed script's ``main``."""

    def _spawnpty(self, args, env=None, cwd=None, dimensions=(24, 80), **_):  # type: ignore[no-untyped-def, override]
        from univac_ttt.launch import main  # what the installed script calls

        environment = dict(env or os.environ)
        pid, fd = pty.fork()
        if pid == 0:  # the child: never returns into the test
            try:
                ptyprocess.ptyprocess._setwinsize(0, *dimensions)
                _as_after_exec()
                if cwd is not None:
                    os.chdir(cwd)
                os.environ.clear()
                os.environ.update(environment)
            except BaseException:  # noqa: BLE001
                os._exit(1)
            become_command(main, [str(a) for a in args], _fast_clock(environment))
        process = ptyprocess.PtyProcess(pid, fd)
        process.setwinsize(*dimensions)
        return process


def _as_after_exec() -> None:
    """What exec would close (every descriptor not inheritable: the test's pipes, sockets
    and other terminals) is pointed at /dev/null instead, so no other process waits on a
    copy held here, and no object of the test's closing its number later closes one the
    command has opened since."""
    null = os.open(os.devnull, os.O_RDWR)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd != null:
            try:
                if fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC:
                    os.dup2(null, fd, inheritable=False)
            except OSError:  # the listing's own descriptor, closed by now
                pass
    os.close(null)


def _fast_clock(environment: dict[str, str]) -> Callable[[], None] | None:
    """The fake typewriter clock's sitecustomize, which a fresh interpreter would import at
    its start, run in the fork before the command (only where a test asked for it)."""
    if CLOCK_FACTOR not in environment:
        return None

    def install() -> None:
        spec = importlib.util.spec_from_file_location("sitecustomize",
                                                      FAST_CLOCK / "sitecustomize.py")
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    return install
