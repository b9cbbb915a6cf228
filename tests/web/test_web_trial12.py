"""The twelfth round's user trial of the class page: the caption at the player's turn, and
what a long paste's hint says."""

from __future__ import annotations

import pytest
from support.web import web_server
from test_web import READY, board, open_page
from test_web_trial11 import caption, clipboard_page, paste

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
        page.clock.install()
        page.goto(running.url)
        page.wait_for_function("window.univac.typing() || " + READY)
        while page.evaluate("window.univac.typing()"):
            page.clock.run_for(1_000)
        page.wait_for_function(READY)
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
