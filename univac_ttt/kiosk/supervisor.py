"""Never down: run the kiosk, and if anything goes wrong, log it and start a clean game.

The supervisor ignores the terminal's interrupt, suspend and quit signals, restarts the
kiosk within a second after any fault (backing off if faults come quickly), and ends only
when staff leave with the PIN or the service manager sends SIGTERM.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Protocol

log = logging.getLogger("univac_ttt.kiosk")
RESTART_DELAY = 1.0
BACKOFF_DELAY = 5.0
QUICK_FAULTS = 5  # this many faults within QUICK_WINDOW seconds slows restarts down
QUICK_WINDOW = 30.0


class Runnable(Protocol):
    def run(self) -> int: ...


class Terminated(Exception):
    """SIGTERM: the service manager wants the kiosk to stop."""


def setup_logging(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    root = logging.getLogger("univac_ttt")
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False


def lock_signals() -> None:
    """Ctrl-C, Ctrl-Z and Ctrl-\\ must not stop the kiosk, even between restarts."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGINT", "SIGTSTP", "SIGQUIT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)

    def terminate(signum: int, frame: object) -> None:
        raise Terminated

    signal.signal(signal.SIGTERM, terminate)


def supervise(make_app: Callable[[], Runnable], sleep: Callable[[float], None] = time.sleep,
              clock: Callable[[], float] = time.monotonic,
              max_restarts: int | None = None) -> int:
    """Run kiosk apps one after another until staff exit; 0 then (1 if restarts ran out)."""
    faults: list[float] = []
    restarts = 0
    while True:
        try:
            code = make_app().run()
            log.info("kiosk closed by staff")
            return code
        except Terminated:
            log.info("kiosk stopped by SIGTERM")
            return 0
        except Exception:  # noqa: BLE001 - anything at all: log it, start a clean game
            log.exception("kiosk fault; restarting with a clean game")
        restarts += 1
        if max_restarts is not None and restarts > max_restarts:
            return 1
        now = clock()
        faults = [t for t in faults if now - t < QUICK_WINDOW] + [now]
        sleep(BACKOFF_DELAY if len(faults) >= QUICK_FAULTS else RESTART_DELAY)
