"""The console's paper as screen rows: the newest lines at the bottom, or, scrolled back, a
page from an earlier line; the operator's keyed lines in their own style.

The rows are built again only when the paper, the scroll position or the window's size
change (a reply), never for a key's echo. The paper is also kept in the PaperView's
buffer (what the prompt_toolkit window and the tests read), filled when it is read: once
that window is made (only to be drawn by prompt_toolkit, in a test) at every change, as
before; its wrapping follows that window's (``wrap_lines``: a line breaks at the window's
width, each line with room for the cursor after its last character). A served terminal
never reads it: filling it at every reply (a Document of the whole paper and the buffer's
events) was about a thirtieth of a served move.
"""

from __future__ import annotations

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document

from ..desk.paper import KEYED_MARK
from ..tui.paper_view import PaperView
from ..tui.row_renderer import Row, chunks, pad, visible_fragments


class PaperRows(PaperView):
    """The paper, scrolled by the console itself (it is drawn by the row renderer, so no
    prompt_toolkit window measures what is visible)."""

    def __init__(self, style: str = "class:paper") -> None:
        super().__init__(style)
        self._style = style
        self._keyed_style = f"{style} class:keyed"
        self._lines: list[str] = [""]
        self._version = 0  # counts the paper's changes: the cache's key
        self.top: int | None = None  # the first line shown when scrolled back; None: newest
        self._first_shown = 0  # the first line in view when last drawn
        self._page = 1  # rows in view when last drawn
        self._key: tuple[int, int, int, int | None] | None = None
        self._rows: list[Row] = []
        self._wrapped: dict[str, list[Row]] = {}  # the lines in view last time, wrapped
        self._known: dict[str, list[Row]] = {}
        self._text = ""  # the paper shown

    @property
    def buffer(self) -> Buffer:
        """The paper in a read-only buffer, the cursor at its end, filled when read (the
        buffer keeps the very string it was filled with: another one is an older paper)."""
        text = self._text
        if self._buffer.text is not text:
            self._buffer.set_document(Document(text, len(text)), bypass_readonly=True)
        return self._buffer

    @buffer.setter
    def buffer(self, buffer: Buffer) -> None:
        self._buffer = buffer

    def filled(self) -> bool:
        """Whether the buffer holds the paper shown now (False until something reads it)."""
        return self._buffer.text is self._text

    @property
    def at_end(self) -> bool:
        return self.top is None

    def sync(self, text: str) -> None:
        if text == self._text:
            return
        old, self._text = self._text, text
        if "window" in vars(self):  # PaperView's window, made: it shows the buffer, read now
            self.buffer  # noqa: B018 - filled as it is read
        if old and text.startswith(old):  # typed on (the paper is cut only now and then):
            # the new lines only, split; the lines before are the same strings, their
            # hashes known to the wrapped lines' tables (a reply split 4,000 characters)
            lines = self._lines
            lines[-1:] = (lines[-1] + text[len(old):]).split("\n")
        else:
            self._lines = text.split("\n")
        self._version += 1
        if self.top is not None:
            self.top = min(self.top, len(self._lines) - 1)

    def to_end(self) -> None:
        self.top = None

    def page_up(self) -> None:
        self.scroll(-max(1, self._page - 1))

    def page_down(self) -> None:
        self.scroll(max(1, self._page - 1))

    def scroll(self, lines: int) -> None:
        """Back (negative) or on by whole lines; on past the newest line follows it."""
        start = self._first_shown if self.top is None else self.top
        target = max(0, start + lines)
        if lines > 0 and self._rows_from(target) <= self._page:
            self.top = None
        elif lines < 0 or self.top is not None:
            self.top = target

    def _rows_from(self, line: int) -> int:
        return sum(len(text) // self._width + 1 for text in self._lines[line:])

    _width = 1

    def rows(self, width: int, height: int) -> list[Row]:
        """``height`` rows, each exactly ``width`` columns, of the paper as it is shown."""
        width, height = max(1, width), max(0, height)
        key = (self._version, width, height, self.top)
        if key == self._key:
            return self._rows
        if width != self._width:
            self._wrapped = {}
        self._width, self._page = width, max(1, height)
        self._known, self._wrapped = self._wrapped, {}  # the lines in view, wrapped
        wrapped: list[Row] = []
        if self.top is None:  # the newest lines: as many whole lines as fit, from the end
            lines, known, kept = self._lines, self._known, self._wrapped
            first = len(lines)
            picked: list[list[Row]] = []  # the lines' rows, newest first
            count = 0
            while first > 0:  # (the wrapped line looked up here: a reply's frame looks up
                text = lines[first - 1]  # every line in view, a call each was a tenth)
                line = known.get(text)
                if line is None:
                    line = self._wrap(text, width)
                kept[text] = line
                if count + len(line) > height and first < len(lines):
                    break
                picked.append(line)
                count += len(line)
                first -= 1
            wrapped = [row for line in reversed(picked) for row in line]
            wrapped = wrapped[:height]  # a newest line taller than the window: its start
            self._first_shown = first
        else:
            line = self.top
            while line < len(self._lines) and len(wrapped) < height:
                wrapped += self._wrapped_line(self._lines[line], width)
                line += 1
            wrapped = wrapped[:height]
            self._first_shown = self.top
        blank: Row = ((self._style, " " * width),)
        self._rows = wrapped + [blank] * (height - len(wrapped))
        self._key = key
        return self._rows

    def _wrapped_line(self, text: str, width: int) -> list[Row]:
        """The line's rows, wrapped again only if it was not in view last time."""
        rows = self._known.get(text)
        if rows is None:
            rows = self._wrap(text, width)
        self._wrapped[text] = rows
        return rows

    def _wrap(self, text: str, width: int) -> list[Row]:
        """The line's rows; its own characters in its style, the rest of the row paper."""
        style = self._keyed_style if text.startswith(KEYED_MARK) else self._style
        if not text.isprintable():  # control characters: shown as ^[ and <9b>, 2-4 wide
            shown = chunks((*visible_fragments(style, text), (self._style, " ")), width)
            return [pad(row, width, self._style) for row in shown]
        rows: list[Row] = []
        for start in range(0, len(text) + 1, width):  # + 1: room for the cursor at the end
            chunk = text[start:start + width]
            rest = (self._style, " " * (width - len(chunk)))
            rows.append(((style, chunk), rest) if chunk else (rest,))
        return rows
