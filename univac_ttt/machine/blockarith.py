"""The numbers way of compiled arithmetic (A, S, X, M, N, P, D), before the row's body.

Each row of ops.py names its writer here (``numbers``: "add -m", "multiply P", "divide").
Numbers whose values are known add, multiply and divide as ints and stay ints in the
registers (and in memory: the value shadow, see blockgen.py); anything else (text, a zero
result, whose sign is arithmetic.py's rule, an overflow stop, a non-digit) goes on to the
row's own body, which handles words (through fastarith's remembered values). This is the
one place an operation's meaning is restated: on ints, for speed; the differential tests
hold it to the body. Mixed into blockgen's writer.
"""

from __future__ import annotations

from . import arithmetic as ar
from . import ops
from .ops import OPERATIONS
from .word import MODULUS

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from collections.abc import Callable

# A sum that the right half of its pair reads as a word is made a word at once; one that
# it stores is made a word if its word is known (memory may keep a new number as an int).
_READS_A_AS_WORD = {op.code for op in OPERATIONS
                    if ops.fields(op.body) & {"A", "A_IS_L", "A_OVER_L"}}  # E, Q, T, shifts
_STORES_A = {op.code for op in OPERATIONS if "SA" in ops.fields(op.body)}  # H, C
# Registers live in m._a, m._x, m._l, m._f: a word, or (after compiled arithmetic) a
# number's int value that fastarith.register_word turns into its word when one is needed.
# Compiled code reading one as a word makes the word from an int and keeps it there (the
# machine's own thread), so the next read is cheap.
# rA, rX and rL hold ints below 10^11 only (NEW makes word_of's word); rF may hold a
# twelve-digit triple (REG).
_A, _X, _L, _F = (f"(m._{r} if m._{r}.__class__ is str else WORD(m._{r}) or {new}(m._{r}))"
                  for r, new in zip("axlf", ("NEW", "NEW", "NEW", "REG"), strict=True))  # (locals)
_WA, _WX, _WL, _WF = ([f"v = m._{r}",
                       f"if v.__class__ is not str: m._{r} = v = WORD(v) or {new}(v)"]
                      for r, new in zip("axlf", ("NEW", "NEW", "NEW", "REG"), strict=True))
# A memory cell as a word: a cell holds a word, or (stored by compiled code) the int value
# of a number, which stands for fastarith.word_of of it (the value shadow).
_M = "(u if (u := mem[{a}]).__class__ is str else WORD_OF(u))"


# A value: VALUE(c, c) is the adder's value of a word the table knows, None for text, and
# the cell or register itself otherwise: an int (its own value) or an unknown word (which
# is no int, so the code goes the word way and fastarith learns it).


