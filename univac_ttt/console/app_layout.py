"""The full-screen console's layout: the paper and the side panel, the hint line, the
keyboard line, the key bar and the help box, each drawn from the console's state. It reads
the state; the actions are the console's (app.py), the keys app_keys.py's.

The texts here (title, hint, bar, help, prompt) are what app_rows.py draws; the drawing
itself is app_rows.py's rows, not this layout's windows (prompt_toolkit's whole-screen pass
cost ten times more). So the Application's own layout is only the keyboard line
(``keys_container``: the focused buffer its key bindings act on), and the windows below
(``container``) are built only when something asks for them: a test draws them with
prompt_toolkit's renderer and holds that drawing and the rows equal, cell by cell (change
them together). Built at every connection they were some 310 of a seated terminal's 610
objects the collector tracks, walked by every reclaim of a served class."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, FormattedText
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension

from ..tui.theme import style
from ..tui.wrap import wrap_words
from .side_panel import PANEL_WIDTH, PanelCache

if TYPE_CHECKING:
    from .app import ConsoleApp

KEYS_HELP = """Keys: F1 this help   F2 new game   F3 typing speed   F4 save the paper
      PageUp/PageDown or the mouse wheel scroll the paper; Up/Down earlier entries
      Ctrl-Q or Ctrl-D quit (press twice)          Esc or Enter close this help"""
SERVED_KEYS_HELP = KEYS_HELP.replace("   F4 save the paper", "")  # a served terminal saves none
IMAGE_HELP_INTRO = """A PROGRAM ON THE UNIVAC I

