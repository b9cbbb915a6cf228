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
