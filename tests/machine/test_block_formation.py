"""How compiled blocks are formed and filed (compiled.py, blockgen.py), checked against the
reference CPU: a block shortened after a word of it changed is filed under the word it was
found by, and blocks that follow an unconditional transfer leave exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.machine.test_differential import block_events, block_words, replay, same, twin
from tests.support.reference_cpu import reference_run
from tests.support.sizes import FOLLOWED_BLOCK_EXAMPLES, size
from univac_ttt.machine import MachineOptions, StopKind, blockgen, blockplan, blocktables, compiled
from univac_ttt.machine.cpu import MachineState
from univac_ttt.machine.tape import Reel
from univac_ttt.machine.word import from_int, from_text, instruction


def _counting_compiles(monkeypatch) -> list[int]:
    """Every block source made from now on, by its start address."""
    made: list[int] = []
    real = compiled.block_source

    def counted(tables, address, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(address)
        return real(tables, address, *args, **kwargs)

    monkeypatch.setattr(compiled, "block_source", counted)
    return made


def test_a_shortened_block_is_filed_under_the_word_it_was_found_by(monkeypatch):
    """The block at 010 flips its own first word (B020 H010 <-> B022 H010) and a later
    pair of it holds a count stored every pass: each pass it leaves at that changed word
    with another word at its start. Filed under that other word, the shortened block never
    replaced the long one, which ran, left and was compiled again on every other pass."""
    first, other = instruction("B", 20) + instruction("H", 10), instruction("B", 22) + \
        instruction("H", 10)
    memory = {
        0: instruction("00", 0) + instruction("U", 10),
        10: first,                                          # start flips each pass
        11: instruction("B", 12) + instruction("A", 21),    # rA = count + 1
        12: from_int(0),                                    # the count: two skips
        13: instruction("H", 12) + instruction("U", 10),    # a new count each pass
        20: other, 21: from_int(1), 22: first,
    }
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (400, 1, 3, 37, 200):  # compiled, shortened (both start words)
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    made = _counting_compiles(monkeypatch)
    for steps in (2000, 7, 2001):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert made.count(10) <= 2, made  # (before: one compile every other pass, ~250)
    blocks = compiled.TABLES[False].by_address[10]
    assert blocks.get(first) not in (None, compiled._generic)
    assert blocks.get(other) not in (None, compiled._generic)


def test_a_block_ends_before_a_pair_it_stores_into_itself(monkeypatch):
    """Address stepping: the block at 000 stores a new count into 003, a later pair of its
    own (two skips), every pass. It ends before 003 from the start instead of being made
    long, leaving at the changed word on its first run and being made again shorter (one
    compile, not two: a tic-tac-toe round made half its late blocks so). Runs of odd
    lengths match the reference."""
    memory = {0: instruction("B", 3) + instruction("A", 10),   # rA = count + 1
              1: instruction("H", 3) + instruction("00", 0),   # into 003, a later pair
              2: instruction("00", 0) + instruction("00", 0),
              3: from_int(0),                                   # the count: two skips
              4: instruction("00", 0) + instruction("U", 0), 10: from_int(1)}
    fast, ref = twin(MachineOptions(), memory, [])
    long_made: list[int] = []
    real = compiled.block_source

    def counted(tables, address, mem, pairs=blockgen._MAX_PAIRS, *args):  # type: ignore[no-untyped-def]
        if pairs > 1:  # (not the one-pair blocks run at a budget's end)
            long_made.append(address)
        return real(tables, address, mem, pairs, *args)

    monkeypatch.setattr(compiled, "block_source", counted)
    for steps in (400, 1, 3, 37, 2000, 7):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert long_made.count(0) == 1, long_made
    plan = blockplan.block_plan(compiled.TABLES[False], 0, fast[0].mem)
    assert plan is not None and [at for at, *_ in plan.steps] == [0, 1, 2]


# ---- blocks followed across unconditional transfers -------------------------------------
# A block ending at a U it always takes is compiled again, once it has run HOT_RUNS times,
# on across the U at the pair it transfers to (one straight line through the jump). It must
# leave exactly as the reference stands: a bail in a followed pair, a word of a followed
# pair changed, breakpoints, faults and deposits between runs.

def _chain(middle: list[str]) -> dict[int, str]:
    """Three segments joined by U transfers (000-002 -> 020-022 -> 040-041 -> 000), with
    ``middle`` (pairs) at 020; the data at 060-069."""
    segment_a = [instruction("B", 60) + instruction("A", 61),
                 instruction("H", 60) + instruction("L", 62),
                 instruction("00", 0) + instruction("U", 20)]
    segment_c = [instruction("50", 60) + instruction("J", 63),
                 instruction("U", 0) + instruction("00", 0)]  # a left-half transfer
    memory = {**dict(enumerate(segment_a)), **{20 + i: w for i, w in enumerate(middle)}}
    memory[20 + len(middle)] = instruction("00", 0) + instruction("U", 40)
    memory.update({40 + i: w for i, w in enumerate(segment_c)})
    memory.update({60: from_int(0), 61: from_int(3), 62: from_int(7), 63: from_int(0),
                   64: from_int(5), 65: from_text("ABCDEFGHIJKL")})
    return memory


HOT_RUNS = 60  # (blockgen's is higher: these tests make blocks hot sooner)


@pytest.fixture(autouse=True)
def _hot_sooner(monkeypatch):
    """Blocks compiled from now on are followed after HOT_RUNS runs (none kept from
    other tests, whose counters started at blockgen's)."""
    monkeypatch.setattr(blockgen, "HOT_RUNS", HOT_RUNS)
    for tables in compiled.TABLES.values():
        tables.forget()


def _followed(address: int, word: str) -> bool:
    return (address, word) in compiled.TABLES[False].followed


def test_a_hot_block_follows_its_transfers_and_keeps_exact_time():
    """The chain's blocks run hot and are followed; the printed words (with the clock and
    CC at each) and the state after runs of odd lengths are the reference's."""
    memory = _chain([instruction("M", 64) + instruction("H", 66),
                     instruction("B", 60) + instruction("S", 61)])
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (3 * HOT_RUNS * 14, 1, 3, 29, 500, 7, 2001):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert _followed(0, memory[0])
    assert len(fast[1].log) > 3 * HOT_RUNS


def test_a_followed_block_leaves_exactly_at_a_bail_past_its_jump():
    """Once followed, the multiply at 020 (past the first U) meets text and bails in the
    middle of the fused block; a keyboard read past the second U finds nothing typed."""
    memory = _chain([instruction("M", 64) + instruction("H", 66)])
    fast, ref = twin(MachineOptions(), memory, [])
    same(fast, ref, fast[0].run(3 * HOT_RUNS * 12), reference_run(ref[0], 3 * HOT_RUNS * 12))
    assert _followed(0, memory[0])
    for m in (fast[0], ref[0]):
        m.mem[64] = memory[65]  # text: the multiply now stops the machine
    for steps in (5, 1, 40):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert fast[0].last_stop.kind is StopKind.ERROR and fast[0].last_stop.address == 20
    keyboard = {**memory, 40: instruction("10", 67) + instruction("J", 63)}
    fast, ref = twin(MachineOptions(), keyboard, [from_int(n) for n in range(HOT_RUNS + 50)])
    for steps in (4000, 3, 1, 4000, 17):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert fast[0].last_stop.kind is StopKind.KEYBOARD and fast[0].last_stop.address == 40
    assert _followed(0, keyboard[0])


def test_a_followed_pair_changed_breakpointed_or_faulted_matches_the_reference():
    """Words past the U changed by a deposit and by the program itself, a breakpoint on a
    followed pair, and a fault in one, all after the chain is followed."""
    memory = _chain([instruction("B", 60) + instruction("H", 68),
                     instruction("B", 68) + instruction("A", 61)])
    fast, ref = twin(MachineOptions(), memory, [])
    steps_a_pass = 16
    same(fast, ref, fast[0].run(3 * HOT_RUNS * steps_a_pass),
         reference_run(ref[0], 3 * HOT_RUNS * steps_a_pass))
    assert _followed(0, memory[0])
    saved = [fast[0].snapshot()]
    events = [("deposit", 40, instruction("50", 61) + instruction("J", 63)),  # a U's target
              ("run", 101), ("run", 3), ("restore", 0),  # (memory as it was when hot)
              ("deposit", 20, instruction("L", 60) + instruction("A", 64)),
              ("run", 77), ("run", 1), ("restore", 0),
              ("deposit", 21, instruction("L", 60) + instruction("A", 64)),
              ("run", 101), ("run", 3),
              ("deposit", 1, instruction("H", 60) + instruction("H", 21)),  # rewrites 021
              ("run", 77), ("run", 1), ("run", 400), ("restore", 0),
              ("break", 20), ("run", 50), ("resume",), ("run", 50), ("break", 20),
              ("fault", 41, 3, 2), ("run", 60), ("run", 5),
              ("restore", 0), ("run", 999)]
    replay(fast, ref, events, saved)


@settings(deadline=None, max_examples=size(*FOLLOWED_BLOCK_EXAMPLES))
@given(st.lists(block_words, min_size=1, max_size=6),
       st.sampled_from([MachineOptions(), MachineOptions(overflow="stop")]),
       st.lists(block_events, min_size=1, max_size=10))
def test_random_followed_blocks_match_the_reference(middle, opts, script):
    """Random pairs past the first U (stops, devices, stores into the chain, overflows),
    run until the chain is hot where they allow it, then deposits, breakpoints, faults and
    typed words between runs of odd lengths."""
    memory = _chain(middle)
    fast, ref = twin(opts, memory, [from_int(n) for n in range(40)])
    for m in (fast[0], ref[0]):
        m.tapes.attach(1, Reel(blocks=[tuple(from_int(i) for i in range(60))],
                               writable=True, name="r1"))
    saved: list[MachineState] = []
    for _ in range(40):  # through stops, until hot (or the program has ended)
        same(fast, ref, fast[0].run(500), reference_run(ref[0], 500))
    replay(fast, ref, script, saved)
    same(fast, ref, fast[0].run(2000), reference_run(ref[0], 2000))


def test_a_followed_block_running_on_into_its_start_loops_in_place_exactly():
    """010-011 jump to 020-021, which jump to 008-009, which run on into 010: the block at
    010, followed (marked so here: the prologue enters it once a run), goes round in place.
    Its first pair reads the keyboard, which runs dry on a later pass, and 009 leaves for
    040 every third pass: CR, CC and the clock must be the reference's."""
    memory = {0: instruction("00", 0) + instruction("U", 10),
              10: instruction("10", 30) + instruction("B", 32),
              11: instruction("A", 31) + instruction("U", 20),
              20: instruction("H", 32) + instruction("L", 34),
              21: instruction("50", 30) + instruction("U", 8),
              8: instruction("B", 32) + instruction("00", 0),
              9: instruction("Q", 40) + instruction("00", 0),
              40: instruction("B", 35) + instruction("H", 32),
              41: instruction("00", 0) + instruction("U", 10),
              31: from_int(1), 32: from_int(0), 34: from_int(3), 35: from_int(0)}
    compiled.TABLES[False].followed.add((10, memory[10]))
    typed = [from_int(n) for n in range(50)]
    fast, ref = twin(MachineOptions(), memory, typed)
    start = fast[0].snapshot()
    for _ in range(3):  # seen once, compiled (followed), then entered from the prologue
        for m in (fast[0], ref[0]):
            m.restore(start)
            m.keyboard.words[:] = typed  # type: ignore[union-attr]
        for steps in (1, 3, 29, 500, 7, 2001):
            same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        assert fast[0].last_stop.kind is StopKind.KEYBOARD
        assert fast[0].last_stop.address == 10


@pytest.mark.parametrize("shared", [False, True])
def test_a_hot_one_pair_block_at_a_budgets_end_does_not_ask_to_follow_again(monkeypatch,
                                                                            shared):
    """Short runs end in the one-pair blocks; the one at 003 (a U back to 000) runs many
    times more than HOT_RUNS. Once it counted its runs it asked, on every run after, for the
    long block at 003 to be followed again (the word at 002 is new each pass, so that block
    is shortened at once): benchmarks/paired.py's new-word workload fell to 0.94 of py65
    with SHARE_BY_ADDRESS, one compile for each short run. A one-pair block does not count."""
    monkeypatch.setattr(blockgen, "SHARE_BY_ADDRESS", shared)
    memory = {0: from_text("B00002A00010"), 1: from_text("H00002000000"),
              2: from_text("B00000000000"), 3: from_text("000000U00000"), 10: from_int(1)}
    fast, ref = twin(MachineOptions(), memory, [])
    made = _counting_compiles(monkeypatch)
    for steps in (4000, *[20 + k % 9 for k in range(30 * HOT_RUNS)], 4000, 3, 1):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert made.count(3) <= 6, made.count(3)  # (before: about one a run once hot)


@pytest.mark.parametrize("half", [0, 1])
def test_a_keyboard_stall_in_a_block_stops_as_the_reference_asking_the_keyboard_once(half):
    """A compiled block meeting a keyboard with nothing typed (left or right half of its
    third pair) stops, settled before the read, as the reference does; the Stop is made
    from the device's request, so the keyboard is asked once a run (the interpreter used
    to run the read again only to be told the same). Words typed between the runs are
    read where the reference reads them."""
    read = instruction("10", 30)
    memory = {0: instruction("B", 20) + instruction("A", 21),
              1: instruction("H", 20) + instruction("00", 0),
              2: (read + instruction("00", 0)) if half == 0 else
                 (instruction("B", 30) + read),
              3: instruction("50", 30) + instruction("U", 0),
              20: from_int(0), 21: from_int(1)}
    fast, ref = twin(MachineOptions(), memory, [from_int(n) for n in range(5)])
    asked = []
    keyboard = fast[0].keyboard
    real = keyboard.read_word

    def counted() -> str | None:
        asked.append(1)
        return real()

    keyboard.read_word = counted  # type: ignore[method-assign]
    for steps in (1000, 1000, 3, 1000):  # runs to the stall, compiled by the second
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert fast[0].last_stop.kind is StopKind.KEYBOARD
    for word in (from_int(7), None, from_int(8), None, None):
        if word is not None:
            keyboard.words.append(word)
            ref[0].keyboard.words.append(word)
        asked.clear()
        same(fast, ref, fast[0].run(1000), reference_run(ref[0], 1000))
        assert fast[0].last_stop.kind is StopKind.KEYBOARD
        assert len(asked) == (1 if word is None else 2), asked


@pytest.mark.parametrize("limit", [1, 12])
def test_a_place_whose_runs_come_slowly_is_not_followed(monkeypatch, limit):
    """The block at 000 ends at a U to 020, where a counting loop runs ``limit`` passes
    before the program goes round again: with 1 its HOT_RUNS runs come within a thousand
    instructions and it is followed; with 12 they take about six thousand, more than
    HOT_RUNS * FOLLOW_SPAN (2,400 here), and its count starts again instead (a compile in
    the middle of a long run for a place run once a game: tic-tac-toe's rounds had one
    every few million instructions). Both match the reference throughout."""
    monkeypatch.setattr(blocktables, "FOLLOW_SPAN", 40)
    memory = {0: instruction("B", 60) + instruction("A", 61),   # x + 1
              1: instruction("H", 60) + instruction("00", 0),
              2: instruction("00", 0) + instruction("U", 20),
              20: instruction("L", 62) + instruction("U", 21),   # rL = the limit
              21: instruction("B", 63) + instruction("A", 61),   # count + 1
              22: instruction("H", 63) + instruction("Q", 30),   # done at the limit
              23: instruction("00", 0) + instruction("U", 21),
              30: instruction("B", 64) + instruction("H", 63),   # count = 0
              31: instruction("00", 0) + instruction("U", 0),
              60: from_int(0), 61: from_int(1), 62: from_int(limit), 63: from_int(0),
              64: from_int(0)}
    fast, ref = twin(MachineOptions(), memory, [])
    for _ in range(150):
        same(fast, ref, fast[0].run(97), reference_run(ref[0], 97))
    assert compiled.TABLES[False].runs_left(0)[0] < HOT_RUNS  # (it has been counting)
    assert _followed(0, memory[0]) is (limit == 1)
