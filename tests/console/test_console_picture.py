"""The README's picture is the console as it is: regenerated from the running console and
compared with docs/console.svg, so a change to the screen that forgets the picture fails."""

from pathlib import Path

from univac_ttt.console.capture import DEFAULT_MOVES, picture, screen_bytes, screen_text
from univac_ttt.packs import shipped_pack

ROOT = Path(__file__).resolve().parents[2]


def test_docs_console_svg_is_what_the_console_draws_today():
    screen = screen_text(screen_bytes(shipped_pack("tictactoe"), DEFAULT_MOVES))
    lines = screen.plain.splitlines()
    assert "TIC-TAC-TOE" in lines[0] and "INPUT READY" in lines[-2]
    assert any(line.startswith("> 4") for line in lines)  # the player's keyed entry
    shipped = (ROOT / "docs" / "console.svg").read_text(encoding="utf-8")
    assert picture(screen) == shipped, (
        "docs/console.svg is out of date: "
        "python -m univac_ttt.packs.tictactoe.picture docs/console.svg")
