"""``univac-ttt verify``: play every opponent strategy and judge each game exactly."""

from __future__ import annotations

import argparse
import sys

from .commands import SUMMARIES
from .common import EXIT_USAGE
from .options import add_machine_options, machine_options, path

NAME = "verify"


def add_parser(sub: argparse._SubParsersAction) -> None:
    verify = sub.add_parser(NAME, help=SUMMARIES[NAME],
                            description="Play every opponent strategy against the program "
                                        "in emulated memory and check each game against "
                                        "an exact solver of the game. Exit status: 0 "
                                        "when every game is proved, 1 when any is not "
                                        "(the first failures are listed), 2 for a bad "
                                        "file or option, 74 when the output could "
                                        "not be written.")
    verify.add_argument("--search", action="store_true",
                        help="also report the game's size and the nodes that minimax and "
                             "alpha-beta (plain, ordered, with a table, iterative deepening) "
                             "visit from the empty board (about two seconds more)")
    verify.add_argument("sheet", nargs="?", type=path, metavar="FILE",
                        help="a coding sheet (.ucs) to judge instead of the shipped program, "
                             "e.g. one with the element table reordered (or a memory image, "
                             "when its board is at the shipped program's BRD)")
    add_machine_options(verify)
    verify.set_defaults(func=command, reads_stdin=False)


def command(args: argparse.Namespace) -> int:
    from ..verify.referee import RefereeError, run_verification

    program = None
    if args.sheet is not None:  # only then the assembler and the file readers
        from ..packs.tictactoe import program_for_referee
        from ..program.sources import ProgramFileError, read_program

        try:
            loaded = read_program(args.sheet)
            program = program_for_referee(loaded.words, loaded.program)
        except ProgramFileError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    try:
        status = run_verification(machine_options(args), sys.stdout, program)
        if args.search:
            from ..verify.solver import search_report

            sys.stdout.write("\n" + search_report() + "\n")
        return status
    except RefereeError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