The UNIVAC runs the memory image you named. When the INPUT READY lamp is lit, type
a word (up to twelve keys of the UNIVAC's keyboard) and press Enter: the word
release. What you key is shown on the paper after "> "; the rest is what the
program typed.

"""

STYLE = style({
    "hint": "#c0c0c0 italic",
    "hint.warn": "#ff8080 bold",
    "keyed": "#a02020 bold",  # the operator's keyed entry on the paper
    "prompt": "bold #f0b040",
    "keyboard": "bold",
    "bar.key": "bg:#303030 #f0b040 bold",
})
HELP_WIDTH = 84  # the help box's widest; narrower screens wrap it at words
PANEL_FROM = 76  # the side panel shows from this width on: the paper keeps 44 columns, so
# the program's lines (43 characters) are whole (at 64 columns "CODE" broke as "COD" / "E")
PAPER_MAX = 80  # the paper's widest (a typewriter's line): the panel stays beside it on a
# wide screen (at 200 columns it sat 170 columns from the board), the rest is left blank
GUTTER_COLUMNS = 1  # blank between the paper and the panel: a full paper line never touches it
HINT_LINES = 3  # a long hint (a saved file's path) wraps onto at most this many lines


def spare_columns(columns: int) -> int:
    """The blank columns right of the panel on a screen ``columns`` wide."""
    return (max(0, columns - PAPER_MAX - GUTTER_COLUMNS - PANEL_WIDTH - 1)
            if columns >= PANEL_FROM else 0)


class ConsoleLayout:
    """The console's windows, drawn from ``console`` (its session, pacer, hint, help)."""

    def __init__(self, console: ConsoleApp) -> None:
        self.console = console
        self._panel = PanelCache()

    @cached_property
    def container(self) -> Container:
        """The whole screen as prompt_toolkit windows (what app_rows.py draws as rows)."""
        return self._build()

    def keys_container(self) -> Container:
        """The application's layout: the keyboard line's buffer, focused, which the key
        bindings (prompt_toolkit's editing keys among them) act on; nothing of it is drawn
        by prompt_toolkit."""
        return Window(BufferControl(self.console.keyboard_buffer), height=1)

    def columns(self) -> int:
        try:
            return self.console.app.output.get_size().columns
        except Exception:  # noqa: BLE001 - a size we cannot read is a small one
            return 0

    def rows(self) -> int:
        try:
            return self.console.app.output.get_size().rows
        except Exception:  # noqa: BLE001
            return 0

    def spare_columns(self) -> int:
        """The blank columns right of the panel: what a wide screen has past the paper's
        widest and the panel (0 when the panel is not shown)."""
        return spare_columns(self.columns())

    def hint_lines(self) -> list[str]:
        """The hint wrapped at words to the screen's width (nothing cut at 80 columns)."""
        lines = wrap_words(f" {self.console.hint}", (self.columns() or 80) - 1)
        return lines[:HINT_LINES]

    def hint_text(self) -> FormattedText:
        style = "class:hint.warn" if self.console.hint_is_warning else "class:hint"
        return FormattedText([(style, "\n".join(self.hint_lines()))])

    def help_lines(self) -> list[str]:
        """The help for this console (a served one has no F4), wrapped at words."""
        settings = self.console.settings
        keys = KEYS_HELP if settings.save_directory is not None else SERVED_KEYS_HELP
        pack = settings.pack
        text = (pack.help + "\n\n" if pack.help else IMAGE_HELP_INTRO) + keys
        return wrap_words(text, min(HELP_WIDTH, self.columns() or HELP_WIDTH), reflow=True)

    def help_shown(self) -> list[str]:
        """The help lines the screen has rows for, from the console's ``help_top``; when
        some are left out, the last row says which are shown and how to see the rest."""
        lines = self.help_lines()
        room = self.rows() or len(lines)
        if len(lines) <= room:
            return lines
        page = max(1, room - 1)
        top = self.console.help_top = max(0, min(self.console.help_top, len(lines) - page))
        shown = lines[top:top + page]
        more = f" lines {top + 1}-{top + len(shown)} of {len(lines)}: PageUp/PageDown"
        return shown + [more[:max(1, min(HELP_WIDTH, self.columns() or HELP_WIDTH))]]

    def help_page_lines(self) -> list[str]:
        """The lines shown, each after the margin that centres the help on the screen."""
        margin = " " * max(0, ((self.columns() or HELP_WIDTH) - HELP_WIDTH) // 2)
        return [margin + line if line else line for line in self.help_shown()]

    def help_page(self) -> int:
        """Lines a PageUp or PageDown moves the help by."""
        return max(1, (self.rows() or 2) - 2)

    def bar_text(self) -> FormattedText:
        narrow = self.columns() < 64
        keys = (("F1", "help"), ("F2", "new"), ("F3", "speed"), ("F4", "save"),
                ("^Q", "quit")) if narrow else (
            ("F1", "help"), ("F2", "new game"), ("F3", "speed"), ("F4", "save paper"),
            ("Ctrl-Q", "quit"))
        if self.console.settings.save_directory is None:  # a served terminal: no F4
            keys = tuple(key for key in keys if key[0] != "F4")
        parts: list[tuple[str, str]] = []
        for key, label in keys:
            parts += [("class:bar.key", f" {key}"), ("class:bar", f" {label}" + " " * (not narrow))]
        return FormattedText(parts)

    def title_text(self) -> FormattedText:
        wide = self.columns() >= 52
        banner = self.console.settings.pack.banner
        if banner:
            title = (f" UNIVAC I  ·  SUPERVISORY CONTROL  ·  {banner}" if wide
                     else f" UNIVAC I · {banner}")
        else:
            title = " UNIVAC I  ·  SUPERVISORY CONTROL" if wide else " UNIVAC I"
        return FormattedText([("class:title", title)])

    def panel_text(self) -> ANSI:
        console = self.console
        return self._panel.panel(console.session, console.typing, console.pacer.authentic,
                                 pack=console.settings.pack, uniservos=console.uniservo_lines())

    def prompt_text(self) -> FormattedText:
        session = self.console.session
        lamp = "INPUT READY ▸ " if (session.waiting_for_keyboard and not self.console.typing
                                    and not session.error) else "KEYBOARD    ▸ "
        return FormattedText([("class:prompt", f" {lamp}")])

    def _build(self) -> Container:
        console = self.console
        wide = Condition(lambda: self.columns() >= PANEL_FROM)
        tall = Condition(lambda: self.rows() >= 10)
        panel = ConditionalContainer(
            Window(FormattedTextControl(self.panel_text), width=PANEL_WIDTH + 1,
                   dont_extend_width=True), filter=wide)
        keyboard_line = VSplit([
            Window(FormattedTextControl(self.prompt_text), dont_extend_width=True),
            Window(BufferControl(console.keyboard_buffer), style="class:keyboard"),
        ], height=1)
        body = HSplit([
            ConditionalContainer(Window(FormattedTextControl(self.title_text), height=1,
                                        style="class:title"), filter=tall),
            VSplit([console.paper.window,
                    ConditionalContainer(Window(width=GUTTER_COLUMNS), filter=wide), panel,
                    Window(width=lambda: Dimension.exact(self.spare_columns()))]),
            Window(FormattedTextControl(self.hint_text),
                   height=lambda: Dimension.exact(len(self.hint_lines()))),
            keyboard_line,
            ConditionalContainer(Window(FormattedTextControl(self.bar_text), height=1,
                                        style="class:bar"), filter=tall),
        ])
        help_window = ConditionalContainer(
            # the screen's whole width, the text centred in it: no piece of the paper or
            # the panel shows beside the help (it did at 100 columns)
            Window(FormattedTextControl(lambda: "\n".join(self.help_page_lines())),
                   style="class:help", width=lambda: Dimension.exact(self.columns() or 1),
                   height=lambda: Dimension.exact(len(self.help_shown()))),
            filter=Condition(lambda: console.show_help))
        return FloatContainer(body, floats=[Float(help_window)])
