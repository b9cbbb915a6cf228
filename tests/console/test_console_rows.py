"""The console drawn by rows (console/app_rows.py, tui/row_renderer.py) shows what
prompt_toolkit's own whole-screen renderer shows from the same layout, cell by cell (as a
terminal emulator, pyte, reads both), and writes only what changed: a key's echo rewrites
the keyboard line alone, a frame with nothing new writes nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re

import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.renderer import Renderer
from rich.text import Text

from tests.support.sizes import size
from tests.support.xterm_screen import XtermScreen
from univac_ttt.console import app_rows
from univac_ttt.console.app import ConsoleApp, ConsoleSettings
from univac_ttt.console.app_rows import ConsoleRows
from univac_ttt.desk.session import GameSession
from univac_ttt.machine import Stop, StopKind
from univac_ttt.packs import DEFAULT, shipped_pack
from univac_ttt.tui.row_renderer import Frame


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _output(columns: int, rows: int) -> tuple[Vt100_Output, _Terminal]:
    sink = _Terminal()
    return Vt100_Output(sink, lambda: Size(rows=rows, columns=columns), term="xterm-256color",
                        default_color_depth=ColorDepth.TRUE_COLOR, enable_cpr=False), sink


def _console(columns: int, rows: int, served: bool = False) -> tuple[ConsoleApp, _Terminal]:
    pack = shipped_pack(DEFAULT)
    output, sink = _output(columns, rows)
    keys = create_pipe_input().__enter__()
    settings = ConsoleSettings(pack=pack, save_directory=None if served else ConsoleSettings()
                               .save_directory)
    console = ConsoleApp(lambda on_print: GameSession.from_pack(pack, on_print=on_print),
                         settings, input=keys, output=output)
    console.pacer.finish()
    console._sync_paper()
    return console, sink


def _cells(data: str, columns: int, rows: int) -> list[list[tuple[object, ...]]]:
    screen = XtermScreen(columns, rows)
    pyte.Stream(screen).feed(data)
    return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.reverse, c.underscore)
             for c in (screen.buffer[y][x] for x in range(columns))] for y in range(rows)]


def _both(console: ConsoleApp, columns: int, rows: int) -> tuple[list, list]:  # type: ignore[type-arg]
    """The screen as prompt_toolkit's renderer draws the layout, and as the rows do."""
    reference, theirs = _output(columns, rows)
    ours, mine = _output(columns, rows)
    app = console.app

    async def draw() -> None:  # prompt_toolkit's buffer windows ask for a running loop
        app.render_counter += 1  # prompt_toolkit's controls cache their text a redraw
        with set_app(app):
            stock = Renderer(app.renderer.style, reference, full_screen=True)
            # the console's windows (its application's own layout is the keyboard line)
            stock.render(app, Layout(console.layout.container,
                                     focused_element=console.keyboard_buffer))
            renderer = type(app.renderer)(app.renderer.style, ours, console.rows.frame)
            renderer.render(app, app.layout)
    asyncio.run(draw())
    return _cells(theirs.getvalue(), columns, rows), _cells(mine.getvalue(), columns, rows)


def _same(console: ConsoleApp, columns: int, rows: int) -> None:
    expected, drawn = _both(console, columns, rows)
    for y, (want, got) in enumerate(zip(expected, drawn, strict=True)):
        assert got == want, (y, "".join(str(c[0]) for c in want),
                             "".join(str(c[0]) for c in got),
                             [(x, w, g) for x, (w, g)
                              in enumerate(zip(want, got, strict=True)) if w != g][:3])


def _play(console: ConsoleApp, moves: str) -> None:
    for move in moves:
        console.keyboard_buffer.text = move
        console.submit()
        console.pacer.finish()
        console._sync_paper()


SIZES = [(120, 40), (80, 24), (100, 40), (60, 24), (200, 60), (64, 12), (63, 9), (40, 8),
         (76, 24), (75, 24)]


