"""The odd-even check: faults injected for teaching, and the check that catches them.

Every character carries a check bit making its seven bits odd (REFERENCE 1.1), and the
machine checked the bits of every word it moved, stopping "the instant an error occurs" with
a neon lit (S-ELEM-chk, Bell and Newell ch. 8 p. 168). A word whose check bits are right
needs no stored bit: the bit follows from the code. So only the faulted words are recorded,
with the character and bit that were flipped, and the CPU looks them up only while there
is one: a fault-free machine pays nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .ops import BY_CODE
from .records import Record

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


# What each operation reads and writes: registers by name, "m" for its operand words.
_USES: dict[str, tuple[str, str]] = {
    "B": ("m", "rA rX"), "L": ("m", "rL rX"), "F": ("m", "rF"),
    "H": ("rA", "m"), "C": ("rA", "m rA"), "G": ("rF", "m"), "J": ("rX", "m"),
    "K": ("rA", "rL rA"), "A": ("m rA", "rX rA"), "S": ("m rA", "rX rA"), "X": ("rA rX", "rA"),
    "M": ("m rL", "rX rA rF"), "N": ("m rL", "rX rA rF"), "P": ("m rL", "rA rX rF"),
    "D": ("m rL", "rA rX"), "E": ("m rA rF", "rA"), "V": ("m", ""), "W": ("", "m"),
    "Y": ("m", ""), "Z": ("", "m"), "Q": ("rA rL", ""), "T": ("rA rL", ""), "R": ("", "m"),
    ".n": ("rA", "rA"), ";n": ("rA", "rA"), "-n": ("rA", "rA"), "0n": ("rA", "rA"),
    "50": ("m", ""),
    # "10" reads nothing; its word is written only once typed, so a fault there is left to
    # the rewritten-word rule below rather than mended while the keyboard stalls.
}
USES: dict[object, tuple[tuple[str, ...], tuple[str, ...], int]] = {
    BY_CODE[code].execute: (tuple(reads.split()), tuple(writes.split()), BY_CODE[code].words)
    for code, (reads, writes) in _USES.items()
}


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
    reads, writes, words = USES.get(executor, ((), (), 0))
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
