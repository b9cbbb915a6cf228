"""docs/lecture.md's exercises run as written (issue 13 follow-up): each exercise's monitor
commands are read from the guide, in order, run on a fresh monitor, and what the exercise
promises is checked."""

import re
from pathlib import Path

from univac_ttt.monitor.core import Monitor
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "lecture.md"
SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")


def exercise(number: int) -> str:
    text = GUIDE.read_text().split("## Exercises", 1)[1].split("\n## ", 1)[0]
    found = re.search(rf"^{number}\. (.*?)(?=^\d+\. |\Z)", text, flags=re.S | re.M)
    assert found, f"exercise {number} is not in the guide"
    return " ".join(found.group(1).split())


def as_written(number: int, commands: list[str]) -> list[str]:
    """``commands`` after checking that the exercise shows each, in this order, in code."""
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", exercise(number))]
    at = 0
    for command in commands:
        assert command in spans[at:], f"exercise {number} does not say `{command}` here"
        at = spans.index(command, at) + 1
    return commands


def run(number: int, commands: list[str]) -> tuple[Monitor, list[list[str]]]:
    m = Monitor.for_pack(TTT)
    outputs = [m.execute(command) for command in as_written(number, commands)]
    for command, out in zip(commands, outputs, strict=True):
        assert not any(line.startswith("??") for line in out), (command, out)
    return m, outputs


def test_exercise_1_in_the_monitor_reorders_the_element():
    m, _ = run(1, ["deposit ELT B0 BRD+3 A0 BRD+2", "deposit ELT+1 A0 BRD+1 H0 ES"])
    shown = m.execute("examine ELT-ELT+1")
    assert "B0 403 BRD+3" in shown[0] and "A0 401 BRD+1" in shown[1]


def test_exercise_2_without_the_special_pattern_x_wins_with_a_fork():
    m, out = run(2, ["deposit D3 00 000 U0 FORCE", "go", "type 2", "continue", "type 4",
                     "continue", "board", "type 1", "continue", "type 7", "continue",
                     "paper"])
    assert out[6] == ["   1   X   3", "   X   O   6", "   7   8   O"]  # 5 and 9, not 1
    assert "| YOU WIN. CONGRATULATIONS." in out[-1]
    plain = Monitor.for_pack(TTT, tapes={})
    for command in ["go", "type 2", "continue", "type 4", "continue"]:
        plain.execute(command)
    assert plain.execute("board")[0] == "   O   X   3"  # unpatched: the corner 1


def test_exercise_3_the_centre_is_answered_with_square_2():
    _, out = run(3, ["deposit OPEN1 B0 TWO H0 SQK", "go", "type 5", "continue", "board"])
    assert out[-1][0] == "   1   O   3" and out[-1][1] == "   4   X   6"


def test_exercise_4_reaches_rulea_then_counts_the_scan():
    m, out = run(4, ["go", "type 5", "continue", "type 9", "break RULEA", "continue"])
    assert out[-1][-1].startswith("next: 033 left") and "breakpoint at 033" in out[-1][-1]
    at_rule = m.machine.instructions
    m.execute("continue")
    assert m.waiting_for_keyboard
    assert 1_300 <= m.machine.instructions - at_rule <= 1_450  # "about 1,370"
    assert re.search(r"1,3\d\d instructions and half a second", exercise(4))


def test_exercise_5_shows_ck1_before_and_after_the_program_writes_it():
    _, out = run(5, ["go", "break CK1-1", "type 5", "continue", "examine CK1", "step",
                     "examine CK1"])
    before, after = out[4][0], out[6][0]
    assert "00 000         B0 000 " in before and "B0 405 BRD+5" in after
    assert "`00 000 B0 000`" in exercise(5) and "`00 000 B0 405 BRD+5`" in exercise(5)


def test_exercise_6_the_odd_even_check_catches_the_broken_bits():
    _, out = run(6, ["go", "fault ELT 1 6", "type 5", "continue", "fault clear", "continue",
                     "type 9", "fault BRD+5 12 0", "examine BRD+5", "continue",
                     "deposit BRD+5 4", "continue"])
    assert out[3][-1].startswith("next: 460 left") and "odd-even" in out[3][-1]
    assert "KEY" in out[5][-1]
    assert "+3" in out[8][0]  # the centre's 4 (X) is 3 now, unnoticed
    assert "A0 405 BRD+5" in out[9][-1] and "odd-even" in out[9][-1]
    assert "waiting for the keyboard" in out[11][-1]



def test_exercise_7_a_bad_tape_block_is_reread_and_the_game_starts():
    m, out = run(7, ["fault tape 1 5", "boot", "continue", "desk", "continue",
                     "desk reread 1", "continue", "type 5"])
    assert "TAPE CHECK neon is lit" in out[2][-1] and "block 5" in out[2][-1]
    assert out[3][0] == "neons: TAPE CHECK"
    assert "rI holds block 5" in out[4][-1]  # START without the reread stops again
    assert out[5][0].startswith("REREAD") and "neon is out" in out[5][0]
    assert m.waiting_for_keyboard or "keyboard" in out[6][-1]
    m.execute("continue")
    assert m.execute("board")[1] == "   4   X   6"  # the game goes on as if nothing failed
    assert m.machine.tapes.blocks_read >= 18


def test_exercise_7_a_block_that_fails_three_reads_needs_three_rereads():
    assert "`fault tape 1 5 3`" in exercise(7)
    m = Monitor.for_pack(TTT)
    out = [m.execute(command) for command in ("fault tape 1 5 3", "boot", "continue")]
    assert "TAPE CHECK" in out[-1][-1]
    assert "did not read correctly" in m.execute("desk reread 1")[0]
    assert "did not read correctly" in m.execute("desk reread 1")[0]
    assert m.execute("desk reread 1")[0].startswith("REREAD")
    assert "keyboard" in m.execute("continue")[-1]
