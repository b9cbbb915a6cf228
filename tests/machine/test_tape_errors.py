"""Tape errors: a bad block injected on a reel stops its read with the TAPE CHECK neon, the
block taken from rI stops until it is reread, and the operator's reread (BN-168) lets the
routine go on as if nothing had failed (docs/fidelity.md, "Tape errors")."""

import pytest
from conftest import w

from tests.machine.test_tape import STOP, numbers, reel, tape_machine
from univac_ttt.desk import Desk
from univac_ttt.machine import StopKind
from univac_ttt.machine.tape import BLOCK_CYCLE_PULSES
from univac_ttt.machine.word import ZERO

# Read block 1 of tape 2 to 100, block 2 to 160, stop.
READ_TWO = {0: w("120000300100"), 1: w("120000300160"), 2: STOP}


def _desk(words, **reels):
    desk = Desk()
    desk.machine = tape_machine(words, **reels)
    return desk


def test_a_bad_block_stops_its_read_with_the_tape_check_neon():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    desk.inject_tape_fault(2, 2)
    stop = desk.run()
    assert stop.kind is StopKind.ERROR and (stop.address, stop.half) == (1, "left")
    assert stop.reason.startswith("tape check failed (Uniservo 2, block 2")
    assert "TAPE CHECK neon is lit" in stop.reason and desk.neons.lit() == ["TAPE CHECK"]
    m = desk.machine
    assert m.tapes[2].position == 2  # the tape has gone past the block, as a read does
    assert m.next_instruction_address() == (1, "right")  # the read itself is done


def test_start_without_the_reread_stops_at_the_transfer_and_changes_nothing():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    desk.inject_tape_fault(2, 2)
    desk.run()
    before = desk.machine.snapshot()
    stop = desk.run()
    assert (stop.address, stop.half) == (1, "right") and "rI holds block 2" in stop.reason
    assert desk.neons.lit() == ["TAPE CHECK"]
    assert list(desk.machine.mem[160:220]) == list(before.mem[160:220])  # nothing reached memory


def test_the_reread_puts_the_neon_out_and_start_goes_on():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    desk.inject_tape_fault(2, 2)
    desk.run()
    pulses = desk.machine.pulses
    assert desk.reread(2) is None
    assert desk.neons.lit() == [] and desk.machine.tapes[2].position == 2
    assert desk.machine.pulses >= pulses + BLOCK_CYCLE_PULSES  # the tape moved again
    assert desk.run().kind is StopKind.HALT
    assert numbers(desk.machine, 100, 120) == list(range(120))


def test_a_block_that_fails_twice_needs_two_rereads():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    desk.inject_tape_fault(2, 1, reads=3)
    assert "block 1" in desk.run().reason
    again = desk.reread(2)
    assert again is not None and "did not read correctly" in again.reason
    assert desk.neons.lit() == ["TAPE CHECK"]
    assert desk.reread(2) is not None
    assert desk.reread(2) is None and desk.run().kind is StopKind.HALT


def test_a_backward_read_is_reread_backward():
    words = {0: w("130000130000"), 1: w("230000400300"), 2: STOP}
    desk = _desk(words, u3=reel(1000, 2000))
    desk.inject_tape_fault(3, 2)
    desk.run()  # the forward read of block 2 fails first
    assert desk.reread(3) is None
    desk.inject_tape_fault(3, 2)
    stop = desk.run()  # now the backward read of block 2
    assert "block 2" in stop.reason and desk.machine.tapes[3].position == 1
    assert desk.reread(3) is None and desk.machine.tapes[3].position == 1
    assert desk.run().kind is StopKind.HALT
    assert numbers(desk.machine, 300) == list(range(2000, 2060))


def test_3n_stores_the_old_block_before_its_read_fails():
    words = {0: w("110000310200"), 1: w("300260900000")}
    desk = _desk(words, u1=reel(0, 60))
    desk.inject_tape_fault(1, 2)
    stop = desk.run()
    assert (stop.address, stop.half) == (0, "right")
    assert numbers(desk.machine, 200) == list(range(60))  # block 1 reached memory
    assert desk.reread(1) is None and desk.run().kind is StopKind.HALT
    assert numbers(desk.machine, 260) == list(range(60, 120))


def test_nothing_to_reread_is_said_and_changes_nothing():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    before = desk.machine.snapshot()
    stop = desk.reread(2)
    assert stop is not None and "nothing to reread" in stop.reason
    assert desk.machine.snapshot() == before


@pytest.mark.parametrize("unit, block, reads", [(3, 1, 1), (2, 0, 1), (2, 3, 1), (2, 1, 0)])
def test_a_bad_fault_request_is_refused(unit, block, reads):
    desk = _desk(READ_TWO, u2=reel(0, 60))
    with pytest.raises(ValueError):
        desk.inject_tape_fault(unit, block, reads)
    assert not desk.machine.tapes.faulty


def test_snapshots_keep_the_bad_blocks_and_the_unchecked_ri():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    desk.inject_tape_fault(2, 2)
    start = desk.machine.snapshot()
    desk.run()
    failed = desk.machine.snapshot()
    desk.machine.restore(start)
    assert desk.machine.tapes.faulty and "block 2" in desk.run().reason
    desk.machine.restore(failed)
    assert desk.machine.tapes.ri_check == (2, 1, False)


def test_fault_clear_mends_the_tapes_too():
    desk = _desk(READ_TWO, u2=reel(0, 60))
    desk.inject_tape_fault(2, 2)
    desk.machine.clear_faults()
    assert desk.run().kind is StopKind.HALT


def test_a_bad_block_at_the_initial_read_is_read_again_by_initial_read():
    desk = Desk()
    desk.attach(1, reel(0))
    desk.inject_tape_fault(1, 1)
    stop = desk.initial_read()
    assert stop is not None and stop.reason.startswith("tape check failed during the initial")
    assert desk.neons.lit() == ["TAPE CHECK"] and desk.machine.tapes[1].position == 0
    assert desk.machine.mem[0] == ZERO
    assert desk.initial_read() is None and numbers(desk.machine, 0) == list(range(60))