@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_the_rows_draw_what_prompt_toolkit_draws(columns: int, rows: int) -> None:
    console, _ = _console(columns, rows)
    _same(console, columns, rows)  # the greeting
    console.keyboard_buffer.text = "5"
    _same(console, columns, rows)  # a key's echo
    _play(console, "5901")  # moves, a bad code (a warning), a taken square
    _same(console, columns, rows)
    console.say("The UNIVAC keyboard has no 'x' key. A long hint wraps at words, "
                "onto more than one line at a narrow terminal, as it always did.", True)
    _same(console, columns, rows)
    console.show_help = True
    _same(console, columns, rows)


@pytest.mark.parametrize(("columns", "box"), [(200, 81), (120, 81), (112, 81), (100, 69)])
def test_on_a_wide_screen_the_panel_stays_beside_the_paper(columns: int, box: int) -> None:
    """The paper is at most a typewriter's 80 columns: the square codes' box starts right
    after it and a blank column, not at the screen's right edge (at 200 columns it sat 170
    columns away)."""
    console, _ = _console(columns, 40)
    _same(console, columns, 40)
    _, drawn = _both(console, columns, 40)
    row = "".join(str(cell[0]) for cell in drawn[1])  # under the title
    assert row.index("╭") == box and row[box + 31:].strip() == ""


@pytest.mark.parametrize("columns", [80, 100, 200])
def test_a_paper_line_as_wide_as_the_paper_never_touches_the_panel(columns: int) -> None:
    """A keyed line as wide as the paper ran into the panel's words: "9999type a square
    code, then Enter"."""
    console, _ = _console(columns, 24)
    console.keyboard_buffer.insert_text("9" * 150)
    console.submit()
    console.pacer.finish()
    console._sync_paper()
    _same(console, columns, 24)
    _, drawn = _both(console, columns, 24)
    rows = ["".join(str(cell[0]) for cell in row) for row in drawn]
    full = [row for row in rows if "99999999" in row]
    assert full and "square codes" in "".join(rows)
    for row in full:
        end = row.rindex("9")
        assert row[end + 1] == " ", row  # a blank column before the panel's text


@pytest.mark.parametrize(("columns", "panel"), [(64, False), (70, False), (75, False),
                                               (76, True), (90, True)])
def test_the_paper_s_lines_are_whole_beside_the_panel_or_without_it(columns: int,
                                                                     panel: bool) -> None:
    """The panel shows only where the paper keeps 44 columns: at 64 columns the paper had
    33, and the greeting read "SQUARE COD" / "E, 1 TO 9." against the panel's box."""
    console, _ = _console(columns, 24)
    _same(console, columns, 24)
    _, drawn = _both(console, columns, 24)
    shown = ["".join(str(cell[0]) for cell in row) for row in drawn]
    assert any(row.startswith("YOU MOVE FIRST. TYPE A SQUARE CODE, 1 TO 9.") for row in shown)
    assert any("square codes" in row for row in shown) == panel


def test_a_full_width_row_keeps_its_last_column_on_a_real_terminal() -> None:
    """At 80 columns the help has lines of exactly 80 characters; a terminal that erases
    from its cursor on the last column (xterm, tmux) showed them without their last letter
    when the erase came after the text."""
    console, _ = _console(80, 24)
    console.show_help = True
    full = [line for line in console.layout.help_page_lines() if len(line) == 80]
    assert full  # the wrap fills some lines to the edge
    _, drawn = _both(console, 80, 24)
    shown = ["".join(str(cell[0]) for cell in row) for row in drawn]
    assert all(line in shown for line in full), (full, shown)


def test_a_whole_game_then_the_next_greeting_are_drawn_alike() -> None:
    console, _ = _console(100, 40, served=True)
    _play(console, "28051347")  # the README's game and on into the next
    _same(console, 100, 40)


@pytest.mark.parametrize("pack_name", ["tictactoe", "merge"])
@pytest.mark.parametrize("typing", [False, True])
@pytest.mark.parametrize("authentic", [False, True])
def test_the_panel_rows_are_rich_s_panel(pack_name: str, typing: bool, authentic: bool) -> None:
    from univac_ttt.console.panel_rows import ansi_rows, panel_rows
    from univac_ttt.console.side_panel import render_panel
    from univac_ttt.program.pack import NO_PACK

    pack = shipped_pack(pack_name)
    session = GameSession.from_pack(pack)
    session.run_reply(200_000)
    uniservos = ("2 input-a.tape", "  READING  block 1 of 4 and a detail that wraps") \
        if pack_name == "merge" else ()
    def cells(rows):  # type: ignore[no-untyped-def]
        return [[(style, ch) for style, text in row for ch in text] for row in rows]

    for shown in (pack, NO_PACK):  # NO_PACK: an --image, no card and no score
        assert cells(panel_rows(session, typing, authentic, pack=shown,
                                uniservos=uniservos)) == \
            cells(ansi_rows(render_panel(session, typing, authentic, pack=shown,
                                         uniservos=uniservos).removesuffix("\n")))


