"""The kiosk screen: a big board, the caption, the paper and the keyboard line; locked keys.

Visitors can type square codes, ask for help (F1) and start a new game (F2); nothing else.
Ctrl-C, Ctrl-Z, Ctrl-\\, Ctrl-Q and Ctrl-D do nothing. Staff press F12 and type the PIN.
"""

from __future__ import annotations

import asyncio
import textwrap

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import PasswordProcessor
from prompt_toolkit.output import Output

from ..hostio.stdin_lines import KEYBOARD_LINE
from ..machine.charset import KEYBOARD_KEYS
from ..museum.controller import GREETING, NEW_GAME, STILL_TYPING, Kiosk, Mode
from ..packs.tictactoe import RESULT_PATTERN, tictactoe_pack
from ..tui.guard import run_guarded
from ..tui.paper_view import PaperView
from ..tui.theme import style
from ..tui.wrap import wrap_words
from .bigboard import SMALL, big_board_cells, board_size

STAFF_EXIT = 0
LOCKED_KEYS = ("c-c", "c-z", "c-\\", "c-q", "c-d", "f3", "f4", "c-x", "c-l")
KIOSK_HELP = tictactoe_pack().help + "\n\nPress Enter or Esc to close this help."
HELP_ROWS = 22  # the help box's rows at most
HELP_MORE = "PgDn: more  PgUp: back  Esc: close"  # a help taller than the screen's last row
BIG_SCREEN = (100, 41)  # columns and rows from which the board is drawn twice as large
CHROME_ROWS = 4  # the title, the hint line, the keyboard line and the key bar
NARROW = 60  # fewer columns than this take the small board, to leave the paper room
BAR = " Type a square code, 1 to 9, and press Enter.   F1 help   F2 new game"
SHORT_BAR = " Square code 1 to 9, then Enter.  F1 help  F2 new game"
DEMO_BAR = " DEMONSTRATION: the UNIVAC is playing itself. Press any key to play!"
SHORT_DEMO_BAR = " DEMONSTRATION. Press any key to play!"
NARROW_BAR = " 1-9, Enter  F1 help  F2 new"  # a 28-column screen's, the smallest
KEYS_BAR = " F1 help   F2 new game"  # while the screen already asks for the move
KEYED_MARK = "> "  # the visitor's entries on the paper
NARROW_DEMO_BAR = " DEMONSTRATION: press a key"
TITLE = " UNIVAC I  ·  TIC-TAC-TOE  ·  1951"
SHORT_TITLE = " UNIVAC I · TIC-TAC-TOE"
# The paper's column beside the board is shown from this width: the typewriter's board
# lines ("   O   2   3", 12 characters) fit whole (a narrower column broke them into a
# column of single squares); below it the paper is left out.
PAPER_MIN = 14
STYLE = style({
    "board": "#f0e6c8 bold",
    "board.keyed": "#f0b040 bold",  # the visitor's keyed X, until the UNIVAC's reply shows
    "keyed": "#a02020 bold",
    "caption": "#f0b040 bold",
    "prompt": "bold #f0b040",
    "prompt.staff": "bg:#a02020 #ffffff bold",
    "hint": "#ff8080 bold",
    "bar.demo": "bg:#f0b040 #000000 bold",  # lit the whole time a demonstration plays
})


