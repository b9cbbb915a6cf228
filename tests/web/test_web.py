"""The browser page in a real browser (Debian's Chromium driven by Playwright).

Each test starts a class server with the web listener on a free port in this process and
plays through the page as a visitor would: touching keys, typing on the keyboard, reloading.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from support.web import PLAYWRIGHT_DISABLED_FEATURES, FakeClock, web_server

from univac_ttt.museum.controller import ATTRACT, KioskSettings

ROOT = Path(__file__).resolve().parents[2]
READY = "document.body.dataset.ready === 'yes'"


def exhibit_settings(tmp_path: Path, clock: FakeClock, **timing: float) -> KioskSettings:
    """The exhibit on the fake clock: staff PIN 2468, a minute's idle, the first
    demonstration at once; ``timing`` sets the demonstration's pauses."""
    return KioskSettings(pin="2468", printouts=tmp_path / "printouts",
                         stats=tmp_path / "tally.json", idle_seconds=60, authentic=False,
                         first_demo=0, clock=clock, **timing)


@pytest.fixture(autouse=True)
def _close_pages(browser):
    """Each test's pages close with it: a page left open goes on running its timers and
    drawing in the shared browser, costing the tests after it CPU."""
    yield
    for context in browser.contexts:
        context.close()


def open_page(browser, running, **context):
    # The page's CSP forbids eval; Playwright's wait_for_function needs it (the header
    # itself is checked in test_web_safety.py).
    page = browser.new_context(bypass_csp=True, **context).new_page()
    page.goto(running.url)
    page.wait_for_function(READY)
    return page


def keyed_lines(page) -> int:
    return page.locator("#paper .keyed").count()


def paper(page) -> str:
    return page.locator("#paper").inner_text()


def press(page, square: str) -> None:
    """Touch a square key and WORD RELEASE; wait until INPUT READY is lit again."""
    before = keyed_lines(page)
    page.get_by_role("button", name=square, exact=True).click()
    page.get_by_role("button", name="WORD RELEASE").click()
    page.wait_for_function(f"document.querySelectorAll('#paper .keyed').length > {before}"
                           f" && {READY}")


def board(page) -> list[str]:
    return [cell.inner_text() for cell in page.locator("#board .cell").all()]


def _renderers_disabled_features() -> set[str]:
    """The features Chromium passed its renderers as disabled (what it is running with),
    read from the command lines of this process's descendants."""
    parents: dict[int, int] = {}
    lines: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1]
                                               .split()[1])
                lines[int(entry.name)] = (entry / "cmdline").read_text().replace("\0", " ")

    def mine(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    found: set[str] = set()
    for pid, line in lines.items():
        if "--renderer-client-id" in line and mine(pid):
            for switch in line.split():
                if switch.startswith("--disable-features="):
                    found |= set(switch.split("=", 1)[1].split(","))
    return found


def test_a_context_opens_its_page_and_no_browser_ui(browser):
    """Chromium loaded two address-bar popups (WebUI pages in a renderer of their own,
    ~0.5 CPU-s) into the window it opens for each context; a headless page under test never
    shows them. They are switched off, and Playwright's own disabled features, which a
    second --disable-features would replace, are still off."""
    page = browser.new_context().new_page()
    session = browser.new_browser_cdp_session()
    targets = session.send("Target.getTargets")["targetInfos"]
    session.detach()
    assert [target["type"] for target in targets] == ["page"]
    page.goto("about:blank")
    assert set(PLAYWRIGHT_DISABLED_FEATURES) <= _renderers_disabled_features()


def test_a_draw_by_touching_5_9_2_4(browser):
    with web_server() as running:
        page = open_page(browser, running)
        assert paper(page).count("YOU MOVE FIRST") == 1
        assert page.get_by_role("log", name="printer paper").count() == 1
        assert board(page) == [str(n) for n in range(1, 10)]
        press(page, "5")
        assert board(page)[4] == "X" and board(page).count("O") == 1  # the UNIVAC's reply
        assert page.locator("#move-time").inner_text().endswith("ms")
        assert page.locator("#caption").inner_text().startswith(  # INPUT READY: their turn
            "Your move. The UNIVAC's last step: the opening")
        assert page.get_by_role("img", name="INPUT READY lit", exact=True).count() == 1
        assert page.get_by_role("img", name="OVERFLOW dark", exact=True).count() == 1
        for square in "924":
            press(page, square)
        text = paper(page)
        assert "THE GAME IS A DRAW" in text and "CONGRATULATIONS" in text
        assert page.locator("#score").inner_text() == "UNIVAC 0 · draws 1 · you 0"
        assert board(page) == [str(n) for n in range(1, 10)]  # the next game's fresh board
        (tab,) = running.listener.tabs.values()
        assert tab.results() == (0, 1, 0)  # the desk's own score agrees


def test_a_bad_key_and_a_key_the_univac_lacks(browser):
    with web_server() as running:
        page = open_page(browser, running)
        before = keyed_lines(page)
        page.keyboard.press("0")
        page.wait_for_function("document.getElementById('line').textContent === '0'")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#paper .keyed').length > {before}"
                               f" && {READY}")
        assert "NOT A SQUARE CODE" in paper(page)
        page.keyboard.press("~")  # no such key on the SC keyboard: refused, nothing sent
        page.wait_for_function("document.getElementById('hint').textContent.includes('no key')")
        assert page.locator("#line").inner_text() == ""
        page.keyboard.press("Backspace")
        press(page, "5")
        assert board(page)[4] == "X"


