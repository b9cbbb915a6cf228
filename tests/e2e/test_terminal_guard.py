"""Key sequences and signals in a real terminal (pexpect + pyte): issue 16, part B.

Where the bytes' timing and the terminal's modes matter, a pipe is not enough: these type
into a pseudo-terminal as a person (or an attacker) does, and read the terminal's modes
back after the program has gone.
"""

from __future__ import annotations

import os
import shutil
import signal
import termios
import time

import pytest
from support.terminal import Terminal

COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
CTRL_Q, F12, PIN = "\x11", "\x1b[24~", "2468"
MOUSE_LIKE = ["\x1b[1m", "\x1b[1;2m", "\x1b[<1;2m", "\x1b[;m", "\x1b[;;;;m", "\x1b[<;;M",
              "\x1b[;;M", "\x1b[<0;;M", "\x1b[M\xff\xff\xff"]
LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"


def kiosk_args(tmp_path) -> list[str]:
    return ["kiosk", "--pin", PIN, "--data", str(tmp_path), "--speed", "fast"]


def type_slowly(terminal: Terminal, keys: str, pause: float = 0.1) -> None:
    """Each key its own write, the next within prompt_toolkit's 0.5 s escape timeout: one
    sequence, typed by hand rather than sent by a terminal in one piece."""
    for key in keys:
        terminal.send(key)
        terminal.pump(pause)


def cooked(terminal: Terminal) -> bool:
    """The terminal is back in line mode with echo (read from the master side)."""
    lflag = termios.tcgetattr(terminal.child.child_fd)[3]
    return bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO)


def ended(terminal: Terminal, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while terminal.child.isalive() and time.monotonic() < end:
        terminal.pump(0.1)
    terminal.pump(0.2)


def test_mouse_like_keys_and_a_slow_paste_start_leave_play_usable():
    terminal = Terminal([COMMAND], columns=100, rows=34)
    terminal.wait_for("INPUT READY")
    for sequence in MOUSE_LIKE:
        terminal.send(sequence)  # each sequence its own write
        terminal.pump(0.02)
    terminal.send("\x1b")  # clears any half-typed sequence, as a person would
    terminal.pump(0.6)
    assert terminal.child.isalive()
    terminal.send("5\r")
    terminal.wait_for("O", timeout=10)
    type_slowly(terminal, "\x1b[200~")
    terminal.pump(0.7)
    terminal.send(CTRL_Q)
    terminal.wait_for("again to quit")
    terminal.send(CTRL_Q)
    assert terminal.close() == 0


def test_mouse_like_keys_leave_the_monitor_usable():
    terminal = Terminal([COMMAND, "monitor"], columns=100, rows=34)
    terminal.wait_for("monitor>")
    for sequence in MOUSE_LIKE:
        terminal.send(sequence)  # each sequence its own write
        terminal.pump(0.02)
    terminal.send("\x1b")
    terminal.pump(0.6)
    terminal.send("\x15where\r")  # Ctrl-U clears whatever the sequences left typed
    terminal.wait_for("monitor> where")
    terminal.send(CTRL_Q)
    terminal.wait_for("Ctrl-Q again quits")  # the first press armed quit: a wait, not 0.3 s
    terminal.send(CTRL_Q)
    assert terminal.close() == 0


def test_staff_leave_the_kiosk_after_a_slowly_typed_paste_start(tmp_path):
    terminal = Terminal([COMMAND, *kiosk_args(tmp_path)], columns=100, rows=30)
    terminal.wait_for("TIC-TAC-TOE")
    for sequence in MOUSE_LIKE[:3]:
        terminal.send(sequence)  # each sequence its own write
        terminal.pump(0.02)
    type_slowly(terminal, "\x1b[200~")
    terminal.pump(0.7)
    terminal.send(F12)
    terminal.wait_for("STAFF PIN")
    terminal.send(PIN + "\r")
    ended(terminal)
    assert not terminal.child.isalive()
    assert terminal.close() == 0
    assert "closed by staff" in (tmp_path / "kiosk.log").read_text()


@pytest.mark.parametrize(("args", "ready", "signum", "code"), [
    ([], "INPUT READY", signal.SIGTERM, 128 + signal.SIGTERM),
    ([], "INPUT READY", signal.SIGHUP, 128 + signal.SIGHUP),
    (["monitor"], "monitor>", signal.SIGTERM, 128 + signal.SIGTERM),
    (["monitor"], "monitor>", signal.SIGHUP, 128 + signal.SIGHUP),
    (["KIOSK"], "TIC-TAC-TOE", signal.SIGHUP, 0),
])
def test_a_signal_leaves_the_terminal_as_it_was(tmp_path, args, ready, signum, code):
    if args == ["KIOSK"]:
        args = kiosk_args(tmp_path)
    terminal = Terminal([COMMAND, *args], columns=100, rows=34)
    terminal.wait_for(ready)
    assert not cooked(terminal)  # raw while the screen is up
    mark = len(terminal.raw)
    terminal.child.kill(signum)
    ended(terminal)
    assert not terminal.child.isalive()
    assert cooked(terminal)
    assert LEAVE_ALTERNATE_SCREEN in terminal.raw[mark:]
    assert terminal.close() == code
    if args[:1] == ["kiosk"]:
        assert "kiosk stopped by SIGHUP" in (tmp_path / "kiosk.log").read_text()
    else:
        assert f"stopped by {signal.Signals(signum).name}" in terminal.text()


@pytest.mark.parametrize(("args", "ready"), [
    ([], "INPUT READY"), (["monitor"], "monitor>"), (["KIOSK"], "TIC-TAC-TOE")])
def test_a_terminal_that_goes_away_ends_the_session_promptly(tmp_path, args, ready):
    if args == ["KIOSK"]:
        args = kiosk_args(tmp_path)
    terminal = Terminal([COMMAND, *args], columns=100, rows=34)
    terminal.wait_for(ready)
    pid = terminal.child.pid
    os.close(terminal.child.child_fd)  # the window is closed: the kernel hangs up
    terminal.child.child_fd = -1
    end = time.monotonic() + 10
    status = None
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.01)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail(f"{args} kept running after its terminal went away")
    assert os.WIFEXITED(status)
    # SIGHUP or the failed read or write, whichever comes first; the kiosk stops, never
    # restarts on a terminal that is gone
    assert os.WEXITSTATUS(status) in ((0, 74) if args[:1] == ["kiosk"] else (129, 74))
    if args[:1] == ["kiosk"]:
        log = (tmp_path / "kiosk.log").read_text()
        assert "restarting" not in log and "kiosk stopped by SIGHUP" in log or (
            "kiosk stopped: the terminal went away" in log)
