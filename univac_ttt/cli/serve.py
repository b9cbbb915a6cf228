"""``univac-ttt serve``: a UNIVAC for every terminal of a class. The command line composes:
serve never imports a front end, it is handed their public factories (``served_apps``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..hostio.bounded_input import count_option
from .commands import SUMMARIES
from .common import EXIT_USAGE, IDLE_LIMIT
from .options import data_folder, path

if TYPE_CHECKING:
    from ..program.pack import Pack
    from ..serve.apps import AppFactory

NAME = "serve"
MAX_CLIENTS_LIMIT = 1_000  # serve --max-clients: a file descriptor or more each


def add_parser(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser(NAME, help=SUMMARIES[NAME],
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
                       help="listen for SSH clients (needs the ssh extra: pip install "
                            "'.[ssh]' in the source folder); the host key is made in --data")
    serve.add_argument("--web", metavar="[HOST:]PORT",
                       help="serve the browser page and a UNIVAC for each tab (plain HTTP; "
                            "needs the web extra: pip install '.[web]' in the source folder)")
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
    serve.add_argument("--password-file", metavar="FILE", type=path,
                       help="a shared class password for SSH and the web page, on the "
                            "file's first line "
                            "(default: no password; never a system login)")
    serve.add_argument("--data", metavar="DIR", type=path,
                       help="folder for the SSH host key and transcripts (default "
                            "$UNIVAC_TTT_DATA or ~/.local/share/univac-ttt)")
    serve.add_argument("--transcripts", action="store_true",
                       help="keep each terminal's paper in DIR/transcripts/")
    serve.add_argument("--speed", choices=["fast", "authentic"], default=None,
                       help="typewriter speed on every terminal (default fast, unless the "
                            "program's pack says otherwise) and page (default authentic)")
    serve.add_argument("--workers", type=count_option(64), default=None, metavar="N",
                       help="server processes sharing the ports, so every core draws "
                            "screens (default: one a core, at most 4; 1: one process)")
    serve.add_argument("--pack", type=count_option(MAX_CLIENTS_LIMIT), default=None,
                       metavar="SEATS",
                       help="with --workers: telnet terminals the first worker takes before "
                            "the next takes any, and so on; past that, the worker with "
                            "fewest (default 100: one warm process serves that many at less "
                            "CPU a move than two, its p99 a few ms higher; 1: spread from "
                            "the start)")
    from ..packs.choose import add_program_option

    add_program_option(serve)
    serve.set_defaults(func=command, reads_stdin=False)


def served_apps(pack: Pack | None = None) -> dict[str, AppFactory]:
    """The front ends serve may hand a terminal, by --app name, each running ``pack``
    (default tic-tac-toe). serve never imports a front end or a pack: it is handed the
    front ends' public factories with the pack bound in."""
    from functools import partial

    from ..console.served import build_application as console_application
    from ..monitor.served import build_application as monitor_application
    from ..packs import DEFAULT, shipped_pack

    chosen = pack if pack is not None else shipped_pack(DEFAULT)
    return {"play": partial(console_application, pack=chosen),
            "monitor": partial(monitor_application, pack=chosen)}


def command(args: argparse.Namespace) -> int:
    from ..desk.warm import warm_blocks
    from ..serve.main import serve_from_args
    from ..web.command import web_listeners
    from .programs import pack_from_args

    pack = pack_from_args(args, None)
    if pack is None:
        return EXIT_USAGE
    page_speed = args.speed  # None: the page types at the typewriter's pace
    if args.speed is None:
        args.speed = pack.speed or "fast"
    data = data_folder(args)
    return serve_from_args(args, data, served_apps(pack),
                           web_listeners(args, data, pack, page_speed or pack.speed),
                           warm=lambda: warm_blocks(pack))
