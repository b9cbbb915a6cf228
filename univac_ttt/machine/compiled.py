"""Compiled pairs: the fast path of Machine.run for the ordinary case.

A word fetched as a pair is compiled (on its second fetch) into one Python function that
runs both of its instructions and their timing. After the pair fetch the delay lines have a
known phase (the fetch ends as word cc passes the heads), so every later operand wait of the
pair is a constant worked out here; only the fetch wait depends on the clock. The functions
are looked up by the word memory holds at the moment of the fetch (and the last digit of its
address), so a store into memory from anywhere (an instruction, the monitor, a restore, a
tape, a fault) makes the address hold a word whose function is looked up afresh: nothing
can run stale code, and there is nothing to invalidate.

Arithmetic on numbers whose values are known (A, S, X, M, N, P, D) leaves its results in
the registers (``m._a``, ``m._x``, ``m._l``, ``m._f``) as ints and makes no word; a word is
made only when something reads the register as one (a store, a compare with a word, a
shift, the interpreter, the monitor: Machine.a and its kin materialise on read).

Anything unusual (a stop, a keyboard with nothing typed, a tape error, an adder fault, an
overflow stop, a non-digit in a multiply or divide) leaves through ``Bail`` before that
instruction has changed anything, and the interpreter in cpu.py runs it as always.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import arithmetic as ar
from . import fastarith, ops
from .charset import MINUS, ZERO_DIGIT
from .ops import BY_CODE, decode
from .stops import Stop, StopKind
from .timing import MINOR_CYCLE_PULSES, instruction_cost
from .word import MODULUS, ZERO, instruction

if TYPE_CHECKING:
    from .cpu import Machine

Pair = Callable[["Machine", int], int]  # runs the pair at an address; returns the next
_PER_PHASE = 400  # compiled words per last address digit (about 3 KB each) before emptying
_OBSERVING_LIMIT = 16  # sets of observed addresses whose tables are kept
_SEEN_LIMIT = 20_000  # words seen once, remembered so that the second sight compiles
_LINKS = tuple("\x03" * 6 + instruction("U", cc) for cc in range(1000))  # R's return links


class Bail(Exception):
    """The pair cannot go on compiled: ``half`` 0, nothing of it has run; ``half`` 1, the
    left instruction has run, the clock stood at ``pulses`` and CC at ``cc``."""

    def __init__(self, half: int, pulses: int = 0, cc: int = 0) -> None:
        super().__init__(half)
        self.half = half
        self.pulses = pulses
        self.cc = cc


def eligible(m: Machine) -> bool:
    """The compiled path serves the default timing and transfer rules with no monitor
    breakpoint and no injected fault (a pending resume matters only to breakpoints);
    anything else runs plain."""
    options = m.options
    return (options.timing == "latency" and options.right_half_after_transfer
            and not (m.break_addresses or m.break_executors or m.faults))


class Tables:
    """Compiled pairs for one overflow rule, shared by every machine. A pair's code depends
    only on its word and the last digit of its address (the delay-line phase), so there is
    one table per digit; ``by_address`` names each address's table. A word is compiled the
    second time it is fetched: words made afresh on every pass run in the interpreter."""

    def __init__(self, overflow_stop: bool) -> None:
        self.overflow_stop = overflow_stop
        self.phases: list[dict[str, Pair]] = [{} for _ in range(10)]
        self.by_address = [self.phases[address % 10] for address in range(1000)]
        self.seen: set[tuple[int, str]] = set()
        self._observing: dict[frozenset[int], Tables] = {}

    def observing(self, addresses: frozenset[int]) -> Tables:
        """These tables, except that the pairs at ``addresses`` always run in the
        interpreter, which tells the machine's observer (``Machine.arrivals``); the
        compiled pairs themselves are shared."""
        view = self._observing.get(addresses)
        if view is None:
            if len(self._observing) >= _OBSERVING_LIMIT:
                self._observing.clear()
            view = copy.copy(self)
            view.by_address = list(self.by_address)
            for address in addresses:
                view.by_address[address] = _INTERPRETED
            view._observing = {}
            self._observing[addresses] = view
        return view


TABLES = {False: Tables(False), True: Tables(True)}  # by "overflow stops the machine"


# ---- code generation ---------------------------------------------------------------------

def _mixed_equal(m: Machine) -> bool:
    """Q's test when one of rA, rL holds an int and the other a word: as words."""
    return m.a == m.l  # the properties make the words


