"""The ``univac-ttt`` command's entry point: build the parser from the subcommand modules,
run the chosen one, and turn whatever escapes it into one line and an exit status."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType

from .. import __version__
from ..launch import EXIT_INTERRUPTED, INTERRUPTED, interrupted_within, start_done
from ..tui.ending import SessionEnded
from .commands import COMMANDS, SUMMARIES
from .common import EXIT_INTERNAL, EXIT_OK, EXIT_OUTPUT, EXIT_USAGE, Parser

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from ..hostio.block_cache import BlockCache


def command_module(name: str) -> ModuleType:
    """The module of one subcommand (``univac_ttt.cli.NAME``), imported when first asked:
    it adds its parser and ``set_defaults(func=...)``."""
    return importlib.import_module(f"{__package__}.{name}")


def __getattr__(name: str) -> tuple[ModuleType, ...]:
    """``SUBCOMMANDS``: every subcommand's module in --help's order, imported on demand
    (a start imports only the one it runs)."""
    if name == "SUBCOMMANDS":
        return tuple(command_module(command) for command in COMMANDS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_parser(complete: Iterable[str] = COMMANDS) -> argparse.ArgumentParser:
    """The whole command line; the subcommands not in ``complete`` only named with their
    line of help, as ``univac-ttt --help`` lists them, their modules not imported."""
    parser = Parser(
        prog="univac-ttt",
        description="A UNIVAC I (1951) emulator playing tic-tac-toe after Tom Gildersleeve's. "
                    "With no command, starts a game.",
        epilog="A full-screen session (play, monitor) ended from outside restores the "
               "terminal first, then exits with status 143 (SIGTERM), 129 (SIGHUP) or 74 "
               "(the terminal went away).",
    )
    parser.add_argument("--version", action="version", version=f"univac-ttt {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    # argparse's private parts (_name_parser_map, _choices_actions, _ChoicesPseudoAction),
    # checked against Python 3.11's argparse; tests/cli/test_startup.py holds every --help
    # and error to the parser built whole, so a later argparse that differs fails there
    sub._name_parser_map = sub.choices = _Parsers(sub)  # type: ignore[assignment]
    complete = set(complete)
    for name in COMMANDS:
        if name in complete:
            command_module(name).add_parser(sub)
        else:  # listed in --help as sub.add_parser(name, help=...) lists it
            sub._choices_actions.append(sub._ChoicesPseudoAction(name, (), SUMMARIES[name]))
            dict.__setitem__(sub.choices, name, _NOT_MADE)
    return parser


_NOT_MADE = object()  # a subcommand's parser not made yet (see _Parsers)


class _Parsers(dict):  # type: ignore[type-arg]
    """The subcommands' parsers by name (argparse's ``choices``). A command only listed
    (not in build_parser's ``complete``) gets the bare parser ``sub.add_parser(name,
    help=...)`` would have made, when it is first looked up: eight such parsers were a
    quarter of a million instructions each at every start, and none is ever used but by
    a test or --help's listing (which reads only the names and their lines of help)."""

    def __init__(self, sub: argparse._SubParsersAction) -> None:
        super().__init__()
        self._sub = sub

    def __getitem__(self, name: str) -> argparse.ArgumentParser:
        parser = super().__getitem__(name)
        if parser is _NOT_MADE:
            sub = self._sub
            parser = sub._parser_class(prog=f"{sub._prog_prefix} {name}")
            super().__setitem__(name, parser)
        return parser  # type: ignore[no-any-return]

    def get(self, name: str, default: object = None) -> object:  # type: ignore[override]
        return self[name] if name in self else default  # noqa: SIM401 - self.get is this

    def values(self) -> list[argparse.ArgumentParser]:  # type: ignore[override]
        return [self[name] for name in self]

    def items(self) -> list[tuple[str, argparse.ArgumentParser]]:  # type: ignore[override]
        return [(name, self[name]) for name in self]


def _no_such_command(word: str) -> int:
    """One line naming the commands there are (and the likeliest, for a typing slip)."""
    import difflib

    close = difflib.get_close_matches(word, COMMANDS, n=1)
    guess = f"; did you mean {close[0]}?" if close else ""
    sys.stderr.write(f"univac-ttt: no command {word!r}{guess} (the commands: "
                     f"{', '.join(COMMANDS)}; univac-ttt --help says what each does)\n")
    return EXIT_USAGE


def _chosen_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The subcommand's own parser (argparse reports a subcommand's unknown options from
    the top level, with the top level's usage line)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(command, parser)  # type: ignore[no-any-return]
    return parser


