"""``univac-ttt tape make|list|compare``: reel files (docs/tape-format.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from .commands import SUMMARIES
from .common import EXIT_ERROR_STOP, EXIT_OK, EXIT_USAGE, Parser, writable
from .options import path

NAME = "tape"


def add_parser(sub: argparse._SubParsersAction) -> None:
    tape = sub.add_parser(NAME, help=SUMMARIES[NAME],
                          description="Reel files (docs/tape-format.md): make a program tape "
                                      "that loads itself by INITIAL READ, list a reel's "
                                      "blocks, or compare two reels (exit 1 if they differ).")
    tape.set_defaults(reads_stdin=False)
    tape_sub = tape.add_subparsers(dest="tape_command", metavar="ACTION", required=True,
                                   parser_class=Parser)
    make = tape_sub.add_parser("make", help="a program tape: the loader, then the memory",
                               description="Write a program tape for a memory image or a "
                                           "coding sheet (.ucs): block 1 is the loader "
                                           "(loader.ucs), blocks 2-18 the whole memory.")
    make.add_argument("source", type=path, help="memory image, or coding sheet ending in .ucs")
    make.add_argument("-o", "--output", required=True, metavar="FILE",
                      help="the reel file to write (replaced atomically)")
    make.set_defaults(func=_reporting_errors(_make))
    listing = tape_sub.add_parser("list", help="one line a block of a reel")
    listing.add_argument("reel", type=path, help="reel file")
    listing.set_defaults(func=_reporting_errors(_list))
    compare = tape_sub.add_parser("compare", help="compare two reels word for word")
    compare.add_argument("first", type=path, help="reel file")
    compare.add_argument("second", type=path, help="reel file")
    compare.set_defaults(func=_reporting_errors(_compare))


def _make(args: argparse.Namespace) -> int:
    from ..program.tapetool import make_tape

    if not writable("the tape", args.output):
        return EXIT_USAGE
    try:
        print(make_tape(args.source, args.output))
    except OSError as exc:
        sys.stderr.write(f"univac-ttt: cannot write {args.output}: "
                         f"{exc.strerror or exc}\n")
        return EXIT_USAGE
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    from ..program.reel import read_reel
    from ..program.tapetool import list_reel

    print(list_reel(read_reel(args.reel)))
    return EXIT_OK


def _compare(args: argparse.Namespace) -> int:
    from ..program.reel import read_reel
    from ..program.tapetool import compare_reels

    same, report = compare_reels(read_reel(args.first), read_reel(args.second))
    print(report)
    return EXIT_OK if same else EXIT_ERROR_STOP


def _reporting_errors(action: Callable[[argparse.Namespace], int]
                      ) -> Callable[[argparse.Namespace], int]:
    """The action, with a bad sheet, image or reel said in one line (exit 2)."""
    def command(args: argparse.Namespace) -> int:
        from ..program.assembler import AssemblyError
        from ..program.image import ImageError
        from ..program.reel import ReelError
        from ..program.shipped import ProgramError

        try:
            return action(args)
        except (AssemblyError, ImageError, ReelError, ProgramError) as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    return command
