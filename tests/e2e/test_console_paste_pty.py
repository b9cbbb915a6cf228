"""A paste in the full-screen console, in a real pseudo-terminal: the terminal sends it
bracketed, as xterm and its kind do, and the console plays each line as the class page
does (it typed only the first line). At the typewriter's own pace, sped up."""

import shutil

from support.terminal import Terminal, fast_typewriter

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
CTRL_Q = "\x11"


def test_a_pasted_line_each_move_plays_them_one_after_another():
    terminal = Terminal([COMMAND, "--speed", "authentic"], columns=100, rows=40,
                        env=fast_typewriter(10))
    terminal.wait_for("INPUT READY", timeout=20)
    terminal.send("\x1b[200~5\r9\r\x1b[201~")  # two lines, as a terminal sends a paste
    screen = terminal.wait_until(lambda screen: "> 9" in screen and "INPUT READY" in screen,
                                 20, "both moves played")
    paper = screen[screen.index("> 5"):]
    assert "   4   X   6" in paper.split("> 9")[0]  # the reply to 5 typed whole before it
    assert "still typing" not in screen and "NOT A SQUARE CODE" not in screen
    terminal.send(CTRL_Q)
    terminal.wait_for("again to quit")
    terminal.send(CTRL_Q)
    assert terminal.close() == 0
