"""``univac-ttt run``: load an image or a sheet, or boot a tape, and run it on the plain console."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..hostio.bounded_input import count_option
from ..launch import EXIT_INTERRUPTED
from .commands import SUMMARIES
from .common import EXIT_ERROR_STOP, EXIT_USAGE
from .options import add_machine_options, machine_options, path

if TYPE_CHECKING:
    from ..desk import Desk
    from ..program.pack import Pack

NAME = "run"
MAX_STEPS_LIMIT = 10**15  # --max-steps: more than a year of UNIVAC time


def add_parser(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser(NAME, help=SUMMARIES[NAME],
                         description="Load a memory image (docs/image-format.md) or a coding "
                                     "sheet (.ucs, assembled first) into a fresh "
                                     "machine and run it from 000; with no FILE, press "
                                     "CLEAR C and INITIAL READ: block 1 of the reel on "
                                     "Uniservo 1 goes to 000-059 and runs. Exit status: 0 "
                                     "normal stop, 1 error stop, 2 bad image, reel or option, "
                                     "74 the output could not be written.")
    run.add_argument("image", nargs="?", type=path, metavar="FILE",
                     help="memory image, or coding sheet (.ucs) (none: boot from the tape "
                          "on Uniservo 1)")
    run.add_argument("--tape", action="append", default=[], metavar="N=FILE[:rw]",
                     help="mount the reel FILE (docs/tape-format.md) on Uniservo N (1-9, or "
                          "- for the tenth); read-only unless :rw, when the reel is saved "
                          "back at the end if the program wrote on it (a missing :rw file "
                          "starts blank); may be given for several units")
    run.add_argument("--plain", action="store_true",
                     help="the plain text console, which run always uses (accepted as "
                          "play takes it; play --image FILE runs an image full screen)")
    run.add_argument("--max-steps", type=count_option(MAX_STEPS_LIMIT), metavar="N",
                     help="stop after N instructions, 1 to 10^15 (guards against runaway "
                          "programs)")
    run.add_argument("--start-after-stop", action="store_true",
                     help="at a normal stop (90), or a ,0 stop with --breakpoint-switch, "
                          "press START at once: note the stop on stderr and go on with the "
                          "next instruction, as the operator did; not at the program's final "
                          "stop (only cleared memory after it)")
    from ..packs.choose import add_program_option

    add_program_option(run, default=None)
    add_machine_options(run)
    run.set_defaults(func=command, reads_stdin=True)


def command(args: argparse.Namespace) -> int:
    from ..console.plain import PlainConsole
    from ..desk import Desk, Limits
    from ..program.sources import ProgramFileError, read_program
    from .programs import pack_from_args

    pack = pack_from_args(args, args.image, default=None)
    if pack is None:
        return EXIT_USAGE
    if pack.folder is not None:
        return _run_pack(args, pack)
    desk_words = None
    if args.image:
        try:
            desk_words = read_program(args.image).words
        except ProgramFileError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    # run has no cap of its own: --max-steps is the guard (Ctrl-C ends it too).
    desk = Desk(desk_words, machine_options(args), Limits(cap=MAX_STEPS_LIMIT))
    mounts = _mount_tapes(desk, args.tape)
    if mounts is None:
        return EXIT_USAGE
    if not args.image:
        stop = desk.boot()  # CLEAR C and INITIAL READ
        if stop is not None:
            sys.stderr.write(f"univac-ttt: {stop.reason} (mount a program tape with "
                             "--tape 1=FILE, or name a memory image)\n")
            return EXIT_USAGE
    console = PlainConsole(desk, sys.stdin, sys.stdout, sys.stderr, args.max_steps,
                           start_after_stop=args.start_after_stop)
    try:
        result = console.run()
    finally:
        saved = _save_written_reels(mounts)
    console.message(f"univac-ttt: {result.summary}")
    return result.exit_code if saved else EXIT_USAGE


def _run_pack(args: argparse.Namespace, pack: Pack) -> int:
    """run --program: the pack's tape booted on Uniservo 1, its reels mounted (a
    write = true reel as a scratch copy), --tape reels on the other units."""
    from ..console.plain import PlainConsole
    from ..desk import Desk, Limits
    from .programs import run_plain, score_keeper

    if any(text.partition("=")[0] == "1" for text in args.tape):
        sys.stderr.write("univac-ttt: --tape: Uniservo 1 holds the program's tape with "
                         "--program; mount reels on 2-9 or -\n")
        return EXIT_USAGE
    desk = Desk(options=machine_options(args), limits=Limits(cap=MAX_STEPS_LIMIT))
    stop = desk.load_tape(pack.boot_tape())
    if stop is not None:
        sys.stderr.write(f"univac-ttt: the program tape did not load: {stop.describe()}\n")
        return EXIT_ERROR_STOP
    for unit, reel in pack.reels().items():
        desk.attach(unit, reel)
    mounts = _mount_tapes(desk, args.tape)
    if mounts is None:
        return EXIT_USAGE
    console = PlainConsole(desk, sys.stdin, sys.stdout, sys.stderr, args.max_steps,
                           start_after_stop=args.start_after_stop)
    keeper = score_keeper(desk, pack)
    try:
        result = run_plain(console, keeper)
    finally:
        saved = _save_written_reels(mounts)
    if result is None:
        return EXIT_INTERRUPTED
    console.message(f"univac-ttt: {result.summary}")
    if keeper is not None:
        console.message(f"univac-ttt: {keeper.line()}")
    return result.exit_code if saved else EXIT_USAGE


def _mount_tapes(desk: Desk, specs: list[str]) -> list | None:
    """Mount every --tape reel, all or none; a list of (spec, reel), None after a message."""
    from ..program.reel import ReelError, TapeSpec

    mounts = []
    units: set[int] = set()
    for text in specs:
        try:
            spec = TapeSpec(text)
            if spec.unit in units:
                raise ValueError(f"Uniservo {text.partition('=')[0]} is given twice")
            units.add(spec.unit)
            mounts.append((spec, spec.load()))
        except (ValueError, ReelError) as exc:
            sys.stderr.write(f"univac-ttt: --tape {exc}\n")
            return None
    for spec, reel in mounts:
        desk.attach(spec.unit, reel)
    return mounts


def _save_written_reels(mounts: list) -> bool:
    """Save back each writable reel the program wrote on; False if one could not be."""
    from ..program.reel import save_reel

    ok = True
    for spec, reel in mounts:
        if spec.writable and reel.written:
            try:
                save_reel(reel, spec.path, "written by univac-ttt run")
            except OSError as exc:
                sys.stderr.write(f"univac-ttt: cannot save the reel {spec.path}: {exc}\n")
                ok = False
    return ok