def _tape_values_joined(words: list[str]) -> list[str]:
    """``--tape -=FILE`` as ``--tape=-=FILE``: argparse takes a value starting with ``-``
    for an option, and the tenth Uniservo is written ``-`` (docs/tape-format.md)."""
    joined: list[str] = []
    for word in words:
        if joined and joined[-1] == "--tape" and word.startswith("-="):
            joined[-1] = f"--tape={word}"
        else:
            joined.append(word)
    return joined


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words and not words[0].startswith("-") and words[0] not in COMMANDS:
        return _no_such_command(words[0])  # play takes no bare words: a mistyped command
    if not words or (words[0] not in COMMANDS and words[0] not in ("-h", "--help", "--version")):
        words.insert(0, "play")  # no command: start a game
    parser = build_parser(complete=words[:1])  # only the chosen command's module is loaded
    _prepare_streams()
    args, extra = parser.parse_known_args(_tape_values_joined(words))
    if extra:  # said with the chosen command's usage, not the top level's
        _chosen_parser(parser, args.command).error(
            f"unrecognized arguments: {' '.join(extra)}")
    command = args.command
    closed = _closed_stream(args)
    if closed:
        sys.stderr.write(f"univac-ttt: {closed} is closed; {command} needs it\n")
        return EXIT_USAGE
    cache = _block_cache(command)
    start_done()  # the collector on again (launch held it for the start)
    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED)
        return EXIT_INTERRUPTED
    except SessionEnded as ended:  # SIGTERM, SIGHUP, a closed terminal: screen restored
        _say_quietly(f"univac-ttt: {ended}\n")
        return ended.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as exc:  # stdout on a full disk or /dev/full, a broken terminal
        failed = _failed_stream(exc)
        _silence_stdout()
        _say_quietly(f"univac-ttt: {failed} ({exc.strerror or exc})\n")
        return EXIT_OUTPUT
    except Exception as exc:  # noqa: BLE001 - the last guard: no traceback reaches a user
        if interrupted_within(exc):  # a Ctrl-C wrapped by CPython (in a class's making)
            sys.stderr.write(INTERRUPTED)
            return EXIT_INTERRUPTED
        sys.stderr.write(f"univac-ttt: internal error ({type(exc).__name__}: {exc}); "
                         "please report it\n")
        return EXIT_INTERNAL
    finally:
        if cache is not None:
            cache.save()  # never raises: a cache that cannot be written is not kept


# Commands whose runs keep their compiled blocks for the next run (hostio/block_cache.py):
# the short ones, where compiling is a large part of the whole, and serve, which compiles
# the program's blocks before it listens (desk/warm.py: its start-up's largest part). The
# monitor and the kiosk run long enough that compiling is lost in the noise.
CACHED_COMMANDS = ("play", "verify", "serve")


def _block_cache(command: str) -> BlockCache | None:
    """The loaded block cache of ``command``, or None for a command that keeps none."""
    if command not in CACHED_COMMANDS:
        return None
    from ..hostio.block_cache import BlockCache
    from ..machine import compiled

    cache = BlockCache(command, compiled.CODE, compiled.USED, lambda: compiled.compiled_now,
                       os.path.dirname(compiled.__file__))
    compiled.KEEP_OWN = True  # blocks' own code kept too: the next run need not split them
    cache.load()
    return cache


def _prepare_streams() -> None:
    """Output that the terminal's encoding cannot show becomes escapes, not an exception
    (a Latin-1 terminal shows Δ as \\u0394); a closed stderr becomes a silent one."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the run
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _closed_stream(args: argparse.Namespace) -> str:
    """'standard output' or 'standard input' if the command needs one that is closed
    (each subcommand says with ``reads_stdin``, a bool or a test of its arguments)."""
    if sys.stdout is None:
        return "standard output"
    reads_stdin = args.reads_stdin(args) if callable(args.reads_stdin) else args.reads_stdin
    if reads_stdin and sys.stdin is None:
        return "standard input"
    return ""


def _failed_stream(exc: OSError) -> str:
    """What failed, named as the user would look for it: a file the error names, else the
    standard output for a full disk (every other file a command writes is named: the
    transcript and log say so themselves, a saved file's error is caught where it is
    saved), else the terminal's input or output."""
    import errno  # only when something failed

    if exc.filename is not None:
        return f"input/output failed on {exc.filename}"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "cannot write the standard output"
    return "input/output failed"


def _say_quietly(text: str) -> None:
    """One line on stderr if it can still be written (after SIGHUP it often cannot)."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's own flush at exit cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