def test_an_occupied_square(browser):
    with web_server() as running:
        page = open_page(browser, running)
        press(page, "5")
        o_square = board(page).index("O") + 1
        press(page, str(o_square))
        assert f"SQUARE {o_square} IS ALREADY TAKEN" in paper(page)
        press(page, "5")
        assert "SQUARE 5 IS ALREADY TAKEN" in paper(page)
        assert board(page).count("X") == 1  # nothing changed on the board


@pytest.mark.parametrize("key", ["SOUND OFF", "LARGE TYPE", "HELP"])
def test_enter_after_touching_a_desk_key_is_word_release(browser, key):
    """SOUND, LARGE TYPE or HELP clicked kept the focus, so the Enter typed after a digit
    pressed that key again (sound or large type flipped back, help reopened) and the move
    was never released. A touch or click leaves no focus on them, as on the square keys."""
    with web_server() as running:
        page = open_page(browser, running)
        page.get_by_role("button", name=key, exact=True).click()
        if key == "HELP":
            page.locator("#help-dialog").get_by_role("button", name="CLOSE").click()
            # nor on CLOSE: it kept the focus until the next frame, and an Enter typed
            # before that was the closed dialog's (a 30 s timeout in ~1 run in 20)
            assert page.evaluate("document.activeElement === document.body")
        before = keyed_lines(page)
        page.keyboard.press("5")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#paper .keyed').length > {before}"
                               f" && {READY}")
        assert board(page)[4] == "X"
        assert not page.evaluate("document.getElementById('help-dialog').open")
        if key == "SOUND OFF":
            assert page.locator("#sound-key").inner_text() == "SOUND ON"
        if key == "LARGE TYPE":
            assert page.evaluate("document.documentElement.classList.contains('large')")


def test_the_board_s_o_does_not_read_as_a_zero(browser):
    """The board's marks were in DejaVu Sans Mono, whose O is as narrow as its 0: the
    UNIVAC's O beside the free squares' digits read as a zero. Measured in the font the
    browser draws the cell in, the O is now clearly wider than a zero."""
    with web_server() as running:
        page = open_page(browser, running)
        press(page, "5")
        ratio = page.evaluate("""() => {
            const cell = [...document.querySelectorAll('#board .cell')]
                .find(c => c.textContent === 'O');
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = getComputedStyle(cell).font;
            return ctx.measureText('O').width / ctx.measureText('0').width;
        }""")
        assert ratio > 1.15


def test_two_tabs_have_their_own_machines(browser):
    with web_server() as running:
        first = open_page(browser, running)
        second = open_page(browser, running)
        press(first, "5")
        press(second, "1")
        assert board(first)[4] == "X" and board(first)[0] != "X"
        assert board(second)[0] == "X" and board(second)[4] != "X"
        desks = [tab.session.desk for tab in running.listener.tabs.values()]
        assert len(desks) == 2 and desks[0] is not desks[1]
        assert desks[0].machine is not desks[1].machine
        assert "2 connected" in running.out.getvalue()


def test_a_reload_starts_a_fresh_desk_and_frees_the_old_one(browser):
    with web_server() as running:
        page = open_page(browser, running)
        press(page, "5")
        old = next(iter(running.listener.tabs))
        page.reload()
        page.wait_for_function(READY)
        assert "> 5" not in paper(page) and board(page)[4] == "5"
        page.wait_for_function("true")
        for _ in range(100):
            if old not in running.listener.tabs:
                break
            page.wait_for_timeout(50)
        assert list(running.listener.tabs) != [old] and len(running.listener.tabs) == 1
        press(page, "1")
        assert board(page)[0] == "X"


