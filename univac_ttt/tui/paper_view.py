"""The paper in a read-only prompt_toolkit buffer: it follows the newest line, scrolls back
a page at a time (PageUp/PageDown, the mouse wheel), and shows the operator's keyed lines
apart from what the UNIVAC typed."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.lexers import Lexer

from ..desk.paper import KEYED_MARK


def sync_paper(buffer: Buffer, text: str) -> None:
    """Show ``text`` in ``buffer`` with the cursor at the end (so the newest line shows)."""
    if text != buffer.text:
        buffer.set_document(Document(text, len(text)), bypass_readonly=True)


class KeyedLines(Lexer):
    """Lines the operator keyed (they start with ``KEYED_MARK``) in the ``keyed`` style."""

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        lines = document.lines

        def line(number: int) -> StyleAndTextTuples:
            text = lines[number] if number < len(lines) else ""
            return [("class:keyed" if text.startswith(KEYED_MARK) else "", text)]

        return line


class PaperView:
    """A paper window that keeps the newest line in view unless the reader scrolled back."""

    def __init__(self, style: str = "class:paper") -> None:
        self.buffer = Buffer(read_only=True)
        self._window_style = style

    @cached_property
    def window(self) -> Window:
        """The paper's window, made when a layout first asks for it (a console drawn by
        rows has none: a served terminal's share of the collector's work)."""
        return Window(BufferControl(self.buffer, focusable=False, lexer=KeyedLines()),
                      wrap_lines=True, style=self._window_style, always_hide_cursor=True)

    @property
    def at_end(self) -> bool:
        """True when the newest line is in view (new paper then keeps it in view)."""
        document = self.buffer.document
        if document.cursor_position_row >= document.line_count - 1:
            return True
        info = self.window.render_info
        return info is not None and info.last_visible_line() >= document.line_count - 1

    def sync(self, text: str) -> None:
        """Show ``text``; follow it to the end unless the reader is scrolled back."""
        if text == self.buffer.text:
            return
        cursor = len(text) if self.at_end else min(self.buffer.cursor_position, len(text))
        self.buffer.set_document(Document(text, cursor), bypass_readonly=True)

    def page_up(self) -> None:
        info = self.window.render_info
        if info is None:
            return
        page = max(1, info.window_height - 1)
        self._to_line(max(0, info.first_visible_line() - page))

    def page_down(self) -> None:
        info = self.window.render_info
        if info is None:
            return
        page = max(1, info.window_height - 1)
        target = info.last_visible_line() + page
        if target >= self.buffer.document.line_count - 1:
            self.to_end()
        else:
            self._to_line(target)

    def to_end(self) -> None:
        self.buffer.cursor_position = len(self.buffer.text)

    def _to_line(self, row: int) -> None:
        self.buffer.cursor_position = self.buffer.document.translate_row_col_to_index(row, 0)
