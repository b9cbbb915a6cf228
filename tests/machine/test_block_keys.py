"""Blocks found by their plan's key (blockplan.Plan, compiled.KEEP_OWN): a key names
everything a block's source is written from, so a wrong hit (a block run for memory it was
not made from) cannot happen, and a block found by its key runs as the reference CPU does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.machine.test_differential import fast_run, loop_words, numbers, play, same, twin
from tests.support.compiled_tables import forget_compiled
from tests.support.reference_cpu import reference_run
from tests.support.sizes import RANDOM_KEYED_EXAMPLES, size
from univac_ttt.machine import MachineOptions, blockgen, blockplan, compiled
from univac_ttt.machine.word import from_int, instruction
from univac_ttt.packs.tictactoe import DEMO_GAMES

LINES = [line for game, _ in DEMO_GAMES[:2] for line in game]


@pytest.fixture()
def plans(monkeypatch) -> list[tuple[blockplan.Plan, str, dict[str, object]]]:
    """Every block written from now on: its plan, source and the writer's namespace, with
    fresh tables and blocks hot sooner (followed blocks are made too)."""
    monkeypatch.setattr(blockgen, "HOT_RUNS", 60)
    for tables in compiled.TABLES.values():
        tables.forget()
    written: list[tuple[blockplan.Plan, str, dict[str, object]]] = []
    real = blockplan.Plan.write

    def write(plan: blockplan.Plan) -> tuple[str, dict[str, object]]:
        source, namespace = real(plan)
        written.append((plan, source, dict(namespace)))  # (before a run counts HOT down)
        return source, namespace

    monkeypatch.setattr(blockplan.Plan, "write", write)
    return written


def test_each_key_of_the_games_blocks_names_one_source_and_the_writers_namespace(plans):
    play(fast_run, LINES, 1_000_000)
    assert len(plans) > 40  # (fewer since a stepped address is read at run time: blockvary)
    sources: dict[str, str] = {}
    for plan, source, namespace in plans:
        assert sources.setdefault(plan.key, source) == source, plan.key
        assert plan.namespace == namespace, plan.key
        assert plan.namespace.get("HOT_AT", namespace) is namespace.get("HOT_AT", namespace)
    assert len(sources) > 30


def _loop() -> dict[int, str]:
    """A counting loop at 010-012 back to 010 (U 010), its count at 020."""
    return {10: instruction("B", 20) + instruction("A", 21),
            11: instruction("H", 20) + instruction("00", 0),
            12: instruction("00", 0) + instruction("U", 10),
            20: from_int(0), 21: from_int(1)}


def _key(memory: dict[int, str], tables: compiled.Tables | None = None,
         address: int = 10, **kwargs: object) -> str:
    mem = [from_int(0)] * 1000
    for at, word in memory.items():
        mem[at] = word
    plan = blockplan.block_plan(tables or compiled.Tables(False), address, mem, **kwargs)
    assert plan is not None
    return plan.key


def test_a_changed_word_rule_observer_start_or_length_changes_the_key():
    memory = _loop()
    key = _key(memory)
    assert _key(_loop()) == key  # the same memory: the same block
    for at in (10, 11, 12):
        changed = {**memory, at: memory[at][:6] + instruction("00", 1)}
        assert _key(changed) != key, at  # any word of it
    assert _key({**memory, 13: instruction("U", 10) * 2}) == key  # a word after its end
    assert _key(memory, compiled.Tables(True)) != key  # overflow stops the machine
    assert _key(memory, compiled.Tables(False, frozenset({10}))) != key  # no looping
    assert _key(memory, compiled.Tables(False, frozenset({11}))) != key  # ends before 011
    assert _key(memory, pairs=2) != key
    assert _key(memory, first=instruction("B", 21) + instruction("A", 21)) != key
    assert _key(memory, address=11) != key


def test_blocks_found_by_their_keys_run_as_the_reference_cpu_does(plans, monkeypatch):
    """The demo games with blocks kept by key (as the cached commands run), then again
    from fresh tables: every block is found by its key, none written, and both runs match
    the reference CPU, stop by stop and word by word."""
    monkeypatch.setattr(compiled, "KEEP_OWN", True)
    monkeypatch.setattr(compiled, "CODE", {})
    monkeypatch.setattr(compiled, "USED", set())
    reference = play(reference_run, LINES, 1_000_000)
    assert play(fast_run, LINES, 1_000_000) == reference
    assert len(plans) > 40 and len(compiled.CODE) > 30
    written = len(plans)
    for tables in compiled.TABLES.values():
        tables.forget()
    assert play(fast_run, LINES, 1_000_000) == reference
    assert len(plans) == written  # nothing written again: every block found by its key
    fast, ref = twin(MachineOptions(), _loop(), [])
    for steps in (5000, 3, 41):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))


def test_a_kept_multiply_found_by_its_key_has_its_memo(monkeypatch):
    """A block with a multiply made again and found by its key (compiled.KEEP_OWN) runs
    with the memo of last operands its code names (blockarith.multiply): the namespace a
    plan makes without writing held none, a NameError on the second making (the
    tic-tac-toe program has no multiply; a pack's program may)."""
    from tests.machine.test_differential import same, twin
    from tests.support.reference_cpu import reference_run
    from univac_ttt.machine.word import from_int, instruction

    monkeypatch.setattr(compiled, "KEEP_OWN", True)
    memory = {0: instruction("L", 10) + instruction("M", 11),
              1: instruction("H", 12) + instruction("P", 11),
              2: instruction("N", 12) + instruction("U", 0),
              10: from_int(3), 11: from_int(5)}
    for _ in range(3):  # made, then found by its key in fresh tables
        for tables in compiled.TABLES.values():
            tables.forget()
        fast, ref = twin(MachineOptions(), memory, [])
        for steps in (1000, 7, 33):
            same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))


@settings(deadline=None, max_examples=size(*RANDOM_KEYED_EXAMPLES))
@given(st.lists(loop_words, min_size=1, max_size=8),
       st.dictionaries(st.integers(10, 45), st.one_of(numbers, loop_words), max_size=30))
def test_a_plans_namespace_is_the_writers_for_random_loops(body, data):
    """What a block found by its key runs in (Plan.namespace) names what its writer made, for
    every block random loops of every kind of instruction make: the two were built apart,
    and a multiply's memo missing from the plan's was a NameError in play, verify and serve
    that the games' blocks (no multiply) never showed."""
    written: list[tuple[blockplan.Plan, dict[str, object]]] = []
    real, hot = blockplan.Plan.write, blockgen.HOT_RUNS

    def write(plan: blockplan.Plan) -> tuple[str, dict[str, object]]:
        source, namespace = real(plan)
        written.append((plan, dict(namespace)))
        return source, namespace

    blockplan.Plan.write, blockgen.HOT_RUNS = write, 60  # type: ignore[method-assign]
    try:
        forget_compiled()
        memory = {**data, **dict(enumerate(body))}
        memory[len(body)] = instruction("00", 0) + instruction("U", 0)
        fast, _ = twin(MachineOptions(), memory, [])
        fast[0].run(3_000)
    finally:
        blockplan.Plan.write, blockgen.HOT_RUNS = real, hot  # type: ignore[method-assign]
        forget_compiled()
    for plan, namespace in written:  # the names: the counts in them (HOT, TK) run on
        assert set(plan.namespace) == set(namespace), plan.key