class ArithmeticWriter:
    """Source of A, S, X, M, N, P and D for a block (blockgen._Writer's arithmetic)."""

    overflow_stop: bool
    half: int
    pair: int
    right_code: str | None
    namespace: dict[str, object]
    off: int
    phase: int | None
    emit: Callable[..., None]

    def add(self, source: str, a: int, body: list[str]) -> None:
        """A, S, X (``source`` m, -m or x: what goes to rX, ops.py's row): numbers with
        known values add here and rA keeps the sum as an int; the rest (text, overflow, a
        zero sum, whose sign is arithmetic.py's rule) go the row's body, with words."""
        sign = "-" if source == "-m" else "+"
        second = "VALUE(w, w)" if source != "x" else "VALUE(m._x, m._x)"
        rx = {"m": " m._x = w", "x": " pass",
              "-m": " m._x = -w if w.__class__ is int else NEGATE[w[0]] + w[1:]"}[source]
        to_a = (" m._a = WORD(s) or NEW(s)" if self.half == 0 and self.right_code in
                _READS_A_AS_WORD else " m._a = WORD(s) or s" if self.half == 0
                and self.right_code in _STORES_A else " m._a = s")
        # The operand first: text (address arithmetic on instruction words, half the adds
        # of the tic-tac-toe program) goes the word way without rA's value looked up. The
        # sum is None unless both are numbers, so a sum that is zero, overflows or is
        # none is one test of it (the types are not tested again).
        self.emit(*([f"w = mem[{a}]"] if source != "x" else []),
                  f"vb = {second}",
                  f"s = va {sign} vb if vb.__class__ is int and "
                  "(va := VALUE(m._a, m._a)).__class__ is int else None",
                  f"if s and -{MODULUS} < s < {MODULUS}:", rx, to_a)
        if not self.overflow_stop:  # an overflow of two numbers wraps as fastarith._sum
            self.emit(f"elif s and (s := s - {MODULUS} if s > 0 else s + {MODULUS}):",
                      rx, to_a, " m.overflows += 1", " n = 0")
        self.emit("else:")  # (text, a zero sum, a wrapped zero: the word way below)
        indent = " "
        cell = _M.format(a=a)  # already in w
        self.emit(*(indent + line.replace(cell, "w if w.__class__ is str else WORD_OF(w)")
                    for line in body))

    def multiply(self, code: str, a: int, body: list[str]) -> None:
        """M, N, P on numbers with known values: the product's words stay ints in rA, rX
        (P) and rF (the triple), as fastarith._multiply would form them; otherwise (an
        unknown word, a non-digit) through fastarith with words. Each multiply in compiled
        code remembers its last operands and results (one tuple, replaced whole, so that
        machines in other threads sharing the code read a consistent one): programs without
        index registers multiply the same numbers pass after pass."""
        last = f"LAST{self.step}_{self.half}"  # (the pair's index in its plan)
        self.namespace[last] = [(None,)]
        self.emit(f"x = mem[{a}]", "vx = VALUE(x, x)", "vl = VALUE(m._l, m._l)",
                  "ok = vx.__class__ is int and vl.__class__ is int",
                  "if ok:",
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
        # A zero product (or half of one) takes its sign from arithmetic.py, the one
        # place the rule is written: it goes the word way below.
        self.emit("  ok = hi and lo != 0",
                  "  if ok:",
                  "   f = 3 * (vl if vl >= 0 else -vl)",
                  "   p = PASSES_OF(vx)", "   if p is None:", "    p = PASSES(vx)",
                  f"   {last}[0] = (vl, vx, hi, lo, f, p)",
                  "   m._a = hi", "   m._x = lo if lo is not None else x", "   m._f = f",
                  "if not ok:",
                  *(" " + line.replace(_M.format(a=a), "x if x.__class__ is str else WORD_OF(x)")
                    for line in body),  # the row's body, with words (the cell is in x)
                  # a zero product of two nonzero numbers (their signs are the words')
                  # is remembered too: loops multiplying small numbers meet it every pass
                  " if vx.__class__ is int and vl.__class__ is int and vl and vx:",
                  f"  {last}[0] = (vl, vx, r[0], {'r[1]' if code == 'P' else 'None'}, r[2], p)",
                  f"t += {self.off} + p * 91")
        self.off = 0
        self.phase = None

    def divide(self, _: str, a: int, body: list[str]) -> None:
        """D on numbers with known values: both quotients stay ints in rA and rX, as
        fastarith.divide forms them; anything else through fastarith with words."""
        self.emit(f"d = mem[{a}]", "va = VALUE(d, d)", "vl = VALUE(m._l, m._l)",
                  "r = None",
                  "if va.__class__ is int and vl.__class__ is int:",
                  " ma = va if va >= 0 else -va", " ml = vl if vl >= 0 else -vl",
                  " if ma < ml:", f"  q, r = divmod(ma * {MODULUS}, ml)",
                  "  r = q + (2 * r >= ml)", f"  if r >= {MODULUS} or not q:",
                  "   r = None",  # a zero quotient's sign is arithmetic.py's rule
                  "  elif (va < 0) != (vl < 0):", "   m._a = -r", "   m._x = -q", "  else:",
                  "   m._a = r", "   m._x = q",
                  "if r is None:",  # the row's body, with words (the cell is in d)
                  *(" " + line.replace(_M.format(a=a), "d if d.__class__ is str else WORD_OF(d)")
                    for line in body))
