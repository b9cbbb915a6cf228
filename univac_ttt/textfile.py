"""Reading a user's text file safely: bounded in size, UTF-8, one clear reason on failure.

Used for memory images, coding sheets, monitor scripts and saved states, so that a wrong
path (a directory, a device such as /dev/zero, a binary or huge file) is refused in one
line instead of hanging or exhausting memory.
"""

from __future__ import annotations

from pathlib import Path


class TextFileError(ValueError):
    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def read_text_file(path: str | Path, limit: int) -> str:
    """The file's text; TextFileError if it cannot be read, is too big, binary or not UTF-8."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise TextFileError("no such file") from None
    except IsADirectoryError:
        raise TextFileError("is a directory, not a file") from None
    except OSError as exc:
        raise TextFileError(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise TextFileError(f"is larger than {limit:,} bytes, the most this file may be")
    if b"\0" in data:
        raise TextFileError("is a binary file, not text")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextFileError("is not valid UTF-8 text",
                            data[:exc.start].count(b"\n") + 1) from None
