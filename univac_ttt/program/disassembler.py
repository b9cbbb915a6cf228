"""The disassembler: any word as characters, as a number and as an instruction pair,
with the coding sheet's label, remark and section where one exists.

It reads the same operation table as the CPU, so it can never disagree with execution.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..machine.ops import BAD_ADDRESS, INVALID, decode
from ..machine.word import MEMORY_WORDS, is_numeric, to_int, to_text
from .assembler import Program

_NEAR = 9  # a label may name words up to this far past it (LABEL+n)


@dataclass(frozen=True)
class WordView:
    address: int | None
    glyphs: str
    number: int | None
    left: str
    right: str
    label: str
    remark: str
    section: str

    def line(self) -> str:
        """One listing line: address, characters, number, instructions, label, remark."""
        number = f"{self.number:+,d}" if self.number is not None else "text"
        where = f"{self.address:03d}  " if self.address is not None else ""
        tail = "  ".join(part for part in (f"{self.label}:" if self.label else "",
                                           self.remark) if part)
        return (f"{where}{self.glyphs}  {number:>17}  {self.left:<14} {self.right:<14} "
                f"{tail}").rstrip()


def symbol_for(address: int, program: Program | None) -> str:
    """LABEL or LABEL+n for an address, from the coding sheet; "" when none is near."""
    if program is None:
        return ""
    exact = program.labels.get(address)
    if exact:
        return exact
    for back in range(1, _NEAR + 1):
        label = program.labels.get(address - back)
        if label:
            return f"{label}+{back}"
    return ""


def instruction_text(instruction: str, program: Program | None = None) -> str:
    """``B0 400 BRD`` style text for a six-character instruction."""
    op, operand = decode(instruction)
    glyphs = to_text(instruction)
    code = glyphs[:2]
    if op is INVALID:
        return f"{code} {glyphs[3:]} ?"
    if op is BAD_ADDRESS:
        return f"{code} {glyphs[3:]} ?addr"
    if not op.uses_address:
        return f"{code} (shift {operand})" if op.takes_count else f"{code} {glyphs[3:]}"
    address = operand % MEMORY_WORDS  # a tape operation's operand also names its unit
    symbol = symbol_for(address, program)
    return f"{code} {address:03d}" + (f" {symbol}" if symbol else "")


def view(word: str, address: int | None = None, program: Program | None = None) -> WordView:
    number = to_int(word) if is_numeric(word) else None
    label = remark = section = ""
    if program is not None and address is not None:
        label = program.labels.get(address, "")
        remark = program.remarks.get(address, "")
        section = program.sections.get(address, "")
    return WordView(address, to_text(word), number, instruction_text(word[:6], program),
                    instruction_text(word[6:], program), label, remark, section)

