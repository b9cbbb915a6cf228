"""The tape instructions, their stops and their timing, on reels built in the test."""

from conftest import machine_with, n, w

from univac_ttt.machine import StopKind
from univac_ttt.machine.tape import (
    BLOCK_CYCLE_PULSES,
    BLOCK_WORDS,
    LOW_DENSITY_PULSES,
    REWIND_BLOCK_PULSES,
    Reel,
)
from univac_ttt.machine.word import ZERO, to_int

STOP = w("900000000000")


def block(first: int) -> tuple[str, ...]:
    """A block whose words are the numbers first, first+1, ... first+59."""
    return tuple(n(first + i) for i in range(BLOCK_WORDS))


def reel(*firsts: int, writable: bool = False) -> Reel:
    return Reel([block(f) for f in firsts], writable=writable, name="test")


def tape_machine(words, **reels):
    m = machine_with(words)
    for unit, r in reels.items():
        m.tapes.attach(10 if unit == "u10" else int(unit[1:]), r)
    return m


def numbers(m, start, count=BLOCK_WORDS):
    return [to_int(word) for word in m.mem[start:start + count]]


def test_read_forward_then_30_moves_the_block_to_memory_and_erases_ri():
    m = tape_machine({0: w("120000300200"), 1: STOP}, u2=reel(100, 200))
    stop = m.run()
    assert stop.kind is StopKind.HALT
    assert numbers(m, 200) == list(range(100, 160))
    assert m.ri == [ZERO] * BLOCK_WORDS
    assert m.tapes[2].position == 1


def test_3n_chains_blocks_in_order():
    m = tape_machine({0: w("110000310200"), 1: w("310260300320"), 2: STOP},
                     u1=reel(0, 60, 120))
    assert m.run().kind is StopKind.HALT
    assert numbers(m, 200, 180) == list(range(180))
    assert m.tapes[1].position == 3


def test_the_last_digit_of_m_is_ignored_by_block_transfers():
    m = tape_machine({0: w("110000300207"), 1: STOP}, u1=reel(5))
    m.run()
    assert numbers(m, 200) == list(range(5, 65))


def test_read_backward_reads_the_block_behind_the_head_in_forward_order():
    m = tape_machine({0: w("130000300100"), 1: w("130000300200"),
                      2: w("230000400300"), 3: w("230000400400"), 4: STOP},
                     u3=reel(1000, 2000))
    assert m.run().kind is StopKind.HALT
    assert numbers(m, 300) == list(range(2000, 2060))  # the second block, words in order
    assert numbers(m, 400) == list(range(1000, 1060))
    assert m.tapes[3].position == 0


def test_4n_transfers_then_reads_backward():
    m = tape_machine({0: w("140000140000"), 1: w("240000440100"), 2: w("400200900000")},
                     u4=reel(0, 60))
    assert m.run().kind is StopKind.HALT
    # 2n re-reads block 2 (the head was after it); 4n stores it and reads block 1.
    assert numbers(m, 100) == list(range(60, 120))
    assert numbers(m, 200) == list(range(0, 60))


def test_unit_ten_is_written_minus():
    m = tape_machine({0: w("1-0000300100"), 1: STOP}, u10=reel(7))
    assert m.run().kind is StopKind.HALT and to_int(m.mem[100]) == 7


def test_write_rewind_read_round_trip():
    words = {0: w("550100550160"), 1: w("650000150000"), 2: w("350300300360"), 3: STOP}
    words.update({100 + i: n(i * 3) for i in range(120)})
    tape = Reel(writable=True)
    m = tape_machine(words, u5=tape)
    assert m.run().kind is StopKind.HALT
    assert tape.block_count == 2 and tape.written
    assert numbers(m, 300, 120) == [i * 3 for i in range(120)]
    assert m.ro == [n(i * 3) for i in range(60, 120)]


def test_write_in_the_middle_makes_that_block_the_written_end():
    tape = reel(0, 60, 120, writable=True)
    m = tape_machine({0: w("160000560100"), 1: w("160000900000")}, u6=tape)
    stop = m.run()
    assert tape.block_count == 2 and tape.blocks[1] == (ZERO,) * BLOCK_WORDS
    assert stop.kind is StopKind.ERROR and "past the last written block" in stop.reason


def test_low_density_write_records_the_words_and_takes_longer():
    fast, slow = Reel(writable=True), Reel(writable=True)
    m1 = tape_machine({0: w("510100510100"), 1: STOP}, u1=fast)
    m2 = tape_machine({0: w("710100710100"), 1: STOP}, u1=slow)
    m1.run()
    m2.run()
    assert fast.blocks == slow.blocks and len(fast.blocks) == 2
    assert m2.pulses - m1.pulses > LOW_DENSITY_PULSES - BLOCK_CYCLE_PULSES - 1000


def test_rewind_and_rewind_with_interlock():
    m = tape_machine({0: w("170000170000"), 1: w("670000170000"), 2: w("870000170000")},
                     u7=reel(0, 60))
    stop = m.run()
    assert stop.kind is StopKind.ERROR and stop.address == 2 and stop.half == "right"
    assert "rewound with interlock" in stop.reason
    assert m.tapes[7].position == 0 and m.tapes[7].interlocked
    m.tapes.attach(7, m.tapes[7].reel)  # the operator remounts: Start goes on
    m.run(1)
    assert m.tapes[7].position == 1


