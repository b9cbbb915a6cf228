"""The tests' forked command (support/command.py) is the command: for the same arguments
and input it prints what a fresh ``python -m univac_ttt`` prints and exits as it does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import command

SHIPPED_IMAGE = (Path(__file__).resolve().parents[2] / "univac_ttt" / "packs" / "tictactoe"
                 / "tictactoe.img")


@pytest.mark.parametrize(("args", "stdin"), [
    (["--help"], ""),
    (["run", "--max-steps", "116", str(SHIPPED_IMAGE)], ""),
    (["play", "--plain"], "5\n9\n2\n4\n"),  # a drawn game, then the end of input
    (["play", "--no-such-option"], ""),  # a usage error: exit 2 and one message
    (["monitor"], "go\nzz\n"),  # an unknown command in a piped monitor: exit 1
])
def test_a_forked_run_and_a_fresh_interpreter_agree(args, stdin, monkeypatch):
    monkeypatch.delenv(command.FRESH_VARIABLE, raising=False)
    forked = command.univac(*args, stdin=stdin)
    monkeypatch.setenv(command.FRESH_VARIABLE, "1")
    fresh = command.univac(*args, stdin=stdin)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode, fresh.stdout, fresh.stderr)


def test_a_forked_run_has_its_own_streams_directory_and_exit(tmp_path, monkeypatch):
    monkeypatch.delenv(command.FRESH_VARIABLE, raising=False)
    result = command.univac("assemble", "no-such-sheet.ucs", cwd=str(tmp_path))
    assert result.returncode == 2 and "no-such-sheet.ucs" in result.stderr
    assert Path.cwd() != tmp_path  # the test's own directory unchanged


@pytest.mark.parametrize(("args", "ready", "keys", "shown", "env"), [
    ([], "INPUT READY ▸", "5\r", "> 5", None),  # the full-screen console: a move
    (["monitor"], "monitor>", "go\r", "UNIVAC KEYBOARD", None),  # go ends at a keyboard wait
    (["play", "--plain", "--speed", "authentic"], "NEW GAME", "", "TYPE A SQUARE CODE",
     "fast clock"),
])
def test_a_forked_terminal_and_the_installed_command_agree(args, ready, keys, shown, env,
                                                           monkeypatch):
    from tests.support.terminal import MONITOR_COMMAND, Terminal, fast_typewriter, forkable

    environment = fast_typewriter(50) if env else None
    screens, statuses = [], []
    for fresh in ("", "1"):
        monkeypatch.setenv(command.FRESH_VARIABLE, fresh)
        argv = [MONITOR_COMMAND, *args]
        assert forkable(argv, environment) == (not fresh)
        terminal = Terminal(argv, columns=100, rows=30, env=environment)
        terminal.wait_for(ready, timeout=30)
        terminal.send(keys)
        terminal.wait_for(shown, timeout=30)
        screens.append(terminal.settle(0.3))
        terminal.send("\x11\x11" if "--plain" not in args else "\x04")
        statuses.append(terminal.close())
    assert screens[0] == screens[1]
    assert statuses[0] == statuses[1] == 0


def test_read_line_fails_a_silent_command_in_bounded_time_and_ends_it():
    """The served tests read a server's announcement with read_line: a server that hangs
    before it writes one fails its test instead of hanging the run."""
    import subprocess
    import sys

    from tests.support.command import read_line

    talker = subprocess.Popen([sys.executable, "-c", "print('telnet on 1'); import time; "
                               "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert read_line(talker) == "telnet on 1\n"
        with pytest.raises(AssertionError, match="no line in 0.5 s"):
            read_line(talker, timeout=0.5)
        assert talker.wait(10) != 0  # killed, not left sleeping
    finally:
        talker.kill()
        talker.wait()
