"""Every finished game's paper, one file per game, in a folder per day."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path


def save_printout(folder: Path, paper: str, when: datetime | None = None) -> Path:
    when = when or datetime.now()
    day = folder / when.strftime("%Y-%m-%d")
    day.mkdir(parents=True, exist_ok=True)
    stem = f"univac-game-{when.strftime('%Y%m%d-%H%M%S')}"
    path = day / f"{stem}.txt"
    n = 1
    while path.exists():
        n += 1
        path = day / f"{stem}-{n}.txt"
    temporary = day / f".{path.name}.tmp"
    temporary.write_text(paper.strip("\n") + "\n", encoding="utf-8")
    temporary.replace(path)
    return path