def test_rewind_runs_beside_the_computer_but_the_next_read_waits():
    m = tape_machine({0: w("180000180000"), 1: w("680000900000"), 2: w("180000900000")},
                     u8=reel(0, 60))
    m.run()
    after_rewind = m.pulses
    m.run()
    assert m.pulses - after_rewind >= 2 * REWIND_BLOCK_PULSES - BLOCK_CYCLE_PULSES


def test_reading_past_the_written_end_stops_and_changes_nothing():
    m = tape_machine({0: w("110000110000"), 1: STOP}, u1=reel(0))
    stop = m.run()
    assert stop.kind is StopKind.ERROR and stop.address == 0 and stop.half == "right"
    assert "read past the last written block (block 2 of 1)" in stop.reason
    assert m.tapes[1].position == 1 and to_int(m.ri[0]) == 0


def test_reading_backward_at_the_start_stops():
    m = tape_machine({0: w("210000900000")}, u1=reel(0))
    stop = m.run()
    assert stop.kind is StopKind.ERROR and "backward at the start" in stop.reason


def test_3n_past_the_end_stops_before_moving_ri():
    m = tape_machine({0: w("110000310100"), 1: STOP}, u1=reel(9))
    stop = m.run()
    assert stop.kind is StopKind.ERROR and "past the last written block" in stop.reason
    assert m.mem[100] == ZERO and to_int(m.ri[0]) == 9


def test_unmounted_unit_stops():
    m = tape_machine({0: w("140000900000")})
    stop = m.run()
    assert stop.kind is StopKind.ERROR and stop.reason == "Uniservo 4 has no reel mounted"


def test_writing_a_protected_reel_stops_and_leaves_it_as_it_was():
    tape = reel(0)
    m = tape_machine({0: w("510100900000")}, u1=tape)
    stop = m.run()
    assert stop.kind is StopKind.ERROR and "write-protected" in stop.reason
    assert tape.blocks == [block(0)] and not tape.written and m.cc == 0


def test_unit_zero_operations_are_invalid():
    for text in ("200000000000", "600000000000", "700100000000", "800000000000"):
        stop = machine_with({0: w(text)}).run()
        assert stop.kind is StopKind.ERROR and "invalid instruction" in stop.reason, text


def test_an_rI_transfer_waits_for_the_read_the_interlock():
    m = tape_machine({0: w("110000300100"), 1: STOP}, u1=reel(0))
    m.run()
    assert m.pulses >= BLOCK_CYCLE_PULSES
    assert m.pulses < BLOCK_CYCLE_PULSES + 20_000


def test_the_computer_goes_on_while_the_tape_moves():
    work = {0: w("110000000000"), 1: w("B00500A00500"), 2: w("B00500A00500"),
            3: w("300100900000")}
    m = tape_machine(work, u1=reel(0))
    m.run()
    busy = m.pulses
    m2 = tape_machine({0: w("110000000000"), 1: w("300100900000")}, u1=reel(0))
    m2.run()
    assert busy == m2.pulses  # the arithmetic fitted in the block time: no time added


def test_initial_read_loads_000_to_059_and_starts_at_000():
    program = (w("B00010500010"), STOP) + (ZERO,) * 8 + (w("⇑HELLOΔWORLD"),) + \
        (ZERO,) * 49
    m = machine_with({})
    m.tapes.attach(1, Reel([program]))
    m.cc = 500
    assert m.initial_read() is None
    assert m.cc == 0 and m.mem[:60] == list(program) and m.tapes[1].position == 1
    assert m.run().kind is StopKind.HALT
    assert m.printer.paper == "HELLO WORLD"  # after the upper-case shift


def test_initial_read_without_a_reel_is_a_clear_stop():
    m = machine_with({5: n(5)})
    stop = m.initial_read()
    assert stop is not None and stop.kind is StopKind.ERROR
    assert stop.reason == "initial read: Uniservo 1 has no reel mounted"
    assert m.mem[5] == n(5)


def test_initial_read_of_an_empty_reel_is_a_clear_stop():
    m = machine_with({})
    m.tapes.attach(1, Reel([]))
    stop = m.initial_read()
    assert stop is not None and "read past the last written block" in stop.reason


def test_the_disassembler_shows_tape_instructions():
    from univac_ttt.program.disassembler import instruction_text

    def half(text):
        return w(text * 2)[:6]

    assert instruction_text(half("310060")) == "31 060"
    assert instruction_text(half("1-0000")) == "1- 000"
    assert instruction_text(half("520100")) == "52 100"


def test_write_options_unaligned_and_keep():
    from univac_ttt.machine import MachineOptions

    tape = reel(0, 60, 120, writable=True)
    words = {0: w("160000560105"), 1: w("160000300300"), 2: STOP}
    words.update({100 + i: n(1000 + i) for i in range(70)})
    m = machine_with(words, MachineOptions(tape_write_aligned=False, tape_overwrite="keep"))
    m.tapes.attach(6, tape)
    assert m.run().kind is StopKind.HALT
    assert tape.block_count == 3
    assert [to_int(x) for x in tape.blocks[1][:2]] == [1005, 1006]  # from 105, not 100
    assert numbers(m, 300) == list(range(120, 180))  # block 3 is still there


def test_a_unit_tells_what_it_is_doing_for_a_console():
    m = tape_machine({0: w("110000000000"), 1: w("900000000000")}, u1=reel(0, 60))
    m.run()
    servo = m.tapes[1]
    assert servo.moving(m.pulses) == "reading" and servo.block_count == 2
    assert servo.moving(servo.busy_until) == ""
    assert [u.number for u in m.tapes.mounted()] == [1]
