"""``univac-ttt kiosk``: the unattended museum kiosk, under its supervisor."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import __version__
from ..hostio.bounded_input import count_option
from .commands import SUMMARIES
from .common import EXIT_USAGE, IDLE_LIMIT, writable
from .options import data_folder, path

NAME = "kiosk"
IDLE_DEFAULT = 60  # seconds: the one default of the kiosk's idle time (KioskSettings has none)


def add_parser(sub: argparse._SubParsersAction) -> None:
    kiosk = sub.add_parser(NAME, help=SUMMARIES[NAME],
                           description="Run the console as an unattended museum kiosk: "
                                       "large board, demonstrations when idle, locked keys, "
                                       "a printout file per game and a daily tally. Staff "
                                       "leave with F12 and the PIN.")
    kiosk.add_argument("--pin", help="staff PIN, at least 4 characters (or set "
                       "UNIVAC_TTT_STAFF_PIN); wrong PINs lock it for a while")
    kiosk.add_argument("--idle", type=count_option(IDLE_LIMIT), default=IDLE_DEFAULT,
                       metavar="SECONDS",
                       help="seconds without a key before demonstrations start and an "
                            f"unfinished game is abandoned (default {IDLE_DEFAULT}, at most "
                            f"{IDLE_LIMIT})")
    kiosk.add_argument("--speed", choices=["fast", "authentic"], default="authentic",
                       help="typewriter speed (default authentic)")
    kiosk.add_argument("--data", metavar="DIR", type=path,
                       help="folder for printouts/, tally.json and kiosk.log (default "
                            "$UNIVAC_TTT_DATA or ~/.local/share/univac-ttt)")
    kiosk.add_argument("--printouts", metavar="DIR", type=path,
                       help="folder for the game printouts")
    kiosk.add_argument("--stats", metavar="FILE", type=path, help="the daily tally file")
    kiosk.add_argument("--log", metavar="FILE", type=path, help="the kiosk's log file")
    kiosk.set_defaults(func=command, reads_stdin=True)


def command(args: argparse.Namespace) -> int:
    import os

    from ..kiosk.app import KioskApp
    from ..kiosk.supervisor import lock_signals, log_kiosk_start, setup_logging, supervise
    from ..museum.controller import Kiosk, KioskSettings, pin_refusal
    from ..packs.tictactoe import fresh_tictactoe_tape, load_tictactoe, load_tictactoe_tape
    from ..program.shipped import ProgramError

    pin = args.pin or os.environ.get("UNIVAC_TTT_STAFF_PIN", "")
    refusal = pin_refusal(pin)
    if refusal:
        sys.stderr.write(f"univac-ttt: {refusal}\n")
        return EXIT_USAGE
    data = data_folder(args)
    log_path = Path(args.log) if args.log is not None else data / "kiosk.log"
    stats_path = Path(args.stats) if args.stats is not None else data / "tally.json"
    for what, where in (("the log", log_path), ("the tally", stats_path)):
        if not writable(what, str(where)):
            return EXIT_USAGE
    printouts = Path(args.printouts) if args.printouts is not None else data / "printouts"
    refusal = printouts_refusal(printouts)
    if refusal:  # else every game's printout was lost, into the log
        sys.stderr.write(f"univac-ttt: {refusal}\n")
        return EXIT_USAGE
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write("univac-ttt: the kiosk needs a terminal\n")
        return EXIT_USAGE
    try:
        shipped = load_tictactoe()
        load_tictactoe_tape()  # the tape each game boots from: checked before the screen
    except ProgramError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    try:
        setup_logging(log_path)
    except OSError as exc:
        sys.stderr.write(f"univac-ttt: cannot write the kiosk log {log_path}: "
                         f"{exc.strerror or exc}\n")
        return EXIT_USAGE
    settings = KioskSettings(
        pin=pin, idle_seconds=float(args.idle), authentic=args.speed == "authentic",
        printouts=printouts,
        stats=stats_path)
    lock_signals()
    log_kiosk_start(settings, data, __version__)
    return supervise(lambda: KioskApp(Kiosk(shipped.image.words, shipped.program, settings,
                                            fresh_tictactoe_tape())),
                     report=lambda message: sys.stderr.write(f"univac-ttt: {message}\n"))


def printouts_refusal(folder: Path) -> str | None:
    """Why no printout can be written in ``folder`` (made here when missing), or None: a
    file or device in its place, a read-only disk, a folder without permission, /proc."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass  # a printout can be made there
    except OSError as exc:
        return f"the printouts folder {folder} cannot be written: {exc.strerror or exc}"
    return None