_NAMESPACE = {
    "MIXED_EQUAL": _mixed_equal,
    "VALUE": fastarith._VALUES.get, "WORD": fastarith._WORDS.get, "WORD_OF": fastarith.word_of,
    "NEGATE": {MINUS: ZERO_DIGIT, **{chr(c): MINUS for c in range(64) if chr(c) != MINUS}},
    "Bail": Bail, "ZERO": ZERO, "REG": fastarith.register_word,
    "NEW": fastarith._new_word, "PASSES": fastarith.passes_of,
    "PASSES_OF": fastarith._PASSES_OF.get,
    "ADD": fastarith.add, "MUL": fastarith.multiply,
    "PRODUCTS_M": fastarith.PRODUCTS[False, False], "PRODUCTS_N": fastarith.PRODUCTS[True, False],
    "PRODUCTS_P": fastarith.PRODUCTS[False, True],
    "DIV": fastarith.divide, "SUB": fastarith.subtract, "AdderFault": ar.AdderFault,
    "EXTRACT": ar.extract, "GREATER": ar.greater, "LINKS": _LINKS,
    "SR": ar.shift_right, "SL": ar.shift_left, "SRK": ar.shift_right_keep_sign,
    "SLK": ar.shift_left_keep_sign, "TO_Y": ops._to_y, "FROM_Y": ops._from_y,
}
# A sum that the right half of its pair reads as a word is made a word at once.
_READS_A_AS_WORD = {"H", "C", "E", "Q", "T", ".n", ";n", "-n", "0n"}
_SHIFTS = {".n": "SR", ";n": "SL", "-n": "SRK", "0n": "SLK"}
# Registers live in m._a, m._x, m._l, m._f: a word, or (after compiled arithmetic) a
# number's int value that fastarith.register_word turns into its word when one is needed.
# Compiled code reading one as a word makes the word from an int and keeps it there (the
# machine's own thread), so the next read is cheap.
# rA, rX and rL hold ints below 10^11 only (NEW makes word_of's word); rF may hold a
# twelve-digit triple (REG).
_A, _X, _L, _F = (f"(v if (v := m._{r}).__class__ is str else WORD(v) or {new}(v))"
                  for r, new in zip("axlf", ("NEW", "NEW", "NEW", "REG"), strict=True))
_WA, _WX, _WL, _WF = ([f"v = m._{r}",
                       f"if v.__class__ is not str: m._{r} = v = WORD(v) or {new}(v)"]
                      for r, new in zip("axlf", ("NEW", "NEW", "NEW", "REG"), strict=True))
