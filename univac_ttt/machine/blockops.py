"""Each operation's text in compiled blocks: its row's body (ops.py) in compiled names.

A body names cells, registers and tests (ops.py, "one body"); here each name gets the text
compiled code puts for it: a cell or register read as a word where the body asks for one,
made from an int if it holds one (and kept so), a store that may leave a number's int in
memory (the value shadow), an instruction that would stop leaving the block instead.
blockgen's writer formats the result per instruction (operand, channel, clock, pair, the
text that leaves the block). Also here: the cells each code stores into (a block ends
before a pair it writes itself) and a block text's unread settings of the next CC.
"""

from __future__ import annotations

import re

from . import checking, ops
from .blockarith import _A, _F, _L, _M, _WF, _X
from .ops import Hoist


def _stored(register: str) -> Hoist:
    """A register as a compiled store leaves it in memory: rA and rX hold ints below 10^11
    only. A number whose word is known (a dict look-up) is stored as that word, and the
    register keeps it; a new number is stored as its int, the cell noted as shadowed, and
    its word is made only if something reads it as text."""
    return Hoist((f"if m._{register}.__class__ is int:",  # (a local in a block: no copy)
                  f" if (u := WORD(m._{register})) is None: sh({{a}})",
                  f" else: m._{register} = u"), f"m._{register}")


# The names of a body (ops.py, "one body") in compiled code: a cell or register read as a
# word where the body asks for one, made from an int if it holds one (and kept so).
_COMPILED_NAMES: ops.Names = {
    "a": "{a}", "a1": "{a1}", "c": "{c}", "c10": "{c10}", "M": "mem[{a}]", "MW": _M,
    "M1W": _M.replace("{a}", "{a1}"), "A": _A, "X": _X, "L": _L, "F": _F,
    "SA": _stored("a"), "SX": _stored("x"),
    "SF": Hoist(tuple(_WF), "v"),  # rF may hold a triple, which is no adder value
    # Two ints are equal exactly when their words are; a word and an int are compared as
    # words. Two ints compare as numbers, which is what T does with two numeric words (U4).
    "A_IS_L": "m._a == m._l or m._a.__class__ is not m._l.__class__ and "
              "MIXED_EQUAL(m._a, m._l)",  # (locals in a block)
    "A_OVER_L": Hoist(("e = m._a", "v = m._l", "if e.__class__ is int and v.__class__ is int:",
                       " g = e > v", "else:",
                       " if e.__class__ is not str: m._a = e = WORD(e) or NEW(e)",
                       " if v.__class__ is not str: m._l = v = WORD(v) or NEW(v)",
                       " g = GREATER(e, v)"), "g"),
    # Compiled code runs with Y and Z on whole channels (compiled.eligible).
    "MCW": Hoist(("y = mem[{c}:{c10}]",),
                 "y if m._shadowed.isdisjoint(CHANNEL{c}) else AS_WORDS(y)"),
    "RY_FITS": "len(y) == 10",
    # The adder: arithmetic.add's memo first (text, the address arithmetic on instruction
    # words, adds the same words again and again), then fastarith's, which learns values.
    "SUM": Hoist(("e = {A}",), "SUMS((e, x)) or ADD(e, x)"),
    # fastarith's multiplier and divider (values remembered); the writer moves the clock
    # on by the passes after the multiply (blockarith), as it keeps the clock in t + off.
    "MULTIPLY": "MUL", "PASS_TIME": "", "DIVIDE": "DIV",
    # The machine as the interpreter keeps it, for a device that looks (the printer).
    "SETTLED": Hoist(("@FLUSH@", "m.pulses = {now}", "m.cc = n", "m.cr = {cr}",
                      "m.cr_address = {address}"), ""),
    "now": "{now}", "cr": "{cr}", "address": "{address}",  # the clock, the pair and its address
    "cc": "n"}
# The same where rA and rL are known to hold words (blockgen's _Writer.words).
_WORD_NAMES: ops.Names = {**_COMPILED_NAMES, "A": "m._a", "L": "m._l",
                          "A_IS_L": "m._a == m._l", "A_OVER_L": "GREATER(m._a, m._l)"}
_FAIL = "{bail}"  # a compiled instruction that would stop leaves before it, settled


# The rows compiled inline: every one but the devices' (blockgen calls their executors).
_INLINE = tuple(op for op in ops.OPERATIONS if not op.device)


def _live(lines: list[str]) -> list[str]:
    """``lines`` without the blocks under ``if False:`` (a rule the tables fix)."""
    out: list[str] = []
    dead: int | None = None  # the indentation of the ``if False:`` being left out
    for line in lines:
        depth = len(line) - len(line.lstrip())
        if dead is not None and depth > dead or not line.strip():
            continue
        dead = None
        if line.strip() == "if False:":
            dead = depth
            continue
        out.append(line)
    return out


def _plain(names: ops.Names) -> dict[str, list[str]]:
    return {op.code: _live(ops.expand(op.body, names, _FAIL)) for op in _INLINE}


def _names(stop: bool, words: bool) -> ops.Names:
    """The compiled names for one overflow rule, with rA and rL known words or not."""
    return {**(_WORD_NAMES if words else _COMPILED_NAMES), "O_STOPS": "o" if stop else "False"}


class _ByRule(dict[tuple[bool, bool], dict[str, list[str]]]):
    """Each body in compiled code by (overflow stops, rA and rL known to hold words), made
    when first asked for (a start-up that compiles nothing writes none)."""

    def __missing__(self, key: tuple[bool, bool]) -> dict[str, list[str]]:
        value = self[key] = _plain(_names(*key))
        return value


_PLAIN_BY = _ByRule()
_PLAIN = frozenset(op.code for op in _INLINE)


# The words of memory each compiled instruction stores into, by its code, as its row's body
# says (checking.uses): the operand's span, a channel for Z. Devices are left out: a
# keyboard word or a tape block landing on a later pair is still met by that pair's check.
_STORES = {op.code: op.words for op in ops.OPERATIONS
           if not op.device and "m" in checking.uses(op.body)[1]}


def _stored_cells(code: str | None, a: int) -> tuple[int, ...]:
    words = _STORES.get(code)  # type: ignore[arg-type]
    if words is None:
        return ()
    if words == 10:  # Y and Z move the ten-word channel of m (compiled.eligible)
        a -= a % 10
    return tuple((a + i) % 1000 for i in range(words))


_SET_N = re.compile(r" n = \d+")  # a pair's fetch setting the next CC (top level)
_USES_N = re.compile(r"\bn\b")


def _without_dead_counts(body: str) -> str:
    """``body`` without the ``n = ...`` of a pair fetch that nothing reads before the next
    pair's sets it again (a plain pair: no transfer, exit, bail or R looks at CC). Any
    other line naming ``n`` (a word's text spelling one included) counts as reading it."""
    lines = body.split("\n")
    keep = [True] * len(lines)
    pending = None  # the index of the last top-level ``n = ...`` not yet read
    for index, line in enumerate(lines):
        if _SET_N.fullmatch(line):
            if pending is not None:
                keep[pending] = False  # set again before anything read it
            pending = index
        elif pending is not None and _USES_N.search(line):
            pending = None
    if pending is not None:
        keep[pending] = False  # (the body ends without reading it)
    return "\n".join(line for line, kept in zip(lines, keep, strict=True) if kept)
