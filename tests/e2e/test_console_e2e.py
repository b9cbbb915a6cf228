"""The installed command in a real pseudo-terminal, read back as a screen (pexpect + pyte).

These play as a person does: they look at the screen, type, and look again. Where the
test must choose the opponent's moves it asks the solver for a drawing move, or blunders
on purpose.
"""

import re
import shutil
import subprocess

from support.terminal import Terminal, fast_typewriter

from univac_ttt.verify.solver import Oracle

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
ROW = re.compile(r"^ {3}([XO1-9]) {3}([XO1-9]) {3}([XO1-9])\b")
ENTER, CTRL_Q = "\r", "\x11"


def boards_on(screen: str) -> list[list[int]]:
    """Every board visible in the paper column, top to bottom (X 1, O -1, blank 0)."""
    lines = [line[:60] for line in screen.splitlines()]
    boards = []
    for i in range(len(lines) - 2):
        rows = [ROW.match(line) for line in lines[i:i + 3]]
        if all(rows):
            cells = [c for r in rows for c in r.groups()]
            boards.append([1 if c == "X" else -1 if c == "O" else 0 for c in cells])
    return boards


def start(*args, columns=100, rows=34, **kw):
    terminal = Terminal([COMMAND, *args], columns=columns, rows=rows, **kw)
    terminal.wait_for("INPUT READY")
    return terminal


def quit_(terminal):
    terminal.send(CTRL_Q)
    terminal.wait_for("again to quit")
    terminal.send(CTRL_Q)
    return terminal.close()


def play_move(terminal, square):
    """Type a square and Enter; the screen once the entry is on the paper, the keyboard is
    ready again and the reply has been drawn whole (the output has gone quiet)."""
    before = terminal.text()
    terminal.send(f"{square}{ENTER}")
    terminal.wait_until(lambda screen: screen != before and "INPUT READY ▸" in screen
                        and f"> {square}" in screen, 10, f"the answer to {square}")
    return terminal.settle(0.25)


def test_a_careful_opponent_draws_and_is_congratulated(tmp_path):
    transcript = tmp_path / "paper.txt"
    terminal = start("--transcript", str(transcript))
    oracle = Oracle()
    board = [0] * 9
    screen = terminal.text()
    for _ in range(5):
        square = next(s for s in range(9) if board[s] == 0 and
                      oracle.value(board[:s] + [1] + board[s + 1:]) == 0)
        screen = play_move(terminal, square + 1)
        if "DRAW" in screen:
            break
        board = boards_on(screen)[-1]
    assert "THE GAME IS A DRAW" in screen and "CONGRATULATIONS" in screen
    assert re.search(r"draws 1", screen)
    assert quit_(terminal) == 0
    assert "THE GAME IS A DRAW" in transcript.read_text()


def test_a_blunder_is_punished_on_screen():
    terminal = start()
    play_move(terminal, 2)
    screen = play_move(terminal, 8)  # opposite edges: a blunder
    for square in range(1, 10):
        if "THE UNIVAC WINS" in screen:
            break
        if boards_on(screen) and boards_on(screen)[-1][square - 1] == 0:
            screen = play_move(terminal, square)
    assert "THE UNIVAC WINS" in screen
    assert re.search(r"UNIVAC 1", screen)
    assert quit_(terminal) == 0


def test_help_opens_and_closes_and_bad_code_and_taken_square_are_warned_politely():
    terminal = start()  # one session for both checks: a start costs ~0.6 CPU-s
    terminal.send("\x1bOP")
    terminal.wait_for("TIC-TAC-TOE ON THE UNIVAC I")
    terminal.send(ENTER)
    terminal.wait_until(lambda screen: "TIC-TAC-TOE ON THE UNIVAC I" not in screen, 10,
                        "help closed")
    assert "TIC-TAC-TOE ON THE UNIVAC I" not in terminal.text()
    play_move(terminal, 5)
    screen = play_move(terminal, 0)
    assert "SORRY, THAT IS NOT A SQUARE CODE." in screen
    screen = play_move(terminal, 1)
    assert "SQUARE 1 IS ALREADY TAKEN." in screen and "PLEASE CHOOSE ANOTHER SQUARE." in screen
    terminal.send("!")
    assert "has no '!' key" in terminal.wait_for("key.")
    assert quit_(terminal) == 0


def test_a_tiny_terminal_and_resizing_do_not_break_it():
    terminal = start(columns=40, rows=12)
    screen = play_move(terminal, 5)
    assert "O" in screen and "INPUT READY" in screen
    terminal.resize(100, 30)
    terminal.wait_for("square codes")
    assert "square codes" in terminal.text()
    terminal.resize(30, 8)
    terminal.settle()
    terminal.resize(80, 24)
    screen = play_move(terminal, 9)
    assert "Traceback" not in terminal.raw.decode("utf-8", "replace")
    assert quit_(terminal) == 0


def test_authentic_speed_types_a_character_at_a_time():
    # the typewriter's clock runs ten times the wall's: ten characters a typewriter second
    terminal = Terminal([COMMAND, "--speed", "authentic"], columns=100, rows=30,
                        env=fast_typewriter(10))
    partial = terminal.wait_for("NEW GAME", timeout=5)
    assert "TYPE THE CODE OF A SQUARE" not in partial  # still typing the greeting
    terminal.hurry_typewriter()  # seen: the rest of it 25 times faster
    terminal.wait_for("INPUT READY ▸", timeout=20)
    assert quit_(terminal) == 0


def test_a_broken_program_image_is_a_clear_message(tmp_path):
    bad = tmp_path / "bad.img"
    bad.write_text("000 nonsense\n")
    result = subprocess.run([COMMAND, "play", "--image", str(bad)], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 2 and "line 1" in result.stderr
    assert "Traceback" not in result.stderr


def test_plain_mode_is_chosen_when_output_is_not_a_terminal():
    result = subprocess.run([COMMAND], input="5\n", capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0
    assert result.stdout.startswith("\n\nNEW GAME") and "\x1b[" not in result.stdout


def test_a_dumb_terminal_gets_the_plain_console():
    terminal = Terminal([COMMAND], columns=80, rows=24, env={"TERM": "dumb"})
    terminal.wait_for("7   8   9\n>")  # the plain prompt (screen lines lose trailing spaces)
    terminal.send("5\r")
    screen = terminal.wait_for("O   2   3")
    assert "SUPERVISORY CONTROL" not in screen  # no full-screen console
    terminal.send("\x04")
    assert terminal.close() == 0


def test_the_monitor_fits_an_80_by_24_terminal():
    terminal = Terminal([COMMAND, "monitor"], columns=80, rows=24)
    terminal.wait_for("monitor>")
    terminal.send("go\r")
    screen = terminal.wait_for("UNIVAC KEYBOARD")
    assert "Window too small" not in screen and "▶007" in screen
    terminal.send("\x11\x11")
    assert terminal.close() == 0
