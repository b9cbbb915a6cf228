"""The C-10 instruction code: one table feeding the executor, disassembler, assembler,
timing model, the monitor's ``break -op`` and its ``help ops`` (py65 style).

Each executor takes the machine and the operand (an address, or the shift count for the
shifts) and returns None to go on, an ``int`` to transfer control there, or a
``StopRequest``. REFERENCE.md section 5 is the source of every row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import arithmetic as ar
from .charset import CHARACTERS
from .stops import BREAKPOINT, HALT, KEYBOARD_WAIT, StopRequest, error
from .word import MEMORY_WORDS, ZERO

if TYPE_CHECKING:
    from .cpu import Machine

Outcome = int | StopRequest | None
Executor = Callable[["Machine", int], Outcome]


@dataclass(frozen=True)
class Operation:
    code: str  # as written on a coding sheet: "B", "10", ".n"
    name: str
    action: str  # one line, for the disassembler and the monitor's help
    execute: Executor
    cycles: int  # execution time in minor cycles, operand waits not included
    words: int = 1  # memory words the operand moves (0: none, the address is ignored)
    transfers: bool = False  # may load the control counter

    @property
    def uses_address(self) -> bool:
        return self.words > 0

    @property
    def takes_count(self) -> bool:
        """The second character is a count n (the shifts ".n" ... "0n"), not a variant."""
        return self.code.endswith("n")


# ---- executors -------------------------------------------------------------------------

def _bring(m: Machine, a: int) -> Outcome:
    m.a = m.x = m.mem[a]
    return None


def _load_l(m: Machine, a: int) -> Outcome:
    m.l = m.x = m.mem[a]
    return None


def _load_f(m: Machine, a: int) -> Outcome:
    m.f = m.mem[a]
    return None


def _hold(m: Machine, a: int) -> Outcome:
    m.mem[a] = m.a
    return None


def _clear(m: Machine, a: int) -> Outcome:
    m.mem[a] = m.a
    m.a = ZERO
    return None


def _store_f(m: Machine, a: int) -> Outcome:
    m.mem[a] = m.f
    return None


def _store_x(m: Machine, a: int) -> Outcome:
    m.mem[a] = m.x
    return None


def _a_to_l(m: Machine, a: int) -> Outcome:
    m.l = m.a
    m.a = ZERO
    return None


def _sum_into_a(m: Machine) -> Outcome:
    try:
        total, overflow = ar.add(m.a, m.x)
    except ar.AdderFault as fault:
        return error(f"adder fault: {fault}")
    m.a = total
    if overflow:
        m.overflows += 1
        if m.options.overflow == "stop":
            return error("overflow: the sum needs twelve digits")
        return 0  # automatic transfer: the next pair comes from 000 (U9)
    return None


def _add(m: Machine, a: int) -> Outcome:
    m.x = m.mem[a]
    return _sum_into_a(m)


def _subtract(m: Machine, a: int) -> Outcome:
    m.x = ar.negate(m.mem[a])
    return _sum_into_a(m)


def _add_x(m: Machine, a: int) -> Outcome:
    return _sum_into_a(m)


def _multiply(m: Machine, a: int, negative: bool = False) -> Outcome:
    m.x = m.mem[a]
    result = ar.multiply_rounded(m.l, m.x, negative)
    if result is None:
        return error("a multiply operand holds a non-digit character")
    m.a = result
    return None


def _negative_multiply(m: Machine, a: int) -> Outcome:
    return _multiply(m, a, negative=True)


def _product(m: Machine, a: int) -> Outcome:
    m.x = m.mem[a]
    result = ar.multiply_full(m.l, m.x)
    if result is None:
        return error("a multiply operand holds a non-digit character")
    m.a, m.x = result
    return None


def _divide(m: Machine, a: int) -> Outcome:
    dividend = m.mem[a]
    result = ar.divide(dividend, m.l)
    if isinstance(result, str):
        return error(result)
    m.a, m.x = result
    return None


def _extract(m: Machine, a: int) -> Outcome:
    m.a = ar.extract(m.a, m.mem[a], m.f)
    return None


def _to_v(m: Machine, a: int) -> Outcome:
    mem = m.mem
    m.v = [mem[a], mem[(a + 1) % MEMORY_WORDS]]
    return None


def _from_v(m: Machine, a: int) -> Outcome:
    m.mem[a], m.mem[(a + 1) % MEMORY_WORDS] = m.v
    return None


def _to_y(m: Machine, a: int) -> Outcome:
    mem = m.mem
    m.y = [mem[(a + i) % MEMORY_WORDS] for i in range(10)]
    return None


def _from_y(m: Machine, a: int) -> Outcome:
    mem = m.mem
    for i, word in enumerate(m.y):
        mem[(a + i) % MEMORY_WORDS] = word
    return None


def _equal(m: Machine, a: int) -> Outcome:
    return a if m.a == m.l else None


def _test_greater(m: Machine, a: int) -> Outcome:
    return a if ar.greater(m.a, m.l) else None


def _transfer(m: Machine, a: int) -> Outcome:
    return a


def _record(m: Machine, a: int) -> Outcome:
    m.mem[a] = m.return_link()
    return None


def _shift_right(m: Machine, n: int) -> Outcome:
    m.a = ar.shift_right(m.a, n)
    return None


def _shift_left(m: Machine, n: int) -> Outcome:
    m.a = ar.shift_left(m.a, n)
    return None


def _shift_right_keep_sign(m: Machine, n: int) -> Outcome:
    m.a = ar.shift_right_keep_sign(m.a, n)
    return None


def _shift_left_keep_sign(m: Machine, n: int) -> Outcome:
    m.a = ar.shift_left_keep_sign(m.a, n)
    return None


def _skip(m: Machine, a: int) -> Outcome:
    return None


def _stop(m: Machine, a: int) -> Outcome:
    return HALT


def _breakpoint(m: Machine, a: int) -> Outcome:
    return BREAKPOINT if m.breakpoint_switch else None


def _keyboard(m: Machine, a: int) -> Outcome:
    word = m.keyboard.read_word() if m.keyboard is not None else None
    if word is None:
        return KEYBOARD_WAIT
    m.mem[a] = word
    m.keyboard_words += 1
    return None


def _printer(m: Machine, a: int) -> Outcome:
    if m.printer is not None:
        m.printer.print_word(m.mem[a])
    m.printed_words += 1
    return None


def _tape(m: Machine, a: int) -> Outcome:
    return error("no tape unit attached (tapes are not emulated)")


def _invalid(m: Machine, a: int) -> Outcome:
    return error("invalid instruction: no such operation")


def _bad_address(m: Machine, a: int) -> Outcome:
    return error("bad address character: an address digit is not 0-9 (or S-Z)")


# ---- the table -------------------------------------------------------------------------
# Cycle counts (minor cycles of about 40.4 us) follow REFERENCE 7: add and subtract about
# 3 (120 us), multiply 45 (1,800 us), divide 89 (3,600 us); plain transfers 2.

OPERATIONS: tuple[Operation, ...] = (
    Operation("B", "bring", "(m) to rA and rX", _bring, 2),
    Operation("L", "load L", "(m) to rL and rX", _load_l, 2),
    Operation("F", "load F", "(m) to rF", _load_f, 2),
    Operation("H", "hold", "rA to m, rA kept", _hold, 2),
    Operation("C", "clear", "rA to m, then rA cleared to zero", _clear, 2),
    Operation("G", "store F", "rF to m", _store_f, 2),
    Operation("J", "store X", "rX to m", _store_x, 2),
    Operation("K", "A to L", "rA to rL, then rA cleared (m ignored)", _a_to_l, 2, words=0),
    Operation("A", "add", "(m) to rX; rA + rX to rA", _add, 3),
    Operation("S", "subtract", "-(m) to rX; rA + rX to rA", _subtract, 3),
    Operation("X", "add X", "rA + rX to rA (m ignored)", _add_x, 3, words=0),
    Operation("M", "multiply", "(m) to rX; rL x rX rounded to rA", _multiply, 45),
    Operation("N", "negative multiply", "(m) to rX; -(rL x rX) rounded to rA",
              _negative_multiply, 45),
    Operation("P", "product", "(m) to rX; rL x rX, high half to rA, low half to rX",
              _product, 45),
    Operation("D", "divide", "(m) to rA; rA / rL rounded to rA, unrounded to rX", _divide, 89),
    Operation("E", "extract", "where rF is odd, (m) replaces rA", _extract, 3),
    Operation("V", "to V", "(m), (m+1) to rV", _to_v, 3, words=2),
    Operation("W", "from V", "rV to m, m+1", _from_v, 3, words=2),
    Operation("Y", "to Y", "(m) ... (m+9) to rY", _to_y, 11, words=10),
    Operation("Z", "from Y", "rY to m ... m+9", _from_y, 11, words=10),
    Operation("Q", "equal test", "if rA = rL, next pair from m", _equal, 2, transfers=True),
    Operation("T", "greater test", "if rA > rL, next pair from m", _test_greater, 2,
              transfers=True),
    Operation("U", "transfer", "next pair from m", _transfer, 1, transfers=True),
    Operation("R", "record", "return link 000000U00ccc (ccc = CC) to m", _record, 2),
    Operation(".n", "shift right", "rA right n places, sign included", _shift_right, 2, words=0),
    Operation(";n", "shift left", "rA left n places, sign included", _shift_left, 2, words=0),
    Operation("-n", "shift right, sign kept", "rA digits right n places",
              _shift_right_keep_sign, 2, words=0),
    Operation("0n", "shift left, sign kept", "rA digits left n places",
              _shift_left_keep_sign, 2, words=0),
    Operation("00", "skip", "no operation", _skip, 1, words=0),
    Operation("90", "stop", "stop; Start goes on with the next instruction", _stop, 1, words=0),
    Operation(",0", "breakpoint stop", "stop if the breakpoint switch is set", _breakpoint, 1,
              words=0),
    Operation("10", "keyboard", "stall until a word is typed on the SC keyboard; it goes to m",
              _keyboard, 2),
    Operation("50", "print", "type (m) on the SC printer", _printer, 2),
    Operation("tape", "tape", "tape instructions 1n-8n: no tape unit attached", _tape, 1,
              words=0),
)

BY_CODE: dict[str, Operation] = {op.code: op for op in OPERATIONS}
INVALID = Operation("??", "invalid", "no such operation", _invalid, 1, words=0)
BAD_ADDRESS = Operation("?m", "bad address", "address character is not a digit",
                        _bad_address, 1, words=0)

_SHIFT_KINDS = {".": ".n", ";": ";n", "-": "-n"}
_GLYPH = [c.glyph for c in CHARACTERS]


def _digit(ch: str) -> int:
    """An address or variant digit: the low four bits less three (S-Z work as 2-9)."""
    value = (ord(ch) & 0x0F) - 3
    return value if 0 <= value <= 9 else -1


_DIGIT_GLYPHS = frozenset("0123456789")  # str.isdigit() would also take "⁴"


def find_operation(spelling: str) -> Operation | None:
    """An operation as a coding sheet may write it: its code ("B", "50", ".n", ",0"), a
    letter with its variant digit ("B0"), or a shift with its count (".3", "03")."""
    code = spelling.strip()
    if len(code) == 2 and code[0].isalpha() and code[1] == "0":
        code = code[0]  # the variant digit of a letter operation
    elif len(code) == 2 and code[0] in ".;-0" and code != "00" and (
            code[1] in "nN" or code[1] in _DIGIT_GLYPHS):
        code = code[0] + "n"  # a shift with its count
    return BY_CODE.get(code) or BY_CODE.get(code.upper()) or BY_CODE.get(code + "n")


def decode(instruction: str) -> tuple[Operation, int]:
    """The operation of a six-character instruction and its operand (address or count)."""
    first, variant = _GLYPH[ord(instruction[0])], _GLYPH[ord(instruction[1])]
    op: Operation
    if first in _SHIFT_KINDS:
        if variant not in _DIGIT_GLYPHS:
            return INVALID, 0
        return BY_CODE[_SHIFT_KINDS[first]], int(variant)
    if first == "0" and variant in _DIGIT_GLYPHS and variant != "0":
        return BY_CODE["0n"], int(variant)
    if first in _DIGIT_GLYPHS:
        two = first + variant
        if two in BY_CODE:
            op = BY_CODE[two]
        elif first in "12345678" and (variant in _DIGIT_GLYPHS or variant == "-"):
            op = BY_CODE["tape"]  # unit 1-9, or - for unit 10
        else:
            op = INVALID
    elif first == ",":
        op = BY_CODE[",0"] if variant == "0" else INVALID
    else:
        op = BY_CODE.get(first, INVALID) if first.isalpha() and first.isascii() else INVALID
    if not op.uses_address:
        return op, 0
    hundreds, tens, units = (_digit(c) for c in instruction[3:6])
    if hundreds < 0 or tens < 0 or units < 0:
        return BAD_ADDRESS, 0
    return op, hundreds * 100 + tens * 10 + units