class _Drawn:
    """One row renderer drawing a console frame after frame into one terminal, as a
    session's would; each ``draw`` returns what that frame wrote."""

    def __init__(self, console: ConsoleApp, columns: int, rows: int) -> None:
        self.console, self.size = console, [columns, rows]
        self.sink = _Terminal()
        self.output = Vt100_Output(self.sink, lambda: Size(rows=self.size[1],
                                                           columns=self.size[0]),
                                   term="xterm-256color",
                                   default_color_depth=ColorDepth.TRUE_COLOR, enable_cpr=False)
        app = console.app
        # the console's layout reads its size from the app's output: the terminal's, resized
        app.output.get_size = self.output.get_size  # type: ignore[method-assign]
        self.renderer = type(app.renderer)(app.renderer.style, self.output, console.rows.frame)

    def draw(self) -> str:
        before = len(self.sink.getvalue())

        async def draw() -> None:
            with set_app(self.console.app):
                self.renderer.render(self.console.app, self.console.app.layout)
        asyncio.run(draw())
        return self.sink.getvalue()[before:]

    def screen(self) -> list[list[tuple[object, ...]]]:
        return _cells(self.sink.getvalue(), *self.size)


def _rows_written(data: str) -> set[int]:
    """The screen rows (from 1) a frame moved the cursor to."""
    return {int(row) for row, _ in re.findall(r"\x1b\[(\d+);(\d+)H", data)}


def test_a_key_s_echo_rewrites_the_keyboard_line_alone_and_nothing_new_writes_nothing() -> None:
    console, _ = _console(120, 40, served=True)
    drawn = _Drawn(console, 120, 40)
    assert _rows_written(drawn.draw()) >= set(range(1, 41))  # the first frame: all of it
    assert drawn.draw() == ""  # nothing new: not a byte
    console.keyboard_buffer.insert_text("5")
    echo = drawn.draw()
    assert _rows_written(echo) == {39} and "5" in echo  # the keyboard line, above the bar
    assert drawn.draw() == ""
    console.keyboard_buffer.text = "5"
    console.submit()
    reply = drawn.draw()
    assert 39 in _rows_written(reply) and 1 not in _rows_written(reply)  # the title stays
    assert drawn.draw() == ""


def test_a_key_s_echo_works_out_neither_the_lamp_nor_the_prompt_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The lamp and the prompt are read again only when the machine's stop or place or the
    typing changed (Desk.lamps_key): two frames a move, and a key's echo changes neither;
    the keyboard line's row is the same object while its text and cursor are the same."""
    console, _ = _console(120, 40, served=True)
    asked: list[str] = []
    lamp_for, prompt_text = app_rows.lamp_for, console.layout.prompt_text
    monkeypatch.setattr(app_rows, "lamp_for",
                        lambda *args: asked.append("lamp") or lamp_for(*args))
    monkeypatch.setattr(console.layout, "prompt_text",
                        lambda: asked.append("prompt") or prompt_text())
    size = Size(rows=40, columns=120)
    first = console.rows.frame(size)
    assert asked == ["lamp", "prompt"]
    assert console.rows.frame(size).rows[-2] is first.rows[-2]  # the keyboard line, kept
    console.keyboard_buffer.insert_text("5")
    echo = console.rows.frame(size)
    assert asked == ["lamp", "prompt"] and "5" in "".join(text for _, text in echo.rows[-2])
    console.submit()  # the machine ran: it waits at its keyboard again, elsewhere
    console.rows.frame(size)
    assert asked == ["lamp", "prompt"] * 2


def _fresh_frame(console: ConsoleApp, size: Size) -> Frame:
    return ConsoleRows(console).frame(size)


