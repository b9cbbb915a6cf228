"""Saved paper: the session's printout appended to a file as it is typed."""

from __future__ import annotations

import contextlib
from datetime import datetime
from pathlib import Path
from typing import TextIO


class TranscriptError(OSError):
    """The transcript file cannot be opened."""


class Transcript:
    """Appends every piece of paper to a file, flushed as it is told (at the end of each run
    or chunk): an exception loses nothing; a hard kill mid-run, at most one chunk."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.error: str | None = None
        try:
            self._file: TextIO | None = path.open("a", encoding="utf-8")
            stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
            self._file.write(f"\n--- univac-ttt session, {stamp} ---\n")
            self._file.flush()
        except OSError as exc:
            raise TranscriptError(f"cannot write the transcript {path}: "
                                  f"{exc.strerror or exc}") from None

    def write(self, text: str) -> None:
        if self._file is None:
            return
        try:
            self._file.write(text)
            self._file.flush()
        except OSError as exc:
            self.error = f"the transcript stopped: {exc.strerror or exc}"
            self.close()

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
