"""What a user trial of the kiosk found: a PIN typed while locked, the demonstration label,
the keys that wake the kiosk, and a small screen. Fake clock and a pipe: no waiting."""

import asyncio

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.exhibit import exhibit
from univac_ttt.kiosk.app import KioskApp
from univac_ttt.kiosk.bigboard import big_board, board_size
from univac_ttt.museum.controller import WOKEN, Mode
from univac_ttt.packs.tictactoe import BAD_CODE_PHRASE

F12, ESC = "\x1b[24~", "\x1b"


@pytest.fixture
def kiosk(tmp_path):
    return exhibit(tmp_path, idle_seconds=10)


def sized(columns, rows):
    class Sized(DummyOutput):
        def get_size(self):
            return Size(rows=rows, columns=columns)
    return Sized()


async def typed(app, pipe, keys, done):
    """Send ``keys`` to the running app and wait until ``done()`` holds."""
    pipe.send_text(keys)
    for _ in range(10_000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{keys!r}: never done")


def run_keys(kiosk, steps, output=None):
    """Run the kiosk app on a pipe through ``steps`` of (keys, condition); then the PIN."""
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=output or DummyOutput())

        async def main():
            task = asyncio.ensure_future(app.app.run_async())
            for keys, done in steps:
                await typed(app, pipe, keys, done)
            kiosk.settings.clock.now += 10_000  # every lock has run out
            pipe.send_text(F12 + "2468\r")
            return await task

        assert asyncio.run(main()) == 0
    return app


def attract(kiosk):
    kiosk.settings.clock.now += 10
    kiosk.tick()
    assert kiosk.mode is Mode.ATTRACT


# ---- 1. a PIN typed while the PIN is locked ------------------------------------------------

def test_a_pin_typed_while_locked_never_reaches_the_game_paper_or_tally(kiosk, tmp_path):
    locked = lambda: kiosk.pin_lock_left() > 0 and kiosk.mode is Mode.PLAYING  # noqa: E731
    steps = [(F12 + "0000\r", lambda n=n: kiosk.wrong_pins == n) for n in (1, 2)]
    steps += [(F12 + "0000\r", locked),
              (F12, lambda: kiosk.mode is Mode.STAFF and kiosk.staff_locked),
              ("1234", lambda: kiosk.mode is Mode.STAFF),
              ("\r", lambda: kiosk.mode is Mode.PLAYING)]
    app = run_keys(kiosk, steps)
    assert "1234" not in kiosk.pacer.text and "1234" not in kiosk.session.paper
    assert BAD_CODE_PHRASE not in kiosk.pacer.text
    assert kiosk.tally.today().bad_codes == 0 and kiosk.session.words_typed == 0
    assert app.keyboard_buffer.text == "" and app.pin_buffer.text == ""
    assert not (tmp_path / "printouts").exists() or not any(
        "1234" in p.read_text() for p in (tmp_path / "printouts").rglob("*.txt"))


def test_while_locked_f12_says_so_takes_no_pin_and_esc_returns(kiosk):
    for _ in range(3):
        kiosk.staff_begin()
        kiosk.staff_pin("0000")
    kiosk.staff_begin()
    assert kiosk.mode is Mode.STAFF and kiosk.staff_locked
    assert "try again in 30 s" in kiosk.hint and "Esc" in kiosk.hint
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())
        assert "LOCKED" in "".join(text for _, text in app._prompt())
        assert "PIN >" not in "".join(text for _, text in app._prompt())
    kiosk.staff_cancel()
    assert kiosk.mode is Mode.PLAYING and not kiosk.staff_locked


def test_a_prompt_opened_while_locked_compares_no_pin_even_after_the_lock(kiosk):
    for _ in range(3):
        kiosk.staff_begin()
        kiosk.staff_pin("0000")
    kiosk.staff_begin()
    kiosk.settings.clock.now += 31  # the lock runs out while the notice is up
    assert not kiosk.staff_pin("2468") and kiosk.mode is Mode.PLAYING
    assert "F12" in kiosk.hint
    kiosk.staff_begin()
    assert not kiosk.staff_locked and kiosk.staff_pin("2468")


# ---- 2. the demonstration is labelled the whole time ---------------------------------------

