"""How compiled blocks are formed and filed (compiled.py, blockgen.py), checked against the
reference CPU: a block shortened after a word of it changed is filed under the word it was
found by, and blocks that follow an unconditional transfer leave exactly."""

from __future__ import annotations

from tests.machine.test_differential import same, twin
from tests.support.reference_cpu import reference_run
from univac_ttt.machine import MachineOptions, compiled
from univac_ttt.machine.word import from_int, instruction


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