def test_attract_mode_idle_reset_and_staff_exit_with_a_fake_clock(browser, tmp_path):
    # imported here, not at collection: Playwright's API costs every worker ~0.3 s of CPU
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    clock = FakeClock()
    settings = exhibit_settings(tmp_path, clock, demo_pause=1.0, demo_end_pause=2.0)
    with web_server(museum=settings) as running:
        page = open_page(browser, running)
        assert "Your move" in page.locator("#caption").inner_text()
        press(page, "5")  # a visitor begins a game, then walks away
        clock.advance(61)
        page.wait_for_function(f"document.getElementById('caption').textContent === {ATTRACT!r}")
        assert page.locator("body").get_attribute("data-mode") == "attract"
        for _ in range(6):  # the demonstration's moves, one each time the clock moves on
            clock.advance(2.5)
            page.wait_for_timeout(120)
        assert keyed_lines(page) >= 2
        (tab,) = running.listener.tabs.values()
        assert tab.kiosk.tally.today().abandoned == 1
        page.keyboard.press("7")  # any key wakes the exhibit: a fresh game for the visitor
        page.wait_for_function("document.body.dataset.mode === 'playing' && " + READY)
        assert board(page) == [str(n) for n in range(1, 10)]
        page.keyboard.press("F12")
        page.wait_for_selector("#staff-dialog[open]")
        page.fill("#staff-pin", "1111")
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('hint').textContent.includes('not right')")
        # the wrong PIN closes the dialog; a key pressed while it is still open goes to it
        page.wait_for_function("!document.getElementById('staff-dialog').open")
        for _ in range(10):  # as staff would, F12 again if a loaded machine lost the press
            page.keyboard.press("F12")
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_selector("#staff-dialog[open]", timeout=3000)
                break
        page.wait_for_selector("#staff-dialog[open]")
        page.fill("#staff-pin", "2468")
        page.keyboard.press("Enter")
        page.wait_for_selector("#bye:not([hidden])")
        assert "Staff exit" in page.locator("#bye-text").inner_text()
        for _ in range(100):
            if "staff exit" in running.out.getvalue():
                break
            page.wait_for_timeout(50)
        assert "staff exit" in running.out.getvalue()


def test_help_left_open_closes_when_the_demonstrations_start(browser, tmp_path):
    """A visitor opened HELP and walked off: the dialog covered the exhibit through every
    demonstration after, until someone touched the screen."""
    clock = FakeClock()
    settings = exhibit_settings(tmp_path, clock)
    with web_server(museum=settings) as running:
        page = open_page(browser, running)
        page.keyboard.press("F1")
        page.wait_for_selector("#help-dialog[open]")
        clock.advance(61)
        page.wait_for_function("document.body.dataset.mode === 'attract'")
        page.wait_for_function("!document.getElementById('help-dialog').open")


def test_the_page_says_demonstration_the_whole_time_one_plays(browser, tmp_path):
    """Once the first demonstration move's caption replaced the attract caption, nothing
    on the page said a demonstration was playing or that a key would start a game (the
    terminal kiosk's key bar says so the whole time): the line over the keys says it."""
    clock = FakeClock()
    settings = exhibit_settings(tmp_path, clock, demo_pause=1.0, demo_end_pause=2.0)
    hint = "document.getElementById('hint').textContent"
    with web_server(museum=settings) as running:
        page = open_page(browser, running)
        assert "DEMONSTRATION" not in page.locator("#hint").inner_text()
        clock.advance(61)
        page.wait_for_function("document.body.dataset.mode === 'attract'")
        for _ in range(40):  # the demonstration's moves, until a caption explains one
            clock.advance(1.5)
            page.wait_for_timeout(100)
            if page.locator("#caption").inner_text() not in ("", ATTRACT):
                break
        assert page.locator("#caption").inner_text() not in ("", ATTRACT)
        page.wait_for_function(f"{hint}.startsWith('DEMONSTRATION') && {hint}.includes('any key')")
        assert page.locator("#hint").evaluate("e => getComputedStyle(e).fontWeight") == "700"
        page.keyboard.press("7")  # a visitor: the game is theirs, the notice goes
        page.wait_for_function("document.body.dataset.mode === 'playing'")
        page.wait_for_function(f"!{hint}.includes('DEMONSTRATION')")


