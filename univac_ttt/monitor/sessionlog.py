"""The monitor's session log (``log FILE``): every command and what it printed, appended.

Bounded, so a lecture left running cannot fill the disk, and never followed through a
symbolic link or into a FIFO or device. A write that fails (a full disk) closes the log
and says so once; the monitor itself goes on.
"""

from __future__ import annotations

import contextlib
import os

from ..hostio.terminal_text import visible
from ..hostio.text_files import TextFileError, check_write_target

LOG_LIMIT = 10_000_000  # bytes one log may grow by in a session


class SessionLogError(ValueError):
    """The log cannot be opened; one line says why."""


class SessionLog:
    def __init__(self, path: str, limit: int = LOG_LIMIT) -> None:
        try:
            check_write_target(path)
        except TextFileError as exc:
            raise SessionLogError(f"cannot log to {path!r}: it {exc.reason}") from None
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        try:
            self._fd: int | None = os.open(path, flags, 0o644)
        except OSError as exc:
            raise SessionLogError(f"cannot log to {path}: {exc.strerror or exc}") from None
        self.path = path
        self.limit = limit
        self.written = 0
        self.problem = ""  # why the log closed itself, said once by the monitor

    @property
    def open(self) -> bool:
        return self._fd is not None

    def write(self, lines: list[str]) -> None:
        """Append lines (escape sequences made visible); close at the limit or on error."""
        if self._fd is None or not lines:
            return
        data = "".join(visible(line) + "\n" for line in lines).encode("utf-8", "replace")
        if self.written + len(data) > self.limit:
            data = f"(log stopped: it reached {self.limit:,} bytes)\n".encode()
            self.problem = f"the log {self.path} reached {self.limit:,} bytes and was closed"
        try:
            self.written += len(data)
            while data:  # O_APPEND: each write lands at the end
                data = data[os.write(self._fd, data):]
        except OSError as exc:
            self.problem = f"the log {self.path} failed ({exc.strerror or exc}) and was closed"
        if self.problem:
            self.close()

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
