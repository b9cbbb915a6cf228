"""Memory images: a plain text file of ``address word remark`` lines (docs/image-format.md).

Parsing is all-or-nothing: the whole file is checked before a single word is loaded, and
the first problem is reported with its line number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..hostio.text_files import TextFileError, read_text_file
from ..machine.charset import BY_GLYPH, FROM_GLYPHS
from ..machine.word import WORD_LENGTH, to_text

MAX_IMAGE_BYTES = 1_000_000


class ImageError(ValueError):
    """A memory image that cannot be loaded; the message names the line and the reason."""

    def __init__(self, reason: str, line: int | None = None, source: str = "image") -> None:
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class MemoryImage:
    words: dict[int, str] = field(default_factory=dict)
    remarks: dict[int, str] = field(default_factory=dict)



def parse_image(text: str, source: str = "image") -> MemoryImage:
    image = MemoryImage()
    if text.startswith("\ufeff"):
        text = text[1:]
    for number, raw in enumerate(text.split("\n"), start=1):  # as editors count lines
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        address, word, remark = _parse_word_line(line, number, source)
        if address in image.words:
            raise ImageError(f"address {address:03d} is given twice", number, source)
        image.words[address] = word
        if remark:
            image.remarks[address] = remark
    return image


def _parse_word_line(line: str, number: int, source: str) -> tuple[int, str, str]:
    def fail(reason: str) -> ImageError:
        return ImageError(reason, number, source)

    head = line[:3]
    if len(head) < 3 or not head.isascii() or not head.isdigit():
        raise fail(f"a word line starts with a three-digit address, not {line[:3]!r}")
    if len(line) < 4 or line[3] != " ":
        raise fail("the address must be followed by one space and the word")
    word, remark = parse_word_text(line[4:], fail)
    return int(head), word, remark


def parse_word_text(text: str, fail: Callable[[str], Exception]) -> tuple[str, str]:
    """(word, remark) from 12 glyphs (a space is the blank, as Δ) and an optional remark
    after whitespace. Shared by memory images and tape reels; ``fail`` makes the error."""
    word_text = text[:WORD_LENGTH]
    if len(word_text) < WORD_LENGTH:
        raise fail(f"the word has {len(word_text)} characters; a word has exactly 12")
    for position, ch in enumerate(word_text, start=1):
        if ch != " " and ch not in BY_GLYPH:
            raise fail(f"character {position} of the word, {ch!r}, is not a UNIVAC character")
    rest = text[WORD_LENGTH:]
    if rest and not rest[0].isspace():
        raise fail("the word is longer than 12 characters (a remark must follow a space)")
    return word_text.replace(" ", "Δ").translate(FROM_GLYPHS), rest.strip()


def read_image(path: str | Path) -> MemoryImage:
    """Read and parse an image file; every failure is an ImageError with a clear reason."""
    try:
        text = read_text_file(path, MAX_IMAGE_BYTES)
    except TextFileError as exc:
        raise ImageError(exc.reason, exc.line, str(path)) from None
    image = parse_image(text, str(path))
    if not image.words:  # an empty file, or only remarks: a mistake, not a program of zeros
        raise ImageError("holds no word lines (an image is one word a line: a three-digit "
                         "address, a space and the word's 12 characters)", None, str(path))
    return image


def format_image(image: MemoryImage, header: str = "") -> str:
    """The image as text, one word a line in address order, remarks after the word."""
    lines = [f"# {h}" if h else "#" for h in header.splitlines()]
    for address in sorted(image.words):
        line = f"{address:03d} {to_text(image.words[address])}"
        remark = image.remarks.get(address)
        if remark:
            line += f"  {remark}"
        lines.append(line)
    return "\n".join(lines) + "\n"