def test_a_touch_on_the_board_shows_the_key_and_wakes_a_demonstration(browser, tmp_path):
    """On the exhibit's touchscreen visitors touch the big board's squares: nothing
    happened, not even during a demonstration that said "Press any key to play!". A touch
    on a square now names its square-code key (nothing is typed: the keyboard plays), and
    during a demonstration it wakes the exhibit as a key does."""
    clock = FakeClock()
    settings = exhibit_settings(tmp_path, clock)
    with web_server(museum=settings) as running:
        page = open_page(browser, running)
        page.locator("#board .cell").nth(4).click()
        assert "key 5" in page.locator("#hint").inner_text()
        assert page.locator("#line").inner_text() == "" and keyed_lines(page) == 0
        clock.advance(61)
        page.wait_for_function("document.body.dataset.mode === 'attract'")
        page.locator("#board .cell").nth(0).click()
        page.wait_for_function("document.body.dataset.mode === 'playing'")
        assert page.locator("#line").inner_text() == ""  # the waking touch is no move


def test_new_game_types_the_rest_of_the_old_paper_at_once(browser):
    """NEW GAME pressed while the greeting was typed at the typewriter's pace: the page
    typed the rest of it at ten characters a second before the new greeting, 25 s to
    INPUT READY where the console's F2 takes half that. The rest is shown at once."""
    with web_server(authentic=True) as running:
        page = browser.new_context(bypass_csp=True).new_page()
        page.clock.install()
        page.goto(running.url)
        page.wait_for_function("window.univac.typing()")  # the greeting came
        page.clock.run_for(2_000)  # some of it typed
        assert "7   8   9" not in paper(page)
        page.keyboard.press("F2")  # the rest at once: not ~12 s of typing still to come
        assert "7   8   9" in paper(page)
        page.wait_for_function("document.getElementById('paper').innerText"
                               ".split('NEW GAME').length === 3 || window.univac.typing()")
        while page.evaluate("window.univac.typing()"):  # the new greeting, at its pace
            page.clock.run_for(1_000)
        page.wait_for_function(READY)
        assert paper(page).count("YOU MOVE FIRST") == 2


def test_the_sound_follows_the_typewriter(browser):
    """Each character the UNIVAC types is a strike at the typewriter's pace, each line
    ends with a carriage return, and a game's end rings the bell (the page's own log of
    the sounds it scheduled, on a fake page clock)."""
    with web_server(authentic=True) as running:
        context = browser.new_context(bypass_csp=True)
        page = context.new_page()
        page.clock.install()
        page.goto(running.url)
        page.wait_for_function("window.univac.typing() || " + READY)  # the greeting came
        while page.evaluate("window.univac.typing()"):  # and is typed on the page's clock
            page.clock.run_for(1_000)
        page.wait_for_function(READY)
        assert page.evaluate("window.univac.sound.log.length") == 0  # off by default
        page.get_by_role("button", name="SOUND OFF").click()
        assert page.get_by_role("button", name="SOUND ON").get_attribute("aria-pressed") == "true"
        for square in "597":  # a blunder: the UNIVAC wins at its third reply
            before = keyed_lines(page)
            page.get_by_role("button", name=square, exact=True).click()
            page.get_by_role("button", name="WORD RELEASE").click()
            page.wait_for_function(f"document.querySelectorAll('#paper .keyed').length > {before}")
            page.clock.run_for(90_000)
            page.wait_for_function(READY)
        log = page.evaluate("window.univac.sound.log")
        typed = paper(page).split("> 5", 1)[1]
        typed = "\n".join(line for line in typed.split("\n") if not line.startswith("> "))
        strikes = [e["at"] for e in log if e["kind"] == "strike"]
        returns = [e for e in log if e["kind"] == "return"]
        assert len(strikes) == sum(1 for ch in typed if ch not in " \n")
        assert len(returns) >= typed.count("\n") - 3
        gaps = [b - a for a, b in zip(strikes, strikes[1:], strict=False)]
        assert min(gaps) >= 0.1 - 1e-6  # never faster than ten characters a second
        assert sum(1 for g in gaps if abs(g - 0.1) < 1e-6) > len(gaps) // 2
        bells = [e for e in log if e["kind"] == "bell"]
        assert len(bells) == 1 and "THE UNIVAC WINS" in typed
        assert bells[0]["at"] >= max(e["at"] for e in log if e["kind"] != "bell" and
                                     e["at"] < bells[0]["at"])
        page.get_by_role("button", name="SOUND ON").click()  # the mute key
        before = len(log)
        page.get_by_role("button", name="5", exact=True).click()
        page.get_by_role("button", name="WORD RELEASE").click()
        page.clock.run_for(30_000)
        assert page.evaluate("window.univac.sound.log.length") == before


