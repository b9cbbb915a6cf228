"""Never down: run the kiosk, and if anything goes wrong, log it and start a clean game.

The supervisor ignores the terminal's interrupt, suspend and quit signals, restarts the
kiosk within a second after any fault (backing off if faults come quickly), and ends only
when staff leave with the PIN or the service manager sends SIGTERM.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Protocol

from ..tui.ending import SessionEnded, SignalEnded

log = logging.getLogger("univac_ttt.kiosk")
RESTART_DELAY = 1.0
BACKOFF_DELAY = 5.0
QUICK_FAULTS = 5  # this many faults within QUICK_WINDOW seconds slows restarts down
QUICK_WINDOW = 30.0
STARTUP_WINDOW = 2.0  # a fault this soon after a start is a start-up fault
STARTUP_FAULTS = 3  # the same start-up fault this many times in a row stops the kiosk


class Runnable(Protocol):
    def run(self) -> int: ...


class Terminated(Exception):
    """SIGTERM (the service manager wants the kiosk to stop) or SIGHUP (the terminal hung
    up) outside a running app; ``name`` says which."""

    def __init__(self, name: str = "SIGTERM") -> None:
        super().__init__(name)
        self.name = name


class QuietFileHandler(RotatingFileHandler):
    """A log that cannot be written (a full disk) is skipped, never a traceback on screen."""

    failures = 0

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        self.failures += 1


def setup_logging(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = QuietFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    root = logging.getLogger("univac_ttt")
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False


def log_kiosk_start(settings: object, data: Path, version: str) -> None:
    """One line in the log for every start of the kiosk (by hand, at boot, by systemd)."""
    log.info("kiosk started: univac-ttt %s, pid %s, idle %ss, %s typing, data %s", version,
             os.getpid(), getattr(settings, "idle_seconds", "?"),
             "authentic" if getattr(settings, "authentic", True) else "fast", data)


def lock_signals() -> None:
    """Ctrl-C, Ctrl-Z and Ctrl-\\ must not stop the kiosk, even between restarts."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGINT", "SIGTSTP", "SIGQUIT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)

    def terminate(signum: int, frame: object) -> None:
        raise Terminated(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, terminate)
    if hasattr(signal, "SIGHUP"):  # the terminal hung up between two runs
        signal.signal(signal.SIGHUP, terminate)


def supervise(make_app: Callable[[], Runnable], sleep: Callable[[float], None] = time.sleep,
              clock: Callable[[], float] = time.monotonic,
              max_restarts: int | None = None,
              report: Callable[[str], None] | None = None) -> int:
    """Run kiosk apps one after another until staff exit; 0 then, 1 if restarts ran out
    or the same fault keeps stopping the kiosk as it starts (``report`` then says why)."""
    faults: list[float] = []
    restarts = 0
    same_start_faults, last_fault = 0, ""
    while True:
        started = clock()
        try:
            if restarts:
                log.info("kiosk restarted with a clean game (restart %s)", restarts)
            app = make_app()
            started = clock()
            code = app.run()
            log.info("kiosk closed by staff")
            return code
        except Terminated as stop:
            log.info("kiosk stopped by %s", stop.name)
            return 0
        except SessionEnded as ended:  # a signal or the end of the terminal, screen restored
            if isinstance(ended, SignalEnded):
                log.info("kiosk %s", ended)
                return 0
            log.info("kiosk stopped: %s", ended)
            return ended.exit_code
        except Exception as exc:  # noqa: BLE001 - anything at all: log it, start a clean game
            log.exception("kiosk fault; restarting with a clean game")
            fault = f"{type(exc).__name__}: {exc}"[:300]
            at_start = clock() - started < STARTUP_WINDOW
            same_start_faults = same_start_faults + 1 if at_start and fault == last_fault \
                else int(at_start)
            last_fault = fault
        if same_start_faults >= STARTUP_FAULTS:
            message = (f"the kiosk stopped: the same fault ended it {STARTUP_FAULTS} times as "
                       f"it started ({last_fault}); see the kiosk log")
            log.error(message)
            if report is not None:
                report(message)
            return 1
        restarts += 1
        if max_restarts is not None and restarts > max_restarts:
            return 1
        now = clock()
        faults = [t for t in faults if now - t < QUICK_WINDOW] + [now]
        try:
            sleep(BACKOFF_DELAY if len(faults) >= QUICK_FAULTS else RESTART_DELAY)
        except Terminated as stop:
            log.info("kiosk stopped by %s (during the restart delay)", stop.name)
            return 0
