"""Pairs compiled with one half's operand read at run time (blockvary.py), checked against
the reference CPU: a loop that steps the address of a later pair of its own (as the
tic-tac-toe program's table scans do) goes round inside one block, with every wait,
print, store, transfer and bail where the reference has them, and leaves exactly when the
pair's word stops fitting (another operation, a bad address character, a deposit, a
breakpoint, a fault, a number stored there)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.machine.test_differential import (
    block_events,
    block_words,
    numbers,
    raw_words,
    replay,
    same,
    twin,
)
from tests.support.compiled_tables import forget_compiled, read_at_run_time
from tests.support.reference_cpu import reference_run
from tests.support.sizes import FOLLOWED_BLOCK_EXAMPLES, size
from univac_ttt.machine import MachineOptions, blockvary, compiled
from univac_ttt.machine.cpu import MachineState
from univac_ttt.machine.word import from_int, from_text, instruction

VARYING_AT = 13  # the pair the loop rewrites


def _pair(code: str, operand: int, half: int) -> str:
    """A pair of ``code`` with ``operand`` in ``half``, a skip in the other."""
    stepped, skip = instruction(code, operand), instruction("00", 0)
    return skip + stepped if half else stepped + skip


def _scan(code: str, half: int = 1, base: int = 30, fixed: str | None = None,
          passes: int = 8) -> dict[int, str]:
    """A loop at 010-015 that steps the operand of the pair at 013 (``code``, in ``half``)
    from ``base`` through ``passes`` addresses, then starts again (016-017); 014 holds
    ``fixed``; data at 030-039."""
    step = from_int(1 if half else 10**6)  # the operand's units digit, in its half
    memory = {
        10: instruction("B", 20) + instruction("A", 21),   # rA = pointer + step
        11: instruction("H", 20) + instruction("H", VARYING_AT),  # the pair rewritten
        12: instruction("L", 22) + instruction("Q", 16),   # the last one: start again
        VARYING_AT: _pair(code, base, half),
        14: fixed or instruction("B", 31) + instruction("00", 0),
        15: instruction("00", 0) + instruction("U", 10),
        16: instruction("B", 23) + instruction("H", 20),
        17: instruction("00", 0) + instruction("U", 10),
        20: _pair(code, base, half), 21: step, 22: _pair(code, base + passes, half),
        23: _pair(code, base, half),
        **{30 + i: from_int(i * 1_234_567) for i in range(10)},
    }
    memory[34] = from_text("ABCDEFGHIJKL")
    return memory


def _blocks_run(monkeypatch) -> list[int]:
    """The start of every block call from now on (the loop's blocks, wrapped)."""
    calls: list[int] = []
    tables = compiled.TABLES[False]
    real = compiled.compile_block

    def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
        block = real(*args, **kwargs)
        if block is compiled._generic:
            return block
        address = args[1]

        def counted(m, room):  # type: ignore[no-untyped-def]
            calls.append(address)
            return block(m, room)
        table = tables.singles if kwargs.get("single") else tables.by_address
        for word, function in table[address].items():
            if function is block:
                table[address][word] = counted
        return counted

    monkeypatch.setattr(compiled, "compile_block", wrapped)
    return calls


@pytest.mark.parametrize("code", ["B", "L", "A", "S", "M", "D", "E", "H", "C", "J", "R",
                                  "50", "Q", "T", "V"])
def test_a_loop_stepping_a_later_pair_of_its_own_goes_round_in_one_block(code, monkeypatch):
    """Each operation as the stepped half (for 50 the pair is all digits, a number to the
    adder, so the pointer and the rewritten pair are ints, the value shadow, made a word
    where the pair is fetched): the words printed (with the clock and CC at
    each) and the state after runs of odd lengths are the reference's, and once compiled
    the loop's passes run inside a few block calls, not one a pass."""
    forget_compiled()
    memory = _scan(code, fixed=instruction("50", 31) + instruction("B", 32))
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (400, 1, 3, 29, 7):  # seen, compiled, left part-way
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    calls = _blocks_run(monkeypatch)
    for steps in (2001, 5, 3000):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    if code not in ("Q", "T", "M", "D"):  # (a taken test leaves the loop for its operand;
        # M and D meet the limit's text in rL and stop, each pass)
        assert read_at_run_time(VARYING_AT) == {1}
        assert len(calls) < 5000 / 12, len(calls)  # a pass is 12 instructions


def _copying_scan(code: str, base: int = 30) -> dict[int, str]:
    """A loop like _scan's whose stepped pair at 013 (a B) brings a word from a table at
    040-047 (``code`` with operands from ``base`` in the left half, a skip in the right),
    which 014 stores into 015 (and sets rL to a number), where it runs: 015's left operand
    changes every pass."""
    memory = _scan("B", base=40)
    memory.update({14: instruction("H", 15) + instruction("L", 33),  # (rL a number)
                   15: _pair(code, base, 0), 16: instruction("B", 32) + instruction("00", 0),
                   17: instruction("00", 0) + instruction("U", 10),
                   **{40 + i: _pair(code, base + i, 0) for i in range(8)}})
    memory[12] = instruction("L", 22) + instruction("Q", 18)
    memory.update({18: instruction("B", 23) + instruction("H", 20),
                   19: instruction("00", 0) + instruction("U", 10)})
    return memory


@pytest.mark.parametrize(("code", "base"), [("B", 30), ("A", 30), ("50", 30), ("H", 30),
                                            ("R", 30), ("U", 16), ("M", 31), ("D", 31)])
# (U: into the loop; M and D meet the text at 034 and stop there: a bail in that half)
def test_a_varying_left_half_matches_the_reference(code, base):
    """The left half's operand changed every pass (the right a skip), by words the loop
    copies in from a table: read at run time there once a block has met it changed."""
    forget_compiled()
    memory = _copying_scan(code, base)
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (400, 2001, 1, 3, 29, 7, 3000):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert read_at_run_time(15) == {0}


def test_a_varying_pair_changed_otherwise_leaves_exactly_and_is_not_read_so_again():
    """Once the loop runs in one block: the pair at 013 deposited as another operation,
    then with a bad address character, a breakpoint on it, a fault in it and in the
    pointer, restores of earlier states; the last sets the address unstable, and a block
    made there then ends before it."""
    forget_compiled()
    memory = _scan("B", fixed=instruction("50", 34) + instruction("00", 0))
    fast, ref = twin(MachineOptions(), memory, [])
    same(fast, ref, fast[0].run(3000), reference_run(ref[0], 3000))
    assert read_at_run_time(VARYING_AT) == {1}
    bad = memory[VARYING_AT][:9] + "\x0f\x0f\x0f"  # (low bits 15: no digit)
    saved = [fast[0].snapshot()]
    events = [("run", 5), ("deposit", VARYING_AT, _pair("L", 35, 1)), ("run", 29),
              ("run", 300), ("restore", 0), ("run", 7),
              ("deposit", VARYING_AT, bad), ("run", 3), ("run", 1), ("restore", 0),
              ("break", VARYING_AT), ("run", 50), ("resume",), ("run", 40),
              ("break", VARYING_AT), ("fault", VARYING_AT, 4, 2), ("run", 60),
              ("restore", 0), ("fault", 20, 11, 1), ("run", 60), ("restore", 0),
              ("deposit", 20, from_text("000000B0A031")), ("run", 100), ("restore", 0),
              ("run", 999)]
    replay(fast, ref, events, saved)
    for m in (fast[0], ref[0]):
        m.mem[VARYING_AT] = _pair("F", 36, 1)  # (the op changed: not this template)
    same(fast, ref, fast[0].run(700), reference_run(ref[0], 700))
    assert compiled.TABLES[False].varying.get(VARYING_AT, 1) is blockvary.UNSTABLE


def test_an_overflow_stop_in_a_varying_half_settles_as_the_reference():
    """A stepped A whose sums overflow, with the overflow stop: the bail in the varying
    half leaves rA, rX, CC, CR and the clock where the reference stops."""
    forget_compiled()
    memory = _scan("A", fixed=instruction("B", 33) + instruction("A", 33))
    memory.update({30 + i: from_int(10**11 - 1 - i) for i in range(10)})
    fast, ref = twin(MachineOptions(overflow="stop"), memory, [])
    for steps in (400, 1, 3, 29, 7, 2001):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        for m in (fast[0], ref[0]):
            m.mem[31] = m.mem[30] = from_int(1)  # (so that Start goes on)


templated = st.sampled_from(sorted(blockvary.TEMPLATED))


@settings(deadline=None, max_examples=size(*FOLLOWED_BLOCK_EXAMPLES))
@given(templated, st.integers(0, 1), st.sampled_from([12, 14, 30]), block_words,
       st.dictionaries(st.integers(30, 40), st.one_of(numbers, numbers, raw_words),
                       max_size=8),
       st.sampled_from([MachineOptions(), MachineOptions(overflow="stop"),
                        MachineOptions(breakpoint_switch=True)]),
       st.lists(block_events, min_size=1, max_size=10))
def test_random_stepped_pairs_match_the_reference(code, half, base, fixed, data, opts,
                                                  script):
    """Any operation a half may vary with, in either half, stepped through data, through
    the loop's own pairs (stores, transfers into it) or next to them, beside a random
    pair (stops, devices, shifts, stores), with deposits, breakpoints, faults and typed
    words between runs of odd lengths."""
    forget_compiled()
    memory = {**_scan(code, half, base, fixed), **data}
    fast, ref = twin(opts, memory, [from_int(n) for n in range(20)])
    saved: list[MachineState] = []
    for steps in (600, 1, 3, 29, 1000):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    replay(fast, ref, script, saved)
    same(fast, ref, fast[0].run(2000), reference_run(ref[0], 2000))
