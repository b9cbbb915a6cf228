"""``univac-ttt monitor``: the lecture monitor, full screen, on a pipe or under --script."""

from __future__ import annotations

import argparse
import sys

from .commands import SUMMARIES
from .common import EXIT_USAGE
from .options import add_machine_options, machine_options, path

NAME = "monitor"
SCRIPT_LIMIT = 1_000_000  # bytes of a monitor script
INTERACTIVE_CAP = 1_000_000_000  # instructions a full-screen monitor run may take


def add_parser(sub: argparse._SubParsersAction) -> None:
    monitor = sub.add_parser(NAME, help=SUMMARIES[NAME],
                             description="The lecture monitor: examine, step, break and go "
                                         "back through a program in memory, in SIMH's "
                                         "command language (type help inside). With no "
                                         "FILE, the tic-tac-toe program, with its program "
                                         "tape on Uniservo 1 (boot loads it; attach and "
                                         "detach mount reels). Ctrl-C stops a "
                                         "run; under --script a run stops after 5,000,000 "
                                         "instructions. While the UNIVAC waits for its "
                                         "keyboard, a line goes to it and a command starts "
                                         "with ':'; Up and Down recall the last 1,000 "
                                         "command lines (docs/lecture.md).")
    monitor.add_argument("image", nargs="?", type=path, metavar="FILE",
                         help="a memory image, or a coding sheet (.ucs) for labels and remarks")
    monitor.add_argument("--log", metavar="FILE", type=path,
                         help="append the session (each command and what it printed) to "
                              "FILE, as the command log FILE does")
    monitor.add_argument("--script", metavar="FILE", type=path,
                         help="run the monitor commands in FILE as plain text and exit, "
                              "with status 1 if any command printed a ?? line (also done "
                              "with commands on stdin when it is not a terminal)")
    add_machine_options(monitor)
    # A script never reads stdin, so a closed stdin is no error under --script.
    from ..packs.choose import add_program_option

    add_program_option(monitor)
    monitor.set_defaults(func=command, reads_stdin=lambda args: args.script is None)


def command(args: argparse.Namespace) -> int:
    from ..monitor.core import Monitor
    from ..monitor.script import run_script
    from ..program.sources import ProgramFileError, read_program
    from .programs import pack_from_args

    pack = pack_from_args(args, args.image)
    if pack is None:
        return EXIT_USAGE
    tapes = pack.mounts()  # the pack's tape on Uniservo 1, for boot, and its reels
    words, program = pack.words, pack.program
    if args.image is not None:
        try:
            loaded = read_program(args.image)
        except ProgramFileError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
        words, program = loaded.words, loaded.program
    from ..desk import Limits

    full_screen = args.script is None and sys.stdin.isatty() and sys.stdout.isatty()
    # On the full screen Ctrl-C stops a run, so the cap is only a last resort.
    limits = Limits(cap=INTERACTIVE_CAP) if full_screen else Limits()
    monitor = Monitor(words, program, machine_options(args), limits, tapes)
    monitor.board_reader = pack.board
    if args.log is not None:
        opened = monitor.execute(f"log {args.log}")
        if opened and opened[0].startswith("??"):
            sys.stderr.write(f"univac-ttt: {opened[0][3:]}\n")
            return EXIT_USAGE
    if args.script is not None:
        from ..hostio.text_files import TextFileError, read_text_file

        try:
            lines = read_text_file(args.script, SCRIPT_LIMIT).split("\n")
        except TextFileError as exc:
            sys.stderr.write(f"univac-ttt: the script {args.script} {exc.reason}\n")
            return EXIT_USAGE
        return run_script(monitor, lines, sys.stdout)
    if not full_screen:
        from ..hostio.stdin_lines import COMMAND_LINE, line_reader

        return run_script(monitor, line_reader(sys.stdin, COMMAND_LINE), sys.stdout)
    from ..monitor.app import MonitorApp

    return MonitorApp(monitor).run()