class KioskApp:
    def __init__(self, kiosk: Kiosk, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.kiosk = kiosk
        self.show_help = False
        self.help_top = 0  # the help's first row shown (a screen shorter than the help)
        self._help_page = 1
        self.paper = PaperView()
        self.paper_buffer = self.paper.buffer
        self.keyboard_buffer = Buffer(multiline=False)
        self.pin_buffer = Buffer(multiline=False)
        self._synced: tuple[str, int] | None = None  # the paper text and width last shown
        self.app = self._build(input, output)
        self.app.before_render += lambda _app: self._sync()  # a resize re-wraps the paper
        self._sync()

    def paper_width(self) -> int:
        """The paper's column: what the board's column and the gap beside it leave."""
        return max(8, self._size()[0] - self.left_width() - 2)

    def paper_shown(self) -> bool:
        """Whether the paper has a column wide enough for the typewriter's boards."""
        return self._size()[0] - self.left_width() - 2 >= PAPER_MIN

    def _sync(self) -> None:
        """Show the typed paper wrapped at words to the paper's column: the typewriter's
        lines are wider than the column beside a large board (prompt_toolkit alone would
        break "1 T" / "O 9." at the last column). One column is left for the space a
        BufferControl puts after every line (the cursor's place): a line filling the
        column took a second, blank row."""
        text, width = self.kiosk.pacer.text, self.paper_width()
        if self._synced != (text, width):
            self._synced = (text, width)
            self.paper.sync("\n".join(wrap_words(text, width - 1)))

    # ---- drawing ---------------------------------------------------------------------

    def _size(self) -> tuple[int, int]:
        try:
            size = self.app.output.get_size()
            return size.columns, size.rows
        except Exception:  # noqa: BLE001 - a size we cannot read is a small one
            return 80, 24

    def scale(self) -> int:
        """2 on a big museum screen (the board and caption seen from a distance); 1 where
        that board's 17 rows fit under the title and over the keyboard lines; else the
        small board, so that no row of squares is ever cut off."""
        columns, rows = self._size()
        if columns >= BIG_SCREEN[0] and rows >= BIG_SCREEN[1]:
            return 2
        if rows - CHROME_ROWS >= board_size(1)[1] and columns >= NARROW:
            return 1
        return SMALL

    def _board_rows(self) -> int:
        return board_size(self.scale())[1]

    def shown_caption_lines(self) -> list[str]:
        """The caption under the board, after a blank line where there is room for one; none
        at all where it would not fit whole (a board cut off or half a sentence helps
        nobody; the paper beside still says what happened). The hint's rows come first."""
        room = self._room() - (len(self.hint_lines()) - 1)
        lines = self.caption_lines()
        if len(lines) > room:
            return []
        return ([""] if len(lines) < room else []) + lines

    def _room(self) -> int:
        """Rows under the board beside the one-row hint, keyboard line, title and bar."""
        return self._size()[1] - CHROME_ROWS - self._board_rows()

    def left_width(self) -> int:
        """The board's column: the board, indented two, and one column to spare."""
        return board_size(self.scale())[0] + 3

    def _board(self) -> FormattedText:
        fragments: list[tuple[str, str]] = []
        for line in big_board_cells(self.kiosk.board, self.scale(), self.kiosk.shown_keyed):
            fragments.append(("class:board", "  "))
            fragments += [("class:board.keyed" if keyed else "class:board", text)
                          for keyed, text in line]
            fragments.append(("", "\n"))
        return FormattedText(fragments[:-1])

    def caption_lines(self) -> list[str]:
        """The caption wrapped at words to the board's column, every line indented alike."""
        width = max(10, self.left_width() - 2)
        return textwrap.wrap(self.caption_text(), width, initial_indent=" ",
                             subsequent_indent=" ") or [""]

    def caption_text(self) -> str:
        """The caption; without the paper beside the board, a game's result as the UNIVAC
        typed it goes before the next game's greeting caption (the result was on no line
        of the screen once the greeting was typed)."""
        caption = self.kiosk.shown_caption
        if caption not in (GREETING, NEW_GAME) or self.paper_shown():
            return caption
        text = self.kiosk.pacer.text[-2_000:]
        keyed = text.rfind("\n" + KEYED_MARK)
        result = None
        for match in RESULT_PATTERN.finditer(text, max(keyed, 0)):
            result = match
        if keyed < 0 or result is None:
            return caption  # the first game, or F2: no game has just ended
        start = text.rfind("\n", 0, result.start()) + 1
        end = text.find("\n", result.end())
        return f"{text[start:end if end >= 0 else len(text)].strip()} {caption}"

    def help_lines(self) -> list[str]:
        """The help wrapped at words to the screen (an 80-column console cuts no word).
        Where it is taller than the screen (36x20), the rows from ``help_top`` and a last
        row saying how to read on and close: the help was cut mid-sentence, and its
        closing line never showed."""
        columns, rows = self._size()
        lines = wrap_words(KIOSK_HELP, min(84, columns), reflow=True)
        room = min(HELP_ROWS, rows)
        self._help_page = max(1, room - 1)
        if len(lines) <= room:
            self.help_top = 0
            return lines
        self.help_top = max(0, min(self.help_top, len(lines) - room))
        if self.help_top + room >= len(lines):
            return lines[self.help_top:]
        return [*lines[self.help_top:self.help_top + room - 1], HELP_MORE[:columns]]

    def scroll_help(self, pages: int) -> None:
        self.help_top = max(0, self.help_top + pages * self._help_page)

    def _caption(self) -> FormattedText:
        return FormattedText([("class:caption", "\n".join(self.shown_caption_lines()))])

    def _hint_text(self) -> tuple[str, str]:
        """A lit error neon; a hint about the last key; else, once INPUT READY is lit,
        "Your move: ..." (style, text)."""
        if self.kiosk.error_stop:
            return "class:hint", self.kiosk.error_stop
        if not self.kiosk.hint and self.kiosk.your_move:
            return "class:caption", self.kiosk.your_move
        return "class:hint", self.kiosk.hint

    def hint_lines(self) -> list[str]:
        """The hint over the keyboard line, wrapped at words onto the rows the board leaves
        (a 36-column kiosk cut "Your move: type a square code, 1 …" after every move); cut
        after its last whole word only where even those rows are too few."""
        text = self._hint_text()[1]
        lines = textwrap.wrap(text, max(self._size()[0] - 1, 8), initial_indent=" ",
                              subsequent_indent=" ") or [""]
        return lines if len(lines) <= 1 + max(0, self._room()) else [self._fitted(text)]

    def _hint(self) -> FormattedText:
        return FormattedText([(self._hint_text()[0], "\n".join(self.hint_lines()))])

    def asks_for_the_move(self) -> bool:
        """Whether the caption or the hint, shown whole, already says how to move."""
        caption = self.shown_caption_lines()
        hint = self.hint_lines()
        return ("Your move" in " ".join(caption) and "Enter" in caption[-1]) or (
            "Your move" in hint[0] and hint[-1].rstrip().endswith("Enter."))

    def _fitted(self, text: str) -> str:
        """A one-line message, indented one: whole on a wide screen; on a narrow one cut
        after its last whole word that fits, with "…" (no word cut in half)."""
        columns = self._size()[0]
        if not text or len(text) + 1 <= columns:
            return f" {text}" if text else ""
        return " " + textwrap.shorten(text, max(columns - 1, 4), placeholder=" …")

    def title_text(self) -> str:
        return TITLE if len(TITLE) <= self._size()[0] else SHORT_TITLE

    def _prompt(self) -> FormattedText:
        kiosk = self.kiosk
        if kiosk.mode is Mode.STAFF:
            if kiosk.staff_locked:  # no PIN is typed: every key is dropped till Esc/Enter
                return FormattedText([("class:prompt.staff", " STAFF PIN LOCKED ")])
            return FormattedText([("class:prompt.staff", " STAFF PIN > "), ("", " ")])
        if kiosk.demonstrating:
            return FormattedText([("class:prompt", " DEMONSTRATION ")])
        ready = kiosk.input_ready
        # ">" rather than a triangle: the Linux text console's font has few symbols
        return FormattedText([("class:prompt", " INPUT READY > " if ready else " UNIVAC ... ")])

    def bar_text(self) -> str:
        """The key bar: while a demonstration plays, that it is one (the caption above
        explains the UNIVAC's strategy meanwhile); the shorter words on a narrow screen."""
        columns = self._size()[0]
        bars = ((DEMO_BAR, SHORT_DEMO_BAR, NARROW_DEMO_BAR) if self.kiosk.demonstrating
                else (KEYS_BAR,) if self.asks_for_the_move()  # said once: not in the bar too
                else (BAR, SHORT_BAR, NARROW_BAR))
        return next((bar for bar in bars if len(bar) <= columns), bars[-1])

    def _bar(self) -> FormattedText:
        lit = "class:bar.demo" if self.kiosk.demonstrating else "class:bar"
        return FormattedText([(lit, self.bar_text().ljust(self._size()[0]))])

    def _build(self, input: Input | None, output: Output | None) -> Application[int]:
        staff = Condition(lambda: self.kiosk.mode is Mode.STAFF)
        keyboard_line = VSplit([
            Window(FormattedTextControl(self._prompt), dont_extend_width=True),
            ConditionalContainer(Window(BufferControl(self.keyboard_buffer)), filter=~staff),
            ConditionalContainer(Window(BufferControl(
                self.pin_buffer, input_processors=[PasswordProcessor()])), filter=staff),
        ], height=1)
        left = HSplit([
            Window(FormattedTextControl(self._board),
                   height=lambda: Dimension.exact(self._board_rows())),
            Window(FormattedTextControl(self._caption),
                   height=lambda: Dimension.exact(len(self.shown_caption_lines()))),
            Window(),  # the rest of a tall screen stays empty below the caption
        ], width=lambda: Dimension.exact(self.left_width()))
        body = HSplit([
            Window(FormattedTextControl(lambda: FormattedText([
                ("class:title", self.title_text())])), height=1, style="class:title"),
            VSplit([left, ConditionalContainer(VSplit([Window(width=2), self.paper.window]),
                                               filter=Condition(self.paper_shown))]),
            Window(FormattedTextControl(self._hint),
                   height=lambda: Dimension.exact(len(self.hint_lines()))),
            keyboard_line,
            Window(FormattedTextControl(self._bar), height=1, style="class:bar"),
        ])
        help_window = ConditionalContainer(
            Window(FormattedTextControl(lambda: "\n".join(self.help_lines())),
                   style="class:help", width=Dimension(preferred=84, max=84),
                   height=Dimension(preferred=22, max=22)),
            filter=Condition(lambda: self.show_help))
        return Application(layout=Layout(FloatContainer(body, [Float(help_window)]),
                                         focused_element=self.keyboard_buffer),
                           key_bindings=self._bindings(), style=STYLE, full_screen=True,
                           input=input, output=output)

    # ---- keys ------------------------------------------------------------------------

    def _focus(self) -> None:
        staff = self.kiosk.mode is Mode.STAFF
        if not staff:
            self.pin_buffer.reset()  # a PIN left half typed (a time-out) is not kept
        self.app.layout.focus(self.pin_buffer if staff else self.keyboard_buffer)

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        kiosk = self.kiosk

        @kb.add(Keys.Any)
        def _(event: KeyPressEvent) -> None:
            if kiosk.mode is Mode.STAFF:
                if (event.data.isprintable() and not kiosk.staff_locked
                        and len(self.pin_buffer.text) < KEYBOARD_LINE):
                    self.pin_buffer.insert_text(event.data)
                return
            if kiosk.activity() or self.show_help:
                self.show_help = False
                return
            if kiosk.pacer.busy:  # keys typed ahead would land in the next game
                kiosk.hint = STILL_TYPING
            elif len(self.keyboard_buffer.text) >= KEYBOARD_LINE:
                kiosk.hint = "The keyboard line is full. Press Enter or Backspace."
            elif event.data in KEYBOARD_KEYS:
                self.keyboard_buffer.insert_text(event.data.upper())
                kiosk.hint = ""
            else:
                kiosk.hint = "Only square codes: the digits 1 to 9."

        @kb.add(Keys.BracketedPaste)
        def _(event: KeyPressEvent) -> None:
            kiosk.activity()
            kiosk.hint = "Please type your move one key at a time."

        @kb.add("backspace")
        def _(event: KeyPressEvent) -> None:
            buffer = self.pin_buffer if kiosk.mode is Mode.STAFF else self.keyboard_buffer
            kiosk.last_activity = kiosk.clock()
            buffer.delete_before_cursor()

        @kb.add("enter")
        def _(event: KeyPressEvent) -> None:
            if kiosk.mode is Mode.STAFF:
                pin = self.pin_buffer.text
                self.pin_buffer.reset()
                if kiosk.staff_pin(pin):
                    self.app.exit(result=STAFF_EXIT)
                self._focus()
                return
            if self.show_help:
                self.show_help = False
                kiosk.activity()
                return
            text = self.keyboard_buffer.text
            if kiosk.submit(text):
                self.keyboard_buffer.reset()
            self._sync()

        @kb.add("f1")
        def _(event: KeyPressEvent) -> None:
            kiosk.activity()
            self.show_help = not self.show_help
            self.help_top = 0

        helping = Condition(lambda: self.show_help)

        @kb.add("pagedown", filter=helping)
        @kb.add("down", filter=helping)
        def _(event: KeyPressEvent) -> None:
            kiosk.activity()
            self.scroll_help(1)

        @kb.add("pageup", filter=helping)
        @kb.add("up", filter=helping)
        def _(event: KeyPressEvent) -> None:
            kiosk.activity()
            self.scroll_help(-1)

        @kb.add("f2")
        def _(event: KeyPressEvent) -> None:
            self.keyboard_buffer.reset()
            kiosk.new_game()
            self._sync()

        @kb.add("f12")
        def _(event: KeyPressEvent) -> None:
            kiosk.staff_begin()
            self._focus()

        @kb.add("escape", eager=True)
        def _(event: KeyPressEvent) -> None:
            self.show_help = False
            kiosk.staff_cancel()
            self.pin_buffer.reset()
            self._focus()

        for key in LOCKED_KEYS:
            @kb.add(key)
            def _(event: KeyPressEvent) -> None:
                kiosk.activity()  # visitors cannot quit, stop or change anything

        return kb

    def advance(self) -> None:
        """Time passing (the ticker's step). When a demonstration starts, a line the
        visitor typed and never released goes (it stayed under DEMONSTRATION, and the next
        visitor's first Enter played it as their move), and so does the help they left
        open (it hid the demonstrations all day)."""
        before = self.kiosk.mode
        if self.kiosk.tick() or self.kiosk.mode is not before:
            if self.kiosk.mode is Mode.ATTRACT:
                self.keyboard_buffer.reset()
                self.show_help = False
            self._sync()
            self._focus()
            self.app.invalidate()

    async def _ticker(self) -> None:
        try:
            while True:
                self.advance()
                await asyncio.sleep(0.03 if self.kiosk.pacer.busy else 0.25)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the supervisor logs and restarts
            self.app.exit(exception=exc)

    def run(self) -> int:
        def start() -> None:
            self.app.create_background_task(self._ticker())

        return int(run_guarded(self.app, start) or 0)
