"""The eleventh round's user trial of the kiosk: the board during the next game's greeting,
and narrow screens. Fake clock and a pipe: no waiting."""

import pytest
from prompt_toolkit.input import create_pipe_input

from tests.kiosk.test_kiosk_trial import render, sized
from tests.support.exhibit import exhibit
from univac_ttt.kiosk.app import KioskApp
from univac_ttt.museum.controller import YOUR_MOVE


@pytest.fixture
def kiosk(tmp_path):
    return exhibit(tmp_path, idle_seconds=600, authentic=True)


def board_marks(app):
    return "".join(text for _, text in app._board())


def test_the_big_board_is_the_new_games_while_its_greeting_is_typed(kiosk):
    """The last visitor's finished board stayed on the big board while the UNIVAC typed
    the next game's greeting; the paper by then shows no board of the new game."""
    kiosk.pacer.finish()
    for move in "281":  # a UNIVAC win
        assert kiosk.submit(move)
        if move != "1":
            kiosk.pacer.finish()
    assert kiosk.tally.today().games == 1
    clock = kiosk.settings.clock
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=sized(80, 24))
        seen_final = seen_greeting = 0
        while kiosk.pacer.busy:
            clock.now += 0.2
            kiosk.tick()
            text = kiosk.pacer.text
            after_result = text[text.rfind("THE UNIVAC WINS"):]
            if "THE UNIVAC WINS" not in text:
                continue
            if "NEW GAME" in after_result:
                seen_greeting += 1
                assert kiosk.board in (None, (0,) * 9), after_result  # none yet, or empty
                assert "█" not in board_marks(app)  # no X and no O drawn
            else:
                seen_final += 1  # the result is typed under the finished board
                assert kiosk.board is not None and kiosk.board.count(0) < 9
        assert seen_final and seen_greeting
    assert kiosk.board == (0,) * 9  # the new game's board, typed
    assert kiosk.submit("5") and (kiosk.pacer.finish() or kiosk.board[4] == 1)


def test_f2_mid_game_clears_the_big_board_with_the_greeting(kiosk):
    kiosk.pacer.finish()
    kiosk.submit("5")
    kiosk.pacer.finish()
    assert kiosk.board[4] == 1
    kiosk.new_game()
    clock = kiosk.settings.clock
    while "NEW GAME" not in kiosk.pacer.text[kiosk.pacer.text.rfind("> 5"):]:
        clock.now += 0.2
        kiosk.tick()
    assert kiosk.board is None


@pytest.mark.parametrize("columns", [28, 30, 34, 36, 40, 41, 42, 48, 56, 59])
def test_narrow_screens_show_whole_boards_and_whole_words(tmp_path, columns):
    """On 30-40 columns the paper beside the board got a column of a few characters, and
    the typewriter's boards on it broke up ("4   5" over "6"); the title, the hint and
    the key bar were cut in the middle of a word."""
    kiosk = exhibit(tmp_path, idle_seconds=600)
    kiosk.submit("5")
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=sized(columns, 24))
        app._sync()
        rows = render(app, columns, 24).splitlines()
        paper = "\n".join(row[app.left_width():].strip()
                           for row in rows[1:-2 - len(app.hint_lines())])
        if paper.strip():  # the paper beside the board: its boards whole
            assert "1   2   3" in paper and "O   2   3" in paper, paper
            assert "4   X   6" in paper and columns >= 42
        else:
            assert columns < 42
        assert rows[6][:app.left_width()].split() == ["4", "│", "█", "│", "6"]  # whole
        title, bar = rows[0], rows[-1]
        assert title.strip() in ("UNIVAC I  ·  TIC-TAC-TOE  ·  1951", "UNIVAC I · TIC-TAC-TOE")
        hint = " ".join(rows[-2 - len(app.hint_lines()):-2])  # whole (trial 12), wrapped
        assert hint.split() == YOUR_MOVE.split()
        assert bar.strip().endswith(("F2 new game", "F2 new")), bar
        kiosk.caption = "DEMONSTRATION"
        kiosk.mode = type(kiosk.mode).ATTRACT
        assert len(app.bar_text()) <= columns and "DEMONSTRATION" in app.bar_text()
