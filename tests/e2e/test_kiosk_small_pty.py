"""The kiosk on small terminals, in a real pseudo-terminal: each thing said once and whole
(a user trial: at 36x20 the line over the keys was cut after a move and a game's result
left the screen with the next greeting; at 80x24 "type a square code" was said twice)."""

import shutil

from support.terminal import Terminal

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
ENTER = "\r"
YOUR_MOVE = "Your move: type a square code, 1 to 9, and press Enter."


def words(text: str) -> str:
    return " ".join(text.split())


def kiosk(tmp_path, columns, rows):
    terminal = Terminal([COMMAND, "kiosk", "--pin", "2468", "--data", str(tmp_path),
                         "--speed", "fast"], columns=columns, rows=rows)
    terminal.wait_for("INPUT READY >")
    return terminal


def test_a_36x20_kiosk_says_the_move_whole_and_keeps_the_result(tmp_path):
    terminal = kiosk(tmp_path, 36, 20)
    for move, reply in (("2", "The opening"), ("8", "forces a reply")):
        terminal.send(move + ENTER)
        screen = terminal.wait_until(lambda s, reply=reply: reply in words(s)
                                     and words(YOUR_MOVE) in words(s), 10, "the reply")
        assert "…" not in screen
    terminal.send("1" + ENTER)  # the blunder's end: the UNIVAC wins
    screen = terminal.wait_until(lambda s: "New game!" in words(s), 10, "the next game")
    assert "THE UNIVAC WINS." in words(screen)
    terminal.child.terminate(force=True)


def test_an_80x24_kiosk_says_type_a_square_code_once(tmp_path):
    terminal = kiosk(tmp_path, 80, 24)
    screen = terminal.wait_until(lambda s: words(YOUR_MOVE) in words(s), 10, "greeting")
    assert words(screen).count("ype a square code") == 1  # (the paper's is in capitals)
    terminal.send("5" + ENTER)
    screen = terminal.wait_until(lambda s: "The opening" in s and words(YOUR_MOVE)
                                 in words(s), 10, "the reply")
    assert words(screen).count("ype a square code") == 1
    terminal.child.terminate(force=True)
