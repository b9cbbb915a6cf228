"""A paste in the full-screen console, as the class page types one (a user trial found
the console typing only the first line where the page played each): each line end is
WORD RELEASE, the next line waits for the UNIVAC's answer and INPUT READY, at most 200
keys, and what was not typed is said once with why. Pipe input, dummy output."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.console.test_console_units import CTRL_Q, TTT, WORDS, run_console
from tests.support.fake_clock import FakeClock
from univac_ttt.console.app import STILL_TYPING, ConsoleApp, ConsoleSettings
from univac_ttt.console.paste import Paste
from univac_ttt.desk.session import GameSession

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def pasted(text: str) -> str:
    return PASTE_START + text + PASTE_END


def keyed(console: ConsoleApp) -> list[str]:
    return [line for line in console.session.paper.split("\n") if line.startswith("> ")]


def test_pasted_lines_play_one_move_each():
    console, _ = run_console(pasted("5\r\n9\r\n") + CTRL_Q + CTRL_Q)
    assert keyed(console) == ["> 5", "> 9"]
    assert "NOT A SQUARE CODE" not in console.session.paper
    assert console.hint == "" or "Ctrl-Q" in console.hint  # nothing left out: no note


def test_a_last_line_without_a_line_end_waits_on_the_keyboard_line():
    console, _ = run_console(pasted("5\n9") + CTRL_Q + CTRL_Q)
    assert keyed(console) == ["> 5"] and console.keyboard_buffer.text == "9"


def _typing_console(pipe):  # type: ignore[no-untyped-def]
    """A console at the typewriter's own speed on a clock that moves only when told, its
    greeting typed: a pasted line's reply is still typing until the test finishes it."""
    console = ConsoleApp(lambda on_print: GameSession.from_pack(TTT, on_print=on_print),
                         ConsoleSettings(pack=TTT, authentic=True, clock=FakeClock()),
                         input=pipe, output=DummyOutput())
    console.pacer.finish()
    console._sync_paper()
    return console


def _reply_typed(console: ConsoleApp) -> None:
    """What the ticker does when a reply's last word is typed: INPUT READY, the paste on."""
    console.pacer.finish()
    console._sync_paper()
    console.paste_on()


def test_a_paste_s_next_line_waits_for_the_reply_to_be_typed():
    with create_pipe_input() as pipe:
        console = _typing_console(pipe)
        console.paste("5\n9\n")
        assert keyed(console) == ["> 5"] and console.typing
        _reply_typed(console)
        assert keyed(console) == ["> 5", "> 9"]


@pytest.mark.parametrize("own", [
    lambda console: console.type_key("3"),
    lambda console: (console.keyboard_buffer.load_history_if_not_yet_loaded(),  # as run
                     console.keyboard_buffer.auto_up()),  # Up: the last line recalled
    lambda console: console.keyboard_buffer.insert_text("3"),  # an edit by any binding
])
def test_a_key_of_one_s_own_drops_the_rest_of_a_paste(own):  # type: ignore[no-untyped-def]
    """The second line waits for the reply to be typed; a key typed meanwhile (a square
    code, Up's recall of the last line) is the player's own, and the paste's rest is not
    typed after it."""
    with create_pipe_input() as pipe:
        console = _typing_console(pipe)
        console.paste("5\n9\n")
        own(console)
        typed = console.keyboard_buffer.text
        assert typed
        _reply_typed(console)
        assert keyed(console) == ["> 5"]
        assert console.keyboard_buffer.text == typed
        # said, as the rest of a paste not typed is (a user trial found it silent)
        assert "Of the 4 characters pasted, 2 were typed" in console.hint
        assert "a key of your own came first" in console.hint


def test_f3_while_a_paste_waits_types_its_next_line():
    """F3 to fast speed types the reply at once: the paste goes on (the ticker, which
    would have, never sees the typing end)."""
    with create_pipe_input() as pipe:
        console = _typing_console(pipe)
        console.paste("5\n9\n")
        assert keyed(console) == ["> 5"]
        console.toggle_speed()
        assert keyed(console) == ["> 5", "> 9"]


def test_what_a_paste_could_not_type_is_said_once_with_why():
    console, _ = run_console("1" * 150 + pasted("9" * 100) + CTRL_Q + CTRL_Q)
    assert console.keyboard_buffer.text == "1" * 150 + "9" * 50
    assert ("Of the 100 characters pasted, 50 were typed: the keyboard line holds 200 keys."
            in console.hint_log)
    console, _ = run_console(pasted("5€\n") + CTRL_Q + CTRL_Q)
    assert keyed(console) == ["> 5"]
    assert ("Of the 3 characters pasted, 2 were typed: the UNIVAC keyboard has no '€' key."
            in console.hint_log)


def test_a_paste_past_a_game_s_end_is_not_played_in_the_next():
    """What a paste held after the move that ended a game belonged to that game (as keys
    typed ahead do), as on the class page."""
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession.from_pack(TTT, on_print=on_print),
                             ConsoleSettings(pack=TTT), input=pipe, output=DummyOutput())
        pipe.send_text(pasted("5\n9\n2\n4\n7\n") + CTRL_Q + CTRL_Q)
        console.run()
    assert keyed(console) == ["> 5", "> 9", "> 2", "> 4"]  # a draw at the fourth move
    assert console.session.score.draws == 1
    assert ("Of the 10 characters pasted, 8 were typed: the rest was for the game that "
            "ended." in console.hint_log)


def test_the_paste_account():
    paste = Paste("12\r\n34\n\n5")
    assert list(paste.lines) == [("12", True), ("34", True), ("", True), ("5", False)]
    assert paste.total == 8 and not paste.cut
    paste = Paste("5\n" * 150)
    assert len(paste.lines) == 100 and paste.cut and paste.total == 300


def test_in_authentic_speed_the_next_line_waits_for_input_ready():
    """The next line is released once the reply is typed, by the ticker (no "still
    typing" refusal), on a fake clock."""
    clock = FakeClock()

    async def until(condition, what: str) -> None:
        for _ in range(2_000):
            if condition():
                return
            await asyncio.sleep(0.005)
        raise AssertionError(what)

    async def drive() -> ConsoleApp:
        with create_pipe_input() as pipe:
            console = ConsoleApp(lambda on_print: GameSession(WORDS, on_print=on_print),
                                 ConsoleSettings(authentic=True, clock=clock),
                                 input=pipe, output=DummyOutput())
            running = asyncio.ensure_future(console.run_async())
            clock.now += 100  # the tape read and the greeting typed
            await until(lambda: not console.pacer.busy, "the greeting typed")
            pipe.send_text(pasted("5\n9\n"))
            await until(lambda: console.session.words_typed == 1, "the 5 released")
            await asyncio.sleep(0.05)  # the ticker's turns while the reply is typed
            assert console.pacer.busy and console.session.words_typed == 1  # the 9 waits
            clock.now += 100
            await until(lambda: console.session.words_typed == 2, "the 9 released")
            pipe.send_text(CTRL_Q + CTRL_Q)
            await running
            return console

    console = asyncio.run(drive())
    assert keyed(console) == ["> 5", "> 9"]
    assert STILL_TYPING not in console.hint_log