_PLAIN = {
    "B": ["m._a = m._x = mem[{a}]"], "L": ["m._l = m._x = mem[{a}]"], "F": ["m._f = mem[{a}]"],
    "H": [*_WA, "mem[{a}] = v"], "C": [f"mem[{{a}}] = {_A}", "m._a = ZERO"],
    "G": [*_WF, "mem[{a}] = v"], "J": [*_WX, "mem[{a}] = v"], "K": ["m._l = m._a", "m._a = ZERO"],
    "E": [*_WF, "e = v", *_WA, "m._a = EXTRACT(v, mem[{a}], e)"],
    "V": ["m.v = [mem[{a}], mem[{a1}]]"], "W": ["mem[{a}], mem[{a1}] = m.v"],
    "Y": ["TO_Y(m, {a})"], "Z": ["FROM_Y(m, {a})"], "00": [],
    # Two ints are equal exactly when their words are; a word and an int are compared as words.
    "Q": ["if (e := m._a) == (v := m._l) or e.__class__ is not v.__class__ and MIXED_EQUAL(m):",
          " n = {a}"],
    # Two ints compare as numbers, which is what T does with two numeric words (U4).
    "T": ["e = m._a", "v = m._l", "if e.__class__ is int and v.__class__ is int:",
          " g = e > v", "else:",
          " if e.__class__ is not str: m._a = e = WORD(e) or NEW(e)",
          " if v.__class__ is not str: m._l = v = WORD(v) or NEW(v)",
          " g = GREATER(e, v)", "if g:", " n = {a}"],
    "U": ["n = {a}"], "R": ["mem[{a}] = LINKS[n]"],
}
_CODE_OF = {op.execute: op.code for op in ops.OPERATIONS}
# Devices and stops: their executors are called as they are, with the clock, CC and CR set;
# each returns a stop request only before it has changed anything (tape.py), so the
# interpreter can run it again from the start.
_CODE_OF.update({BY_CODE[code].execute: "device" for code in (
    "10", "90", "1n", "2n", "30", "3n", "40", "4n", "5n", "6n", "7n", "8n")})
_COMPILABLE = set(_PLAIN) | set(_SHIFTS) | {"A", "S", "X", "M", "N", "P", "D", ",0", "50",
                                            "device"}


