"""Reading a user's text file safely: bounded in size, UTF-8, one clear reason on failure.

Used for memory images, coding sheets, monitor scripts and saved states, so that a wrong
path (an empty name, a directory, a device such as /dev/zero, a FIFO that would block, a
binary or huge file) is refused in one line instead of hanging or exhausting memory. Only
regular files are read, opened without blocking. Lines may end in LF, CR LF or CR alone.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from pathlib import Path  # not at run time: pathlib brings urllib.parse and ipaddress


class TextFileError(ValueError):
    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def check_path(path: str | Path) -> None:
    """TextFileError for a name no file can have: empty, or holding a NUL character."""
    text = path if isinstance(path, str) else os.fspath(path)
    if text == "":
        raise TextFileError("is an empty file name")
    if "\0" in text:
        raise TextFileError("contains a NUL character, which no file name can hold")


def check_write_target(path: str | Path) -> None:
    """TextFileError unless ``path`` is a regular file or does not exist yet: writing to a
    FIFO would block, to a device or directory would fail or surprise."""
    check_path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise TextFileError(f"cannot be used ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise TextFileError(_kind(mode))


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a pipe (FIFO), not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    return "is not a regular file"


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; TextFileError otherwise."""
    check_path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        handle = os.open(path, flags)
    except FileNotFoundError:
        raise TextFileError("does not exist") from None
    except OSError as exc:
        raise TextFileError(f"cannot be read ({exc.strerror or exc})") from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise TextFileError(_kind(mode))
        with os.fdopen(handle, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:  # e.g. /proc files that would block (EAGAIN)
        raise TextFileError(f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(handle)
    if data is None:
        raise TextFileError("cannot be read now (it would block)")
    if len(data) > limit:
        raise TextFileError(f"is larger than {limit:,} bytes, the most this file may be")
    return data


def read_text_file(path: str | Path, limit: int) -> str:
    """The file's text; TextFileError if it cannot be read, is too big, binary or not UTF-8."""
    return decode_text(read_bytes(path, limit))


def decode_text(data: bytes) -> str:
    """A text file's bytes as text (no BOM, every line ending LF); TextFileError if they
    are binary or not UTF-8."""
    if b"\0" in data:
        raise TextFileError("is a binary file, not text")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextFileError("is not valid UTF-8 text",
                            data[:exc.start].count(b"\n") + 1) from None
