"""The ``univac-ttt`` command: one entry point, one subcommand per way of using the UNIVAC."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .machine import Machine, MachineOptions

EXIT_OK, EXIT_ERROR_STOP, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
COMMANDS = ("play", "run", "verify", "monitor", "kiosk", "serve")
SCRIPT_LIMIT = 1_000_000  # bytes of a monitor script


class _Parser(argparse.ArgumentParser):
    """argparse that says what was wrong in one line and exits 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"univac-ttt: {message}\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _add_machine_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("machine options (docs/fidelity.md explains each)")
    group.add_argument("--transfer-skips-right", action="store_true",
                       help="a transfer in the left half skips the right half (U1; "
                            "default: the right half still runs)")
    group.add_argument("--overflow", choices=["transfer", "stop"], default="transfer",
                       help="on adder overflow transfer to 000 (default) or stop (U9)")
    group.add_argument("--timing", choices=["latency", "average"], default="latency",
                       help="operand waits from delay-line positions (default) or 222 us each")
    group.add_argument("--breakpoint-switch", action="store_true",
                       help="set the console switch that makes ,0 stop")


def _machine_options(args: argparse.Namespace) -> MachineOptions:
    return MachineOptions(
        right_half_after_transfer=not args.transfer_skips_right,
        overflow=args.overflow,
        timing=args.timing,
        breakpoint_switch=args.breakpoint_switch,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="univac-ttt",
        description="A UNIVAC I (1951) emulator playing Tom Gildersleeve's tic-tac-toe. "
                    "With no command, starts a game.",
    )
    parser.add_argument("--version", action="version", version=f"univac-ttt {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser("play", help="play tic-tac-toe against the UNIVAC (the default)",
                          description="Play tic-tac-toe against the UNIVAC. You are X and "
                                      "move first: type a square code 1-9 (1 top left, "
                                      "9 bottom right) and press Enter.")
    play.add_argument("--plain", action="store_true",
                      help="plain text on stdout, prompt '> ' at each keyboard wait (also "
                           "chosen when stdin or stdout is not a terminal)")
    play.add_argument("--speed", choices=["fast", "authentic"], default="fast",
                      help="how the typewriter types: at once (default) or at about 10 "
                           "characters a second, as the SC printer did (F3 toggles)")
    play.add_argument("--transcript", metavar="FILE",
                      help="append the printer paper of the whole session to FILE")
    play.add_argument("--image", metavar="FILE",
                      help="run this memory image instead of the tic-tac-toe program")
    _add_machine_options(play)

    run = sub.add_parser("run", help="load a memory image and run it",
                         description="Load a memory image (docs/image-format.md) into a fresh "
                                     "machine and run it from 000. Exit status: 0 normal "
                                     "stop, 1 error stop, 2 bad image or option.")
    run.add_argument("image", help="memory image file")
    run.add_argument("--plain", action="store_true",
                     help="plain text console (the only one for images so far)")
    run.add_argument("--max-steps", type=_positive_int, metavar="N",
                     help="stop after N instructions (guards against runaway programs)")
    _add_machine_options(run)

    monitor = sub.add_parser("monitor", help="step through memory: the lecture monitor",
                             description="The lecture monitor: examine, step, break and go "
                                         "back through a program in memory, in SIMH's "
                                         "command language (type help inside). With no "
                                         "IMAGE, the tic-tac-toe program.")
    monitor.add_argument("image", nargs="?",
                         help="a memory image, or a coding sheet (.ucs) for labels and remarks")
    monitor.add_argument("--script", metavar="FILE",
                         help="run the monitor commands in FILE as plain text and exit "
                              "(also done with commands on stdin when it is not a terminal)")
    _add_machine_options(monitor)

    kiosk = sub.add_parser("kiosk", help="unattended museum kiosk",
                           description="Run the console as an unattended museum kiosk: "
                                       "large board, demonstrations when idle, locked keys, "
                                       "a printout file per game and a daily tally. Staff "
                                       "leave with F12 and the PIN.")
    kiosk.add_argument("--pin", help="staff PIN (or set UNIVAC_TTT_STAFF_PIN)")
    kiosk.add_argument("--idle", type=_positive_int, default=60, metavar="SECONDS",
                       help="seconds without a key before demonstrations start and an "
                            "unfinished game is abandoned (default 60)")
    kiosk.add_argument("--speed", choices=["fast", "authentic"], default="authentic",
                       help="typewriter speed (default authentic)")
    kiosk.add_argument("--data", metavar="DIR",
                       help="folder for printouts/, tally.json and kiosk.log (default "
                            "$UNIVAC_TTT_DATA or ~/.local/share/univac-ttt)")
    kiosk.add_argument("--printouts", metavar="DIR", help="folder for the game printouts")
    kiosk.add_argument("--stats", metavar="FILE", help="the daily tally file")
    kiosk.add_argument("--log", metavar="FILE", help="the kiosk's log file")

    serve = sub.add_parser(
        "serve", help="a UNIVAC for every terminal of a class (telnet/SSH)",
        description="Serve a class or an exhibit: every telnet or SSH connection gets its own "
                    "UNIVAC with the full-screen console (or the lecture monitor). Listens on "
                    "127.0.0.1 unless a host is named. WARNING: telnet is plain text on the "
                    "wire, passwords and all; use it only on a network you trust, or use --ssh. "
                    "Ctrl-C or SIGTERM says goodbye on every terminal and exits 0. "
                    "docs/lecture.md and docs/museum.md show how to run one.")
    serve.add_argument("--telnet", metavar="[HOST:]PORT",
                       help="listen for telnet clients (plain text on the wire)")
    serve.add_argument("--ssh", metavar="[HOST:]PORT",
                       help="listen for SSH clients (needs the ssh extra: "
                            "pip install 'univac-ttt[ssh]'); the host key is made in --data")
    serve.add_argument("--app", choices=["play", "monitor"], default="play",
                       help="what each terminal gets: the game console (default) or the "
                            "lecture monitor")
    serve.add_argument("--max-clients", type=_positive_int, default=40, metavar="N",
                       help="terminals at once; the next one is told the class is full "
                            "(default 40)")
    serve.add_argument("--idle", type=_positive_int, default=600, metavar="SECONDS",
                       help="close a terminal politely after this long without a key "
                            "(default 600)")
    serve.add_argument("--password-file", metavar="FILE",
                       help="a shared class password for SSH, on the file's first line "
                            "(default: no password; never a system login)")
    serve.add_argument("--data", metavar="DIR",
                       help="folder for the SSH host key and transcripts (default "
                            "$UNIVAC_TTT_DATA or ~/.local/share/univac-ttt)")
    serve.add_argument("--transcripts", action="store_true",
                       help="keep each terminal's paper in DIR/transcripts/")
    serve.add_argument("--speed", choices=["fast", "authentic"], default="fast",
                       help="typewriter speed on every terminal (default fast)")

    verify = sub.add_parser("verify", help="prove the program plays perfectly",
                            description="Play every opponent strategy against the program "
                                        "in emulated memory and check each game against "
                                        "an exact alpha-beta solver.")
    verify.add_argument("--search", action="store_true",
                        help="also report the game's size and the nodes that minimax and "
                             "alpha-beta (plain, ordered, with a table, iterative deepening) "
                             "visit from the empty board (about two seconds more)")
    verify.add_argument("sheet", nargs="?",
                        help="a coding sheet (.ucs) to judge instead of the shipped program, "
                             "e.g. one with the element table reordered")
    _add_machine_options(verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0] not in COMMANDS and words[0] not in ("-h", "--help", "--version")):
        words.insert(0, "play")  # no command: start a game
    args = parser.parse_args(words)
    command = args.command
    try:
        if command == "run":
            return _cmd_run(args)
        if command == "play":
            return _cmd_play(args)
        if command == "verify":
            return _cmd_verify(args)
        if command == "monitor":
            return _cmd_monitor(args)
        if command == "kiosk":
            return _cmd_kiosk(args)
        if command == "serve":
            return _cmd_serve(args)
    except KeyboardInterrupt:
        sys.stderr.write("\nunivac-ttt: interrupted\n")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last guard: no traceback reaches a user
        sys.stderr.write(f"univac-ttt: internal error ({type(exc).__name__}: {exc}); "
                         "please report it\n")
        return EXIT_INTERNAL
    parser.error(f"unknown command {command!r}")
    return EXIT_USAGE


