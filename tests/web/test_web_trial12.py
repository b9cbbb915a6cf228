"""The twelfth round's user trial of the class page: the caption at the player's turn, and
what a long paste's hint says."""

from __future__ import annotations

import pytest
from support.web import web_server
from test_web import READY, board
from test_web_trial11 import caption, clipboard_page, greeted_on_a_fake_clock, paste

OPENING = "The opening: a centre move is answered by a corner, any other by the centre."


@pytest.fixture(autouse=True)
def _close_pages(browser):
    yield
    for context in browser.contexts:
        context.close()


def test_the_caption_says_it_is_the_players_turn_once_input_ready_is_lit(browser):
    """The caption of the UNIVAC's last step ("Scanning the eight elements ...") stayed as
    it was while the player thought, as if the UNIVAC were still at it. While the reply is
    typed it explains the step; once INPUT READY is lit it says first that it is the
    player's move. At the typewriter's pace, on a fake page clock."""
    with web_server(authentic=True) as running:
        page = browser.new_context(bypass_csp=True).new_page()
        greeted_on_a_fake_clock(page, running.url)
        assert caption(page) == ""  # the first game: no step yet
        page.get_by_role("button", name="5", exact=True).click()
        page.get_by_role("button", name="WORD RELEASE").click()
        page.wait_for_function("window.univac.typing()")
        assert caption(page) == OPENING  # the reply is being typed
        assert page.evaluate(READY) is False
        for _ in range(200):  # the reply typed, ten characters a second
            if page.evaluate(READY):
                break
            page.clock.run_for(1_000)
            page.wait_for_timeout(5)
        assert page.evaluate(READY)
        assert caption(page) == ("Your move. The UNIVAC's last step: the opening: a centre "
                                 "move is answered by a corner, any other by the centre.")
        page.keyboard.press("9")  # a key of one's own: still the player's turn
        page.wait_for_function("document.getElementById('line').textContent === '9'")
        assert caption(page).startswith("Your move.")


def hint(page) -> str:
    return page.locator("#hint").inner_text()


def test_a_long_paste_says_what_was_typed_and_why_not_the_rest(browser):
    """300 characters into a word of twelve: the hint said "Only the first 200 characters
    of a paste are typed." beside the server's "A word is twelve characters", when twelve
    were typed. It says once what became of the paste, in the page's words."""
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "1" * 300)
        page.wait_for_function("document.getElementById('hint').textContent"
                               ".startsWith('Of the')")
        assert page.locator("#line").inner_text() == "1" * 12
        assert hint(page) == ("Of the 300 characters pasted, 12 were typed: a word is 12 "
                              "characters; a paste types at most 200 characters. Press WORD "
                              "RELEASE or ERASE.")
        assert "twelve" not in hint(page) and "first 200" not in hint(page)


def test_a_paste_with_keys_the_univac_lacks_says_which(browser):
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "5€\t\n")
        page.wait_for_function(f"{READY} && document.querySelectorAll('#paper .keyed')"
                               ".length === 1 && document.getElementById('hint')"
                               ".textContent.startsWith('Of the')")
        assert board(page)[4] == "X"  # the 5 was released
        assert hint(page) == ("Of the 4 characters pasted, 2 were typed: the UNIVAC keyboard "
                              "has no \"€\" key; tabs, special spaces and control "
                              "characters are no keys.")


def test_a_whole_paste_leaves_no_note(browser):
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "5\n9\n")
        page.wait_for_function(f"{READY} && document.querySelectorAll('#paper .keyed')"
                               ".length === 2 && !window.univac.typing()")
        assert board(page)[4] == "X" and board(page)[8] == "X"
        assert hint(page) == ""


def test_a_paste_past_a_game_s_end_says_the_rest_was_that_game_s(browser):
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "5\n9\n2\n4\n7\n")  # a draw at the fourth move, then a 7
        page.wait_for_function("document.getElementById('hint').textContent"
                               ".startsWith('Of the')")
        assert hint(page) == ("Of the 10 characters pasted, 8 were typed: the rest was for "
                              "the game that ended.")
