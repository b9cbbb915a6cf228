"""``univac-ttt play``: a game against the UNIVAC, full screen or plain (the default command)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..launch import EXIT_INTERRUPTED
from .commands import SUMMARIES
from .common import EXIT_ERROR_STOP, EXIT_OUTPUT, EXIT_USAGE, writable
from .options import add_machine_options, machine_options, path

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from ..desk.transcript import Transcript
    from ..machine.tape import Reel
    from ..program.pack import Pack

NAME = "play"


def add_parser(sub: argparse._SubParsersAction) -> None:
    play = sub.add_parser(NAME, help=SUMMARIES[NAME],
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
                           "chosen when stdin or stdout is not a terminal); Ctrl-C or "
                           "Ctrl-\\ at the prompt ends the game, the score said")
    play.add_argument("--speed", choices=["fast", "authentic"], default=None,
                      help="how the typewriter types: at once (default, unless the "
                           "program's pack says otherwise) or at about 10 "
                           "characters a second, as the SC printer did (F3 toggles; with "
                           "--plain the output is paced too)")
    play.add_argument("--transcript", metavar="FILE", type=path,
                      help="append the printer paper of the whole session to FILE")
    play.add_argument("--image", metavar="FILE", type=path,
                      help="run this memory image instead of the tic-tac-toe program")
    from ..packs.choose import add_program_option

    add_program_option(play)
    add_machine_options(play)
    play.set_defaults(func=command, reads_stdin=True)


def command(args: argparse.Namespace) -> int:
    loaded = _program_words(args)
    if loaded is None:
        return EXIT_USAGE
    words, tape, pack = loaded
    if args.speed is None:
        args.speed = pack.speed or "fast"
    if args.plain or not _full_screen_possible():
        return _play_plain(args, tape, pack)
    return _play_console(args, words, tape, pack)


def _program_words(args: argparse.Namespace) -> tuple[dict[int, str], Reel, Pack] | None:
    """The words play runs, the program tape that loads them (the pack's, or a tape made
    from --image with the loader) and the pack (NO_PACK for an image); None after a
    message."""
    from .programs import pack_from_args

    pack = pack_from_args(args, args.image)
    if pack is None:
        return None
    if args.image is None:
        return pack.words, pack.boot_tape(), pack
    import os

    from ..program.boottape import boot_reel
    from ..program.image import ImageError, read_image

    try:
        words = read_image(args.image).words
        return words, boot_reel(words, os.path.basename(args.image)), pack
    except ImageError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return None


def _full_screen_possible() -> bool:
    """A real terminal on both ends that can address the screen (not TERM=dumb)."""
    import os

    term = os.environ.get("TERM", "")
    return sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")


def _play_plain(args: argparse.Namespace, tape: Reel, pack: Pack) -> int:
    from ..console.plain import PlainConsole
    from ..desk import Desk
    from .programs import run_plain, score_keeper

    if args.transcript is not None and not writable("the transcript", args.transcript):
        return EXIT_USAGE
    transcript = None
    if args.transcript is not None:
        from pathlib import Path

        from ..desk.transcript import Transcript, TranscriptError

        try:
            transcript = Transcript(Path(args.transcript))
        except TranscriptError as exc:
            sys.stderr.write(f"univac-ttt: {exc}\n")
            return EXIT_USAGE
    desk = Desk(options=machine_options(args))
    stop = desk.load_tape(tape)  # the tape on Uniservo 1, CLEAR C, INITIAL READ
    if stop is not None:
        sys.stderr.write(f"univac-ttt: the program tape did not load: {stop.describe()}\n")
        if transcript is not None:
            transcript.close()
        return EXIT_ERROR_STOP
    for unit, reel in pack.reels().items():
        desk.attach(unit, reel)
    keeper = score_keeper(desk, pack)
    console = PlainConsole(desk, sys.stdin, sys.stdout, sys.stderr,
                           authentic=args.speed == "authentic")
    if transcript is not None:
        console.also_print_to(_reporting(transcript))
    try:
        result = run_plain(console, keeper)
    finally:
        if transcript is not None:
            transcript.close()
    if result is None:
        return EXIT_INTERRUPTED
    if result.stop is not None:
        console.message(f"univac-ttt: the program stopped: {result.summary}")
    if keeper is not None:
        console.message(f"univac-ttt: {keeper.line()}")
    if transcript is not None and transcript.error:
        return EXIT_OUTPUT
    return result.exit_code


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


def _play_console(args: argparse.Namespace, words: dict[int, str], tape: Reel,
                  pack: Pack) -> int:
    from pathlib import Path

    from ..console.app import ConsoleApp, ConsoleSettings
    from ..desk.paper import PrintedChunk
    from ..desk.session import GameSession
    from ..desk.transcript import TranscriptError

    if args.transcript is not None and not writable("the transcript", args.transcript):
        return EXIT_USAGE
    options = machine_options(args)
    settings = ConsoleSettings(authentic=args.speed == "authentic",
                               transcript=Path(args.transcript) if args.transcript else None,
                               pack=pack)

    def session(on_print: Callable[[PrintedChunk], None]) -> GameSession:
        if pack.folder is None:  # an image: no pack, no score
            return GameSession(words, options, on_print, tape=tape)
        return GameSession.from_pack(pack, options, on_print)

    try:
        console = ConsoleApp(session, settings)
    except TranscriptError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    code = console.run()
    transcript = console.transcript
    if transcript is not None and transcript.error:  # shown once the screen is restored
        sys.stderr.write(f"univac-ttt: {transcript.error} ({transcript.path})\n")
        return code or EXIT_OUTPUT
    return code
