"""A Ctrl-Q typed while the command is still starting reaches the console.

Until prompt_toolkit's raw mode is on, the terminal is in its cooked mode, whose XON/XOFF
flow control (IXON) takes Ctrl-Q for "resume output" and drops it: the first of the two
quit presses was lost when typed in the start's first few tenths of a second. launch.py
turns IXON off for a full-screen command as it starts, and back on at its end.
"""

from __future__ import annotations

import shutil

from support.terminal import Terminal

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
CTRL_Q = "\x11"


def test_a_ctrl_q_typed_during_the_start_asks_to_quit_and_ixon_comes_back() -> None:
    terminal = Terminal(["sh", "-c", f"stty ixon; '{COMMAND}'; echo status $?; stty -a"],
                        columns=100, rows=30, env={"PYTHONPROFILEIMPORTTIME": "1"})
    # -X importtime names each module as it is imported: cli.main is imported by launch's
    # main once the flow control is off, well before the console's raw mode
    terminal.wait_until(lambda _screen: b"| univac_ttt.cli.main" in terminal.raw, 30,
                        "the import of cli.main")
    assert b"INPUT READY" not in terminal.raw  # still starting: the terminal is cooked
    terminal.send(CTRL_Q)
    terminal.wait_for("again to quit", 30)
    terminal.send(CTRL_Q)
    def said_ixon(_screen: str) -> bool:  # stty -a has come as far as the input flags
        return b"status 0" in terminal.raw and b"ixon" in terminal.raw.split(b"status 0")[-1]
    terminal.wait_until(said_ixon, 10, "the exit and stty -a")
    after = terminal.raw.split(b"status 0")[-1]
    assert b" ixon" in after and b"-ixon" not in after  # as the terminal was before
    terminal.close()


def test_the_kiosk_ignores_ctrl_backslash_and_ctrl_c_while_it_starts(tmp_path) -> None:
    """The kiosk locks Ctrl-C, Ctrl-Z and Ctrl-\\ (docs/museum.md: they do nothing), but its
    lock came only once its modules were imported: a visitor's Ctrl-\\ in the start's first
    tenths of a second ended it with a core (status 131), a Ctrl-C with status 130."""
    terminal = Terminal([COMMAND, "kiosk", "--pin", "2468", "--data", str(tmp_path),
                         "--speed", "fast"], columns=80, rows=24,
                        env={"PYTHONPROFILEIMPORTTIME": "1"})
    terminal.wait_until(lambda _screen: b"| univac_ttt.cli.main" in terminal.raw, 30,
                        "the import of cli.main")
    assert b"INPUT READY" not in terminal.raw  # still starting
    terminal.send("\x1c\x03\x1a")  # Ctrl-\, Ctrl-C, Ctrl-Z
    terminal.wait_for("INPUT READY", 30)
    assert terminal.child.isalive()
    terminal.child.terminate(force=True)
    terminal.close()
