"""The odd-even check: an injected fault stops the machine at the word's next use, with the
odd-even neon, before the instruction does anything; rewriting the word mends it."""

import json

import pytest

from univac_ttt.machine.cpu import Machine
from univac_ttt.machine.stops import StopKind
from univac_ttt.machine.word import from_int, from_text, instruction, to_int, to_text


def _program(*pairs: str, data: dict[int, str] | None = None) -> Machine:
    m = Machine()
    for i, pair in enumerate(pairs):
        m.mem[i] = pair
    for address, word in (data or {}).items():
        m.mem[address] = word
    return m


def _pair(left: tuple[str, int], right: tuple[str, int]) -> str:
    return instruction(*left) + instruction(*right)


STOP = _pair(("90", 0), ("90", 0))


def test_a_flipped_operand_bit_stops_the_instruction_that_reads_it():
    m = _program(_pair(("B", 100), ("A", 101)), STOP,
                 data={100: from_int(5), 101: from_int(7)})
    fault = m.inject_fault(101, 11, 0)
    assert to_text(m.mem[101]) == "000000000008"  # 7 (code 10) with bit 0 flipped: code 11
    stop = m.run()
    assert stop.kind is StopKind.ERROR
    assert (stop.address, stop.half) == (0, "right")
    assert "odd-even" in stop.reason and "neon" in stop.reason
    assert fault.describe() in stop.reason
    assert to_int(m.a) == 5  # the add never happened
    m.clear_faults()
    m.mem[101] = from_int(7)  # the operator mends the word and presses Start
    assert m.run().kind is StopKind.HALT
    assert to_int(m.a) == 12


def test_a_flipped_check_bit_leaves_the_character_but_still_stops():
    m = _program(_pair(("B", 100), ("90", 0)), data={100: from_int(5)})
    m.inject_fault(100, 3, 6)
    assert m.mem[100] == from_int(5)
    assert m.run().kind is StopKind.ERROR


def test_a_faulted_instruction_word_stops_on_its_way_to_cr():
    m = _program(_pair(("B", 100), ("90", 0)), _pair(("A", 100), ("90", 0)))
    m.inject_fault(1, 0, 6)
    stop = m.run()
    assert stop.kind is StopKind.HALT  # word 0 is sound
    stop = m.run()
    assert stop.kind is StopKind.ERROR and (stop.address, stop.half) == (1, "left")
    assert m.cc == 1


def test_a_register_fault_waits_for_an_instruction_that_reads_that_register():
    m = _program(_pair(("B", 100), ("E", 101)), STOP,
                 data={100: from_int(5), 101: from_int(9)})
    m.f = from_text("000000000001")
    m.inject_fault("rF", 0, 2)
    stop = m.run()  # B does not read rF; E does
    assert stop.kind is StopKind.ERROR and (stop.address, stop.half) == (0, "right")
    assert "rF" in stop.reason


def test_writing_a_faulted_word_mends_it():
    m = _program(_pair(("B", 100), ("H", 101)), _pair(("B", 101), ("90", 0)),
                 data={100: from_int(5), 101: from_int(7)})
    m.inject_fault(101, 5, 1)
    assert m.run().kind is StopKind.HALT
    assert not m.faults
    assert to_int(m.a) == 5


def test_a_multiply_rewrites_rf_and_so_mends_a_fault_there():
    m = _program(_pair(("M", 100), ("G", 101)), STOP, data={100: from_int(2)})
    m.l = from_int(3)
    m.inject_fault("rF", 4, 6)
    assert m.run().kind is StopKind.HALT
    assert to_int(m.mem[101]) == 9


def test_general_clear_mends_register_faults_only():
    m = Machine()
    m.inject_fault("rA", 1, 1)
    m.inject_fault(500, 1, 1)
    m.clear()
    assert list(m.faults) == [500]


def test_snapshot_and_restore_keep_the_faults():
    m = _program(_pair(("B", 100), ("90", 0)), data={100: from_int(5)})
    saved = m.snapshot()
    m.inject_fault(100, 2, 6)
    faulted = m.snapshot()
    assert faulted != saved
    m.restore(saved)
    assert not m.faults and m.run().kind is StopKind.HALT
    m.restore(faulted)
    assert m.run().kind is StopKind.ERROR


@pytest.mark.parametrize("location, position, bit", [
    (1000, 0, 0), ("rZ", 0, 0), (5, 12, 0), (5, -1, 0), (5, 0, 7), (5, 0, -1)])
def test_a_bad_fault_request_is_refused_and_changes_nothing(location, position, bit):
    m = Machine()
    before = m.snapshot()
    with pytest.raises(ValueError):
        m.inject_fault(location, position, bit)
    assert m.snapshot() == before


def test_the_monitor_fault_command_and_saved_states(tmp_path):
    from tests.support.monitors import game_monitor
    mon = game_monitor()
    assert mon.execute("fault") == ["no faults"]
    assert mon.execute("fault 5 1")[0].startswith("??")
    assert mon.execute("fault rA 13 0")[0].startswith("??")
    out = mon.execute("fault 0 1 6")
    assert "ODD-EVEN CHECK neon" in out[0]
    out = mon.execute("go")
    assert "error stop" in out[-1] and "odd-even" in out[-1]
    path = tmp_path / "state.json"
    mon.execute(f"save {path}")
    saved = json.loads(path.read_text())
    assert saved["faults"] == [{"location": 0, "position": 0, "bit": 6,
                                "word": to_text(mon.machine.mem[0])}]
    mon.execute("fault clear")
    assert mon.execute("fault") == ["no faults"]
    mon.execute(f"restore {path}")
    assert mon.execute("fault") == ["fault: word 000, character 1, check bit"]
    saved["faults"] = [{"location": "rQ", "position": 0, "bit": 0, "word": "0" * 12}]
    path.write_text(json.dumps(saved))
    assert mon.execute(f"restore {path}")[0].startswith("??")


def test_the_lecture_exercise_runs_as_written():
    from tests.support.monitors import game_monitor
    mon = game_monitor()
    mon.execute("go")
    mon.execute("fault ELT 1 6")
    mon.execute("type 5")
    out = mon.execute("continue")
    assert out[-1].startswith("next: 460 left") and "ODD-EVEN CHECK neon" in out[-1]
    mon.execute("fault clear")
    assert "KEY" in mon.execute("continue")[-1]
    mon.execute("type 9")
    assert "+3" in mon.execute("fault BRD+5 12 0")[-1]
    out = mon.execute("continue")
    assert "A0 405 BRD+5" in out[-1] and "odd-even" in out[-1]
    mon.execute("deposit BRD+5 4")
    assert "KEY" in mon.execute("continue")[-1]


def test_a_keyboard_word_mends_a_fault_only_once_it_is_typed():
    from univac_ttt.machine.devices import QueueKeyboard
    m = _program(_pair(("10", 100), ("B", 100)), STOP, data={100: from_int(5)})
    m.keyboard = QueueKeyboard()
    m.inject_fault(100, 11, 0)
    assert m.run().kind is StopKind.KEYBOARD
    assert 100 in m.faults  # still faulted while the keyboard waits
    m.keyboard.type_line("7")
    assert m.run().kind is StopKind.HALT
    assert not m.faults and to_int(m.a) == 7
