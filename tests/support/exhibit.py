"""A museum kiosk for a test: the shipped tic-tac-toe, staff PIN 2468, its printouts and
tally in a test's folder, on a fake clock unless one is given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.fake_clock import FakeClock
from univac_ttt.museum.controller import Kiosk, KioskSettings
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()


def exhibit(folder: Path, *, idle_seconds: float = 60, authentic: bool = False,
            clock: Any = None) -> Kiosk:
    """The kiosk with the first demonstration at once (``first_demo=0``)."""
    settings = KioskSettings(pin="2468", printouts=folder / "printouts",
                             stats=folder / "tally.json", idle_seconds=idle_seconds,
                             authentic=authentic, first_demo=0,
                             clock=FakeClock(5000.0) if clock is None else clock)
    return Kiosk(SHIPPED.image.words, SHIPPED.program, settings)