def test_a_key_while_the_univac_types_says_wait_until_input_ready_lights(browser):
    """A key pressed during the greeting is refused with "still typing"; once INPUT READY
    is lit that hint goes (it stayed beside the lit lamp, telling the visitor to wait)."""
    with web_server(authentic=True) as running:
        page = browser.new_context(bypass_csp=True).new_page()
        page.clock.install()
        page.goto(running.url)
        page.wait_for_function("window.univac.typing()")  # the greeting is being typed
        page.keyboard.press("5")
        hint = page.locator("#hint")
        assert hint.inner_text() == "The UNIVAC is still typing. Wait for INPUT READY."
        while page.evaluate("window.univac.typing()"):
            page.clock.run_for(1_000)
        page.wait_for_function(READY)
        assert "still typing" not in hint.inner_text()
        assert page.locator("#line").inner_text() == ""  # the refused key typed nothing


def test_the_help_s_paragraphs_are_wrapped_by_the_dialog_alone(browser):
    """The pack's help comes broken into lines for 80 columns; the dialog, a little
    narrower, broke each again ("warns" / "you" / "politely"). Its paragraphs are sent
    whole, the board drawn in it line by line as written."""
    with web_server() as running:
        page = open_page(browser, running, viewport={"width": 1280, "height": 800})
        page.get_by_role("button", name="HELP").click()
        text = page.locator("#help-text").inner_text()
        assert "warns you politely about a wrong code" in text
        assert "      1 | 2 | 3\n      4 | 5 | 6" in text
        assert page.evaluate("""() => {  // nothing runs past the dialog's edge
            const pre = document.getElementById('help-text');
            return pre.scrollWidth <= pre.clientWidth; }""")


def test_the_page_loads_without_an_error_in_the_browser_s_console(browser):
    """No request of the page fails (a browser asked for /favicon.ico, a 404 logged as an
    error on every load) and its Content-Security-Policy refuses nothing of its own."""
    with web_server() as running:
        page = browser.new_context().new_page()  # the CSP as served
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text)
                if message.type == "error" else None)
        page.on("response", lambda response: errors.append(f"{response.status} {response.url}")
                if response.status >= 400 else None)
        with page.expect_request(lambda request: "favicon" in request.url) as icon:
            page.goto(running.url)
        page.wait_for_selector("body[data-ready='yes']")
        assert icon.value.response().status == 200  # type: ignore[union-attr]
        page.keyboard.press("5")
        page.keyboard.press("Enter")
        page.wait_for_selector("#paper .keyed")
        page.wait_for_selector("body[data-ready='yes']")
        assert errors == []


def test_the_page_fits_a_touchscreen_and_a_phone_and_has_large_type(browser, tmp_path):
    with web_server() as running:
        for width, height in ((1920, 1080), (360, 740)):
            page = open_page(browser, running, viewport={"width": width, "height": height})
            press(page, "5")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            for square in range(1, 10):
                key = page.get_by_role("button", name=str(square), exact=True)
                box = key.bounding_box()
                assert box is not None and box["width"] >= 40 and box["height"] >= 40
                assert box["x"] >= 0 and box["x"] + box["width"] <= width
            if width == 1920:  # the whole desk on one screen, nothing to scroll
                assert page.evaluate("document.documentElement.scrollHeight") <= height
                picture = ROOT / "docs" / "web.png"
                if os.environ.get("UNIVAC_TTT_DRAW_PICTURES"):
                    page.screenshot(path=str(picture))
                page.screenshot(path=str(tmp_path / "web.png"))
                assert (tmp_path / "web.png").stat().st_size > 10_000
            size = page.evaluate("getComputedStyle(document.documentElement).fontSize")
            page.get_by_role("button", name="LARGE TYPE").click()
            larger = page.evaluate("getComputedStyle(document.documentElement).fontSize")
            assert float(larger[:-2]) > float(size[:-2])
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.reload()  # the setting is kept
            page.wait_for_function(READY)
            assert page.evaluate("document.documentElement.classList.contains('large')")
            page.context.close()
