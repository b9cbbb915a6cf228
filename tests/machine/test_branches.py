"""Blocks that go on at the taken side of a conditional test (blockplan.py's branches),
checked against the reference CPU: tests taken and not taken, runs ending part-way along a
branch (the budget), bails in a branch's pairs, words of a branch changed by a deposit
or by the program, breakpoints, faults and restores, and a loop in place whose branch is
longer than its pass."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.machine.test_differential import block_events, block_words, replay, same, twin
from tests.support.reference_cpu import reference_run
from tests.support.sizes import FOLLOWED_BLOCK_EXAMPLES, size
from univac_ttt.machine import MachineOptions, StopKind, blockgen, compiled
from univac_ttt.machine.cpu import MachineState
from univac_ttt.machine.tape import Reel
from univac_ttt.machine.word import from_int, from_text, instruction

TAKEN_RUNS = 3  # (blockgen's is higher: these tests make taken sides hot at once)


@pytest.fixture(autouse=True)
def _taken_sooner(monkeypatch):
    """Taken sides are followed after TAKEN_RUNS taken exits (no count or block kept from
    other tests)."""
    monkeypatch.setattr(blockgen, "TAKEN_RUNS", TAKEN_RUNS)
    for tables in compiled.TABLES.values():
        tables.forget()
    yield
    for tables in compiled.TABLES.values():
        tables.forget()


def branched(tables: compiled.Tables | None = None) -> list[tuple[int, tuple[int, ...]]]:
    """(start, its pairs' addresses) of every block holding a branch."""
    tables = tables or compiled.TABLES[False]
    found = []
    for address, blocks in enumerate(tables.by_address):
        for block in blocks.values():
            names = getattr(block, "__globals__", {})
            if None in names.get("MAIN", ()):
                found.append((address, tuple(at for at, _, _ in names["STEPS"])))
    return found


def _counting(limit: int, taken: list[str]) -> dict[int, str]:
    """A loop in place at 000-004 counting x (060) up to ``limit`` (062): the test at 002
    is taken once every ``limit`` passes, to ``taken`` (pairs at 010 on, then a U back to
    000), which starts the count again."""
    memory = {0: instruction("B", 60) + instruction("A", 61),   # rA = x + 1
              1: instruction("H", 60) + instruction("L", 62),   # x kept; rL = the limit
              2: instruction("Q", 10) + instruction("00", 0),   # at the limit: 010
              3: instruction("B", 63) + instruction("A", 61),   # not taken: y + 1
              4: instruction("H", 63) + instruction("U", 0),
              60: from_int(0), 61: from_int(1), 62: from_int(limit), 63: from_int(0),
              64: from_int(0), 65: from_int(7), 66: from_text("ABCDEFGHIJKL"),
              67: from_int(3)}
    memory.update({10 + i: word for i, word in enumerate(taken)})
    memory[10 + len(taken)] = instruction("00", 0) + instruction("U", 0)
    return memory


_TAKEN = [instruction("B", 64) + instruction("H", 60),   # x = 0
          instruction("50", 63) + instruction("L", 65),  # print y; rL = 7
          instruction("M", 67) + instruction("H", 68)]   # 3 x 7 kept


@pytest.mark.parametrize("limit", [1, 2, 3, 7])
def test_a_test_taken_and_not_taken_goes_on_along_its_branch_exactly(limit):
    """Taken every pass, every other, every third, every seventh: once hot the block at
    000 goes on at 010 along a branch, and runs of odd lengths (ending part-way along the
    branch, or in the pass) leave the machine, the clock and the paper as the reference's."""
    fast, ref = twin(MachineOptions(), _counting(limit, _TAKEN), [])
    for steps in (400, 1, 3, 37, 5, 11, 13, 2000, 7, 29, 997):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert any(at == 0 and 10 in pairs for at, pairs in branched()), branched()
    assert len(fast[1].log) > 20


def test_a_branch_bails_part_way_as_the_reference():
    """Once the branch is made, its multiply meets text (an error stop in the middle of
    the branch), its keyboard read finds nothing typed, and an overflow stops the machine
    under the overflow-stop rule: each stop, and Start after it, as the reference."""
    fast, ref = twin(MachineOptions(), _counting(2, _TAKEN), [])
    same(fast, ref, fast[0].run(600), reference_run(ref[0], 600))
    assert branched()
    for m in (fast[0], ref[0]):
        m.mem[67] = from_text("ABCDEFGHIJKL")  # the multiply stops
    for steps in (40, 1, 40):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert fast[0].last_stop.kind is StopKind.ERROR and fast[0].last_stop.address == 12
    reading = _TAKEN[:2] + [instruction("10", 69) + instruction("J", 68)]
    fast, ref = twin(MachineOptions(), _counting(2, reading),
                     [from_int(n) for n in range(TAKEN_RUNS + 20)])
    for steps in (4000, 3, 1, 4000, 17):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert fast[0].last_stop.kind is StopKind.KEYBOARD and fast[0].last_stop.address == 12
    assert branched()
    overflowing = _TAKEN[:2] + [instruction("B", 70) + instruction("A", 70)]
    memory = {**_counting(2, overflowing), 70: from_int(6)}
    for options in (MachineOptions(), MachineOptions(overflow="stop")):
        for tables in compiled.TABLES.values():
            tables.forget()
        fast, ref = twin(options, memory, [])
        same(fast, ref, fast[0].run(500), reference_run(ref[0], 500))
        assert branched(compiled.TABLES[options.overflow == "stop"])
        for m in (fast[0], ref[0]):
            m.mem[70] = from_int(60_000_000_000)  # the sum overflows: to 000, or a stop
        for steps in (500, 1, 3, 500, 9):
            same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        if options.overflow == "stop":
            assert fast[0].last_stop.kind is StopKind.ERROR


def test_a_branchs_word_changed_breakpointed_or_faulted_matches_the_reference():
    """Words of the branch changed by deposits (in one operand, and otherwise) and by the
    program itself, a breakpoint on a branch's pair, a fault in one, restores."""
    stepping = _TAKEN[:2] + [instruction("B", 69) + instruction("H", 11)]  # rewrites 011
    memory = {**_counting(2, stepping), 69: instruction("50", 63) + instruction("L", 66)}
    fast, ref = twin(MachineOptions(), memory, [])
    same(fast, ref, fast[0].run(600), reference_run(ref[0], 600))
    assert branched()
    saved = [fast[0].snapshot()]
    events = [("deposit", 11, instruction("50", 64) + instruction("L", 65)),  # an operand
              ("run", 101), ("run", 3), ("run", 400),
              ("deposit", 12, instruction("B", 61) + instruction("J", 68)),  # otherwise
              ("run", 77), ("run", 1), ("run", 400), ("restore", 0),
              ("deposit", 3, instruction("90", 0) + instruction("A", 61)),  # the pair
              ("run", 101), ("run", 3), ("run", 33), ("restore", 0),  # after the test
              ("deposit", 10, instruction("Q", 0) + instruction("H", 60)),
              ("run", 101), ("run", 3), ("restore", 0),
              ("break", 11), ("run", 50), ("resume",), ("run", 50), ("break", 11),
              ("fault", 11, 3, 2), ("run", 60), ("run", 5),
              ("restore", 0), ("run", 999)]
    replay(fast, ref, events, saved)


def test_a_loop_in_place_leaves_room_for_its_longest_branch():
    """A pass of three pairs whose test leads to a branch of twelve: the loop goes round
    only while the longest path still fits the run's budget, so runs of every length end
    on the reference's instruction."""
    long = [instruction("B", 64) + instruction("H", 60)] + \
        [instruction("B", 61) + instruction("A", 61)] * 11
    memory = _counting(4, long)
    memory[3] = instruction("00", 0) + instruction("U", 0)  # (a pass of 000-003)
    fast, ref = twin(MachineOptions(), memory, [])
    same(fast, ref, fast[0].run(3000), reference_run(ref[0], 3000))
    assert branched()
    for steps in range(20, 80):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))


