"""The typewriter's paper: each piece stamped with the machine's clock, and bounded.

Front ends get the time of a printed piece from here, never from the machine. The paper
keeps at most ``limit`` characters (the oldest pieces go first), so a kiosk left on for
months holds the same amount of paper as one switched on this morning. Positions are
absolute piece counts since the paper was loaded, so they stay valid after trimming.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ..machine.devices import Typewriter

PAPER_LIMIT = 16_000  # characters kept: the current game and some forty before it


@dataclass(frozen=True)
class PrintedChunk:
    """Text the typewriter typed, the machine's clock (pulses) when it was typed, and the
    pulses since the operator last released a keyboard word (the program's decision time)."""

    text: str
    pulses: int
    since_release: int = 0


class Paper:
    def __init__(self, limit: int = PAPER_LIMIT) -> None:
        self.limit = limit
        self.chunks: deque[PrintedChunk] = deque()
        self.first = 0  # the position of chunks[0]
        self.characters = 0  # characters in chunks
        self.released = 0  # the machine's clock at the last keyboard release (or clear)
        self.listeners: list[Callable[[PrintedChunk], None]] = []

    @property
    def end(self) -> int:
        """The position after the last piece typed (a mark for ``since``)."""
        return self.first + len(self.chunks)

    def add(self, text: str, pulses: int) -> None:
        chunk = PrintedChunk(text, pulses, pulses - self.released)
        self.chunks.append(chunk)
        self.characters += len(text)
        while self.characters > self.limit and len(self.chunks) > 1:
            self.characters -= len(self.chunks.popleft().text)
            self.first += 1
        for listener in self.listeners:
            listener(chunk)

    def pieces_since(self, mark: int) -> list[PrintedChunk]:
        """The pieces typed from position ``mark`` on (those still kept)."""
        start = max(0, mark - self.first)
        return [self.chunks[i] for i in range(start, len(self.chunks))]

    def since(self, mark: int) -> str:
        return "".join(chunk.text for chunk in self.pieces_since(mark))

    @property
    def text(self) -> str:
        """All the paper still kept."""
        return "".join(chunk.text for chunk in self.chunks)

    def truncate(self, mark: int) -> None:
        """Tear off everything typed from position ``mark`` on (for going back in time)."""
        while self.chunks and self.end > mark:
            self.characters -= len(self.chunks.pop().text)
        self.first = min(self.first, mark) if not self.chunks else self.first

    def replace(self, text: str) -> None:
        """Start again with ``text`` as the paper (a restored machine's paper)."""
        self.chunks.clear()
        self.characters = 0
        self.first = 0
        if text:
            self.chunks.append(PrintedChunk(text, 0))
            self.characters = len(text)


class StampedTypewriter(Typewriter):
    """The SC typewriter: types each word onto the paper with the clock's reading."""

    def __init__(self, paper: Paper, clock: Callable[[], int]) -> None:
        super().__init__()
        self.paper = paper
        self.clock = clock

    def print_word(self, word: str) -> None:
        text = self.text_of(word)
        if text:
            self.paper.add(text, self.clock())