def test_the_kept_lamp_and_prompt_follow_every_change_of_stop_place_typing_and_neons() -> None:
    """A frame drawn with the kept lamp and prompt equals one worked out afresh after each
    change they are read from: the typing, the machine running on, an error stop, CLEAR C
    putting its neons out, and the same error stopping again (an equal stop, not the very
    one cleared: its neon lights again)."""
    console, _ = _console(120, 40, served=True)
    size = Size(rows=40, columns=120)
    desk = console.session.desk

    def same() -> Frame:
        kept, fresh = console.rows.frame(size), _fresh_frame(console, size)
        assert kept.rows == fresh.rows and kept.cursor == fresh.cursor
        return kept

    same()
    console.pacer.set_authentic(True)
    console.keyboard_buffer.text = "5"
    console.submit()  # typing at the typewriter's pace: RUNNING, KEYBOARD
    assert console.typing
    same()
    console.pacer.finish()
    same()
    machine = desk.machine
    error = Stop(StopKind.ERROR, machine.cc, "left", "overflow: the sum needs twelve digits")
    machine.last_stop = error
    lit = same()
    desk.clear_c()  # the neon goes out, the stop stays
    out = same()
    machine.last_stop = Stop(*error)  # the same error again: lit again
    assert same().rows == lit.rows != out.rows
    machine.last_stop, machine.half = None, 0
    same()


def test_kept_rows_follow_a_wide_screen_widened_and_narrowed_again() -> None:
    """On a wide screen the paper and the panel keep their widths as the screen widens, and
    the spare blank right of them takes the rest: the kept middle rows were made again
    only when the paper's or the panel's rows changed, so they kept the old width."""
    console, _ = _console(200, 60, served=True)
    for columns in (200, 201, 230, 200):
        size = Size(columns=columns, rows=60)
        kept, fresh = console.rows.frame(size), _fresh_frame(console, size)
        assert kept.rows == fresh.rows, columns


def test_the_application_s_layout_is_the_keyboard_line_and_the_windows_wait_to_be_asked() -> None:
    """The rows draw the screen, so a console builds prompt_toolkit's windows only when
    something asks (the comparisons above): a served terminal's objects for the collector."""
    console, _ = _console(120, 40, served=True)
    drawn = _Drawn(console, 120, 40)
    drawn.draw()
    _play(console, "5")
    drawn.draw()
    assert [w.content.buffer for w in console.app.layout.find_all_windows()] == [
        console.keyboard_buffer]
    assert console.app.layout.current_buffer is console.keyboard_buffer
    assert "container" not in vars(console.layout) and "window" not in vars(console.paper)
    assert console.paper.window in list(console.layout.container.get_children()[0]
                                        .get_children()[1].get_children())


def test_the_paper_s_buffer_is_filled_when_read_and_at_every_change_once_a_window_shows_it(
        ) -> None:
    console, _ = _console(120, 40, served=True)
    buffer = console.paper._buffer
    _play(console, "5")
    assert buffer.text == "" and not console.paper.filled()  # nothing read it: not filled
    assert console.paper_buffer.text == console.session.paper  # filled as it is read
    assert console.paper_buffer.cursor_position == len(console.session.paper)
    window = console.paper.window  # a prompt_toolkit window shows it from now on
    assert window.content.buffer is buffer and buffer.text == console.session.paper
    _play(console, "1")
    assert buffer.text == console.session.paper and "\n> 1\n" in buffer.text


def test_frame_after_frame_the_terminal_shows_what_prompt_toolkit_would() -> None:
    console, _ = _console(100, 30, served=True)
    drawn = _Drawn(console, 100, 30)
    steps = [lambda: None, lambda: console.keyboard_buffer.insert_text("2"),
             lambda: _play(console, "2"), lambda: _play(console, "80"),
             lambda: setattr(console, "show_help", True),
             lambda: setattr(console, "show_help", False),
             console.paper.page_up, console.paper.page_up, console.paper.page_down,
             lambda: drawn.size.__setitem__(slice(None), [70, 20]),  # a resize
             lambda: _play(console, "51347"),  # the game ends, the next begins
             console.paper.to_end, lambda: drawn.size.__setitem__(slice(None), [130, 45]),
             lambda: _play(console, "5")]
    for step in steps:
        step()
        drawn.draw()
        if console.paper.at_end:  # scrolled back, the rows keep their own scroll
            expected, _mine = _both(console, *drawn.size)
            assert drawn.screen() == expected