def test_the_game_with_branches_matches_the_reference():
    """The tic-tac-toe program with its taken sides hot at once: its demonstration moves
    in odd chunks, stop by stop, as the reference."""
    from tests.machine.test_differential import play
    from univac_ttt.packs.tictactoe import DEMO_GAMES

    lines = [line for game, _ in DEMO_GAMES[:3] for line in game]
    for chunk in (997, 61):
        def fast_run(m, steps):  # type: ignore[no-untyped-def]
            return m.run(steps)
        assert play(fast_run, lines, chunk) == play(reference_run, lines, chunk)
    assert len(branched()) > 5


@settings(deadline=None, max_examples=size(*FOLLOWED_BLOCK_EXAMPLES))
@given(st.lists(block_words, min_size=1, max_size=8),
       st.integers(1, 4),
       st.sampled_from([MachineOptions(), MachineOptions(overflow="stop")]),
       st.lists(block_events, min_size=1, max_size=10))
def test_random_branches_match_the_reference(taken, limit, opts, script):
    """Random pairs on the taken side (stops, devices, stores into the code, overflows,
    tests of their own), run until hot where they allow it, then deposits, breakpoints,
    faults and typed words between runs of odd lengths."""
    fast, ref = twin(opts, _counting(limit, taken), [from_int(n) for n in range(40)])
    for m in (fast[0], ref[0]):
        m.tapes.attach(1, Reel(blocks=[tuple(from_int(i) for i in range(60))],
                               writable=True, name="r1"))
    saved: list[MachineState] = []
    for steps in (300, 7, 300, 1, 300, 29):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    replay(fast, ref, script, saved)
    same(fast, ref, fast[0].run(2000), reference_run(ref[0], 2000))
