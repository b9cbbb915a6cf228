"""The full-screen monitor's modes in a real pseudo-terminal (issue 13 follow-up): after a
boot the command line is the monitor's again, and keyboard mode says how to answer."""

import shutil

from support.terminal import Terminal

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
CTRL_Q = "\x11"


def start(columns: int = 120, rows: int = 40) -> Terminal:
    terminal = Terminal([COMMAND, "monitor"], columns=columns, rows=rows)
    terminal.wait_for("monitor>")
    return terminal


def quit_(terminal: Terminal) -> None:
    terminal.send(CTRL_Q + CTRL_Q)
    assert terminal.close() == 0


def prompt_line(screen: str) -> str:
    return next(line for line in reversed(screen.splitlines())
                if "monitor>" in line or "KEYBOARD ▸" in line)


def test_boot_after_a_keyboard_wait_returns_to_the_monitor_prompt():
    terminal = start()
    terminal.send("go\r")
    screen = terminal.wait_for("type the keys and Enter; :command for the monitor")
    assert "UNIVAC KEYBOARD ▸" in prompt_line(screen) and "type TEXT" not in screen
    terminal.send(":boot\r")
    screen = terminal.wait_for("INITIAL READ: block 1")
    assert prompt_line(screen).lstrip().startswith("monitor>")
    terminal.send("show tapes\r")  # a command again, not a keyboard word
    screen = terminal.wait_for("Uniservo 1  tictactoe")
    assert "keyboard word" not in screen
    quit_(terminal)