class _Writer:
    """Source of one pair; the clock is ``t`` plus the constant ``off``, and ``phase`` is
    the minor cycle (mod 10) at that time, or None once a multiply has made it vary."""

    def __init__(self, digit: int, word: str, overflow_stop: bool) -> None:
        self.word = word
        self.overflow_stop = overflow_stop
        self.lines = ["def pair(m, cc):", " mem = m.mem", " t = m.pulses",
                      " t += ((cc - t // 91) % 10 + 1) * 91",
                      " n = cc + 1" if digit != 9 else " n = cc + 1 if cc != 999 else 0"]
        self.off = 0
        self.phase = (digit + 1) % 10
        self.half = 0
        self.right_code: str | None = None  # the right half's operation, for the left
        self.words: set[str] = set()  # registers ("a", "l") known to hold words here
        self.namespace: dict[str, object] = dict(_NAMESPACE)

    def emit(self, *lines: str) -> None:
        self.lines += [" " + line for line in lines]

    def now(self) -> str:
        return f"t + {self.off}" if self.off else "t"

    def bail(self) -> str:
        if self.half == 0:
            return "raise Bail(0)"
        return f"raise Bail(1, {self.now()}, n)"

    def instruction(self, code: str, operand: int, op: ops.Operation) -> None:
        bail = self.bail()  # the clock before this instruction's wait
        pulses, position = instruction_cost(op, operand, False)
        cycles = 0  # minor cycles this instruction moves the clock on, when known
        if position >= 0:
            if self.phase is None:  # after a multiply: wait by the clock
                self.emit(f"t += {self.off}", "t0 = t",
                          f"t += (({position} - t // 91) % 10) * 91")
                self.off = 0
                bail = "raise Bail(0)" if self.half == 0 else "raise Bail(1, t0, n)"
            else:
                cycles = (position - self.phase) % 10
                self.off += cycles * MINOR_CYCLE_PULSES
        self.off += pulses
        if self.phase is not None:
            whole, rest = divmod(pulses, MINOR_CYCLE_PULSES)
            self.phase = None if rest else (self.phase + cycles + whole) % 10
        a = operand
        first = len(self.lines)
        known = self.words
        if code in ("Q", "T") and known >= {"a", "l"}:  # two words: as the interpreter does
            self.emit("if m._a == m._l:" if code == "Q" else "if GREATER(m._a, m._l):",
                      f" n = {a}")
        elif code == "Y" and a <= 990:
            self.emit(f"m.y = mem[{a}:{a + 10}]")
        elif code == "Z" and a <= 990:
            self.emit("y = m.y", "if len(y) == 10:", f" mem[{a}:{a + 10}] = y", "else:",
                      f" FROM_Y(m, {a})")
        elif code in _PLAIN:
            self.emit(*(line.format(a=a, a1=(a + 1) % 1000) for line in _PLAIN[code]))
        elif code in _SHIFTS:
            zeros = repr(ZERO_DIGIT * a)
            self.emit(*_WA, "w = v")
            self.emit({".n": f"m._a = ({zeros} + w)[:12]",
                       ";n": f"m._a = (w + {zeros})[{a}:{a + 12}]",
                       "-n": f"m._a = w[0] + ({zeros} + w[1:])[:11]",
                       "0n": f"m._a = w[0] + (w[1:] + {zeros})[{a}:{a + 11}]"}[code])
        elif code in ("A", "S", "X"):
            self.adder(code, a, bail)
        elif code in ("M", "N", "P"):
            self.multiply(code, a, bail)
        elif code == "D":
            self.divide(a, bail)
        elif code == ",0":
            self.emit("if m.breakpoint_switch:", f" {bail}")
        elif code == "device":
            if self.half == 0 and " start = t" not in self.lines:
                self.lines.insert(3, " start = t")
            self.namespace[f"EX{self.half}"] = op.execute
            self.emit(f"m.pulses = {self.now()}", "m.cc = n", f"m.cr = {self.word!r}",
                      "m.cr_address = cc", f"r = EX{self.half}(m, {a})", "if r is not None:",
                      " m.pulses = start" if self.half == 0 else " pass", f" {bail}",
                      "t = m.pulses")
            self.off = 0
            self.phase = None
        elif code == "50":
            word = repr(self.word)
            self.emit(f"m.pulses = {self.now()}", "m.cc = n", f"m.cr = {word}",
                      "m.cr_address = cc", "printer = m.printer",
                      "if printer is not None:", f" printer.print_word(mem[{a}])",
                      "m.printed_words += 1")
        self._simplify(first)
        self._learn(code)
        self.half = 1

    def _simplify(self, first: int) -> None:
        """Drop the int checks of rA and rL where they are known to hold words."""
        lines = self.lines[first:]
        for register, check, expression in (("a", _WA[1], _A), ("l", _WL[1], _L)):
            if register in self.words:
                lines = [line.replace(expression, f"m._{register}") for line in lines
                         if line.strip() != check]
        self.lines[first:] = lines

    def _learn(self, code: str) -> None:
        """What this instruction leaves in rA and rL: a word for sure, or perhaps an int."""
        words = self.words
        if code == "K":
            words.discard("l")
            if "a" in words:
                words.add("l")
        if code in ("B", "H", "C", "E", "K", *_SHIFTS) or (
                code in ("A", "S", "X") and self.half == 0
                and self.right_code in _READS_A_AS_WORD):
            words.add("a")
        elif code in ("A", "S", "X", "M", "N", "P", "D"):
            words.discard("a")
        elif code == "L":
            words.add("l")
        elif code == "device":
            words.clear()

    def adder(self, code: str, a: int, bail: str) -> None:
        """A, S, X: numbers with known values add here and rA keeps the sum as an int;
        the rest (text, overflow) go through fastarith and arithmetic as words."""
        sign = "-" if code == "S" else "+"
        second = "VALUE(w, False)" if code != "X" else \
            "v if (v := m._x).__class__ is int else VALUE(v, False)"
        rx = {"A": " m._x = w", "S": " m._x = NEGATE[w[0]] + w[1:]", "X": " pass"}[code]
        self.emit(*([f"w = mem[{a}]"] if code != "X" else []),
                  "va = v if (v := m._a).__class__ is int else VALUE(v, False)",
                  f"vb = {second}",
                  "if va.__class__ is int and vb.__class__ is int and "
                  f"-{MODULUS} < (s := va {sign} vb) < {MODULUS}:", rx,
                  " m._a = WORD(s) or NEW(s)" if self.half == 0 and self.right_code in
                  _READS_A_AS_WORD else " m._a = s", "else:")
        work = {"A": [" x = w", f" s, o = ADD({_A}, x)"],
                "X": [f" e = {_A}", f" s, o = ADD(e, {_X})"],
                "S": [f" x, s, o = SUB({_A}, w)"]}
        lines = ["try:", *work[code], "except AdderFault:", f" {bail}"]
        if self.overflow_stop:
            lines += ["if o:", f" {bail}"]
        lines += ["m._x = x" if code != "X" else "pass", "m._a = s", "if o:",
                  " m.overflows += 1", " n = 0"]
        self.emit(*(" " + line for line in lines))

    def multiply(self, code: str, a: int, bail: str) -> None:
        """M, N, P on numbers with known values: the product's words stay ints in rA, rX
        (P) and rF (the triple), as fastarith._multiply would form them; otherwise (an
        unknown word, a non-digit) through fastarith with words. Each multiply in compiled
        code remembers its last operands and results (one tuple, replaced whole, so that
        machines in other threads sharing the code read a consistent one): programs without
        index registers multiply the same numbers pass after pass."""
        last = f"LAST{self.half}"
        self.namespace[last] = [(None,)]
        self.emit(f"x = mem[{a}]", "vx = VALUE(x, False)",
                  "vl = v if (v := m._l).__class__ is int else VALUE(v, False)",
                  "if vx.__class__ is int and vl.__class__ is int:",
                  f" c = {last}[0]", " if c[0] == vl and c[1] == vx:",
                  "  m._a = c[2]", "  m._x = c[3] if c[3] is not None else x",
                  "  m._f = c[4]", "  p = c[5]", " else:",
                  "  r = vl * vx", "  s = r if r >= 0 else -r")
        if code == "P":
            self.emit(f"  hi, lo = divmod(s, {MODULUS})",
                      "  if r < 0:", "   hi, lo = -hi, -lo")
        else:  # M rounds the magnitude; N gives the product the other sign
            test = "r < 0" if code == "M" else "r >= 0"
            self.emit(f"  s = (s + {ar.HALF_UNIT}) // {MODULUS}",
                      f"  hi = -s if {test} else s", "  lo = None")
        self.emit("  f = 3 * (vl if vl >= 0 else -vl)",
                  "  p = PASSES_OF(vx)", "  if p is None:", "   p = PASSES(vx)",
                  f"  {last}[0] = (vl, vx, hi, lo, f, p)",
                  "  m._a = hi", "  m._x = lo if lo is not None else x", "  m._f = f",
                  "else:",
                  f" l = {_L}", f" r = PRODUCTS_{code}.get((l, x), False)", " if r is False:",
                  f"  r = MUL(l, x, {code == 'N'}, {code == 'P'})",
                  " if r is None:", f"  {bail}", " m._a, m._x, m._f, p = r",
                  f"t += {self.off} + p * 91")
        self.off = 0
        self.phase = None

    def divide(self, a: int, bail: str) -> None:
        """D on numbers with known values: both quotients stay ints in rA and rX, as
        fastarith.divide forms them; anything else through fastarith with words."""
        self.emit(f"d = mem[{a}]", "va = VALUE(d, False)",
                  "vl = v if (v := m._l).__class__ is int else VALUE(v, False)",
                  "r = None",
                  "if va.__class__ is int and vl.__class__ is int:",
                  " ma = va if va >= 0 else -va", " ml = vl if vl >= 0 else -vl",
                  " if ma < ml:", f"  q, r = divmod(ma * {MODULUS}, ml)",
                  "  r = q + (2 * r >= ml)", f"  if r >= {MODULUS}:", "   r = None",
                  "  elif (va < 0) != (vl < 0):", "   m._a = -r", "   m._x = -q", "  else:",
                  "   m._a = r", "   m._x = q",
                  "if r is None:", f" r = DIV(d, {_L})", " if r.__class__ is str:", f"  {bail}",
                  " m._a, m._x = r")

    def source(self) -> str:
        self.emit(f"m.pulses = {self.now()}", "return n")
        return "\n".join(self.lines)


