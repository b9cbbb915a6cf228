"""The ``univac-ttt`` command: one entry point, one subcommand per way of using the UNIVAC."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .limits import count_option
from .machine import MachineOptions
from .textfile import TextFileError, check_path, check_write_target
from .tui.ending import SessionEnded
from .wording import count

if TYPE_CHECKING:
    from .desk import Desk
    from .desk.transcript import Transcript
    from .machine.tape import Reel
    from .serve.apps import AppFactory

EXIT_OK, EXIT_ERROR_STOP, EXIT_USAGE, EXIT_INTERNAL, EXIT_OUTPUT = 0, 1, 2, 70, 74
MAX_STEPS_LIMIT = 10**15  # --max-steps: more than a year of UNIVAC time
IDLE_LIMIT = 86_400  # --idle: one day
MAX_CLIENTS_LIMIT = 1_000  # serve --max-clients: a file descriptor or more each
COMMANDS = ("play", "run", "verify", "monitor", "kiosk", "tape", "assemble", "serve")
SCRIPT_LIMIT = 1_000_000  # bytes of a monitor script
INTERACTIVE_CAP = 1_000_000_000  # instructions a full-screen monitor run may take


class _Parser(argparse.ArgumentParser):
    """argparse that says what was wrong in one line and exits 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"univac-ttt: {message}\n")


def _path(text: str) -> str:
    """An argparse type: a file name that can exist (not empty, no NUL)."""
    try:
        check_path(text)
    except TextFileError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} {exc.reason}") from None
    return text


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
    group.add_argument("--tape-write-unaligned", action="store_true",
                       help="5n/7n write from m as written (default: the last digit of m "
                            "is ignored, as for the rI transfers)")
    group.add_argument("--tape-overwrite", choices=["truncate", "keep"], default="truncate",
                       help="a write ends the tape there (default) or keeps the blocks "
                            "after it readable")


