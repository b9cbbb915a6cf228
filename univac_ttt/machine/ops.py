"""The C-10 instruction code: one table feeding the executor, the compiled blocks, the
disassembler, assembler, timing model, the monitor's ``break -op`` and its ``help ops``.

Each executor takes the machine and the operand (an address, or the shift count for the
shifts) and returns None to go on, an ``int`` to transfer control there, or a
``StopRequest``. Every row but the devices' (keyboard, tapes: tape.py) is written as a
``body``, the one statement of that instruction: its executor here and its compiled form
(blockgen.py) are both generated from it, each context putting its own text for the
body's names. Compiled arithmetic goes a numbers way first (blockarith.py, named by the
row's ``numbers``) and then the same body. REFERENCE.md section 5 is the source of every row.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import arithmetic as ar
from . import tape
from .charset import GLYPHS, ZERO_DIGIT
from .records import Record
from .stops import BREAKPOINT, HALT, KEYBOARD_WAIT, StopRequest, error
from .timing import MINOR_CYCLE_PULSES
from .word import RETURN_LINKS, ZERO

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

Outcome = int | StopRequest | None
Executor = Callable[["Machine", int], Outcome]


class Operation(Record):
    """One row of the table (a named tuple: immutable, and no dataclasses at start-up)."""

    code: str  # as written on a coding sheet: "B", "10", ".n"
    name: str
    action: str  # one line, for the disassembler and the monitor's help
    execute: Executor
    cycles: int  # execution time in minor cycles, operand waits not included
    words: int = 1  # memory words the operand moves (0: none, the address is ignored)
    transfers: bool = False  # may load the control counter
    # The operation's meaning as source lines (see "one body" below), when it is written
    # so: the executor above is generated from it, and so is the compiled pairs' form.
    body: tuple[str, ...] = ()
    # Compiled, numbers kept as ints go a way of their own before the body (which then
    # handles words): the name of blockarith's writer for it and its parameter ("add -m").
    numbers: str = ""
    # A device (the keyboard, the tapes): compiled blocks call its executor as it is, with
    # the machine settled, and the checking circuits leave its words alone (checking.py).
    device: bool = False

    @property
    def uses_address(self) -> bool:
        return self.words > 0

    @property
    def takes_count(self) -> bool:
        """The second character is a count n (the shifts ".n" ... "0n"), not a variant
        (in the tape rows "1n" ... "8n" n names a Uniservo)."""
        return self.code.endswith("n") and self.code[0] in ".;-0"


# ---- one body ----------------------------------------------------------------------------
# An operation written as a body states its meaning once, as lines of Python over the
# machine ``m``, memory ``mem`` and names in braces. Operands: {a} the address, {a1} the
# next, {c} and {c10} the channel Y and Z move. Cells: {M} the cell at {a} as it is (a
# register may take a compiled store's int as it is), {MW} {M1W} the cells at {a} and {a1}
# as words, {MCW} the channel's ten as words. Registers: {A} {X} {L} {F} as words, {SA}
# {SX} {SF} as a store leaves them in memory. Tests and arithmetic: {A_IS_L} {A_OVER_L}
# (Q, T), {SUM} (rA + x), {MULTIPLY} {DIVIDE} (the functions), {O_STOPS} (the overflow
# rule), {RY_FITS}, {PASS_TIME} (the clock on by p adder passes), {SETTLED} (the machine
# as a device sees it), {cc} the control counter after the fetch. A transfer sets ``n``;
# a line ``STOP request`` stops (``FAIL reason``: an error stop). The interpreter's names
# are INTERPRETED below; compiled code's (blockgen._COMPILED_NAMES) keep numbers as ints
# in registers and memory (the value shadow), registers in locals, and leave before an
# instruction that would stop, for the interpreter to run it.


class Hoist(Record):
    """A name's text that needs statements first: ``lines`` go before the line using it."""

    lines: tuple[str, ...]
    value: str


Names = dict[str, "str | Hoist"]
_FIELD = re.compile(r"\{(\w+)\}")  # a name in a body line (no body writes a brace else)


