"""The command's entry point: the guard around ``cli.main`` while it is still loading.

``cli.main`` turns a Ctrl-C into "interrupted" and exit status 130 once a subcommand runs,
but a Ctrl-C that arrives earlier (while the command imports its modules, builds its
parser or reads its options: the first tenth of a second or so) would reach the user as a
Python traceback. This module imports nothing of its own, so that window shrinks to the
interpreter's own start; and from the moment it is imported a Ctrl-C already ends the
command politely, even in the lines of the installed script that run before ``main``
(tests/e2e/test_interrupt_at_start.py caught one there, compiling a pattern).
"""

from __future__ import annotations

import _signal  # the signal module without its enums (their making costs 4 M instructions)
import gc
import sys

INTERRUPTED = "\nunivac-ttt: interrupted\n"
EXIT_INTERRUPTED = 130


def _interrupted_before_main(_signum: int, _frame: object) -> None:
    sys.stderr.write(INTERRUPTED)
    raise SystemExit(EXIT_INTERRUPTED)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not where it is ignored
    _signal.signal(_signal.SIGINT, _interrupted_before_main)


def main() -> int:
    """Run the command; a Ctrl-C at any moment ends it with one line and status 130."""
    try:
        if _signal.getsignal(_signal.SIGINT) is _interrupted_before_main:
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # cli.main's from here
        from .cli.main import main as run_command

        code = run_command()
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED)
        code = EXIT_INTERRUPTED
    _skip_the_final_collection()
    return code


def _skip_the_final_collection() -> None:
    """The command has done its work: the collector's rounds while the interpreter shuts
    down would only walk every object still alive (after a long session or a proof, a
    tenth of a second of CPU) to find the few cycles among them. Frozen objects are left
    out of those rounds; reference counting still frees them, atexit handlers still run,
    and the interpreter still flushes sys.stdout and sys.stderr (none of it needs the
    collector)."""
    gc.freeze()
