"""Reel files: a tape as UTF-8 text, one word a line, 60 lines a block (docs/tape-format.md).

Parsing is all-or-nothing, with the line number of the first problem; words follow the
memory-image glyph rules (image.parse_word_text). Saving writes a temporary file beside
the target and renames it over, so a reel on disk is always whole.
"""

from __future__ import annotations

from pathlib import Path

from ..hostio.atomic_files import atomic_write
from ..hostio.text_files import TextFileError, read_text_file
from ..machine.tape import BLOCK_WORDS, Reel
from ..machine.word import ZERO, to_text
from .image import parse_word_text

# A 1,200-foot Uniservo reel held about 1.5 million characters, some 2,000 blocks.
MAX_BLOCKS = 2_000
MAX_REEL_BYTES = 16_000_000


class ReelError(ValueError):
    """A reel file that cannot be used; the message names the file, the line and why."""

    def __init__(self, reason: str, line: int | None = None, source: str = "reel") -> None:
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {reason}")
        self.line = line
        self.reason = reason


def parse_reel(text: str, source: str = "reel", writable: bool = False) -> Reel:
    """The reel a text describes; a short last block is filled out with zero words."""
    words: list[str] = []
    if text.startswith("\ufeff"):
        text = text[1:]
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if _is_comment(line):
            continue
        if line[0].isspace():
            raise ReelError("a word starts in the first column (write a blank as Δ)",
                            number, source)
        word, _remark = parse_word_text(line, lambda reason, n=number: ReelError(
            reason, n, source))
        words.append(word)
        if len(words) > MAX_BLOCKS * BLOCK_WORDS:
            raise ReelError(f"more than {MAX_BLOCKS:,} blocks: longer than a reel of tape",
                            number, source)
    if len(words) % BLOCK_WORDS:
        words += [ZERO] * (BLOCK_WORDS - len(words) % BLOCK_WORDS)
    blocks = [tuple(words[i:i + BLOCK_WORDS]) for i in range(0, len(words), BLOCK_WORDS)]
    return Reel(blocks, writable=writable, name=source)


def _is_comment(line: str) -> bool:
    """Blank, indented ``#``, or ``#`` then a space or nothing. ``#`` is also a UNIVAC
    character, so a word may begin with it: ``#ABCDEFGHIJK`` is a word, ``# ABC`` a comment
    (a word beginning ``#`` and a space is written ``#Δ``)."""
    stripped = line.lstrip()
    if not stripped:
        return True
    if not stripped.startswith("#"):
        return False
    return stripped != line or len(stripped) == 1 or stripped[1].isspace()


def read_reel(path: str | Path, writable: bool = False) -> Reel:
    """Read a reel file; every failure is a ReelError with a clear reason."""
    try:
        text = read_text_file(path, MAX_REEL_BYTES)
    except TextFileError as exc:
        raise ReelError(exc.reason, exc.line, str(path)) from None
    return parse_reel(text, str(path), writable)


def format_reel(reel: Reel, header: str = "",
                remarks: dict[tuple[int, int], str] | None = None,
                block_notes: dict[int, str] | None = None) -> str:
    """The reel as text: a ``# block k`` line before each block, then its 60 words.

    ``remarks`` maps (block index, word index) to a remark written after the word;
    ``block_notes`` (block index to text) goes on the block's own line.
    """
    lines = [f"# {h}" if h else "#" for h in header.splitlines()]
    for index, block in enumerate(reel.blocks):
        note = (block_notes or {}).get(index)
        lines.append(f"# block {index + 1}" + (f": {note}" if note else ""))
        for offset, word in enumerate(block):
            line = to_text(word)
            remark = (remarks or {}).get((index, offset))
            if remark:
                line += f"  {remark}"
            lines.append(line)
    return "\n".join(lines) + "\n"


def save_reel(reel: Reel, path: str | Path, header: str = "") -> None:
    """Write the reel atomically (temporary file, then rename); OSError if it cannot be."""
    atomic_write(path, format_reel(reel, header))


class TapeSpec:
    """A ``--tape N=FILE[:rw]`` mount request: unit 1-10 (``-`` or 10 for the tenth)."""

    def __init__(self, text: str) -> None:
        unit_text, sep, path = text.partition("=")
        if not sep or not path:
            raise ValueError(f"{text!r}: write a mount as N=FILE or N=FILE:rw")
        units = {**{str(n): n for n in range(1, 11)}, "-": 10}
        if unit_text not in units:
            raise ValueError(f"{unit_text!r} is not a Uniservo: 1-9, or - (or 10) for the "
                             "tenth")
        self.unit = units[unit_text]
        self.writable = False
        for suffix, writable in ((":rw", True), (":ro", False)):
            if path.endswith(suffix):
                path, self.writable = path[:-len(suffix)], writable
        if not path:
            raise ValueError(f"{text!r} names no file")
        self.path = Path(path)

    def load(self) -> Reel:
        """The reel to mount; a writable reel that does not exist yet starts blank."""
        if self.writable and not self.path.exists():
            return Reel([], writable=True, name=str(self.path))
        return read_reel(self.path, self.writable)
