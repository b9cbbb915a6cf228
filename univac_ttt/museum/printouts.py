"""Every finished game's paper, one file per game, in a folder per day.

Kiosks sharing a folder never overwrite each other's printouts: each file is created
exclusively and appears whole (univac_ttt.hostio.atomic_files.create_new).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..hostio.atomic_files import create_new


def save_printout(folder: Path, paper: str, when: datetime | None = None) -> Path:
    when = when or datetime.now()
    day = folder / when.strftime("%Y-%m-%d")
    day.mkdir(parents=True, exist_ok=True)
    stem = f"univac-game-{when.strftime('%Y%m%d-%H%M%S')}"
    return create_new(day, stem, ".txt", paper.strip("\n") + "\n")
