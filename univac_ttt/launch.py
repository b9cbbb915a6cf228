"""The command's entry point: the guard around ``cli.main`` while it is still loading.

``cli.main`` turns a Ctrl-C into "interrupted" and exit status 130 once a subcommand runs,
but a Ctrl-C that arrives earlier (while the command imports its modules, builds its
parser or reads its options: the first tenth of a second or so) would reach the user as a
Python traceback. This module imports nothing of its own, so that window shrinks to the
interpreter's own start; and from the moment it is imported a Ctrl-C already ends the
command politely, even in the lines of the installed script that run before ``main``
(tests/e2e/test_interrupt_at_start.py caught one there, compiling a pattern).

A Python signal handler runs in whatever Python code is running when the signal arrives,
and CPython ignores an exception raised in a weak reference's callback or a ``__del__``
(it prints "Exception ignored in: ..." with a traceback, and goes on). A start imports
modules, and importlib drops each module's lock through such a callback: a Ctrl-C landing
there was lost, the command went on, and the user saw a traceback. So from here on, for the
whole run: the handler before ``main`` ends the process at once (``os._exit``: nothing of
ours needs cleaning up yet, and nothing can swallow it); and a KeyboardInterrupt that
CPython swallows reaches ``sys.unraisablehook``, which raises it again once the callback
has returned (tests/e2e/test_interrupt_in_callbacks.py).
"""

from __future__ import annotations

import _signal  # the signal module without its enums (their making costs 4 M instructions)
import gc
import os
import sys
from types import FrameType  # loaded by the interpreter's own start: nothing to import

INTERRUPTED = "\nunivac-ttt: interrupted\n"
EXIT_INTERRUPTED = 130


def _interrupted_before_main(_signum: int, _frame: object) -> None:
    """Only the installed script's own lines run before ``main``: nothing to flush or
    restore, so the process ends here (an exception could be swallowed by a callback)."""
    try:  # noqa: SIM105 - no contextlib: this module imports nothing
        os.write(2, INTERRUPTED.encode())
    except OSError:  # stderr closed or full: the exit status still says it
        pass
    os._exit(EXIT_INTERRUPTED)


_ignored_as_before = sys.unraisablehook


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """CPython swallowed an exception (in a callback or a ``__del__``): a KeyboardInterrupt
    is a Ctrl-C that must not be lost. It is raised again at the first call or return
    after this hook (a profile function's exception reaches the code it profiles): not
    by raising the signal anew, whose handler would run inside this hook, and be ignored
    again."""
    if not issubclass(unraisable.exc_type, KeyboardInterrupt):
        _ignored_as_before(unraisable)
        return
    profiler = sys.getprofile()

    def again(frame: FrameType, _event: str, _arg: object) -> None:
        if frame.f_code is _unraisable.__code__:
            return  # still in the hook
        sys.setprofile(profiler)
        raise KeyboardInterrupt

    sys.setprofile(again)


FULL_SCREEN = ("play", "monitor", "kiosk")  # the commands that read keys in raw mode
NOT_FULL_SCREEN = ("--plain", "--script", "-h", "--help", "--version")


def _full_screen(argv: list[str]) -> bool:
    """Whether this command line may open a full-screen session (no command is play)."""
    command = argv[1] if len(argv) > 1 and not argv[1].startswith("-") else "play"
    return command in FULL_SCREEN and not any(word in NOT_FULL_SCREEN for word in argv)


def _flow_control_off(fd: int, argv: list[str]) -> list[object] | None:
    """XON/XOFF flow control off (IXON) on the terminal of a full-screen command at once;
    the attributes it had, or None when nothing was changed.

    Until prompt_toolkit's raw mode is on (a few tenths of a second into the start, more on
    a loaded machine) the terminal is in its cooked mode, whose IXON takes a Ctrl-Q typed
    then for "resume output" and drops it: the console's first quit key was lost (found by
    a user trial, the key typed at once). With IXON off from here the key waits in the
    terminal's input for the console like any other."""
    if not _full_screen(argv):
        return None
    try:
        import termios  # a small C module, imported only for a full-screen command

        if not (os.isatty(fd) and os.isatty(1)) or os.tcgetpgrp(fd) != os.getpgrp():
            return None  # no terminal, or not its foreground (tcsetattr would stop us)
        saved = termios.tcgetattr(fd)
        if not saved[0] & termios.IXON:
            return None
        changed = list(saved)
        changed[0] = saved[0] & ~termios.IXON
        termios.tcsetattr(fd, termios.TCSANOW, changed)
        return saved  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - a terminal we cannot set is left as it was
        return None


_FLOW: list[tuple[int, list[object]]] = []  # the terminal whose IXON was turned off
KIOSK_LOCKED = ("SIGINT", "SIGTSTP", "SIGQUIT")  # as kiosk/supervisor.py's lock_signals


