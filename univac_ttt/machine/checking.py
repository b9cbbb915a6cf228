"""The odd-even check: faults injected for teaching, and the check that catches them.

Every character carries a check bit making its seven bits odd (REFERENCE 1.1), and the
machine checked the bits of every word it moved, stopping "the instant an error occurs" with
a neon lit (S-ELEM-chk, Bell and Newell ch. 8 p. 168). A word whose check bits are right
needs no stored bit: the bit follows from the code. So only the faulted words are recorded,
with the character and bit that were flipped, and the CPU looks them up only while there
is one: a fault-free machine pays nothing.
"""

from __future__ import annotations

import re

from . import ops
from .records import Record

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

REGISTERS = ("rA", "rX", "rL", "rF")
_ATTRIBUTE = {"rA": "a", "rX": "x", "rL": "l", "rF": "f"}
CHECK_BIT = 6  # bits 0-5 are the code, bit 6 the check bit
Location = int | str  # a memory address 0-999, or a register name from REGISTERS


class Fault(Record):
    """One flipped bit: where, which character (0-11, left first), which bit, and the word
    as it stood after the flip (a word rewritten since is sound again)."""

    location: Location
    position: int
    bit: int
    word: str

    def describe(self) -> str:
        where = f"word {self.location:03d}" if isinstance(self.location, int) else self.location
        what = "check bit" if self.bit == CHECK_BIT else f"bit {self.bit}"
        return f"{where}, character {self.position + 1}, {what}"


# What each operation reads and writes, registers by name and "m" for its operand words,
# found from its row's body (ops.py), so the table is the one statement of it: the cells
# and registers each of a body's names reads (every name a body may use is listed: a new
# one must say here what it reads), the registers ``m._r`` read on an assignment's right,
# and the registers and cells (``mem[...]``) assigned. The devices' words are left alone:
# the keyboard's word is written only once typed, so a fault there is left to the
# rewritten-word rule below rather than mended while the keyboard stalls, and the tapes'
# 60-word moves are not checked (docs/fidelity.md, "Checking").
_NAME_READS = {"M": "m", "MW": "m", "M1W": "m", "MCW": "m", "A": "rA", "SA": "rA",
               "SUM": "rA", "X": "rX", "SX": "rX", "L": "rL", "F": "rF", "SF": "rF",
               "A_IS_L": "rA rL", "A_OVER_L": "rA rL", **dict.fromkeys((
                   "a", "a1", "c", "c10", "cc", "O_STOPS", "RY_FITS", "MULTIPLY", "DIVIDE",
                   "PASS_TIME", "SETTLED"), "")}
_ORDER = ("m", *REGISTERS)  # reads are looked at in this order (the first fault stops)
_REGISTER = re.compile(r"\bm\._([axlf])\b")


def uses(body: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(what a body reads, what it writes), each in the order m, rA, rX, rL, rF."""
    reads: set[str] = set()
    writes: set[str] = set()
    for targets, value in ops.assignments(body):
        reads.update(*(_NAME_READS[name].split() for name in ops.fields((value,))))
        reads.update("r" + r.upper() for r in _REGISTER.findall(value))
        for target in targets:
            writes.update("r" + r.upper() for r in _REGISTER.findall(target))
            if "mem[" in target:
                writes.add("m")
    return (tuple(n for n in _ORDER if n in reads), tuple(n for n in _ORDER if n in writes))


def _uses_table() -> dict[object, tuple[tuple[str, ...], tuple[str, ...], int]]:
    """``USES``: each executor's (reads, writes, operand words), made when first asked (a
    machine with a fault; a sound one never asks, so a start does not read the bodies)."""
    table = globals().get("USES")
    if table is None:
        table = {op.execute: (*uses(op.body), op.words) for op in ops.OPERATIONS
                 if not op.device}
        globals()["USES"] = table
    return table  # type: ignore[no-any-return]


def __getattr__(name: str) -> object:
    if name == "USES":
        return _uses_table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def current_word(machine: Machine, location: Location) -> str:
    if isinstance(location, int):
        return machine.mem[location]
    return getattr(machine, _ATTRIBUTE[location])


def parse_location(text: str) -> Location:
    """'123' or 'rA' (any case); ValueError with a plain message otherwise."""
    for name in REGISTERS:
        if text.lower() == name.lower():
            return name
    if text.isascii() and text.isdigit() and int(text) < 1000:
        return int(text)
    raise ValueError(f"'{text}' is not a memory address 000-999 or one of {', '.join(REGISTERS)}")


def inject(machine: Machine, location: Location, position: int, bit: int) -> Fault:
    """Flip one bit of one character; ValueError (nothing changed) for a bad request."""
    if isinstance(location, str):
        location = parse_location(location)
    if isinstance(location, int) and not 0 <= location < 1000:
        raise ValueError("a memory address is 000-999")
    if not isinstance(position, int) or not 0 <= position < 12:
        raise ValueError("a character position is 1-12")
    if not isinstance(bit, int) or not 0 <= bit <= CHECK_BIT:
        raise ValueError("a bit is 0-5 (the code, 0 the lowest) or 6 (the check bit)")
    word = current_word(machine, location)
    if bit < CHECK_BIT:
        word = word[:position] + chr(ord(word[position]) ^ (1 << bit)) + word[position + 1:]
        if isinstance(location, int):
            machine.mem[location] = word
        else:
            setattr(machine, _ATTRIBUTE[location], word)
    fault = Fault(location, position, bit, word)
    machine.faults[location] = fault
    return fault


def failing_use(machine: Machine, executor: object, operand: int) -> str | None:
    """The stop reason if this instruction reads a faulted word; else None, after forgetting
    the faults of words it will rewrite (a write brings fresh check bits)."""
    faults = machine.faults
    for location, fault in list(faults.items()):
        if current_word(machine, location) != fault.word:
            del faults[location]  # rewritten from the console since: sound again
    reads, writes, words = _uses_table().get(executor, ((), (), 0))
    if words == 10 and machine.options.ten_word_aligned:
        operand -= operand % 10  # Y and Z move the channel of m (U7)
    span = [(operand + i) % 1000 for i in range(words)]
    for name in reads:
        for location in (span if name == "m" else (name,)):
            if location in faults:
                return odd_even_reason(faults[location])
    for name in writes:
        for location in (span if name == "m" else (name,)):
            faults.pop(location, None)
    return None


def odd_even_reason(fault: Fault) -> str:
    return f"odd-even check failed ({fault.describe()}): the ODD-EVEN CHECK neon is lit"
