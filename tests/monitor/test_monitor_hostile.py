"""The monitor against hostile input: huge numbers, bad saves to restore, FIFOs, NUL and
directories as file names, escape sequences on the paper, a full disk (issue 16, part A).
"""

import json

import pytest

from tests.support.hostile import HUGE, small_files, univac
from univac_ttt.monitor.core import Monitor
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe
from univac_ttt.safetext import visible

SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")


@pytest.fixture
def monitor():
    return Monitor.for_pack(TTT, tapes={})


def _saved(monitor, tmp_path, **changes):
    path = tmp_path / "state.json"
    monitor.execute(f"save {path}")
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


def test_a_full_disk_never_destroys_the_previous_monitor_save(tmp_path):
    save = tmp_path / "machine.json"
    script = tmp_path / "lecture.txt"
    script.write_text(f"save {save}\n")
    assert univac("monitor", "--script", str(script)).returncode == 0
    before = save.read_text()
    script.write_text(f"deposit 400 5\nsave {save}\n")
    result = univac("monitor", "--script", str(script), preexec_fn=small_files(20_000))
    out = result.stdout.decode()
    assert "?? cannot write" in out and result.returncode == 1
    assert save.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lecture.txt", "machine.json"]


@pytest.mark.parametrize("command", [
    f"examine {HUGE}", f"examine 1-{HUGE}", f"examine BRD+{HUGE}", f"deposit {HUGE} 1",
    f"step {HUGE}", f"history {HUGE}", f"break {HUGE}", f"go {HUGE}", f"watch {HUGE}",
    f"deposit 400 {HUGE}", f"paper {HUGE}", "examine ٣٣٣٣٣٣٣٣٣٣",
])
def test_huge_numbers_in_monitor_commands_get_one_short_line(monitor, command):
    before = monitor.machine.snapshot()
    out = monitor.execute(command)
    assert len(out) == 1 and out[0].startswith("??") and len(out[0]) < 200
    assert monitor.machine.snapshot() == before


@pytest.mark.parametrize("changes, why", [
    ({"breakpoint_switch": "no"}, "breakpoint_switch"),
    ({"breakpoint_switch": 1}, "breakpoint_switch"),
    ({"CC": 10**40}, "digits"),
    ({"half": 0.5}, "not a whole"),
])
def test_restore_refuses_wrong_types_and_huge_numbers(monitor, tmp_path, changes, why):
    path = _saved(monitor, tmp_path, **changes)
    before = monitor.machine.snapshot()
    out = monitor.execute(f"restore {path}")
    assert out[0].startswith("??") and why in out[0]
    assert monitor.machine.snapshot() == before


def test_restore_of_a_huge_number_or_deep_nesting_is_one_line(monitor, tmp_path):
    path = _saved(monitor, tmp_path)
    text = path.read_text().replace('"CC": ', f'"CC": {HUGE}', 1)
    path.write_text(text)
    assert "digits" in monitor.execute(f"restore {path}")[0]
    path.write_text("[" * 200_000 + "]" * 200_000)
    out = monitor.execute(f"restore {path}")
    assert out[0].startswith("?? not a saved machine") and "nested" in out[0]


def test_monitor_file_commands_refuse_fifos_nul_and_directories(monitor, fifo, tmp_path):
    for command in (f"restore {fifo}", f"do {fifo}", "save a\0b", "restore a\0b", "do a\0b",
                    f"do {tmp_path}", f"save {tmp_path}", f"save {fifo}"):
        out = monitor.execute(command)
        assert len(out) == 1 and out[0].startswith("??"), command
    assert "NUL" in monitor.execute("save a\0b")[0]
    assert "FIFO" in monitor.execute(f"save {fifo}")[0] and fifo.is_fifo()


def test_escape_sequences_in_a_saved_paper_are_shown_as_text(monitor, tmp_path):
    path = _saved(monitor, tmp_path, paper="HELLO\x1b[2J\x1b]0;owned\x07\u202eTXT\n")
    script = tmp_path / "lecture.txt"
    script.write_text(f"restore {path}\npaper\n# a \x1b[31m comment\n")
    result = univac("monitor", "--script", str(script))
    assert b"\x1b" not in result.stdout and b"\x07" not in result.stdout
    assert b"HELLO\\x1b[2J\\x1b]0;owned\\x07\\u202eTXT" in result.stdout
    assert visible("a\tb\x9bc") == "a\tb\\x9bc"