def test_the_screen_says_demonstration_the_whole_time_one_plays(kiosk):
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=sized(80, 24))
        assert "DEMONSTRATION" not in app.bar_text()
        attract(kiosk)
        seen = 0
        for _ in range(120):  # several demonstrations, their captions changing
            kiosk.settings.clock.now += 1
            kiosk.tick()
            assert kiosk.mode is Mode.ATTRACT
            assert "DEMONSTRATION" in app.bar_text() and "any key" in app.bar_text()
            assert len(app.bar_text()) <= 80
            seen += "DEMONSTRATION" not in kiosk.shown_caption
        assert seen and kiosk.tally.today().demonstrations >= 2  # captions explain meanwhile
        app.app.output = sized(60, 20)
        assert "DEMONSTRATION" in app.bar_text() and len(app.bar_text()) <= 60
        kiosk.activity()
        assert "DEMONSTRATION" not in app.bar_text()


# ---- 3. the keys that wake the kiosk -------------------------------------------------------

@pytest.mark.parametrize("authentic", [False, True])
def test_the_keys_that_wake_the_kiosk_are_no_entry_and_no_bad_code(kiosk, authentic):
    kiosk.pacer.authentic = authentic
    attract(kiosk)
    kiosk.settings.clock.now += 5
    kiosk.tick()
    steps = [("5", lambda: kiosk.mode is Mode.PLAYING),
             ("\r", lambda: not kiosk.waking)]
    app = run_keys(kiosk, steps)
    assert kiosk.tally.today().bad_codes == 0 and kiosk.visitor_words == 0
    assert BAD_CODE_PHRASE not in kiosk.game_paper and BAD_CODE_PHRASE not in kiosk.pacer.text
    assert app.keyboard_buffer.text == ""


def test_after_waking_the_hint_says_why_and_the_next_move_is_played(kiosk):
    attract(kiosk)
    assert kiosk.activity()
    assert not kiosk.submit("")  # the Enter after the waking key
    assert kiosk.hint == WOKEN and kiosk.tally.today().bad_codes == 0
    assert kiosk.submit("5") and kiosk.visitor_words == 1
    assert kiosk.submit("")  # later, an empty Enter goes to the UNIVAC, which says SORRY
    assert kiosk.tally.today().bad_codes == 1


def test_waking_with_enter_swallows_only_that_enter(kiosk):
    attract(kiosk)
    assert not kiosk.submit("")  # Enter woke the kiosk
    assert not kiosk.waking
    assert kiosk.submit("5") and kiosk.visitor_words == 1


def test_a_line_left_half_typed_goes_with_its_visitor(kiosk):
    """A visitor typed 7 and a wrong key, never pressed Enter, and walked off: the 7 and the
    hint stayed on the screen under DEMONSTRATION, and the next visitor's first Enter after
    the key that woke the kiosk played the 7 as their move."""
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())

        async def main():
            task = asyncio.ensure_future(app.app.run_async())
            await typed(app, pipe, "7!", lambda: app.keyboard_buffer.text == "7"
                        and "Only square codes" in kiosk.hint)
            kiosk.settings.clock.now += 10
            app.advance()
            assert kiosk.mode is Mode.ATTRACT
            assert app.keyboard_buffer.text == "" and kiosk.hint == ""
            await typed(app, pipe, "x", lambda: kiosk.mode is Mode.PLAYING)
            await typed(app, pipe, "\r", lambda: not kiosk.waking)
            pipe.send_text(F12 + "2468\r")
            return await task

        assert asyncio.run(main()) == 0
    assert kiosk.session.words_typed == 0 and "> 7" not in kiosk.session.paper


def test_help_left_open_does_not_hide_the_demonstrations(kiosk):
    """A visitor pressed F1 and walked off: the help box covered the screen through every
    demonstration after, until someone pressed a key."""
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())

        async def main():
            task = asyncio.ensure_future(app.app.run_async())
            await typed(app, pipe, "\x1bOP", lambda: app.show_help)  # F1
            kiosk.settings.clock.now += 10
            app.advance()
            assert kiosk.mode is Mode.ATTRACT and not app.show_help
            pipe.send_text(F12 + "2468\r")
            return await task

        assert asyncio.run(main()) == 0


# ---- 5. a small screen ---------------------------------------------------------------------

@pytest.mark.parametrize("columns, rows", [(60, 20), (80, 24), (80, 21), (60, 18),
                                           (100, 41)])
