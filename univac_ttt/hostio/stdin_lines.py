"""Reading lines from standard input as bytes: bounded, decoded by our own rule.

A pipe can deliver anything: no newline for gigabytes (``< /dev/zero``), megabyte lines,
bytes that are not UTF-8. Each line is read at most ``limit`` bytes at a time; the excess
is discarded as it arrives, so memory stays bounded whatever comes. A line that is too long
or not UTF-8 becomes a ``Refused`` with a reason instead of an exception, under any locale.
A "line" of more than ``give_up`` bytes without a line end means the input is not text at
all: the reader refuses it once and then reports the end of input. A UTF-8 byte order mark
at the very start (a file saved by Windows Notepad) is dropped, as the file readers drop it.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator
from io import TextIOBase

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import BinaryIO, TextIO

KEYBOARD_LINE = 200  # bytes of a plain-console line (a keyboard word is 12 characters)
COMMAND_LINE = 1_000  # bytes of a monitor command
GIVE_UP = 1 << 20  # bytes without a line end after which the input is not text
_PIECE = 1 << 16
BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark


class Refused(namedtuple("Refused", ["reason"])):
    """A line that was read and thrown away; ``reason`` (str) says why in words (a
    collections.namedtuple: a dataclass or a typing.NamedTuple costs every start a few
    times more to define)."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.reason


class LineReader:
    """Lines of a binary stream without their line ends; ``None`` at the end of input."""

    def __init__(self, stream: BinaryIO, limit: int, give_up: int = GIVE_UP) -> None:
        self.stream = stream
        self.limit = limit
        self.give_up = give_up
        self.ended = False
        self.first = True  # the stream's first line: a byte order mark there is dropped

    def read_line(self) -> str | Refused | None:
        if self.ended:
            return None
        first, self.first = self.first, False
        try:  # the first read has room for a mark besides the longest line
            data = self.stream.readline(self.limit + 1 + (len(BOM) if first else 0))
        except OSError as exc:  # a closed or broken stdin: the input has ended
            self.ended = True
            return Refused(f"the input cannot be read ({exc.strerror or exc})")
        if not data:
            self.ended = True
            return None
        if first and data.startswith(BOM):  # "\ufeff5" was refused: no key for U+FEFF
            data = data[len(BOM):]
            if not data:  # the mark alone: the first line is what follows it
                return self.read_line()
        ended = data.endswith(b"\n")
        if len(data) - ended > self.limit:  # judged after the mark is gone, on the line
            if ended:
                return Refused(f"the line is longer than {self.limit:,} bytes")
            return self._discard_rest(len(data))
        line = data.rstrip(b"\n").rstrip(b"\r")
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            return Refused("the line is not UTF-8 text")

    def _discard_rest(self, seen: int) -> Refused:
        """Read and drop the rest of an overlong line, at most ``give_up`` bytes of it."""
        while seen <= self.give_up:
            try:
                piece = self.stream.readline(_PIECE)
            except OSError:
                piece = b""
            if not piece:
                self.ended = True
                break
            seen += len(piece)
            if piece.endswith(b"\n"):
                return Refused(f"the line is longer than {self.limit:,} bytes")
        else:
            self.ended = True
            return Refused(f"more than {self.give_up:,} bytes arrived without a line end: "
                           "this input is not lines of text; reading stopped")
        return Refused(f"the line is longer than {self.limit:,} bytes")

    def __iter__(self) -> Iterator[str | Refused]:
        while (line := self.read_line()) is not None:
            yield line


class _EncodedText:
    """A text stream (a test's StringIO) read through the same byte-level rules."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def readline(self, size: int = -1) -> bytes:
        return self.stream.readline(size).encode("utf-8", "surrogatepass")


def line_reader(stream: TextIO | BinaryIO, limit: int) -> LineReader:
    """A LineReader over a stream's bytes (``sys.stdin.buffer`` for ``sys.stdin``)."""
    raw = getattr(stream, "buffer", None)
    if raw is not None:
        return LineReader(raw, limit)
    if isinstance(stream, TextIOBase):
        return LineReader(_EncodedText(stream), limit)  # type: ignore[arg-type]
    return LineReader(stream, limit)  # type: ignore[arg-type]
