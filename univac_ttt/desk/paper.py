"""The typewriter's paper: each piece stamped with the machine's clock, and bounded.

Front ends get the time of a printed piece from here, never from the machine. The paper
keeps at most ``limit`` characters (the oldest pieces go first), so a kiosk left on for
months holds the same amount of paper as one switched on this morning. Positions are
absolute piece counts since the paper was loaded, so they stay valid after trimming.

The pieces are kept as plain tuples, handed out as ``PrintedChunk``s: a tuple of strings
and numbers is left out of the garbage collector's rounds once it has survived one
(CPython untracks such tuples, but only of the exact type), and a paper holds up to some
3,000 pieces. A served class's every full collection walked each seated terminal's
(``PrintedChunk``s were the most numerous of a terminal's tracked objects).

The desk's typewriter puts each word's piece on the paper as it is typed, stamped with the
machine's clock, and the listeners are told a run's pieces when the desk's run (or each of
its chunks) ends (``tell``): the front ends draw only between runs, and a pacer takes the
pieces in one call (``add_pieces``) rather than a chain of calls a word.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from itertools import islice

from ..machine.devices import _TYPED_WORDS, Typewriter
from ..machine.records import Record

PAPER_LIMIT = 16_000  # characters kept: the current game and some forty before it
# The operator's keyed entry is shown on its own line after this mark. The UNIVAC's
# typewriter has no ">" (docs/fidelity.md), so a keyed line can never be taken for its output.
KEYED_MARK = "> "
_new_chunk = tuple.__new__  # a PrintedChunk from its four fields, without its __new__
_Piece = tuple[str, int, int, bool]  # a kept PrintedChunk's fields, as a plain tuple

TYPE_CHECKING = False  # typing's flag without importing typing
if TYPE_CHECKING:
    from typing import Protocol

    class _Clocked(Protocol):
        pulses: int  # the machine's clock


class PrintedChunk(Record):
    """Text the typewriter typed, the machine's clock (pulses) when it was typed, and the
    pulses since the operator last released a keyboard word (the program's decision time).
    A named tuple: one is made at every print, and no dataclasses at start-up."""

    text: str
    pulses: int
    since_release: int = 0
    keyed: bool = False  # the operator's keyboard entry, not typed by the UNIVAC


class Paper:
    def __init__(self, limit: int = PAPER_LIMIT) -> None:
        self.limit = limit
        self.chunks: deque[_Piece] = deque()  # PrintedChunks' fields (see the docstring)
        self.first = 0  # the position of chunks[0]
        self.characters = 0  # characters in chunks
        self.released = 0  # the machine's clock at the last keyboard release (or clear)
        self.listeners: list[Callable[[PrintedChunk], None]] = []
        self.untold: list[_Piece] = []  # typed pieces the listeners have not been told of

    @property
    def end(self) -> int:
        """The position after the last piece typed (a mark for ``since``)."""
        return self.first + len(self.chunks)

    def add(self, text: str, pulses: int) -> None:
        """Typed by the UNIVAC, the listeners told at once (the desk's typewriter writes
        its pieces itself and tells them at the end of a run: ``StampedTypewriter``)."""
        piece = (text, pulses, pulses - self.released, False)
        self.chunks.append(piece)
        self.characters += len(text)
        self._trim()
        self.untold.append(piece)
        self.tell()

    def tell(self) -> None:
        """Tell the listeners of the pieces typed since they were last told, in order: a
        listener that is a bound ``add_printed`` of an object with ``add_pieces`` (the
        typewriter pacer) gets them in one call, any other one piece at a time."""
        untold = self.untold
        if not untold:
            return
        self.untold = []
        for listener in self.listeners:
            many = getattr(getattr(listener, "__self__", None), "add_pieces", None)
            if many is not None and getattr(listener, "__name__", "") == "add_printed":
                many(untold)
                continue
            for piece in untold:
                listener(_new_chunk(PrintedChunk, piece))

    def add_keyed(self, entry: str, pulses: int) -> None:
        """The operator's released entry, on a line of its own after ``KEYED_MARK``."""
        last = self.chunks[-1][0] if self.chunks else "\n"
        newline = "" if last.endswith("\n") else "\n"
        self._append(PrintedChunk(f"{newline}{KEYED_MARK}{entry}\n", pulses, 0, keyed=True))

    def _append(self, chunk: PrintedChunk) -> None:
        self.tell()  # (what was typed before it first)
        text = chunk.text
        self.chunks.append((text, chunk.pulses, chunk.since_release, chunk.keyed))
        self.characters += len(text)
        self._trim()
        for listener in self.listeners:
            listener(chunk)

    def _trim(self) -> None:
        """The oldest pieces go while the paper holds more than its limit (never the last)."""
        chunks = self.chunks
        while self.characters > self.limit and len(chunks) > 1:
            self.characters -= len(chunks.popleft()[0])
            self.first += 1

    def pieces_since(self, mark: int) -> list[PrintedChunk]:
        """The pieces typed from position ``mark`` on (those still kept)."""
        return [_new_chunk(PrintedChunk, piece) for piece in self._since(mark)]

    def _since(self, mark: int) -> list[_Piece]:
        chunks = self.chunks
        wanted = len(chunks) - max(0, mark - self.first)
        if wanted <= 0:
            return []
        pieces = list(islice(reversed(chunks), wanted))  # from the end: a deque indexes
        pieces.reverse()  # slowly in its middle, and a mark is near the end
        return pieces

    def since(self, mark: int) -> str:
        return "".join([piece[0] for piece in self._since(mark)])

    def typed_since(self, mark: int) -> str:
        """Only what the UNIVAC typed from ``mark`` on (results are read from this, so an
        entry such as ``YOU WIN`` keyed by the operator never counts). Read after every
        reply: joined from a list, not a generator resumed once a piece."""
        return "".join([piece[0] for piece in self._since(mark) if not piece[3]])

    @property
    def text(self) -> str:
        """All the paper still kept."""
        return "".join(piece[0] for piece in self.chunks)

    def truncate(self, mark: int) -> None:
        """Tear off everything typed from position ``mark`` on (for going back in time)."""
        self.tell()
        while self.chunks and self.end > mark:
            self.characters -= len(self.chunks.pop()[0])
        self.first = min(self.first, mark) if not self.chunks else self.first

    def replace(self, text: str) -> None:
        """Start again with ``text`` as the paper (a restored machine's paper)."""
        self.tell()  # (what was typed before it heard first, as at a tear-off)
        self.chunks.clear()
        self.characters = 0
        self.first = 0
        if text:
            self.chunks.append((text, 0, 0, False))
            self.characters = len(text)


class StampedTypewriter(Typewriter):
    """The SC typewriter: types each word onto the paper with the clock's reading (the
    machine's ``pulses`` when it is given one, else ``clock()``). The listeners are told
    when the desk's run ends (``Paper.tell``): a word costs one call, not a chain of them."""

    def __init__(self, paper: Paper, clock: Callable[[], int],
                 machine: _Clocked | None = None) -> None:
        super().__init__()
        self.paper = paper
        self.clock = clock
        self.machine = machine

    def print_word(self, word: str) -> None:
        known = _TYPED_WORDS.get((word, self.upper))  # text_of, written out: the hot path
        if known is None:
            text = self.text_of(word)
        else:
            text, self.upper = known
        if text:  # Paper.add written out, untold: every word of every reply comes here
            paper = self.paper
            machine = self.machine
            pulses = machine.pulses if machine is not None else self.clock()
            piece = (text, pulses, pulses - paper.released, False)
            paper.chunks.append(piece)
            paper.untold.append(piece)
            paper.characters += len(text)
            if paper.characters > paper.limit:
                paper._trim()
