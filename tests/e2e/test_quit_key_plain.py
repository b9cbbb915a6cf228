"""The terminal's quit key (Ctrl-\\, SIGQUIT) in the plain console: it ends the game as
Ctrl-C does, not with SIGQUIT's status 131 and a core dump (a user trial's finding). At
the prompt: test_play_pty's Ctrl-C test, for both keys."""

import shutil

from support.terminal import Terminal, fast_typewriter

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
ENTER, CTRL_BACKSLASH = "\r", "\x1c"


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