def _generic(m: Machine, cc: int) -> int:
    raise Bail(0)


def compile_pair(tables: Tables, address: int, word: str) -> Pair:
    """The function for ``word`` fetched from ``address``: remembered, once seen twice."""
    key = (address % 10, word)
    if key not in tables.seen:
        if len(tables.seen) >= _SEEN_LIMIT:
            tables.seen.clear()
        tables.seen.add(key)
        return _generic  # the first sight runs in the interpreter
    halves = [decode(word[:6]), decode(word[6:])]
    codes = [_CODE_OF.get(op.execute) if op.execute in _CODE_OF else None for op, _ in halves]
    function: Pair = _generic
    if all(code in _COMPILABLE for code in codes):
        writer = _Writer(address % 10, word, tables.overflow_stop)
        writer.right_code = codes[1]
        for code, (op, operand) in zip(codes, halves, strict=True):
            writer.instruction(code, operand, op)  # type: ignore[arg-type]
        namespace = writer.namespace
        exec(writer.source(), namespace)  # noqa: S102 - our own generated source
        function = namespace["pair"]  # type: ignore[assignment]
    table = tables.by_address[address]
    if len(table) >= _PER_PHASE:
        table.clear()
    table[word] = function
    return function


class _Interpreted(dict):
    """A pair table that compiles nothing: every word at its address runs in the
    interpreter (an observed address; see ``Tables.observing``)."""

    def get(self, key: object, default: object = None) -> Pair:  # type: ignore[override]
        return _generic


