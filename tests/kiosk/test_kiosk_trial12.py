"""The twelfth round's user trial of the kiosk: small screens say each thing once and
whole. Fake clock and a pipe: no waiting."""

import pytest
from prompt_toolkit.input import create_pipe_input

from tests.kiosk.test_kiosk_trial import render, sized
from tests.support.exhibit import exhibit
from univac_ttt.kiosk.app import KIOSK_HELP, KioskApp
from univac_ttt.museum.controller import YOUR_MOVE

SIZES = [(36, 20), (40, 24), (60, 24), (80, 24), (100, 41), (120, 50)]


def screen_after(tmp_path, columns: int, rows: int, moves: str) -> tuple[KioskApp, str]:
    kiosk = exhibit(tmp_path, idle_seconds=600)
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=sized(columns, rows))
        for move in moves:
            assert kiosk.submit(move)
            kiosk.pacer.finish()
            kiosk.tick()
        app._sync()
        return app, render(app, columns, rows)


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("columns", "rows"), SIZES)
@pytest.mark.parametrize("moves", ["", "5", "59"])
def test_the_screen_asks_for_the_move_once_and_whole(tmp_path, columns, rows, moves):
    """At 80x24 the caption or the line over the keys said "Your move: type a square code,
    1 to 9, and press Enter." and the key bar "Type a square code, 1 to 9, and press
    Enter." under it; at 36x20 the line over the keys was cut ("... square code, 1 …")."""
    app, screen = screen_after(tmp_path, columns, rows, moves)
    # the kiosk's own words, once (the UNIVAC's greeting on the paper is its own)
    assert words(screen).count("ype a square code") == 1, screen
    assert words(YOUR_MOVE) in words(screen), screen  # whole, over as many rows as it needs
    assert "…" not in screen
    assert "F1 help" in screen.splitlines()[-1] and "F2 new" in screen.splitlines()[-1]


def test_the_key_bar_still_says_how_to_move_while_the_univac_types(tmp_path):
    kiosk = exhibit(tmp_path, idle_seconds=600, authentic=True)
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=sized(80, 24))
        assert kiosk.pacer.busy  # the greeting is being typed: no "Your move" yet
        screen = render(app, 80, 24)
    assert "Your move" not in screen
    assert screen.splitlines()[-1].strip().startswith("Type a square code, 1 to 9")


@pytest.mark.parametrize(("columns", "rows"), [(36, 20), (40, 24), (28, 24)])
def test_without_the_paper_a_game_s_result_stays_on_the_screen(tmp_path, columns, rows):
    """Below 42 columns the paper is left out: the result was said only by a caption that
    the next game's greeting replaced, so a visitor who looked up saw no result at all.
    The caption gives it as the UNIVAC typed it, before the next game's greeting."""
    app, screen = screen_after(tmp_path, columns, rows, "281")  # a UNIVAC win
    assert not app.paper_shown()
    assert app.kiosk.tally.today().univac_wins == 1
    assert "THE UNIVAC WINS." in words(screen)
    assert words("New game! Your move: type a square code, 1 to 9, and press Enter.") \
        in words(screen)
    app, screen = screen_after(tmp_path, columns, rows, "5")  # no game ended: no result
    assert "WINS" not in screen and "DRAW" not in screen


def test_with_the_paper_the_result_is_on_the_paper_alone(tmp_path):
    app, screen = screen_after(tmp_path, 80, 24, "281")
    assert app.paper_shown()
    assert app.caption_text().startswith("New game!")
    assert words(screen).count("THE UNIVAC WINS") == 1  # on the paper


@pytest.mark.parametrize(("columns", "rows"), [(36, 20), (28, 15), (80, 24)])
def test_a_help_taller_than_the_screen_reads_on_to_its_closing_line(tmp_path, columns, rows):
    """At 36x20 the help stopped mid-sentence and PageDown did nothing: its last line,
    how to close it, never showed. A help taller than the screen says how to read on, and
    PageDown brings every line, the closing one last."""
    app, _ = screen_after(tmp_path, columns, rows, "")
    app.show_help = True
    shown: list[str] = []
    for _ in range(40):
        screen = render(app, columns, rows)
        shown += app.help_lines()
        if "close this help" in words(screen):
            break
        assert "PgDn" in screen, screen
        app.scroll_help(1)
    else:
        raise AssertionError("the help's closing line never showed")
    assert words("Press Enter or Esc to close this help.") in words(screen)
    full = words(" ".join(line for line in shown if not line.startswith("PgDn"))).split()
    assert set(words(KIOSK_HELP).split()) <= set(full)  # every word of it was shown


def test_page_down_and_up_scroll_the_help_at_the_keyboard(tmp_path, monkeypatch):
    """The keys themselves (the kiosk takes every other key as a visitor's activity)."""
    from tests.kiosk.test_kiosk_trial import run_keys

    kiosk = exhibit(tmp_path, idle_seconds=600)
    seen: list[int] = []
    apps: list[KioskApp] = []

    def at(top_above: int):  # type: ignore[no-untyped-def]
        def done() -> bool:
            app = apps[0] if apps else None
            if app is None or app.help_top <= top_above:
                return False
            seen.append(app.help_top)
            return True
        return done

    import univac_ttt.kiosk.app as kiosk_app
    made = kiosk_app.KioskApp.__init__

    def keep(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        made(self, *args, **kwargs)
        apps.append(self)

    monkeypatch.setattr(kiosk_app.KioskApp, "__init__", keep)
    run_keys(kiosk, [("\x1bOP", lambda: apps[0].show_help),  # F1
                     ("\x1b[6~", at(0)),  # PageDown
                     ("\x1b[5~", lambda: apps[0].help_top == 0)],  # PageUp
             output=sized(36, 20))
    assert seen and seen[0] > 0