def expand(body: tuple[str, ...], names: Names, stop: str) -> list[str]:
    """``body`` written in one context's ``names``; a ``STOP request`` line becomes
    ``stop`` with the request for ``@STOP@``, and ``FAIL reason`` is ``STOP error(reason)``
    (neither is a template); a line that comes to nothing is left out."""
    out: list[str] = []
    for line in body:
        text = line.lstrip()
        indent = line[:len(line) - len(text)]
        if text.startswith(("FAIL ", "STOP ")):
            request = f"error({text[5:]})" if text.startswith("FAIL") else text[5:]
            out.append(indent + stop.replace("@STOP@", request))
            continue
        values: dict[str, str] = {}
        for field in _FIELD.findall(line):
            if field in values:
                continue
            value = names[field]
            if isinstance(value, Hoist):
                out += [indent + hoisted for hoisted in expand(value.lines, names, stop)]
                value = value.value
            values[field] = value
        if (written := line.format(**values)).strip():
            out.append(written)
    return out


def fields(body: tuple[str, ...]) -> set[str]:
    """The names a body uses (compiled code asks which rows read rA as a word)."""
    return {field for line in body if not line.lstrip().startswith(("FAIL ", "STOP "))
            for field in _FIELD.findall(line)}


def assignments(body: tuple[str, ...]) -> list[tuple[list[str], str]]:
    """Each line of a body as (what it assigns, the value): ``m._a = m._x = {M}`` is
    (["m._a", "m._x"], "{M}"), a line assigning nothing ([], the line); STOP and FAIL lines
    left out (the checking table and compiled code's register facts read bodies so)."""
    out: list[tuple[list[str], str]] = []
    for line in body:
        if not line.lstrip().startswith(("FAIL ", "STOP ")):
            *targets, value = line.strip().split(" = ")
            out.append((targets, value))
    return out


INTERPRETED: Names = {
    "a": "a", "a1": "(a + 1) % 1000", "c": "c", "c10": "c + 10", "M": "mem[a]", "MW": "mem[a]",
    "M1W": "mem[(a + 1) % 1000]", "A": "m.a", "X": "m.x", "L": "m.l", "F": "m.f",
    "SA": "m.a", "SX": "m.x", "SF": "m.f", "A_IS_L": "m.a == m.l",
    "A_OVER_L": "GREATER(m.a, m.l)", "MCW": "[mem[(c + i) % 1000] for i in range(10)]",
    "RY_FITS": "len(y) == 10 and c <= 990", "SUM": "ADDER(m.a, x)",
    "O_STOPS": "o and m.options.overflow == 'stop'", "MULTIPLY": "MULTIPLY",
    "PASS_TIME": f"m.pulses += p * {MINOR_CYCLE_PULSES}", "DIVIDE": "DIVIDE", "SETTLED": "",
    "cc": "m.cc"}
BODY_NAMES: dict[str, object] = {"ZERO": ZERO, "EXTRACT": ar.extract, "LINKS": RETURN_LINKS,
                                 "ZEROS": tuple(ZERO_DIGIT * n for n in range(12)),
                                 "GREATER": ar.greater, "error": error, "ADDER": ar.add,
                                 "AdderFault": ar.AdderFault, "NEG": ar.negate,
                                 "MULTIPLY": ar.multiply, "DIVIDE": ar.divide,
                                 "HALT": HALT, "BREAKPOINT": BREAKPOINT,
                                 "KEYBOARD_WAIT": KEYBOARD_WAIT}
_CHANNEL = "c = a - a % 10 if m.options.ten_word_aligned else a"  # Y and Z's first word (U7)


def _source(name: str, body: tuple[str, ...]) -> str:
    """The source of the interpreter's executor of an operation written as ``body``."""
    lines = expand(body, INTERPRETED, "return @STOP@") or ["pass"]
    text = "\n".join(lines)
    return "\n ".join([f"def {name}(m, a):", *(["mem = m.mem"] if "mem" in text else []),
                       *([_CHANNEL] if re.search(r"\bc\b", text) else []),
                       *(["n = None"] if "n = " in text else []), *lines,
                       "return n" if "n = " in text else "return None"])