def _machine_options(args: argparse.Namespace) -> MachineOptions:
    return MachineOptions(
        right_half_after_transfer=not args.transfer_skips_right,
        overflow=args.overflow,
        timing=args.timing,
        breakpoint_switch=args.breakpoint_switch,
        tape_write_aligned=not args.tape_write_unaligned,
        tape_overwrite=args.tape_overwrite,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="univac-ttt",
        description="A UNIVAC I (1951) emulator playing Tom Gildersleeve's tic-tac-toe. "
                    "With no command, starts a game.",
        epilog="A full-screen session (play, monitor) ended from outside restores the "
               "terminal first, then exits with status 143 (SIGTERM), 129 (SIGHUP) or 74 "
               "(the terminal went away).",
    )
    parser.add_argument("--version", action="version", version=f"univac-ttt {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser("play", help="play tic-tac-toe against the UNIVAC (the default)",
                          description="Play tic-tac-toe against the UNIVAC. You are X and "
                                      "move first: type a square code 1-9 (1 top left, "
                                      "9 bottom right) and press Enter. Each game boots "
                                      "the program tape tictactoe.tape (or one made "
                                      "from --image) by CLEAR C and INITIAL READ on "
                                      "Uniservo 1. A program that "
                                      "runs 5,000,000 instructions without waiting for "
                                      "the keyboard is stopped (exit status 1).")
    play.add_argument("--plain", action="store_true",
                      help="plain text on stdout, prompt '> ' at each keyboard wait (also "
                           "chosen when stdin or stdout is not a terminal)")
    play.add_argument("--speed", choices=["fast", "authentic"], default="fast",
                      help="how the typewriter types: at once (default) or at about 10 "
                           "characters a second, as the SC printer did (F3 toggles; with "
                           "--plain the output is paced too)")
    play.add_argument("--transcript", metavar="FILE", type=_path,
                      help="append the printer paper of the whole session to FILE")
    play.add_argument("--image", metavar="FILE", type=_path,
                      help="run this memory image instead of the tic-tac-toe program")
    _add_machine_options(play)

    run = sub.add_parser("run", help="load an image or a sheet, or boot a tape, and run it",
                         description="Load a memory image (docs/image-format.md) or a coding "
                                     "sheet (.ucs, assembled first) into a fresh "
                                     "machine and run it from 000; with no IMAGE, press "
                                     "CLEAR C and INITIAL READ: block 1 of the reel on "
                                     "Uniservo 1 goes to 000-059 and runs. Exit status: 0 "
                                     "normal stop, 1 error stop, 2 bad image, reel or option, "
                                     "74 the output could not be written.")
    run.add_argument("image", nargs="?", type=_path,
                     help="memory image, or coding sheet (.ucs) (none: boot from the tape "
                          "on Uniservo 1)")
    run.add_argument("--tape", action="append", default=[], metavar="N=FILE[:rw]",
                     help="mount the reel FILE (docs/tape-format.md) on Uniservo N (1-9, or "
                          "- for the tenth); read-only unless :rw, when the reel is saved "
                          "back at the end if the program wrote on it (a missing :rw file "
                          "starts blank); may be given for several units")
    run.add_argument("--plain", action="store_true",
                     help="plain text console (the only one for images so far)")
    run.add_argument("--max-steps", type=count_option(MAX_STEPS_LIMIT), metavar="N",
                     help="stop after N instructions, 1 to 10^15 (guards against runaway "
                          "programs)")
    run.add_argument("--start-after-stop", action="store_true",
                     help="at a normal stop (90), or a ,0 stop with --breakpoint-switch, "
                          "press START at once: note the stop on stderr and go on with the "
                          "next instruction, as the operator did")
    _add_machine_options(run)

    monitor = sub.add_parser("monitor", help="step through memory: the lecture monitor",
                             description="The lecture monitor: examine, step, break and go "
                                         "back through a program in memory, in SIMH's "
                                         "command language (type help inside). With no "
                                         "IMAGE, the tic-tac-toe program, with its program "
                                         "tape on Uniservo 1 (boot loads it; attach and "
                                         "detach mount reels). Ctrl-C stops a "
                                         "run; under --script a run stops after 5,000,000 "
                                         "instructions. While the UNIVAC waits for its "
                                         "keyboard, a line goes to it and a command starts "
                                         "with ':' (docs/lecture.md).")
    monitor.add_argument("image", nargs="?", type=_path,
                         help="a memory image, or a coding sheet (.ucs) for labels and remarks")
    monitor.add_argument("--log", metavar="FILE", type=_path,
                         help="append the session (each command and what it printed) to "
                              "FILE, as the command log FILE does")
    monitor.add_argument("--script", metavar="FILE", type=_path,
                         help="run the monitor commands in FILE as plain text and exit "
                              "(also done with commands on stdin when it is not a terminal)")
    _add_machine_options(monitor)

    kiosk = sub.add_parser("kiosk", help="unattended museum kiosk",
                           description="Run the console as an unattended museum kiosk: "
                                       "large board, demonstrations when idle, locked keys, "
                                       "a printout file per game and a daily tally. Staff "
                                       "leave with F12 and the PIN.")
    kiosk.add_argument("--pin", help="staff PIN, at least 4 characters (or set "
                       "UNIVAC_TTT_STAFF_PIN); wrong PINs lock it for a while")
    kiosk.add_argument("--idle", type=count_option(IDLE_LIMIT), default=60, metavar="SECONDS",
                       help="seconds without a key before demonstrations start and an "
                            "unfinished game is abandoned (default 60, at most 86400)")
    kiosk.add_argument("--speed", choices=["fast", "authentic"], default="authentic",
                       help="typewriter speed (default authentic)")
    kiosk.add_argument("--data", metavar="DIR", type=_path,
                       help="folder for printouts/, tally.json and kiosk.log (default "
                            "$UNIVAC_TTT_DATA or ~/.local/share/univac-ttt)")
    kiosk.add_argument("--printouts", metavar="DIR", type=_path,
                       help="folder for the game printouts")
    kiosk.add_argument("--stats", metavar="FILE", type=_path, help="the daily tally file")
    kiosk.add_argument("--log", metavar="FILE", type=_path, help="the kiosk's log file")

    serve = sub.add_parser(
        "serve", help="a UNIVAC for every terminal or browser tab of a class (telnet/SSH/web)",
        description="Serve a class or an exhibit: every telnet or SSH connection gets its own "
                    "UNIVAC with the full-screen console (or the lecture monitor), and every "
                    "browser tab (--web) its own UNIVAC on a page. Listens on "
                    "127.0.0.1 unless a host is named. WARNING: telnet is plain text on the "
                    "wire, passwords and all; use it only on a network you trust, or use --ssh. "
                    "Ctrl-C or SIGTERM says goodbye on every terminal and exits 0. "
                    "docs/lecture.md and docs/museum.md show how to run one.")
    serve.add_argument("--telnet", metavar="[HOST:]PORT",
                       help="listen for telnet clients (plain text on the wire)")
    serve.add_argument("--ssh", metavar="[HOST:]PORT",
                       help="listen for SSH clients (needs the ssh extra: "
                            "pip install 'univac-ttt[ssh]'); the host key is made in --data")
    serve.add_argument("--web", metavar="[HOST:]PORT",
                       help="serve the browser page and a UNIVAC for each tab (plain HTTP)")
    serve.add_argument("--kiosk", action="store_true",
                       help="with --web: museum mode (demonstrations when idle, captions, the "
                            "daily tally and printouts in --data, staff exit with the PIN)")
    serve.add_argument("--pin", help="with --kiosk: the staff PIN, at least 4 characters "
                                     "(or set UNIVAC_TTT_STAFF_PIN)")
    serve.add_argument("--app", choices=["play", "monitor"], default="play",
                       help="what each terminal gets: the game console (default) or the "
                            "lecture monitor")
    serve.add_argument("--max-clients", type=count_option(MAX_CLIENTS_LIMIT), default=40,
                       metavar="N", help="terminals at once; the next one is told the class "
                                         "is full (default 40, at most 1000)")
    serve.add_argument("--idle", type=count_option(IDLE_LIMIT), metavar="SECONDS",
                       help="close a terminal or tab politely after this long without a key "
                            "(default 600, at most 86400); with --kiosk, the seconds before "
                            "the demonstrations start (default 60)")
    serve.add_argument("--password-file", metavar="FILE", type=_path,
                       help="a shared class password for SSH and the web page, on the "
                            "file's first line "
                            "(default: no password; never a system login)")
    serve.add_argument("--data", metavar="DIR", type=_path,
                       help="folder for the SSH host key and transcripts (default "
                            "$UNIVAC_TTT_DATA or ~/.local/share/univac-ttt)")
    serve.add_argument("--transcripts", action="store_true",
                       help="keep each terminal's paper in DIR/transcripts/")
    serve.add_argument("--speed", choices=["fast", "authentic"],
                       help="typewriter speed on every terminal (default fast) and page "
                            "(default authentic)")

    verify = sub.add_parser("verify", help="prove the program plays perfectly",
                            description="Play every opponent strategy against the program "
                                        "in emulated memory and check each game against "
                                        "an exact alpha-beta solver.")
    verify.add_argument("--search", action="store_true",
                        help="also report the game's size and the nodes that minimax and "
                             "alpha-beta (plain, ordered, with a table, iterative deepening) "
                             "visit from the empty board (about two seconds more)")
    verify.add_argument("sheet", nargs="?", type=_path,
                        help="a coding sheet (.ucs) to judge instead of the shipped program, "
                             "e.g. one with the element table reordered (or a memory image, "
                             "when its board is at the shipped program's BRD)")
    _add_machine_options(verify)

    assemble = sub.add_parser("assemble", help="assemble a coding sheet into a memory image",
                              description="Assemble a coding sheet (docs/coding-sheet.md) and "
                                          "print its listing: address, word, the two "
                                          "instructions, label and remark. With -o, also "
                                          "write the memory image (docs/image-format.md). "
                                          "Exit status 2 on the first error, with its line.")
    assemble.add_argument("sheet", type=_path, help="coding sheet")
    assemble.add_argument("-o", "--output", metavar="IMAGE", type=_path,
                          help="write the memory image to IMAGE (replaced atomically)")
    assemble.add_argument("--quiet", action="store_true", help="no listing")

    tape = sub.add_parser("tape", help="make, list and compare tape reels",
                          description="Reel files (docs/tape-format.md): make a program tape "
                                      "that loads itself by INITIAL READ, list a reel's "
                                      "blocks, or compare two reels (exit 1 if they differ).")
    tape_sub = tape.add_subparsers(dest="tape_command", metavar="ACTION", required=True,
                                   parser_class=_Parser)
    make = tape_sub.add_parser("make", help="a program tape: the loader, then the memory",
                               description="Write a program tape for a memory image or a "
                                           "coding sheet (.ucs): block 1 is the loader "
                                           "(loader.ucs), blocks 2-18 the whole memory.")
    make.add_argument("source", type=_path, help="memory image, or coding sheet ending in .ucs")
    make.add_argument("-o", "--output", required=True, metavar="FILE",
                      help="the reel file to write (replaced atomically)")
    listing = tape_sub.add_parser("list", help="one line a block of a reel")
    listing.add_argument("reel", type=_path, help="reel file")
    compare = tape_sub.add_parser("compare", help="compare two reels word for word")
    compare.add_argument("first", type=_path, help="reel file")
    compare.add_argument("second", type=_path, help="reel file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0] not in COMMANDS and words[0] not in ("-h", "--help", "--version")):
        words.insert(0, "play")  # no command: start a game
    _prepare_streams()
    args = parser.parse_args(words)
    command = args.command
    closed = _closed_stream(args)
    if closed:
        sys.stderr.write(f"univac-ttt: {closed} is closed; {command} needs it\n")
        return EXIT_USAGE
    try:
        code = _dispatch(args)
        if code is not None:
            sys.stdout.flush()
            return code
    except KeyboardInterrupt:
        sys.stderr.write("\nunivac-ttt: interrupted\n")
        return 130
    except SessionEnded as ended:  # SIGTERM, SIGHUP, a closed terminal: screen restored
        _say_quietly(f"univac-ttt: {ended}\n")
        return ended.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as exc:  # stdout on a full disk or /dev/full, a broken terminal
        _silence_stdout()
        _say_quietly(f"univac-ttt: input/output failed ({exc.strerror or exc})\n")
        return EXIT_OUTPUT
    except Exception as exc:  # noqa: BLE001 - the last guard: no traceback reaches a user
        sys.stderr.write(f"univac-ttt: internal error ({type(exc).__name__}: {exc}); "
                         "please report it\n")
        return EXIT_INTERNAL
    parser.error(f"unknown command {command!r}")
    return EXIT_USAGE


def _dispatch(args: argparse.Namespace) -> int | None:
    command = args.command
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
    if command == "tape":
        return _cmd_tape(args)
    if command == "assemble":
        return _cmd_assemble(args)
    if command == "serve":
        return _cmd_serve(args)
    return None


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
    """'standard output' or 'standard input' if the command needs one that is closed."""
    if sys.stdout is None:
        return "standard output"
    reads_stdin = args.command in ("play", "run", "kiosk") or (
        args.command == "monitor" and args.script is None)
    if reads_stdin and sys.stdin is None:
        return "standard input"
    return ""


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


def _cmd_run(args: argparse.Namespace) -> int:
    from .console.plain import PlainConsole
    from .desk import Desk, Limits
    from .program.sources import ProgramFileError, read_program

    desk_words = None
    if args.image:
        try:
            desk_words = read_program(args.image).words
        except ProgramFileError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    # run has no cap of its own: --max-steps is the guard (Ctrl-C ends it too).
    desk = Desk(desk_words, _machine_options(args), Limits(cap=10**15))
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


def _mount_tapes(desk: Desk, specs: list[str]) -> list | None:
    """Mount every --tape reel, all or none; a list of (spec, reel), None after a message."""
    from .program.reel import ReelError, TapeSpec

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
    from .program.reel import save_reel

    ok = True
    for spec, reel in mounts:
        if spec.writable and reel.written:
            try:
                save_reel(reel, spec.path, "written by univac-ttt run")
            except OSError as exc:
                sys.stderr.write(f"univac-ttt: cannot save the reel {spec.path}: {exc}\n")
                ok = False
    return ok


def _cmd_tape(args: argparse.Namespace) -> int:
    from .program.assembler import AssemblyError
    from .program.image import ImageError
    from .program.reel import ReelError, read_reel
    from .program.shipped import ProgramError
    from .program.tapetool import compare_reels, list_reel, make_tape

    try:
        if args.tape_command == "make":
            print(make_tape(args.source, args.output))
            return EXIT_OK
        if args.tape_command == "list":
            print(list_reel(read_reel(args.reel)))
            return EXIT_OK
        same, report = compare_reels(read_reel(args.first), read_reel(args.second))
        print(report)
        return EXIT_OK if same else EXIT_ERROR_STOP
    except (AssemblyError, ImageError, ReelError, ProgramError) as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
    except OSError as exc:
        sys.stderr.write(f"univac-ttt: cannot write {args.output}: "
                         f"{exc.strerror or exc}\n")
    return EXIT_USAGE


def _program_words(args: argparse.Namespace) -> tuple[dict[int, str], Reel] | None:
    """The words play runs and the program tape that loads them (the shipped
    tictactoe.tape, or a tape made from --image with the loader); None after a message."""
    from .program.boottape import boot_reel, fresh_tictactoe_tape
    from .program.image import ImageError, read_image
    from .program.shipped import ProgramError, load_tictactoe

    try:
        if args.image is not None:
            words = read_image(args.image).words
            return words, boot_reel(words, Path(args.image).name)
        return load_tictactoe().image.words, fresh_tictactoe_tape()
    except (ImageError, ProgramError) as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return None


def _cmd_play(args: argparse.Namespace) -> int:
    loaded = _program_words(args)
    if loaded is None:
        return EXIT_USAGE
    words, tape = loaded
    if args.plain or not _full_screen_possible():
        return _play_plain(args, tape)
    return _play_console(args, words, tape)


def _full_screen_possible() -> bool:
    """A real terminal on both ends that can address the screen (not TERM=dumb)."""
    import os

    term = os.environ.get("TERM", "")
    return sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")


def _play_plain(args: argparse.Namespace, tape: Reel) -> int:
    from .console.plain import PlainConsole
    from .desk import Desk
    from .desk.transcript import Transcript, TranscriptError

    if args.transcript is not None and not _writable("the transcript", args.transcript):
        return EXIT_USAGE
    transcript = None
    if args.transcript is not None:
        try:
            transcript = Transcript(Path(args.transcript))
        except TranscriptError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    desk = Desk(options=_machine_options(args))
    stop = desk.load_tape(tape)  # the tape on Uniservo 1, CLEAR C, INITIAL READ
    if stop is not None:
        sys.stderr.write(f"univac-ttt: the program tape did not load: {stop.describe()}\n")
        if transcript is not None:
            transcript.close()
        return EXIT_ERROR_STOP
    console = PlainConsole(desk, sys.stdin, sys.stdout, sys.stderr,
                           authentic=args.speed == "authentic")
    if transcript is not None:
        console.also_print_to(_reporting(transcript))
    try:
        result = console.run()
    finally:
        if transcript is not None:
            transcript.close()
    if result.stop is not None:
        console.message(f"univac-ttt: the program stopped: {result.summary}")
    if transcript is not None and transcript.error:
        return EXIT_OUTPUT
    return result.exit_code


def _writable(what: str, path: str) -> bool:
    """False, after a message, if ``path`` exists and is not a regular file (a FIFO)."""
    try:
        check_write_target(path)
    except TextFileError as exc:
        sys.stderr.write(f"univac-ttt: {what} {path} {exc.reason}\n")
        return False
    return True


def _reporting(transcript: Transcript) -> Callable[[str], None]:
    """Write to the transcript and say on stderr, once, if it stops (a full disk)."""
    said = []

    def write(text: str) -> None:
        transcript.write(text)
        if transcript.error and not said:
            said.append(True)
            sys.stderr.write(f"univac-ttt: {transcript.error} ({transcript.path}); the "
                             "game goes on without it\n")
            sys.stderr.flush()
    return write


def _play_console(args: argparse.Namespace, words: dict[int, str], tape: Reel) -> int:
    from .console.app import ConsoleApp, ConsoleSettings
    from .desk.session import GameSession
    from .desk.transcript import TranscriptError

    if args.transcript is not None and not _writable("the transcript", args.transcript):
        return EXIT_USAGE
    options = _machine_options(args)
    settings = ConsoleSettings(authentic=args.speed == "authentic",
                               transcript=Path(args.transcript) if args.transcript else None,
                               tictactoe=args.image is None)
    try:
        console = ConsoleApp(lambda on_print: GameSession(words, options, on_print,
                                                                   tape=tape), settings)
    except TranscriptError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    code = console.run()
    transcript = console.transcript
    if transcript is not None and transcript.error:  # shown once the screen is restored
        sys.stderr.write(f"univac-ttt: {transcript.error} ({transcript.path})\n")
        return code or EXIT_OUTPUT
    return code


def _cmd_monitor(args: argparse.Namespace) -> int:
    from .monitor.core import Monitor
    from .monitor.script import run_script
    from .program.shipped import ProgramError, load_tictactoe
    from .program.sources import ProgramFileError, read_program

    tapes = {}
    try:
        if args.image is None:
            from .program.boottape import fresh_tictactoe_tape

            shipped = load_tictactoe()
            words, program = shipped.image.words, shipped.program
            tapes = {1: fresh_tictactoe_tape()}  # on Uniservo 1, for boot
        else:
            loaded = read_program(args.image)
            words, program = loaded.words, loaded.program
    except (ProgramFileError, ProgramError) as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    from .desk import Limits

    full_screen = args.script is None and sys.stdin.isatty() and sys.stdout.isatty()
    # On the full screen Ctrl-C stops a run, so the cap is only a last resort.
    limits = Limits(cap=INTERACTIVE_CAP) if full_screen else Limits()
    monitor = Monitor(words, program, _machine_options(args), limits, tapes)
    if args.log is not None:
        opened = monitor.execute(f"log {args.log}")
        if opened and opened[0].startswith("??"):
            sys.stderr.write(f"univac-ttt: {opened[0][3:]}\n")
            return EXIT_USAGE
    if args.script is not None:
        from .textfile import TextFileError, read_text_file

        try:
            lines = read_text_file(args.script, SCRIPT_LIMIT).split("\n")
        except TextFileError as exc:
            sys.stderr.write(f"univac-ttt: the script {args.script} {exc.reason}\n")
            return EXIT_USAGE
        return run_script(monitor, lines, sys.stdout)
    if not full_screen:
        from .lineinput import COMMAND_LINE, line_reader

        return run_script(monitor, line_reader(sys.stdin, COMMAND_LINE), sys.stdout)
    from .monitor.app import MonitorApp

    return MonitorApp(monitor).run()


def _data_folder(args: argparse.Namespace) -> Path:
    import os

    if args.data is not None:
        return Path(args.data)
    if os.environ.get("UNIVAC_TTT_DATA"):
        return Path(os.environ["UNIVAC_TTT_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "univac-ttt"


def _cmd_kiosk(args: argparse.Namespace) -> int:
    import os

    from .kiosk.app import KioskApp
    from .kiosk.supervisor import lock_signals, log_kiosk_start, setup_logging, supervise
    from .museum.controller import MIN_PIN_LENGTH, Kiosk, KioskSettings
    from .program.boottape import fresh_tictactoe_tape
    from .program.shipped import ProgramError, load_tictactoe

    pin = args.pin or os.environ.get("UNIVAC_TTT_STAFF_PIN", "")
    if not pin:
        sys.stderr.write("univac-ttt: the kiosk needs a staff PIN: --pin PIN or "
                         "UNIVAC_TTT_STAFF_PIN (docs/museum.md)\n")
        return EXIT_USAGE
    if not pin.strip() or not pin.isprintable():
        sys.stderr.write("univac-ttt: the staff PIN must be printable characters, not only "
                         "spaces (docs/museum.md)\n")
        return EXIT_USAGE
    if len(pin) < MIN_PIN_LENGTH:
        sys.stderr.write(f"univac-ttt: the staff PIN is too short: use at least "
                         f"{MIN_PIN_LENGTH} characters (docs/museum.md)\n")
        return EXIT_USAGE
    data = _data_folder(args)
    log_path = Path(args.log) if args.log is not None else data / "kiosk.log"
    stats_path = Path(args.stats) if args.stats is not None else data / "tally.json"
    for what, path in (("the log", log_path), ("the tally", stats_path)):
        if not _writable(what, str(path)):
            return EXIT_USAGE
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write("univac-ttt: the kiosk needs a terminal\n")
        return EXIT_USAGE
    try:
        shipped = load_tictactoe()
        fresh_tictactoe_tape()  # the tape each game boots from: checked before the screen
    except ProgramError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    try:
        setup_logging(log_path)
    except OSError as exc:
        sys.stderr.write(f"univac-ttt: cannot write the kiosk log: {exc}\n")
        return EXIT_USAGE
    settings = KioskSettings(
        pin=pin, idle_seconds=float(args.idle), authentic=args.speed == "authentic",
        printouts=Path(args.printouts) if args.printouts is not None else data / "printouts",
        stats=stats_path)
    lock_signals()
    log_kiosk_start(settings, data, __version__)
    return supervise(lambda: KioskApp(Kiosk(shipped.image.words, shipped.program, settings,
                                            fresh_tictactoe_tape())),
                     report=lambda message: sys.stderr.write(f"univac-ttt: {message}\n"))


def served_apps() -> dict[str, AppFactory]:
    """The front ends serve may hand a terminal, by --app name. The command line composes:
    serve never imports a front end, it is handed their public factories."""
    from .console.served import build_application as console_application
    from .monitor.served import build_application as monitor_application

    return {"play": console_application, "monitor": monitor_application}


def _cmd_serve(args: argparse.Namespace) -> int:
    from .serve.main import serve_from_args
    from .web.command import web_listeners

    data = _data_folder(args)
    return serve_from_args(args, data, served_apps(), web_listeners(args, data))


def _cmd_verify(args: argparse.Namespace) -> int:
    from .program.sources import ProgramFileError, program_for_referee, read_program
    from .verify.referee import RefereeError, run_verification

    program = None
    if args.sheet is not None:
        try:
            program = program_for_referee(read_program(args.sheet))
        except ProgramFileError as exc:
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


def _cmd_assemble(args: argparse.Namespace) -> int:
    from .program.image import format_image
    from .program.listing import listing_lines
    from .program.sources import ProgramFileError, read_sheet
    from .safefile import atomic_write

    try:
        program = read_sheet(args.sheet).program
    except ProgramFileError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    assert program is not None
    if not args.quiet:
        for line in listing_lines(program):
            sys.stdout.write(line + "\n")
    if args.output is not None:
        if not _writable("the image", args.output):
            return EXIT_USAGE
        header = f"memory image assembled from {Path(args.sheet).name} by univac-ttt assemble"
        try:
            atomic_write(args.output, format_image(program.image, header))
        except OSError as exc:
            sys.stderr.write(f"univac-ttt: cannot write {args.output}: "
                             f"{exc.strerror or exc}\n")
            return EXIT_USAGE
        sys.stderr.write(f"univac-ttt: wrote {count(len(program.image.words), 'word')} to "
                         f"{args.output}\n")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
