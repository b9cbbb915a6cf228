"""The eleventh round's user trial of the page: the caption after a game, and a paste."""

from __future__ import annotations

import pytest
from support.web import FakeClock, web_server
from test_web import READY, board, exhibit_settings, open_page, paper, press

LAST_STEP = "The UNIVAC's last step:"  # the caption at INPUT READY (test_web_trial12.py)


@pytest.fixture(autouse=True)
def _close_pages(browser):
    yield
    for context in browser.contexts:
        context.close()


def caption(page) -> str:
    return page.locator("#caption").inner_text()


def test_the_caption_follows_the_game_to_the_next_greeting(browser):
    """The finished game's caption ("... the game is a draw.") stayed on the class page
    through the next game's greeting, until its first move."""
    with web_server() as running:
        page = open_page(browser, running)
        assert caption(page) == ""
        press(page, "5")
        assert caption(page).startswith(f"Your move. {LAST_STEP} the opening")
        for square in "924":
            press(page, square)
        assert "THE GAME IS A DRAW" in paper(page)
        assert board(page) == [str(n) for n in range(1, 10)]  # the next game, INPUT READY
        assert caption(page) == ""  # the new game's: none yet, as at the first
        press(page, "5")
        assert caption(page).startswith(f"Your move. {LAST_STEP} the opening")


def greeted_on_a_fake_clock(page, url: str) -> None:
    """The page opened on a fake clock, run on until its greeting is typed (INPUT READY)."""
    page.clock.install()
    page.goto(url)
    page.wait_for_function("window.univac.typing() || " + READY)
    while page.evaluate("window.univac.typing()"):
        page.clock.run_for(1_000)
    page.wait_for_function(READY)


def paste(page, text: str) -> None:
    """Paste ``text`` with Ctrl+V, as a visitor would (the clipboard filled first)."""
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.keyboard.press("Control+V")


def clipboard_page(browser, running):
    page = open_page(browser, running, permissions=["clipboard-read", "clipboard-write"])
    page.locator("#paper").click()  # the page has the focus, no button
    return page


def test_a_pasted_square_code_is_typed_as_its_key(browser):
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "5")
        page.wait_for_function("document.getElementById('line').textContent === '5'")
        page.keyboard.press("Enter")
        page.wait_for_function(f"{READY} && document.querySelectorAll('#paper .keyed')"
                               ".length === 1")
        assert board(page)[4] == "X"


@pytest.mark.parametrize("authentic", [False, True])
def test_pasted_moves_play_one_after_another(browser, authentic):
    """Several codes, a line each: each is released, and the next typed only once the
    UNIVAC has answered and INPUT READY is lit (as a key typed while it types is refused).
    At the typewriter's pace, on a fake page clock."""
    with web_server(authentic=authentic) as running:
        page = browser.new_context(
            bypass_csp=True, permissions=["clipboard-read", "clipboard-write"]).new_page()
        greeted_on_a_fake_clock(page, running.url)
        page.locator("#paper").click()
        paste(page, "5\r\n9\r\n")
        for _ in range(200):  # the two replies typed, ten characters a second
            if page.evaluate(f"{READY} && document.querySelectorAll('#paper .keyed')"
                             ".length === 2 && !window.univac.typing()"):
                break
            page.clock.run_for(1_000)
            page.wait_for_timeout(5)  # the socket's messages, in real time
        text = paper(page)
        assert "> 5" in text and "> 9" in text and "NOT A SQUARE CODE" not in text
        first_reply = text.split("> 5", 1)[1].split("> 9", 1)[0]
        assert first_reply.rstrip().endswith("7   8   9")  # typed whole before the 9
        assert board(page)[4] == "X" and board(page)[8] == "X"
        assert "still typing" not in page.locator("#hint").inner_text()


def test_a_paste_past_a_game_s_end_is_not_played_in_the_next(browser):
    """Keys a paste held after the move that ended a game belonged to that game (as keys
    typed ahead do on the terminal console): the next game is not played by them."""
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "5\n9\n2\n4\n7\n")  # a draw at the fourth move, then a 7
        page.wait_for_function(f"{READY} && document.getElementById('score').textContent"
                               ".includes('draws 1')")
        page.keyboard.press("3")  # a key of one's own, after the paste's answers
        page.wait_for_function("document.getElementById('line').textContent === '3'")
        assert "> 7" not in paper(page) and board(page) == [str(n) for n in range(1, 10)]
        assert page.locator("#line").inner_text() == "3"


def test_a_long_paste_is_cut_and_a_word_holds_twelve_keys(browser):
    with web_server() as running:
        page = clipboard_page(browser, running)
        (tab,) = running.listener.tabs.values()
        keys = []
        real_key = tab.key

        async def counted(key):
            keys.append(key)
            await real_key(key)

        tab.key = counted
        paste(page, "7" * 5_000)
        page.wait_for_function("document.getElementById('hint').textContent.includes("
                               "'Of the 5000')")  # once every pasted key is answered
        assert page.locator("#line").inner_text() == "777777777777"
        # what was typed and why not the rest, once, in the page's words (it said "first
        # 200 typed" beside the server's "A word is twelve characters" when twelve were)
        assert page.locator("#hint").inner_text() == (
            "Of the 5000 characters pasted, 12 were typed: a word is 12 characters; a "
            "paste types at most 200 characters. Press WORD RELEASE or ERASE.")
        page.keyboard.press("Backspace")  # after every pasted key, in the socket's order
        page.wait_for_function("document.getElementById('line').textContent === "
                               "'77777777777'")
        assert keys == ["7"] * 200 + ["Backspace"]
        assert "Of the" not in page.locator("#hint").inner_text()  # until a key of one's own


def test_a_paste_leaves_out_what_the_server_would_refuse(browser):
    """A tab, a no-break space, a zero-width space or a control character copied from a
    page is no key: sent, the server ended the connection over it ("bad message")."""
    with web_server() as running:
        page = clipboard_page(browser, running)
        paste(page, "\t5\u00a0\u200b\x07\u2028\n")
        page.wait_for_function(f"{READY} && document.querySelectorAll('#paper .keyed')"
                               ".length === 1")
        assert board(page)[4] == "X"
        assert page.locator("#bye").is_hidden()
        assert len(running.listener.tabs) == 1
        paste(page, "\t\u00a0")  # nothing in it is a key: said, nothing sent
        page.wait_for_function("document.getElementById('hint').textContent.includes("
                               "'Nothing in that paste')")
        assert page.locator("#line").inner_text() == ""


def test_the_museum_exhibit_takes_no_paste(browser, tmp_path):
    """The exhibit's answers come with its ticks, not one a key: a paste's moves would be
    refused while its typewriter still types, so a paste types nothing there."""
    settings = exhibit_settings(tmp_path, FakeClock())
    with web_server(museum=settings) as running:
        page = open_page(browser, running, permissions=["clipboard-read", "clipboard-write"])
        page.locator("#paper").click()
        paste(page, "5")
        page.keyboard.press("3")  # after the paste's keys, had it sent any
        page.wait_for_function("document.getElementById('line').textContent === '3'")