def _executor(name: str, body: tuple[str, ...]) -> Executor:
    """The interpreter's executor of an operation written as ``body``."""
    namespace = dict(BODY_NAMES)
    exec(_source(name, body), namespace)  # noqa: S102 - the table's own bodies
    return namespace[name]  # type: ignore[return-value]


def _unmade(m: Machine, a: int) -> Outcome:
    """A body's executor before ``_with_executors`` has made it."""
    raise AssertionError("executor not made")


def _op(code: str, name: str, action: str, body: tuple[str, ...], cycles: int,
        **more: int | bool | str) -> Operation:
    """A row whose executor will be generated from its body (``_with_executors``)."""
    return Operation(code, name, action, _unmade, cycles, body=body,
                     **more)  # type: ignore[arg-type]


def _executor_names(rows: tuple[Operation, ...]) -> dict[str, str]:
    """Each row written as a body, by code: its executor's name."""
    return {op.code: "_" + re.sub(r"\W+", "_", op.name) for op in rows
            if op.execute is _unmade}


def executors_source(rows: tuple[Operation, ...]) -> str:
    """The source of every body-written row's executor, one after another."""
    names = _executor_names(rows)
    return "\n".join(_source(names[op.code], op.body) for op in rows if op.code in names)


def _with_executors(rows: tuple[Operation, ...]) -> tuple[Operation, ...]:
    """The rows, each written as a body with its executor: one source for them all. It is
    the source executors.py holds (Python's bytecode cache keeps that module compiled;
    compiling this source was the largest part of the machine's import), else it is
    compiled here, in one call (a call a row cost a sixth more)."""
    names = _executor_names(rows)
    source = executors_source(rows)
    from . import executors

    if source == executors.SOURCE:  # the table's bodies as the module was written from
        namespace = vars(executors)
        namespace.update(BODY_NAMES)  # the names the bodies read, as exec gets them below
    else:  # a body changed since executors.py was written (a test says to write it again)
        namespace = dict(BODY_NAMES)
        exec(source, namespace)  # noqa: S102 - the table's own bodies
    return tuple(op._replace(execute=namespace[names[op.code]]) if op.code in names else op
                 for op in rows)


def executors_module(rows: tuple[Operation, ...]) -> str:
    """The text of executors.py for ``rows``: their source, as a string and as code."""
    source = executors_source(rows)
    return (f'{_EXECUTORS_DOC}\n# ruff: noqa\n# fmt: off\n\nSOURCE = {source!r}\n\n\n'
            f'{source}\n')


_EXECUTORS_DOC = '''"""The interpreter's executors of ops.py's rows written as bodies: the
source ops.py writes from those bodies, here as a module so that Python's bytecode
cache keeps it compiled (compiling it at every import was the largest part of importing the
machine). Written by ops.py (``python -c "from univac_ttt.machine import ops;
ops.write_executors()"``), never by hand: ops.py uses these functions only when SOURCE is
the source it writes from the table now (else it compiles that, as before), and
tests/machine/test_one_table.py holds this file to the table. The names the bodies read
(ops.BODY_NAMES) are put in this module's namespace by ops.py."""'''