def test_the_whole_board_and_footer_fit_the_screen(kiosk, columns, rows):
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=sized(columns, rows))
        kiosk.caption = ("Scanning the eight elements for two X and a blank: a move that "
                         "blocks.")
        board = board_size(app.scale())
        caption = app.shown_caption_lines()
        around = 1 + 3  # the title above; the hint, keyboard line and key bar below
        assert board[1] + len(caption) + around <= rows  # the board and caption fit
        assert app.left_width() + 2 + 20 <= columns  # the paper keeps a column
        assert len(app.bar_text()) <= columns and "F2" in app.bar_text()
        if caption:
            assert " ".join(caption).split() == kiosk.caption.split()  # whole, or none
        screen = render(app, columns, rows)
        assert "7" in screen and "9" in screen.split("7")[-1]  # the third row of squares
        assert "F2 new game" in screen.splitlines()[-1]


def render(app, columns, rows):
    """The app's layout written to a screen of that size, as text lines."""
    from prompt_toolkit.application.current import set_app
    from prompt_toolkit.layout.mouse_handlers import MouseHandlers
    from prompt_toolkit.layout.screen import Screen, WritePosition

    screen = Screen()

    async def write():  # (a buffer's history loads in the event loop)
        app.app.render_counter += 1  # prompt_toolkit's controls cache their text a redraw
        with set_app(app.app):
            app.app.layout.container.write_to_screen(
                screen, MouseHandlers(), WritePosition(0, 0, columns, rows), "", False, None)
            screen.draw_all_floats()  # the help box, as the renderer draws it

    asyncio.run(write())
    return "\n".join("".join(screen.data_buffer[y][x].char for x in range(columns)).rstrip()
                     for y in range(rows))


def test_the_small_board_has_all_nine_squares():
    lines = big_board((1, -1, 0, 0, 0, 0, 0, 0, 0), 0)
    assert len(lines) == board_size(0)[1] == 11
    assert "9" in lines[-2] and "4" in lines[5] and "█" in lines[1]


# ---- 4. one greeting after waking ----------------------------------------------------------

def greetings_since_last_move(kiosk):
    """The greetings typed after the last keyed line or result: one, for a fresh game."""
    text = kiosk.pacer.text
    last = max(text.rfind("\n> "), *(text.rfind(r) for r in ("WINS", "DRAW")))
    return text[max(last, 0):].count("NEW GAME")


@pytest.mark.parametrize("seconds", [0, 1, 6, 16, 30])  # untouched, mid-demo, after one
def test_waking_from_a_demonstration_types_one_greeting(kiosk, seconds):
    attract(kiosk)
    for _ in range(seconds):
        kiosk.settings.clock.now += 1
        kiosk.tick()
    ended = kiosk.tally.today().demonstrations
    assert kiosk.activity()
    kiosk.pacer.finish()
    assert greetings_since_last_move(kiosk) == 1, kiosk.pacer.text[-400:]
    assert kiosk.game_paper.count("NEW GAME") == 1  # the printout begins with the greeting
    assert kiosk.submit("5") and kiosk.tally.today().demonstrations == ended
    assert kiosk.board[4] == 1  # the visitor's game, on a fresh board


def test_a_paper_line_as_wide_as_the_column_has_no_blank_row_after_it(kiosk):
    """A BufferControl ends every line with a space for the cursor, so a line wrapped to
    exactly the column's width took a second, blank row: at some widths the greeting read
    "... THE UNIVAC" / (blank) / "IS O.", and a long entry was double-spaced."""
    tried = 0
    for columns in range(60, 120):
        with create_pipe_input() as pipe:
            app = KioskApp(kiosk, input=pipe, output=sized(columns, 24))
            paper = app.paper_width()
            if paper not in (31, 32):  # "NEW GAME. YOU ARE X, THE UNIVAC" is 31
                continue
            app._sync()
            rows = render(app, columns, 24).splitlines()
        tried += 1
        at = next(i for i, row in enumerate(rows) if "NEW GAME." in row)
        assert rows[at + 1][columns - paper:].strip(), (paper, rows[at:at + 3])
    assert tried == 2


def test_the_keyboard_line_and_the_pin_hold_200_keys(kiosk):
    """A long paste sent as keys grew the kiosk's line (and the PIN's) without end."""
    app = run_keys(kiosk, [("9" * 260, lambda: "full" in kiosk.hint)])
    assert app.keyboard_buffer.text == "9" * 200
    kiosk.settings.clock.now += 10_000
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())

        async def main():
            task = asyncio.ensure_future(app.app.run_async())
            await typed(app, pipe, F12 + "7" * 300, lambda: len(app.pin_buffer.text) >= 200)
            for _ in range(2_000):  # the keys after the 200th, handled
                await asyncio.sleep(0)
            assert app.pin_buffer.text == "7" * 200
            pipe.send_text(ESC + F12 + "2468\r")
            return await task

        assert asyncio.run(main()) == 0