def _cmd_run(args: argparse.Namespace) -> int:
    from .console.plain import PlainConsole
    from .program.image import ImageError, read_image

    try:
        image = read_image(args.image)
    except ImageError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    machine = Machine(_machine_options(args))
    machine.load(image.words)
    console = PlainConsole(machine, sys.stdin, sys.stdout, sys.stderr, args.max_steps)
    result = console.run()
    sys.stderr.write(f"univac-ttt: {result.summary}\n")
    return result.exit_code


def _program_words(args: argparse.Namespace) -> dict[int, str] | None:
    """The words to load for play: the shipped program or --image; None after a message."""
    from .program.image import ImageError, read_image
    from .program.shipped import ProgramError, load_tictactoe

    try:
        if args.image:
            return read_image(args.image).words
        return load_tictactoe().image.words
    except (ImageError, ProgramError) as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return None


def _cmd_play(args: argparse.Namespace) -> int:
    words = _program_words(args)
    if words is None:
        return EXIT_USAGE
    if args.plain or not _full_screen_possible():
        return _play_plain(args, words)
    return _play_console(args, words)


def _full_screen_possible() -> bool:
    """A real terminal on both ends that can address the screen (not TERM=dumb)."""
    import os

    term = os.environ.get("TERM", "")
    return sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")