_INTERPRETED = _Interpreted()


# ---- the loop ----------------------------------------------------------------------------

def _pairs(m: Machine, budget: int, tables: Tables) -> int:
    """Run whole compiled pairs while two more instructions fit in ``budget``; return how
    many instructions ran. Leaves the machine settled (CC, CR, clock, count) either at a
    pair boundary or, after a bail in a right half, just before that right half."""
    mem = m.mem
    by_address = tables.by_address
    cc = m.cc
    done = 0
    limit = budget - 1
    word = m.cr
    address = m.cr_address
    try:
        while done < limit:
            fetched = mem[cc]
            function = by_address[cc].get(fetched)
            if function is None:
                function = compile_pair(tables, cc, fetched)
            if function is _generic:
                break
            previous, previous_address = word, address
            word, address = fetched, cc
            cc = function(m, cc)
            done += 2
    except Bail as bail:
        if bail.half == 0:
            word, address = previous, previous_address  # CC still names the pair
        else:
            m.pulses = bail.pulses
            m.cc, m.cr, m.cr_address, m.half = bail.cc, word, address, 1
            m.instructions += done + 1
            return done + 1
    m.cc, m.cr, m.cr_address = cc, word, address
    m.instructions += done
    return done


def run(m: Machine, max_steps: int) -> Stop:
    """Machine.run on the compiled path (the caller has checked ``eligible``)."""
    m._resuming = False  # no breakpoint to pass
    total = 0
    tables = TABLES[m.options.overflow == "stop"]
    if m.arrivals:
        tables = tables.observing(m.arrivals)
    while total < max_steps:
        if not m.half and max_steps - total >= 2:
            total += _pairs(m, max_steps - total, tables)
            if total >= max_steps:
                break
        steps = 1 if m.half or max_steps - total < 2 else 2
        stop = m._run_generic(steps, quiet=True)
        if stop is not None:
            return stop
        total += steps
    address, where = m.next_instruction_address()
    stop = Stop(StopKind.STEP_LIMIT, address, where, f"{total} instructions executed")
    m.last_stop = stop
    return stop


__all__ = ["BY_CODE", "TABLES", "Bail", "Tables", "compile_pair", "eligible", "run"]
