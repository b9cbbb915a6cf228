"""The console's screen as rows, for the row renderer (tui/row_renderer.py): the title, the
paper beside the side panel, the hint, the keyboard line, the key bar and the help box over
them, where app_layout.py's prompt_toolkit layout puts them and in its styles (a test holds
the two drawings equal, cell by cell).

Each part is rebuilt only when what it shows changes: the paper when the paper, its scroll
or the size change (paper_rows.py), the panel when its figures change (side_panel.py's
cache), the hint when the hint changes; a key's echo builds one row. A frame is then a
list of tuples that the renderer compares with the last one, and each middle row's two
parts (the paper's, the rest) that it encodes them by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.data_structures import Size
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from ..tui.row_renderer import Frame, MouseRegions, Row, cut, overlay, pad, visible
from . import panel_rows
from .app_layout import GUTTER_COLUMNS, PANEL_FROM, spare_columns
from .panel_rows import PANEL_COLUMNS
from .side_panel import Lamp, lamp_for

if TYPE_CHECKING:
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone

    from .app import ConsoleApp

WIDE, TALL = PANEL_FROM, 10  # from these sizes on, the panel, the title and the key bar show
GUTTER: Row = (("", " " * GUTTER_COLUMNS),)
PANEL_BLANK: Row = (("", " " * PANEL_COLUMNS),)  # under the panel (one object: kept rows)


class ConsoleRows:
    """Composes the console's frames from its state; ``frame`` is the renderer's compose."""

    def __init__(self, console: ConsoleApp) -> None:
        self.console = console
        self._panel_key: tuple[object, ...] | None = None
        self._panel_shown: list[Row] = []  # the panel's rows at the body's height
        # the paper's and the panel's rows and the spare width the middle was made from
        self._middle_from: tuple[list[Row] | None, list[Row] | None, int] = (None, None, -1)
        self._middle: list[Row] = []
        self._middle_parts: list[tuple[Row, ...]] = []
        self._right_from: tuple[list[Row] | None, int] = (None, -1)  # the panel, the spare
        self._right: list[Row] = []  # the gutter, the panel's rows and the spare blank
        self._panel_rows: list[Row] = []
        self._hint_key: tuple[str, bool, int] | None = None
        self._hint_rows: list[Row] = []
        self._fixed_key: tuple[object, ...] | None = None
        self._fixed: tuple[Row, Row] = ((), ())
        self._mouse_key: tuple[int, int, int] | None = None
        self._mouse = MouseRegions()
        self._lamps_key: tuple[object, ...] | None = None
        self._lamp: Lamp | None = None
        self._prompt: Row = ()
        self._keyboard_key: tuple[object, ...] | None = None
        self._keyboard_row: tuple[Row, int] = ((), 0)

    def frame(self, size: Size) -> Frame:
        console = self.console
        columns, height = size.columns, size.rows
        drawn = columns
        tall, wide = height >= TALL, columns >= WIDE
        title, bar = self._title_and_bar(columns, drawn)
        hint = self._hint(columns, drawn)
        body = max(0, height - len(hint) - 1 - (2 if tall else 0))
        spare = spare_columns(columns)  # blank right of the panel on a wide screen
        # a blank column between paper and panel (GUTTER_COLUMNS): a keyed line as wide as
        # the paper ran into the panel's words ("9999type a square code")
        paper_width = columns - GUTTER_COLUMNS - PANEL_COLUMNS - spare if wide else columns
        paper = console.paper.rows(paper_width, body)  # rows exactly paper_width wide
        lamp, prompt = self._lamps()
        panel = self._panel(body, lamp) if wide else None  # rows exactly PANEL_COLUMNS wide
        made_from = self._middle_from
        if paper is not made_from[0] or panel is not made_from[1] or spare != made_from[2]:
            self._middle, self._middle_parts = self._beside(paper, panel, spare, body)
            self._middle_from = (paper, panel, spare)
        rows = ([title] if tall else []) + self._middle + hint
        keyboard_y = len(rows)
        keyboard, cursor_x = self._keyboard(prompt, columns, drawn)
        rows.append(keyboard)
        if tall:
            rows.append(bar)
        parts: list[tuple[Row, ...]] | None = None
        if console.show_help:
            rows = self._with_help(rows, columns, height, drawn)
        else:
            parts = ([(title,)] if tall else []) + self._middle_parts + [
                (row,) for row in rows[keyboard_y - len(hint):]]
        return Frame(rows[:height], (cursor_x, keyboard_y),
                     self._mouse_for(1 if tall else 0, paper_width, body),
                     None if parts is None else parts[:height])

    def _beside(self, paper: list[Row], panel: list[Row] | None, spare: int,
                body: int) -> tuple[list[Row], list[tuple[Row, ...]]]:
        """The middle rows (the paper's beside the gutter, the panel's and the spare
        blank) and each one's two parts, the paper's and the rest: as the paper scrolls,
        a row shows the line of the row below it beside the same panel row, two parts the
        renderer has encoded before. The rest is made again only when the panel changes."""
        if panel is None:
            return paper, [(row,) for row in paper]
        was, was_spare = self._right_from
        if panel is not was or spare != was_spare:
            blank: Row = (("", " " * spare),) if spare else ()
            if was is None or spare != was_spare or len(was) != len(panel):
                self._right = [GUTTER + row + blank for row in panel]
            else:  # a panel row as it was (the card's, the score's) keeps its right row
                right = self._right
                self._right = [right[y] if row is was[y] else GUTTER + row + blank
                               for y, row in enumerate(panel)]
            self._right_from = (panel, spare)
        right = self._right
        return ([paper[y] + right[y] for y in range(body)],
                [(paper[y], right[y]) for y in range(body)])

    def _lamps(self) -> tuple[Lamp, Row]:
        """The panel's lamp and the keyboard line's prompt, worked out again only when
        what they are read from changes (the machine's stop and place: Desk.lamps_key;
        the typing): a key's echo has the same, and a frame's lamp took a tenth of it."""
        console = self.console
        typing, hint = console.typing, console.settings.pack.key_hint
        key = (console.session.desk.lamps_key(), typing, hint)
        if key != self._lamps_key or self._lamp is None:
            self._lamp = lamp_for(console.session, typing, hint)
            self._prompt = tuple(console.layout.prompt_text())
            self._lamps_key = key
        return self._lamp, self._prompt

    def _title_and_bar(self, columns: int, drawn: int) -> tuple[Row, Row]:
        layout = self.console.layout
        key = (columns, self.console.settings.pack.banner,
               self.console.settings.save_directory is None)
        if key != self._fixed_key:
            title = pad(tuple(("class:title", text) for _, text in layout.title_text()),
                        drawn, "class:title")
            bar = pad(tuple((f"class:bar {style}", text) for style, text in layout.bar_text()),
                      drawn, "class:bar")
            self._fixed, self._fixed_key = (title, bar), key
        return self._fixed

    def _hint(self, columns: int, drawn: int) -> list[Row]:
        console = self.console
        key = (console.hint, console.hint_is_warning, columns)
        if key != self._hint_key:
            style = "class:hint.warn" if console.hint_is_warning else "class:hint"
            self._hint_rows = [cut(((style, visible(line)),), drawn)
                               for line in console.layout.hint_lines()]
            self._hint_key = key
        return self._hint_rows

    def _panel(self, height: int, lamp: Lamp) -> list[Row]:
        """The side panel's rows, built again only when what it shows changes."""
        console = self.console
        session, pack, typing = console.session, console.settings.pack, console.typing
        uniservos = tuple(console.uniservo_lines())
        last, game = session.last_move, session.game
        key = (lamp, last.instructions, last.pulses,
               game.instructions, game.pulses, session.game_over,
               tuple(sorted(session.score.counts.items())),
               console.pacer.authentic, id(pack), uniservos)
        if key != self._panel_key or len(self._panel_shown) != height:
            if key != self._panel_key:
                self._panel_rows = panel_rows.panel_rows(
                    session, typing, console.pacer.authentic, pack=pack, uniservos=uniservos,
                    lamp=lamp)
                self._panel_key = key
            rows = self._panel_rows[:height]
            self._panel_shown = rows + [PANEL_BLANK] * (height - len(rows))
        return self._panel_shown

    def _keyboard(self, prompt: Row, columns: int, drawn: int) -> tuple[Row, int]:
        """The keyboard line's row and the cursor's column on it, made again only when
        the prompt, the line, its cursor or the width change (the same row object is then
        the renderer's "unchanged" at a glance)."""
        buffer = self.console.keyboard_buffer
        buffer.load_history_if_not_yet_loaded()  # as BufferControl's drawing does: Up recalls
        text, position = buffer.text, buffer.cursor_position
        key = (prompt, text, position, columns, drawn)
        if key != self._keyboard_key:
            prompt_width = sum(len(part) for _, part in prompt)
            width = columns - prompt_width
            scroll = max(0, position + 1 - max(1, width))  # so the cursor shows (a paste)
            row = cut(pad((*prompt, ("class:keyboard", visible(text[scroll:]))), columns,
                          "class:keyboard"), drawn)
            self._keyboard_row = (row, prompt_width + position - scroll)
            self._keyboard_key = key
        return self._keyboard_row

    def _with_help(self, rows: list[Row], columns: int, height: int, drawn: int) -> list[Row]:
        """The help box over the screen, centred as prompt_toolkit centres a float."""
        lines = self.console.layout.help_page_lines()
        x, width = 0, columns  # the whole width, as the layout's help window
        y = max(0, int((height - len(lines)) / 2))
        rows = rows + [()] * (height - len(rows))
        for index, line in enumerate(lines[:max(0, height - y)]):
            patch: Row = (("class:help", visible(line)),)
            rows[y + index] = cut(overlay(rows[y + index], x, patch, width, "class:help"), drawn)
        return rows

    def _mouse_for(self, top: int, width: int, height: int) -> MouseRegions:
        """The wheel over the paper scrolls it, a line a turn, as its window did."""
        key = (top, width, height)
        if key != self._mouse_key:
            paper = self.console.paper

            def wheel(event: MouseEvent) -> NotImplementedOrNone:
                if event.event_type == MouseEventType.SCROLL_UP:
                    paper.scroll(-1)
                elif event.event_type == MouseEventType.SCROLL_DOWN:
                    paper.scroll(1)
                else:
                    return NotImplemented
                return None

            self._mouse = MouseRegions([(0, width, top, top + height, wheel)])
            self._mouse_key = key
        return self._mouse