def test_control_characters_on_the_paper_are_shown_as_prompt_toolkit_shows_them() -> None:
    console, _ = _console(80, 24, served=True)
    console.paper.sync(console.paper.buffer.text + "A\x1b[2JB\x07C\x9bD\n")  # not typed: a test's
    _same(console, 80, 24)
    drawn = _Drawn(console, 80, 24)
    written = drawn.draw()
    assert "\x1b[2J" not in written and "\x07" not in written and "\x9b" not in written
    assert "A^[[2JB^GC<9b>D" in "".join(str(cell[0]) for row in drawn.screen() for cell in row)


@pytest.mark.parametrize(("columns", "rows"), [(1, 1), (5, 3), (20, 2), (300, 120), (64, 1)])
def test_any_size_a_terminal_reports_is_drawn_within_it(columns: int, rows: int) -> None:
    console, _ = _console(columns, rows, served=True)
    console.show_help = True
    drawn = _Drawn(console, columns, rows)
    written = drawn.draw()
    assert all(int(row) <= rows and int(column) <= columns
               for row, column in re.findall(r"\x1b\[(\d+);(\d+)H", written))
    screen = drawn.screen()
    assert len(screen) == rows and all(len(line) == columns for line in screen)


_RICH_STYLES = ["", "bold", "italic", "dim", "cyan", "bold black on green3",
                "bold white on red", "bold black on orange1", "underline", "reverse"]


@settings(max_examples=size(60, 2_000), deadline=None)
@given(st.lists(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
                min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.sampled_from(_RICH_STYLES)),
                max_size=6),
       st.sampled_from(_RICH_STYLES))
def test_a_panel_text_that_fits_is_cut_as_rich_wraps_and_renders_it(
        lines: list[str], spans: list[tuple[float, float, str]], base: str) -> None:
    from rich.text import Span

    from univac_ttt.console.panel_rows import fitting_rows, rich_rows, text_rows
    from univac_ttt.console.side_panel import PANEL_WIDTH

    plain = "\n".join(lines)
    kept = tuple(Span(int(min(a, b) * len(plain)), int(max(a, b) * len(plain)), style)
                 for a, b, style in spans)  # spans over the text, any overlapping

    def cells(rows):  # type: ignore[no-untyped-def]
        return [[(style, ch) for style, text in row for ch in text] for row in rows]

    assert cells(fitting_rows(plain, kept, base)) == \
        cells(rich_rows(plain, kept, base, PANEL_WIDTH))
    text = Text(plain, style=base, spans=list(kept))
    assert cells(text_rows(text)) == cells(rich_rows(plain, kept, base, PANEL_WIDTH))


@pytest.mark.parametrize("instructions", [0, 7, 123_456_789, 10**12, 10**25])
def test_the_figures_of_any_size_are_rich_s(instructions: int) -> None:
    from types import SimpleNamespace

    from univac_ttt.console.panel_rows import rich_rows, text_rows
    from univac_ttt.console.side_panel import PANEL_WIDTH, figures_text

    move = SimpleNamespace(instructions=instructions, time_us=instructions * 41)
    text = figures_text(SimpleNamespace(last_move=move, game=move,  # type: ignore[arg-type]
                                        game_over=instructions % 2 == 1))
    drawn = [[(style, ch) for style, part in row for ch in part] for row in text_rows(text)]
    printed = rich_rows(text.plain, tuple(text.spans), text.style, PANEL_WIDTH)
    assert drawn == [[(style, ch) for style, part in row for ch in part] for row in printed]


