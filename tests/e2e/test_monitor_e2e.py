"""The full-screen lecture monitor in a real pseudo-terminal (pexpect + pyte), as a lecturer
sees it (issue 13): the paper pane shows the newest lines, help opens at
its first line and pages on, back then a different move, and the panes fit a small screen."""

import shutil

import pytest
from support.terminal import quit_monitor, start_monitor

from univac_ttt.monitor.core import COMMANDS, Monitor
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
PAGE_UP, PAGE_DOWN, F2, CTRL_Q = "\x1b[5~", "\x1b[6~", "\x1bOQ", "\x11"
SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")



def state_line(screen: str) -> str:
    return next((line for line in screen.splitlines() if "state:" in line), "")


def run_line(terminal, line: str) -> None:
    """Enter a line that runs the machine; wait until the state line shows it has stopped."""
    before = state_line(terminal.text())
    terminal.send(line + "\r")
    terminal.wait_until(lambda screen: state_line(screen) not in (before, "")
                        and "running" not in state_line(screen), 10, f"{line!r} done")


def enter_line(terminal, line: str) -> None:
    """Enter a line that does not run the machine; wait until its answer is drawn."""
    before = terminal.text()
    terminal.send(line + "\r")
    terminal.wait_until(lambda screen: screen != before, 10, f"{line!r} answered")
    terminal.settle()


def paper_pane(screen: str) -> list[str]:
    """The lines under the PAPER heading, in its column, down to the state line."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if line.rstrip().endswith(" PAPER"))
    column = lines[top].index(" PAPER")
    pane = []
    for line in lines[top + 1:]:
        if line.lstrip().startswith("state:"):
            break
        pane.append(line[column:].rstrip())
    return pane


def expected(*moves: str) -> tuple[list[str], str]:
    """The paper's lines after these moves, and the state line's count of instructions."""
    monitor = Monitor.for_pack(TTT, tapes={})
    monitor.execute("go")
    for move in moves:
        monitor.execute(f"type {move}")
        monitor.execute("continue")
    lines = [line for line in monitor.desk.paper.text.splitlines() if line.strip()]
    return lines, f"{monitor.machine.instructions:,} instr"


def test_the_paper_pane_shows_the_latest_board():
    terminal = start_monitor(120, 40)
    for move in ("go", "5", "9"):
        run_line(terminal, move)
    latest, count = expected("5", "9")
    screen = terminal.wait_for(count)
    shown = [line for line in paper_pane(screen) if line.strip()]
    assert shown[-3:] == latest[-3:] and "X" in latest[-1]  # O 1, X 9: the newest board
    quit_monitor(terminal)


@pytest.mark.parametrize("columns, rows", [(80, 24), (100, 30)])
def test_help_opens_at_its_start_and_pages_on_to_its_end(columns, rows):
    """A user trial: on an 80x24 terminal the help opened scrolled to its end (its first
    lines off the top). An answer taller than the output pane opens at its start now, and
    PageDown reads on, PageUp back."""
    terminal = start_monitor(columns, rows)
    terminal.send("help\r")
    seen = terminal.wait_until(lambda screen: "step [n]" in screen and "monitor> help"
                               in screen.split("─" * 20)[-1], 10, "the help's start")
    assert "Addresses: 000-999" not in seen
    for _ in range(20):
        before = terminal.text()
        terminal.send(PAGE_DOWN)
        terminal.wait_until(lambda screen, before=before: screen != before, 5, "a page down")
        terminal.settle()
        seen += terminal.text()
        if "Addresses: 000-999" in terminal.text():
            break
    for command in COMMANDS:
        assert command.usage[:30] in seen, command.usage
    assert "Addresses: 000-999" in terminal.text()
    terminal.send(f"\x1b[<64;10;{rows - 4}M" * 3)  # the mouse wheel, up, over the output
    terminal.wait_until(lambda screen: "Addresses: 000-999" not in screen, 5, "wheel up")
    for _ in range(20):
        terminal.send(PAGE_UP)
        terminal.settle()
        if "step [n]" in terminal.text():
            break
    assert "step [n]" in terminal.text()
    terminal.send("examine 000\r")  # a short answer: the newest line, as before
    terminal.wait_until(lambda screen: screen.split("─" * 20)[-1].count("monitor>") == 2
                        and "step [n]" not in screen, 5, "the newest line")
    quit_monitor(terminal)


def test_back_then_a_different_move():
    terminal = start_monitor(120, 40)
    for line in ("go", "5", ":back 300", "type 1", "continue"):
        (enter_line if line.startswith("type") else run_line)(terminal, line)
    latest, count = expected("1")
    terminal.wait_for("old future is discarded")
    screen = terminal.wait_for(count)
    assert "    X   2   3" in screen  # the board in memory: X took 1 this time
    assert [line for line in paper_pane(screen) if line.strip()][-3:] == latest[-3:]
    quit_monitor(terminal)


def test_registers_board_and_paper_all_on_80_by_24():
    terminal = start_monitor(80, 24)
    screen = terminal.text()
    assert "state: ready: nothing has run yet" in screen and "running" not in screen
    assert "MEMORY" in screen and "REGISTERS" in screen  # board and paper make room
    terminal.send(F2 + F2)  # memory wide -> narrow -> off
    terminal.send("go\r")
    screen = terminal.wait_for("keyboard wait")
    for heading in ("REGISTERS", "BOARD (from memory)", "PAPER", "1   2   3"):
        assert heading in screen, heading
    assert "MEMORY" not in screen
    quit_monitor(terminal)