def _lock_a_kiosk(argv: list[str]) -> None:
    """The kiosk ignores Ctrl-C, Ctrl-Z and Ctrl-\\ from its first moment: its own
    lock_signals comes only once its modules are imported, and a visitor's Ctrl-\\ in
    that while ended it (status 131, a core), a Ctrl-C too (status 130)."""
    if len(argv) > 1 and argv[1] == "kiosk" and not any(
            word in NOT_FULL_SCREEN for word in argv):
        for name in KIOSK_LOCKED:
            number = getattr(_signal, name, None)
            if number is not None:
                _signal.signal(number, _signal.SIG_IGN)


def _flow_control_back() -> None:
    """IXON on again, as it was before the command started (the rest of the terminal's
    attributes as the session left them: prompt_toolkit restores its own)."""
    while _FLOW:
        fd, _saved = _FLOW.pop()
        try:
            import termios

            if os.tcgetpgrp(fd) != os.getpgrp():
                continue
            now = termios.tcgetattr(fd)
            now[0] |= termios.IXON
            termios.tcsetattr(fd, termios.TCSANOW, now)
        except Exception:  # noqa: BLE001, S112 - the terminal went away: nothing to restore
            continue


QUITS_AS_INTERRUPT = ("play", "run")  # commands whose Ctrl-\\ (SIGQUIT) ends as Ctrl-C does


def _quit_is_interrupt(argv: list[str]) -> bool:
    """Whether this command takes the terminal's quit key (Ctrl-\\, SIGQUIT) as Ctrl-C: a
    game's player who presses it wants the game to end, as Ctrl-C ends it (the score said,
    status 130), not SIGQUIT's default of status 131 and a core dump."""
    program = os.path.basename(argv[0]) if argv else ""
    if program not in ("univac-ttt", "__main__.py"):  # a process that only imports us
        return False  # (a test runner, a script): its Ctrl-\ is its own
    command = argv[1] if len(argv) > 1 and not argv[1].startswith("-") else "play"
    return command in QUITS_AS_INTERRUPT and hasattr(_signal, "SIGQUIT")


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not where it is ignored
    _signal.signal(_signal.SIGINT, _interrupted_before_main)
    sys.unraisablehook = _unraisable
    if _quit_is_interrupt(sys.argv) and _signal.getsignal(_signal.SIGQUIT) == _signal.SIG_DFL:
        _signal.signal(_signal.SIGQUIT, _interrupted_before_main)


def interrupted_within(exc: BaseException) -> bool:
    """Whether a Ctrl-C is what this exception is made of: CPython wraps an exception
    raised in some hooks of a class being made (``__set_name__``, seen when a Ctrl-C landed
    in functools.cached_property while ipaddress was imported) in a RuntimeError whose
    cause is the KeyboardInterrupt."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def main() -> int:
    """Run the command; a Ctrl-C at any moment ends it with one line and status 130.
    A full-screen command's terminal has XON/XOFF off from here to the end."""
    saved = _flow_control_off(0, sys.argv)
    if saved is not None:
        _FLOW.append((0, saved))
    _lock_a_kiosk(sys.argv)
    try:
        if _signal.getsignal(_signal.SIGINT) is _interrupted_before_main:
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # cli.main's from here
        quit_signal = getattr(_signal, "SIGQUIT", None)
        if quit_signal is not None and _signal.getsignal(quit_signal) is _interrupted_before_main:
            _signal.signal(quit_signal, _signal.default_int_handler  # as Ctrl-C, or as it was
                           if _quit_is_interrupt(sys.argv) else _signal.SIG_DFL)
        _hold_the_collector()
        from .cli.main import main as run_command

        code = run_command()
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED)
        code = EXIT_INTERRUPTED
    except Exception as exc:
        if not interrupted_within(exc):
            raise
        sys.stderr.write(INTERRUPTED)
        code = EXIT_INTERRUPTED
    finally:
        _flow_control_back()
    _skip_the_final_collection()
    return code


_HELD: list[bool] = []  # the collector is off for the start (see _hold_the_collector)


def _hold_the_collector() -> None:
    """The collector off while the command starts: the start's imports, parser and pack
    make many objects and almost no garbage, and its rounds walked them again and again
    (7 M instructions of play's start). ``start_done`` turns it on again."""
    if gc.isenabled():
        gc.disable()
        _HELD.append(True)


def start_done() -> None:
    """The command is about to run: what the start made is kept out of the collector's
    rounds from now on (``gc.freeze``: it lives as long as the command anyway, and the
    proof's rounds need not walk it), and the collector is on again if the start held it."""
    if _HELD:
        _HELD.clear()
        gc.freeze()
        gc.enable()


def _skip_the_final_collection() -> None:
    """The command has done its work: the collector's rounds while the interpreter shuts
    down would only walk every object still alive (after a long session or a proof, a
    tenth of a second of CPU) to find the few cycles among them. Frozen objects are left
    out of those rounds; reference counting still frees them, atexit handlers still run,
    and the interpreter still flushes sys.stdout and sys.stderr (none of it needs the
    collector)."""
    gc.freeze()