def test_a_help_longer_than_the_screen_fits_it_and_pages_through_every_word() -> None:
    """At 60x20 the help is longer than the screen: the box keeps to the screen, its last
    row says which lines are shown, and PageDown/PageUp page through all of it (drawn
    alike by prompt_toolkit and the rows); no line is cut mid-word."""
    columns, rows = 60, 20
    console, _ = _console(columns, rows)
    console.show_help = True
    every = console.layout.help_lines()
    assert len(every) > rows and all(len(line) <= columns for line in every)
    pages: list[str] = []

    def press(key: Keys) -> None:  # through the app's key processor, as a terminal's key
        async def feed() -> None:  # the handlers invalidate the app: a loop is asked for
            with set_app(console.app):
                console.app.key_processor.feed(KeyPress(key))
                console.app.key_processor.process_keys()
        asyncio.run(feed())

    def pagedown(_: object) -> None:
        press(Keys.PageDown)

    def pageup(_: object) -> None:
        press(Keys.PageUp)
    for _ in range(10):
        shown = console.layout.help_shown()
        assert len(shown) <= rows and shown[-1].startswith(" lines ")
        _same(console, columns, rows)
        pages += shown[:-1]
        if f"-{len(every)} of {len(every)}:" in shown[-1]:
            break
        pagedown(None)
    assert set(every) <= set(pages)  # every line was on some page
    pageup(None)
    pageup(None)
    assert console.layout.help_shown()[0] == every[0]  # back to the top
    assert console.paper.at_end  # the paper was not scrolled by the help's keys


def test_the_help_covers_the_screen_s_width_so_nothing_shows_beside_it() -> None:
    """At 100x30 the help is narrower than the screen: its rows are the whole width, the
    text centred, so no piece of the paper or the side panel shows beside it."""
    columns, rows = 100, 30
    console, _ = _console(columns, rows)
    console.show_help = True
    lines = console.layout.help_shown()
    assert len(lines) < rows and max(len(line) for line in lines) <= 84
    stock, ours = _both(console, columns, rows)
    assert stock == ours
    top = (rows - len(lines)) // 2
    margin = (columns - 84) // 2
    for y, line in enumerate(lines):
        text = "".join(cell[0] for cell in ours[top + y])
        assert text.rstrip() == ((" " * margin + line) if line else ""), (y, text)