def _play_plain(args: argparse.Namespace, words: dict[int, str]) -> int:
    from .console.plain import PlainConsole
    from .console.transcript import Transcript, TranscriptError

    transcript = None
    if args.transcript:
        try:
            transcript = Transcript(Path(args.transcript))
        except TranscriptError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    machine = Machine(_machine_options(args))
    machine.load(words)
    console = PlainConsole(machine, sys.stdin, sys.stdout, sys.stderr)
    if transcript is not None:
        console.also_print_to(transcript.write)
    try:
        result = console.run()
    finally:
        if transcript is not None:
            transcript.close()
    if result.stop is not None:
        sys.stderr.write(f"univac-ttt: the program stopped: {result.summary}\n")
    return result.exit_code


def _play_console(args: argparse.Namespace, words: dict[int, str]) -> int:
    from .console.app import ConsoleApp, ConsoleSettings
    from .console.session import GameSession
    from .console.transcript import TranscriptError

    options = _machine_options(args)
    settings = ConsoleSettings(authentic=args.speed == "authentic",
                               transcript=Path(args.transcript) if args.transcript else None)
    try:
        console = ConsoleApp(lambda on_print: GameSession(words, options, on_print), settings)
    except TranscriptError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    return console.run()


def _cmd_monitor(args: argparse.Namespace) -> int:
    from .monitor.core import Monitor
    from .monitor.script import run_script
    from .program.assembler import AssemblyError, assemble_file
    from .program.image import ImageError, read_image
    from .program.shipped import ProgramError, load_tictactoe

    try:
        if args.image is None:
            shipped = load_tictactoe()
            words, program = shipped.image.words, shipped.program
        elif args.image.endswith(".ucs"):
            program = assemble_file(args.image)
            words = program.image.words
        else:
            words, program = read_image(args.image).words, None
    except (AssemblyError, ImageError, ProgramError) as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    monitor = Monitor(words, program, _machine_options(args))
    if args.script:
        from .textfile import TextFileError, read_text_file

        try:
            lines = read_text_file(args.script, SCRIPT_LIMIT).split("\n")
        except TextFileError as exc:
            sys.stderr.write(f"univac-ttt: the script {args.script} {exc.reason}\n")
            return EXIT_USAGE
        return run_script(monitor, lines, sys.stdout)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return run_script(monitor, sys.stdin, sys.stdout)
    from .monitor.app import MonitorApp

    return MonitorApp(monitor).run()


def _data_folder(args: argparse.Namespace) -> Path:
    import os

    if args.data:
        return Path(args.data)
    if os.environ.get("UNIVAC_TTT_DATA"):
        return Path(os.environ["UNIVAC_TTT_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "univac-ttt"


def _cmd_kiosk(args: argparse.Namespace) -> int:
    import os

    from .kiosk.app import KioskApp
    from .kiosk.controller import Kiosk, KioskSettings
    from .kiosk.supervisor import lock_signals, setup_logging, supervise
    from .program.shipped import ProgramError, load_tictactoe

    pin = args.pin or os.environ.get("UNIVAC_TTT_STAFF_PIN", "")
    if not pin:
        sys.stderr.write("univac-ttt: the kiosk needs a staff PIN: --pin PIN or "
                         "UNIVAC_TTT_STAFF_PIN (docs/museum.md)\n")
        return EXIT_USAGE
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write("univac-ttt: the kiosk needs a terminal\n")
        return EXIT_USAGE
    try:
        shipped = load_tictactoe()
    except ProgramError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    data = _data_folder(args)
    try:
        setup_logging(Path(args.log) if args.log else data / "kiosk.log")
    except OSError as exc:
        sys.stderr.write(f"univac-ttt: cannot write the kiosk log: {exc}\n")
        return EXIT_USAGE
    settings = KioskSettings(
        pin=pin, idle_seconds=float(args.idle), authentic=args.speed == "authentic",
        printouts=Path(args.printouts) if args.printouts else data / "printouts",
        stats=Path(args.stats) if args.stats else data / "tally.json")
    lock_signals()
    return supervise(lambda: KioskApp(Kiosk(shipped.image.words, shipped.program, settings)))


def _cmd_serve(args: argparse.Namespace) -> int:
    from .serve.main import serve_from_args

    return serve_from_args(args, _data_folder(args))


def _cmd_verify(args: argparse.Namespace) -> int:
    from .program.assembler import AssemblyError, assemble_file
    from .verify.referee import RefereeError, run_verification

    program = None
    if args.sheet:
        try:
            program = assemble_file(args.sheet)
        except AssemblyError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    try:
        status = run_verification(_machine_options(args), sys.stdout, program)
        if args.search:
            from .verify.solver import search_report

            sys.stdout.write("\n" + search_report() + "\n")
        return status
    except RefereeError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