def write_executors() -> None:
    """Write executors.py from the table as it is."""
    import os

    path = os.path.join(os.path.dirname(__file__), "executors.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(executors_module(_ROWS))


# ---- bodies of several rows, and the executors not written as bodies --------------------


def _adder(operand: str, to_x: bool = True) -> tuple[str, ...]:
    """A, S and X's body: ``operand`` (as a word) to rX unless ``to_x`` is False, then rA +
    rX to rA. An overflow keeps the low eleven digits and transfers to 000 (U9), or is an
    error stop when the option says so; an error stop changes rX only, so Start runs the
    instruction again from the same rA."""
    return (f"m._x = x = {operand}" if to_x else f"x = {operand}", "try:", " s, o = {SUM}",
            "except AdderFault as fault:", " FAIL f'adder fault: {fault}'", "if {O_STOPS}:",
            " FAIL 'overflow: the sum needs twelve digits'", "m._a = s", "if o:",
            " m.overflows += 1", " n = 0")


# Minor cycles every multiply spends whatever its digits: 3 passes building 3 x rL, one
# shift per multiplier digit (11), the sign, and a start and finish calibrated so that random
# multipliers average the quoted 2,150 us with access (docs/fidelity.md, "Timing").
MULTIPLY_FIXED_CYCLES = 22


def _multiplier(negative: bool, full: bool) -> tuple[str, ...]:
    """M, N and P's body: (m) to rX, then rL x rX rounded to rA (negated for N) or, in
    full, its high half to rA and low half to rX (P); 3 x rL to rF; the clock on a minor
    cycle for each adder pass of the multiplier's digits (BN-158)."""
    return ("m._x = x = {MW}", "l = {L}", f"r = {{MULTIPLY}}(l, x, {negative}, {full})",
            "if r is None:", " FAIL 'a multiply operand holds a non-digit character'",
            "m._a, m._x, m._f, p = r", "{PASS_TIME}")


# D's body: rA / rL rounded to rA and unrounded to rX, or an error stop (nothing changed).
_DIVIDER = ("r = {DIVIDE}({MW}, {L})", "if r.__class__ is str:", " FAIL r", "m._a, m._x = r")


# 10's body: the next word typed to m, or a stall (nothing changed) until one is.
_KEYBOARD = ("keyboard = m.keyboard",
             "word = keyboard.read_word() if keyboard is not None else None",
             "if word is None:", " STOP KEYBOARD_WAIT", "mem[{a}] = word",
             "m.keyboard_words += 1")


def _invalid(m: Machine, a: int) -> Outcome:
    return error("invalid instruction: no such operation")


def _bad_address(m: Machine, a: int) -> Outcome:
    return error("bad address character: its low four bits are not a digit's (0-9; the "
                 "letters and signs sharing them, ;A-I )J-R +/S-Z, also count)")


# ---- the table -------------------------------------------------------------------------
# Cycle counts are minor cycles of about 40.4 us, after the operand's wait and read. Add,
# subtract, multiply and divide are calibrated so that straight-line programs on random
# operands at random addresses average the quoted 525 / 2,150 / 3,890 us with access
# (tests/machine/test_timing_calibration.py; docs/fidelity.md); plain transfers 2.
ADD_CYCLES = 5  # compare the magnitudes, then the adder pass (BN-157)
DIVIDE_CYCLES = 88

# The rows as written; OPERATIONS below are these with their executors made.
_ROWS: tuple[Operation, ...] = (
    _op("B", "bring", "(m) to rA and rX", ("m._a = m._x = {M}",), 2),
    _op("L", "load L", "(m) to rL and rX", ("m._l = m._x = {M}",), 2),
    _op("F", "load F", "(m) to rF", ("m._f = {M}",), 2),
    _op("H", "hold", "rA to m, rA kept", ("mem[{a}] = {SA}",), 2),
    _op("C", "clear", "rA to m, then rA cleared to zero", ("mem[{a}] = {SA}", "m._a = ZERO"),
        2),
    _op("G", "store F", "rF to m", ("mem[{a}] = {SF}",), 2),
    _op("J", "store X", "rX to m", ("mem[{a}] = {SX}",), 2),
    _op("K", "A to L", "rA to rL, then rA cleared (m ignored)", ("m._l = m._a", "m._a = ZERO"),
        2, words=0),
    _op("A", "add", "(m) to rX; rA + rX to rA", _adder("{MW}"), ADD_CYCLES, numbers="add m"),
    _op("S", "subtract", "-(m) to rX; rA + rX to rA", _adder("NEG({MW})"), ADD_CYCLES,
        numbers="add -m"),
    _op("X", "add X", "rA + rX to rA (m ignored)", _adder("{X}", to_x=False), ADD_CYCLES,
        words=0, numbers="add x"),
    _op("M", "multiply", "(m) to rX; rL x rX rounded to rA; 3 x rL to rF",
        _multiplier(False, False), MULTIPLY_FIXED_CYCLES, numbers="multiply M"),
    _op("N", "negative multiply", "(m) to rX; -(rL x rX) rounded to rA; 3 x rL to rF",
        _multiplier(True, False), MULTIPLY_FIXED_CYCLES, numbers="multiply N"),
    _op("P", "product", "(m) to rX; rL x rX, high half to rA, low half to rX; 3 x rL to rF",
        _multiplier(False, True), MULTIPLY_FIXED_CYCLES, numbers="multiply P"),
    _op("D", "divide", "(m) to rA; rA / rL rounded to rA, unrounded to rX", _DIVIDER,
        DIVIDE_CYCLES, numbers="divide"),
    _op("E", "extract", "where rF is odd, (m) replaces rA",
        ("m._a = EXTRACT({A}, {MW}, {F})",), 3),
    _op("V", "to V", "(m), (m+1) to rV", ("m.v = [{MW}, {M1W}]",), 3, words=2),
    _op("W", "from V", "rV to m, m+1", ("mem[{a}], mem[{a1}] = m.v",), 3, words=2),
    _op("Y", "to Y", "(m) ... (m+9) to rY", ("m.y = {MCW}",), 11, words=10),
    _op("Z", "from Y", "rY to m ... m+9", ("y = m.y", "if {RY_FITS}:", " mem[{c}:{c10}] = y",
        "else:", " for i, w in enumerate(y): mem[({c} + i) % 1000] = w"), 11, words=10),
    _op("Q", "equal test", "if rA = rL, next pair from m", ("if {A_IS_L}:", " n = {a}"), 2,
        transfers=True),
    _op("T", "greater test", "if rA > rL, next pair from m", ("if {A_OVER_L}:", " n = {a}"), 2,
        transfers=True),
    _op("U", "transfer", "next pair from m", ("n = {a}",), 1, transfers=True),
    _op("R", "record", "return link 000000U00ccc (ccc = CC) to m", ("mem[{a}] = LINKS[{cc}]",),
        2),
    # The shifts (U8): zeros enter; "-n" and "0n" move positions 2-12 and keep the sign.
    _op(".n", "shift right", "rA right n places, sign included",
        ("m._a = (ZEROS[{a}] + {A})[:12]",), 2, words=0),
    _op(";n", "shift left", "rA left n places, sign included",
        ("m._a = ({A} + ZEROS[{a}])[{a}:{a} + 12]",), 2, words=0),
    _op("-n", "shift right, sign kept", "rA digits right n places",
        ("v = {A}", "m._a = v[0] + (ZEROS[{a}] + v[1:])[:11]"), 2, words=0),
    _op("0n", "shift left, sign kept", "rA digits left n places",
        ("v = {A}", "m._a = v[0] + (v[1:] + ZEROS[{a}])[{a}:{a} + 11]"), 2, words=0),
    _op("00", "skip", "no operation", (), 1, words=0),
    _op("90", "stop", "stop; Start goes on with the next instruction", ("STOP HALT",), 1,
        words=0),
    _op(",0", "breakpoint stop", "stop if the breakpoint switch is set",
        ("if m.breakpoint_switch:", " STOP BREAKPOINT"), 1, words=0),
    _op("10", "keyboard", "stall until a word is typed on the SC keyboard; it goes to m",
        _KEYBOARD, 2, device=True),
    _op("50", "print", "type (m) on the SC printer", ("{SETTLED}", "printer = m.printer",
        "if printer is not None:", " printer.print_word({MW})", "m.printed_words += 1"), 2),
    # Tapes (S-PROG53; docs/fidelity.md "Tapes"): n is the Uniservo, 1-9 or - for the
    # tenth. A 60-word transfer moves a word a minor cycle (61, like Y and Z's 11); the
    # tape time itself runs beside the computer and is waited for only by the interlock.
    Operation("1n", "read forward", "next block of tape n to rI (m ignored)",
              tape.read_forward, 2, words=0, device=True),
    Operation("2n", "read backward", "block behind the head of tape n to rI (m ignored)",
              tape.read_backward, 2, words=0, device=True),
    Operation("30", "rI to memory", "rI to m ... m+59 (last digit of m ignored), rI erased",
              tape.ri_to_memory, 61, words=60, device=True),
    Operation("3n", "rI to memory, read forward", "rI to m ... m+59, then read tape n "
              "forward", tape.ri_to_memory_read_forward, 61, words=60, device=True),
    Operation("40", "rI to memory (backward)", "as 30: rI to m ... m+59, rI erased",
              tape.ri_to_memory, 61, words=60, device=True),
    Operation("4n", "rI to memory, read backward", "rI to m ... m+59, then read tape n "
              "backward", tape.ri_to_memory_read_backward, 61, words=60, device=True),
    Operation("5n", "write", "m ... m+59 through rO to tape n", tape.write, 61, words=60,
              device=True),
    Operation("6n", "rewind", "rewind tape n (m ignored)", tape.rewind, 2, words=0,
              device=True),
    Operation("7n", "write low density", "as 5n, at the Uniprinter's 20 characters an inch",
              tape.write_low_density, 61, words=60, device=True),
    Operation("8n", "rewind with interlock", "rewind tape n and lock it until remounted",
              tape.rewind_interlock, 2, words=0, device=True),
)
OPERATIONS: tuple[Operation, ...] = _with_executors(_ROWS)

BY_CODE: dict[str, Operation] = {op.code: op for op in OPERATIONS}
INVALID = Operation("??", "invalid", "no such operation", _invalid, 1, words=0)
BAD_ADDRESS = Operation("?m", "bad address", "address character is not a digit",
                        _bad_address, 1, words=0)

_SHIFT_KINDS = {".": ".n", ";": ";n", "-": "-n"}
_GLYPH = GLYPHS  # by code (charset.GLYPHS, refilled by charset.use_reading)


def _digit(ch: str) -> int:
    """An address or variant digit: the low four bits less three. The zone bits are not
    looked at, so S-Z work as 2-9 (S-PV) and so do ;A-I, )J-R and +/ (decision)."""
    value = (ord(ch) & 0x0F) - 3
    return value if 0 <= value <= 9 else -1


_DIGIT_GLYPHS = frozenset("0123456789")  # str.isdigit() would also take "⁴"
_UNIT_GLYPHS = {**{str(n): n for n in range(1, 10)}, "-": 10}  # Uniservo 1-9, - the tenth


def _tape_operand(op: Operation, unit: int, instruction: str) -> tuple[Operation, int]:
    """A tape operation's operand: unit * 1000 + address (tape.split_operand)."""
    if not op.uses_address:
        return op, unit * 1000
    hundreds, tens, units = (_digit(c) for c in instruction[3:6])
    if hundreds < 0 or tens < 0 or units < 0:
        return BAD_ADDRESS, 0
    return op, unit * 1000 + hundreds * 100 + tens * 10 + units


def find_operation(spelling: str) -> Operation | None:
    """An operation as a coding sheet may write it: its code ("B", "50", ".n", ",0"), a
    letter with its variant digit ("B0"), or a shift with its count (".3", "03")."""
    code = spelling.strip()
    if len(code) == 2 and code[0].isalpha() and code[1] == "0":
        code = code[0]  # the variant digit of a letter operation
    elif len(code) == 2 and code[0] in ".;-0" and code != "00" and (
            code[1] in "nN" or code[1] in _DIGIT_GLYPHS):
        code = code[0] + "n"  # a shift with its count
    found = BY_CODE.get(code) or BY_CODE.get(code.upper()) or BY_CODE.get(code + "n")
    if found is None and len(code) == 2 and code[1] in _UNIT_GLYPHS:
        found = BY_CODE.get(code[0] + "n")  # a tape operation with its unit ("31", "5-")
    return found


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
        elif first in "12345678" and variant in _UNIT_GLYPHS:
            return _tape_operand(BY_CODE[first + "n"], _UNIT_GLYPHS[variant], instruction)
        else:
            op = INVALID  # 20, 60, 70, 80: unit 0 does not exist
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