def test_terminals_share_the_encoded_fragments_of_one_style_and_depth(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A second terminal at the same colour depth draws its first screen from fragments the
    first one encoded (tui/row_renderer.py's shared tables), writing the same bytes; one at
    another depth encodes its own, and draws what a terminal of that depth alone would."""
    from univac_ttt.tui import row_renderer

    def first_frame(depth: ColorDepth) -> tuple[str, int]:
        console, sink = _console(120, 40, served=True)
        console.app.output.get_default_color_depth = lambda: depth  # type: ignore[method-assign]
        encoded: list[object] = []
        encode = row_renderer.RowRenderer._encode

        def counted(self, fragment, depth):  # type: ignore[no-untyped-def]
            encoded.append(fragment)
            return encode(self, fragment, depth)

        monkeypatch.setattr(row_renderer.RowRenderer, "_encode", counted)
        with set_app(console.app):
            console.app.renderer.render(console.app, console.app.layout)
        monkeypatch.setattr(row_renderer.RowRenderer, "_encode", encode)
        return sink.getvalue(), len(encoded)

    monkeypatch.setattr(row_renderer, "_tables", {}, raising=False)  # a fresh process
    true_colour, _ = first_frame(ColorDepth.TRUE_COLOR)
    again, encoded_again = first_frame(ColorDepth.TRUE_COLOR)
    assert encoded_again == 0 and again == true_colour
    one_bit, encoded_one_bit = first_frame(ColorDepth.DEPTH_1_BIT)
    assert encoded_one_bit > 0 and one_bit != true_colour
    monkeypatch.setattr(row_renderer, "_tables", {}, raising=False)
    assert first_frame(ColorDepth.DEPTH_1_BIT)[0] == one_bit


@pytest.mark.parametrize("instructions", [0, 7, 1_234, 123_456_789, 10**12, 10**25])
@pytest.mark.parametrize("width", [30, 24, 60])
def test_the_figures_put_together_line_by_line_are_the_whole_texts(instructions: int,
                                                                    width: int) -> None:
    """panel_rows builds the figures from each line's kept rows: the same rows as the
    whole figures text cut at once (held to rich's print above), a last move and a game
    of different sizes, at widths where a figure moves its time to a line of its own."""
    from types import SimpleNamespace

    from univac_ttt.console.panel_rows import _Figures, _figures_rows, text_rows
    from univac_ttt.console.side_panel import figures_text_of

    last = SimpleNamespace(instructions=instructions % 10_000, time_us=instructions % 977)
    game = SimpleNamespace(instructions=instructions, time_us=instructions * 41)
    whole = text_rows(figures_text_of(last, game, width), width)  # type: ignore[arg-type]
    assert _figures_rows(_Figures(last.instructions, last.time_us),
                         _Figures(game.instructions, game.time_us), width) == whole


@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_a_frame_s_parts_are_its_rows(columns: int, rows: int) -> None:
    """The parts the renderer encodes a row by (the paper's, then the gutter's, the
    panel's and the spare blank) are that row, in every state the frame has."""
    console, _ = _console(columns, rows, served=True)
    size = Size(rows=rows, columns=columns)

    def check() -> None:
        frame = console.rows.frame(size)
        if frame.parts is not None:
            assert [tuple(part for each in row for part in each)
                    for row in frame.parts] == frame.rows
        else:
            assert console.show_help  # a help box over the rows: they are drawn whole

    check()
    console.keyboard_buffer.insert_text("5")
    check()
    _play(console, "5901")
    check()
    console.paper.scroll(-2)
    check()
    console.show_help = True
    check()


def test_a_scrolled_frame_encodes_nothing_shown_before(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """When the paper scrolls, each row shows a paper line shown a row away beside the
    same panel row: the renderer writes every row again but encodes no part of it anew
    (the whole row, never drawn as such, was encoded again: 7.7 rows a frame at 120x40)."""
    from univac_ttt.tui.row_renderer import RowRenderer

    console, _ = _console(120, 40, served=True)
    drawn = _Drawn(console, 120, 40)
    _play(console, "280513475173")  # the paper overfills the window, beside the panel
    assert console.paper.buffer.text.count("\n") > 38  # the window: 36 rows
    drawn.draw()
    encoded: list[object] = []
    codes = RowRenderer._codes
    monkeypatch.setattr(RowRenderer, "_codes",
                        lambda self, row, *args, **kwargs: encoded.append(row)
                        or codes(self, row, *args, **kwargs))
    console.paper.scroll(-1)  # a line back: every row shows the line of the row above
    back = drawn.draw()
    assert len(_rows_written(back)) >= 30
    assert len(encoded) <= 2  # the line come into view at the top (whole, stripped)
    encoded.clear()
    console.paper.to_end()
    forth = drawn.draw()
    assert len(_rows_written(forth)) >= 30 and encoded == []
    assert drawn.screen() == _both(console, 120, 40)[0]


def test_a_frame_drawn_by_its_parts_writes_what_its_whole_rows_write() -> None:
    """The parts are only a way to encode a row: two terminals playing the same game, one
    drawn part by part and one by whole rows, receive the same bytes through echoes,
    replies, scrolling back and forth, the help box and resizes across the panel's width."""
    consoles = [_console(120, 40, served=True)[0] for _ in range(2)]
    drawn = [_Drawn(console, 120, 40) for console in consoles]
    whole = drawn[1].renderer
    compose = whole._compose
    whole._compose = lambda size: dataclasses.replace(compose(size), parts=None)
    steps = [lambda console: _play(console, "28"),
             lambda console: setattr(console.keyboard_buffer, "text", "5"),
             lambda console: _play(console, "0513475173"),
             lambda console: console.paper.scroll(-3),
             lambda console: setattr(console, "show_help", True),
             lambda console: setattr(console, "show_help", False),
             lambda console: console.paper.to_end()]
    sizes = [(120, 40), (80, 24), (200, 60), (60, 20)]
    frames_with_parts = 0
    for columns, rows in sizes:
        for step in steps:
            written = []
            for console, terminal in zip(consoles, drawn, strict=True):
                terminal.size[:] = [columns, rows]
                step(console)
                written.append(terminal.draw())
            assert written[0] == written[1]
            frames_with_parts += bool(written[0]) and compose(Size(rows, columns)).parts is not None
    assert frames_with_parts >= 10
    assert drawn[0].sink.getvalue() == drawn[1].sink.getvalue()
