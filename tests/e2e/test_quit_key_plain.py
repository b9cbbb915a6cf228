"""The terminal's quit key (Ctrl-\\, SIGQUIT) in the plain console: it ends the game as
Ctrl-C does, not with SIGQUIT's status 131 and a core dump (a user trial's finding)."""

import shutil

import pytest
from support.terminal import Terminal, fast_typewriter

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
ENTER, CTRL_BACKSLASH = "\r", "\x1c"


@pytest.mark.parametrize("argv", [["play", "--plain"], ["run", "--program", "tictactoe"]])
def test_ctrl_backslash_at_the_plain_prompt_ends_as_ctrl_c_does(argv):
    terminal = Terminal([COMMAND, *argv], columns=80, rows=24)
    terminal.wait_for("YOU MOVE FIRST", timeout=20)
    for move in "5927":  # a draw: 1 in the score
        terminal.send(move + ENTER)
    terminal.wait_until(lambda screen: "CONGRATULATIONS" in screen
                        and screen.rstrip().endswith("7   8   9\n>"), 20, "the next game")
    terminal.send(CTRL_BACKSLASH)
    screen = terminal.wait_for("univac-ttt: interrupted", timeout=20)
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    assert lines[-2:] == ["univac-ttt: score: UNIVAC 0, draws 1, you 0",
                          "univac-ttt: interrupted"]
    assert "Traceback" not in screen and "core dumped" not in screen
    assert terminal.close() == 130
    assert terminal.child.signalstatus is None  # it ended itself, not SIGQUIT's default


def test_ctrl_backslash_while_the_univac_types_presses_stop_as_ctrl_c_does():
    """While the UNIVAC runs or types, Ctrl-C is the desk's STOP (the rest typed at once,
    the game goes on): Ctrl-\\ is the same key, not an end without the score."""
    terminal = Terminal([COMMAND, "play", "--plain", "--speed", "authentic"], columns=100,
                        rows=24, env=fast_typewriter(10))
    terminal.wait_for("NEW GAME. YOU", timeout=20)
    terminal.hold_typewriter()  # still typing when the key comes, however slow the machine
    terminal.settle()
    mark = len(terminal.raw)
    terminal.send(CTRL_BACKSLASH)
    terminal.wait_until(lambda screen: b"\x1c" in terminal.raw[mark:], 10, "Ctrl-\\ taken")
    terminal.hold_typewriter()  # (the terminal's quit discards output not yet read)
    terminal.wait_for("   7   8   9", timeout=20)
    terminal.send("5" + ENTER)  # the game goes on
    terminal.wait_for("   4   X   6", timeout=20)
    assert terminal.child.isalive()
    terminal.child.terminate(force=True)
