"""The kiosk's daily tally, kept in a small JSON file that survives restarts and power loss.

Every save writes a temporary file beside the tally, flushes it to disk and renames it over
the old one, so the file on disk is always a whole tally: the old one or the new one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

log = logging.getLogger("univac_ttt.kiosk")


@dataclass
class DayTally:
    games: int = 0
    univac_wins: int = 0
    draws: int = 0
    opponent_wins: int = 0
    abandoned: int = 0
    bad_codes: int = 0
    demonstrations: int = 0


class TallyFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.days: dict[str, DayTally] = {}
        self.load()

    def load(self) -> None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            keep = self.path.with_suffix(self.path.suffix + ".damaged")
            log.error("tally %s unreadable (%s); kept as %s, starting afresh",
                      self.path, exc, keep)
            with contextlib.suppress(OSError):
                os.replace(self.path, keep)
            return
        if not isinstance(raw, dict):
            log.error("tally %s is not a table of days; starting afresh", self.path)
            return
        fields = set(DayTally.__dataclass_fields__)
        for day, counts in raw.items():
            if isinstance(counts, dict):
                clean = {k: int(v) for k, v in counts.items()
                         if k in fields and isinstance(v, int) and v >= 0}
                self.days[str(day)] = DayTally(**clean)

    def today(self, today: date | None = None) -> DayTally:
        key = (today or date.today()).isoformat()
        return self.days.setdefault(key, DayTally())

    def save(self) -> None:
        data = {day: asdict(tally) for day, tally in sorted(self.days.items())}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.tmp")
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        try:  # make the rename itself durable
            directory = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
        except OSError:
            pass
