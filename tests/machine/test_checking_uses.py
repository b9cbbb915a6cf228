"""What the checking circuits take each operation to read and write (checking.USES, found from
the rows' bodies) is what its executor really reads and writes: a location it does not read
changes nothing when altered, one it reads changes something, and nothing outside what it
writes changes."""

from __future__ import annotations

import pytest

from univac_ttt.machine import checking
from univac_ttt.machine.cpu import Machine
from univac_ttt.machine.ops import OPERATIONS, Operation
from univac_ttt.machine.word import from_int

ADDRESS = 500
_WRITTEN_ROWS = [op for op in OPERATIONS if not op.device]


class _Printer:
    def __init__(self) -> None:
        self.words: list[str] = []

    def print_word(self, word: str) -> None:
        self.words.append(word)


def _operand(op: Operation) -> int:
    return 3 if op.takes_count else ADDRESS


def _span(op: Operation) -> list[int]:
    return [(ADDRESS + i) % 1000 for i in range(op.words)]


LIMITS = (7_000_000_000, None, -7_000_000_000)  # rL above rA, equal to it (None), below it


def _machine(limit: int | None) -> Machine:
    """Registers and the cells about 500 holding distinct numbers, rL as ``limit`` says
    (so that Q and T go both ways); the cells are smaller than rL, so that D divides."""
    m = Machine(printer=_Printer())  # type: ignore[arg-type]
    m.a = from_int(4_000_000_000)
    m.x = from_int(-1_230_000_000)
    m.l = m.a if limit is None else from_int(limit)
    m.f = from_int(12_345_678_901)  # odd and even codes: E takes some characters
    for i in range(ADDRESS - 20, ADDRESS + 80):
        m.mem[i] = from_int(1_000_003 * (i - 480) + 17)
    return m


def _altered(m: Machine, op: Operation, location: str) -> None:
    if location == "m":
        for address in _span(op):
            m.mem[address] = from_int(-2_000_000_000 - address)
    else:
        setattr(m, location[1].lower(), from_int(-9_100_000_000 - len(location)))


def _state(m: Machine, outcome: object) -> dict[str, object]:
    return {"outcome": outcome, "rA": m.a, "rX": m.x, "rL": m.l, "rF": m.f, "rV": list(m.v),
            "rY": list(m.y), "mem": list(m.mem), "pulses": m.pulses,
            "printed": list(m.printer.words), "overflows": m.overflows}  # type: ignore[union-attr]


def _run(op: Operation, limit: int | None, location: str | None = None
         ) -> dict[str, object]:
    m = _machine(limit)
    if location is not None:
        _altered(m, op, location)
    return _state(m, op.execute(m, _operand(op)))


def _without(state: dict[str, object], location: str, op: Operation, kept: bool
             ) -> dict[str, object]:
    """The state less the altered location itself if ``kept`` (it differs by being
    altered)."""
    rest = dict(state)
    if not kept:
        return rest
    if location == "m":
        rest["mem"] = [w for i, w in enumerate(state["mem"]) if i not in _span(op)]  # type: ignore[arg-type]
    else:
        del rest[location]
    return rest


@pytest.mark.parametrize("op", _WRITTEN_ROWS, ids=lambda op: op.code)
def test_the_checked_reads_are_what_the_executor_reads(op: Operation) -> None:
    reads, writes, words = checking.USES[op.execute]
    assert words == op.words
    for location in ("m", *checking.REGISTERS):
        if location == "m" and not op.words:
            continue
        # A location written ends as the instruction leaves it, so all of it is compared;
        # one not written keeps the alteration, which is left out of the comparison.
        kept = location not in writes
        differs = any(_without(_run(op, limit), location, op, kept)
                      != _without(_run(op, limit, location), location, op, kept)
                      for limit in LIMITS)
        assert differs == (location in reads), (op.code, location)


@pytest.mark.parametrize("op", _WRITTEN_ROWS, ids=lambda op: op.code)
def test_the_checked_writes_are_what_the_executor_writes(op: Operation) -> None:
    _, writes, _ = checking.USES[op.execute]
    before = _state(_machine(LIMITS[0]), None)
    after = _run(op, LIMITS[0])
    changed = {name for name in checking.REGISTERS if before[name] != after[name]}
    if before["mem"] != after["mem"]:
        changed.add("m")
        moved = {i for i, (b, a) in enumerate(zip(before["mem"], after["mem"], strict=True))
                 if b != a}
        assert moved <= set(_span(op)), op.code  # only the operand's words
    assert changed == set(writes), op.code


def test_every_name_a_body_uses_says_what_it_reads() -> None:
    """A body name the checking table does not know would fail at import; this names the
    rule: the table's names are the bodies' names, no more."""
    from univac_ttt.machine import ops

    used = set().union(*(ops.fields(op.body) for op in OPERATIONS))
    assert used <= set(checking._NAME_READS)
    assert set(checking._NAME_READS) <= set(ops.INTERPRETED)
