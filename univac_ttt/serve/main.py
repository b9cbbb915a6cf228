"""From the command line's options to a running class server, with one-line errors."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import logging
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from ..classroom.options import (
    CannotListen,
    ServeOptionError,
    ServeOptions,
    parse_endpoint,
    read_password,
)
from ..classroom.room import Listener
from .apps import AppFactories
from .pack import PACK_SEATS
from .server import ClassServer
from .workers import Pool, default_workers

EXIT_OK, EXIT_USAGE = 0, 2
DEFAULT_IDLE = 600  # seconds without a key before a terminal is closed
ListenerFactory = Callable[[ServeOptions], Sequence[Listener]]
# The libraries that log what a client on the network sent them: with no handler their
# warnings went to the server's terminal by logging's last resort, over the class table
# (a malformed telnet window size: prompt_toolkit's "Wrong number of NAWS bytes"; a header
# line of 100,000 bytes: aiohttp's "Error handling request" and its traceback).
CLIENT_LOGGERS = ("aiohttp", "asyncio", "asyncssh", "prompt_toolkit")
CLIENT_FAULT_MODULES = ("aiohttp.http_exceptions", "asyncssh")  # a request or session broken


def client_fault(error: BaseException) -> bool:
    """Whether ``error`` is what a client sent or did (a malformed request, a broken ssh
    session, a reset connection), not a fault of the server's own."""
    return isinstance(error, ConnectionError) or any(
        kind.__module__.startswith(CLIENT_FAULT_MODULES) for kind in type(error).__mro__)


class ServerFaultsOnly(logging.Filter):
    """Keeps a library's record only when it carries an exception of the server's own
    (aiohttp logs a failure in our web handler as it logs a malformed request): a warning
    about a client, or a client's fault, is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return error is not None and not client_fault(error)


def quiet_client_logs() -> None:
    """What a client sends is its own business, answered on its own connection, never
    printed on the lecturer's screen; a fault of the server's own still is (on stderr,
    as before)."""
    for name in CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        logger.propagate = False
        if not any(isinstance(kept, ServerFaultsOnly)
                   for handler in logger.handlers for kept in handler.filters):
            handler = logging.StreamHandler(sys.stderr)
            handler.addFilter(ServerFaultsOnly())
            logger.addHandler(handler)


def options_from_args(args: argparse.Namespace, data: Path,
                      app_names: Collection[str] = ("play", "monitor")) -> ServeOptions:
    web = getattr(args, "web", None)
    if not args.telnet and not args.ssh and not web:
        raise ServeOptionError("say where to listen: --telnet [HOST:]PORT, --ssh [HOST:]PORT "
                               "and/or --web [HOST:]PORT")
    if args.ssh and importlib.util.find_spec("asyncssh") is None:
        raise ServeOptionError("--ssh needs asyncssh: in univac-ttt's source folder, "
                               "pip install '.[ssh]'")
    if web and importlib.util.find_spec("aiohttp") is None:
        raise ServeOptionError("--web needs aiohttp: in univac-ttt's source folder, "
                               "pip install '.[web]'")
    if args.app not in app_names:
        raise ServeOptionError(f"no front end called {args.app!r} to serve")
    if args.password_file and not args.ssh and not web:
        raise ServeOptionError("--password-file is for --ssh or --web (telnet sends it in "
                               "plain text)")
    return ServeOptions(
        telnet=parse_endpoint(args.telnet) if args.telnet else None,
        ssh=parse_endpoint(args.ssh) if args.ssh else None,
        app=args.app, max_clients=args.max_clients,
        idle_seconds=float(args.idle if args.idle is not None else DEFAULT_IDLE),
        password=read_password(Path(args.password_file)) if args.password_file else None,
        data=data, transcripts=args.transcripts, authentic=args.speed == "authentic")


def serve_from_args(args: argparse.Namespace, data: Path, apps: AppFactories,
                    listeners: ListenerFactory = lambda options: (),
                    warm: Callable[[], object] | None = None) -> int:
    """Serve until SIGINT/SIGTERM; ``apps`` maps each --app name to its front end's factory;
    ``listeners`` makes the composer's other listeners (the browser's) from the options;
    ``warm``, once the options are good and before any worker is forked, fills what every
    terminal's machine shares (the composer's: the program's compiled blocks)."""
    try:
        options = options_from_args(args, data, apps.keys())
        try:
            extra = listeners(options)
        except OSError as exc:  # the page's own files: not the data folder's fault
            raise ServeOptionError(f"cannot read the browser page's files: "
                                   f"{exc.strerror or exc}: {exc.filename or ''}") from None
        if options.ssh is not None or options.transcripts or extra:
            data.mkdir(parents=True, exist_ok=True)
    except ServeOptionError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        sys.stderr.write(f"univac-ttt: cannot make the data folder {data}: "
                         f"{exc.strerror or exc}\n")
        return EXIT_USAGE
    quiet_client_logs()  # before the fork: every worker inherits it
    workers = getattr(args, "workers", None) or default_workers()
    if warm is not None:
        warm()  # before the fork: every worker inherits it
    try:
        if workers > 1:
            lines = [listener.bind() for listener in extra]  # bound before the fork
            if None not in lines:
                pack = getattr(args, "pack", None)
                return Pool(options, apps, workers, others=extra,
                            announcements=[line for line in lines if line],
                            pack=PACK_SEATS if pack is None else pack).run()
            if getattr(args, "workers", None):
                sys.stderr.write("univac-ttt: museum mode is one exhibit, served from one "
                                 "process: --workers is not used\n")
        if getattr(args, "pack", None) is not None:
            sys.stderr.write("univac-ttt: one process serves every terminal here: --pack "
                             "is not used (it packs the workers of --workers 2 or more)\n")
        return asyncio.run(ClassServer(options, apps, listeners=extra).run())
    except OSError as exc:
        where = " on " if isinstance(exc, CannotListen) else ": "
        sys.stderr.write(f"univac-ttt: cannot listen{where}{exc.strerror or exc}\n")
        return EXIT_USAGE
