"""The kiosk's daily tally, kept in a small JSON file that survives restarts and power loss.

Several kiosks may share one data folder, so a save never overwrites the file with what
this kiosk loaded: under a lock (``flock`` on ``.tally.json.lock``) it reads the file again,
adds the counts this kiosk has made since its last save, and writes the sum atomically
(univac_ttt.hostio.atomic_files). A damaged file (not JSON, too big, too deep, wrong types, absurd
numbers) is moved aside with a log line and counting starts afresh.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from ..desk.counts import Counts
from ..hostio.atomic_files import atomic_write
from ..hostio.bounded_input import JsonError, load_json
from ..hostio.text_files import TextFileError, read_text_file

log = logging.getLogger("univac_ttt.kiosk")
TALLY_LIMIT = 4_000_000  # bytes: about 30 years of days
MAX_COUNT = 10**12
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class DayTally(Counts):
    """One day's counts (a Counter of these names), as the tally file keeps them."""

    NAMES = ("games", "univac_wins", "draws", "opponent_wins", "abandoned", "bad_codes",
             "demonstrations")
    games: int
    univac_wins: int
    draws: int
    opponent_wins: int
    abandoned: int
    bad_codes: int
    demonstrations: int


COUNTERS = DayTally.NAMES


class TallyDamaged(ValueError):
    """The tally file is not a tally; the message says why."""


def parse_tally(text: str) -> dict[str, DayTally]:
    """Days and their counts, or TallyDamaged: nothing is coerced or silently dropped."""
    try:
        raw = load_json(text, "the tally", TALLY_LIMIT, max_depth=2, max_digits=13)
    except JsonError as exc:
        raise TallyDamaged(str(exc)) from None
    if not isinstance(raw, dict):
        raise TallyDamaged("it is not a table of days")
    days: dict[str, DayTally] = {}
    for day, counts in raw.items():
        if not _DAY.fullmatch(day) or not isinstance(counts, dict):
            raise TallyDamaged(f"{day[:20]!r} is not a day with its counts")
        for name, value in counts.items():
            if name not in COUNTERS:
                raise TallyDamaged(f"{day}: {name[:20]!r} is not a count the kiosk keeps")
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not 0 <= value <= MAX_COUNT:
                raise TallyDamaged(f"{day}: {name} is not a count from 0 to {MAX_COUNT:,}")
        days[day] = DayTally(**counts)
    return days


class TallyFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.days: dict[str, DayTally] = {}
        self._saved: dict[str, DayTally] = {}  # what the file held after our last save
        self.load()

    def _read(self) -> dict[str, DayTally]:
        """The file's days; a damaged file is moved aside (logged) and counts as empty."""
        try:
            text = read_text_file(self.path, TALLY_LIMIT)
            return parse_tally(text)
        except TextFileError as exc:
            if exc.reason == "does not exist":
                return {}
            if exc.reason.startswith("cannot be read"):  # not damaged: do not move it
                raise OSError(f"tally {self.path} {exc.reason}") from None
            why = exc.reason
        except TallyDamaged as exc:
            why = str(exc)
        keep = self._aside()
        log.error("tally %s unreadable (%s); kept as %s, starting afresh", self.path, why, keep)
        with contextlib.suppress(OSError):
            os.replace(self.path, keep)
        return {}

    def _aside(self) -> Path:
        keep = self.path.with_suffix(self.path.suffix + ".damaged")
        n = 1
        while keep.exists() and n < 1000:
            n += 1
            keep = self.path.with_suffix(f"{self.path.suffix}.damaged-{n}")
        return keep

    def load(self) -> None:
        try:
            with self._locked():
                self.days = self._read()
        except OSError:  # no lock possible (a read-only folder): read what is there
            try:
                self.days = self._read()
            except OSError as exc:  # count in memory; each save tries again and merges
                log.error("%s; counting from zero until the tally can be saved", exc)
        self._saved = {day: tally.copy() for day, tally in self.days.items()}

    def today(self, today: date | None = None) -> DayTally:
        key = (today or date.today()).isoformat()
        return self.days.setdefault(key, DayTally())

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the tally's lock file (never followed through a link) while inside."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.with_name(f".{self.path.name}.lock")
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        handle = os.open(lock, flags, 0o644)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield
        finally:
            os.close(handle)  # closing releases the lock

    def save(self) -> None:
        """Add what this kiosk counted since its last save to the file's counts."""
        with self._locked():
            merged = self._read()
            for day, tally in self.days.items():
                before = self._saved.get(day, DayTally())
                total = merged.setdefault(day, DayTally())
                for name in COUNTERS:
                    grown = tally[name] - before[name]
                    total[name] = min(MAX_COUNT, max(0, total[name] + grown))
            data = {day: t.as_dict() for day, t in sorted(merged.items())}
            atomic_write(self.path, _dump(data))
        for day, tally in merged.items():  # the same objects callers hold keep counting
            if day in self.days:
                mine = self.days[day]
                for name in COUNTERS:
                    mine[name] = tally[name]
            else:
                self.days[day] = tally
        self._saved = {day: tally.copy() for day, tally in self.days.items()}


def _dump(data: dict[str, dict[str, int]]) -> str:
    return json.dumps(data, indent=1) + "\n"
