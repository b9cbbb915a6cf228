"""Pairs whose operand is read at run time: address stepping kept inside one block.

Code without index registers steps an address by storing a new instruction word (a table
scan's ``B``, a return link's ``U``, a ``H`` into the next free cell): the word at that
address is new on every pass, but only the three address characters of one half change.
A block passing such a pair compiles it with that half's operand read at run time (a
*varying* half): the block looks the word up in a table of the words that fit its
template (every character but the operand's the same as the word it was compiled from)
and runs on with the operand it finds, or leaves, as at any changed word, when the word
does not fit. So a loop that rewrites a later pair of its own goes round inside one block
call instead of one call a pass (docs/performance-log.md, seventh round).

Which half varies: the one whose operand alone changed, when a block left at a changed
word (compiled.py's ``_changed``), or, for a pair the block itself stores into before it
reaches it (blockplan.block_plan), the one half with an address (the right if both have).
An address whose word changed in any other way is not compiled so again.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ops
from .ops import decode

# Codes a varying half may have: the rows compiled inline whose operand is a plain address
# (not the shifts' count, not Y and Z's channel, whose cells compiled code names by it).
TEMPLATED = frozenset(op.code for op in ops.OPERATIONS
                      if not op.device and op.uses_address and op.code not in ("Y", "Z"))
_TEMPLATES_LIMIT = 1024  # templates kept before the registry is emptied
_WORDS_LIMIT = 4096  # words one template remembers before its table is emptied
UNSTABLE = None  # Tables.varying's mark for an address whose word changed otherwise

Lookup = Callable[[object], "int | None"]
_TEMPLATES: dict[tuple[str, int], tuple[Lookup, Lookup]] = {}


def _span(half: int) -> tuple[int, int]:
    """The characters of a half's operand in a word (decode reads a half's [3:6])."""
    return 6 * half + 3, 6 * half + 6


def operand_lookup(word: str, half: int) -> tuple[Lookup, Lookup]:
    """(the template's ``dict.get``: word -> operand, its miss: checks a word against the
    template, learns it and gives its operand, or None) for ``word``'s half ``half``
    varying; one pair of them for every block of the same template."""
    lo, hi = _span(half)
    head, tail = word[:lo], word[hi:]
    key = (head + tail, half)
    found = _TEMPLATES.get(key)
    if found is not None:
        return found
    op = decode(word[6 * half:6 * half + 6])[0]
    table: dict[object, int] = {}

    def miss(candidate: object) -> int | None:
        if (candidate.__class__ is not str or len(candidate) != 12  # type: ignore[arg-type]
                or not candidate.startswith(head) or not candidate.endswith(tail)):  # type: ignore[attr-defined]
            return None
        got, operand = decode(candidate[6 * half:6 * half + 6])  # type: ignore[index]
        if got is not op:  # a bad address character
            return None
        if len(table) >= _WORDS_LIMIT:
            table.clear()
        table[candidate] = operand
        return operand

    if len(_TEMPLATES) >= _TEMPLATES_LIMIT:
        _TEMPLATES.clear()
    found = _TEMPLATES[key] = (table.get, miss)
    return found


def choose(codes: list[str | None], hint: int | None | bool) -> int | None:
    """The half of a pair to compile varying: ``hint`` (Tables.varying's entry; False when
    there is none) if it may, else the one half that may, the right if both; None if
    neither (or the address is marked unstable)."""
    able = [half for half in (0, 1) if codes[half] in TEMPLATED]
    if hint is UNSTABLE:
        return None
    if hint is not False:
        return hint if hint in able else None  # type: ignore[return-value]
    return able[-1] if able else None


def changed_half(old: str, new: object) -> int | None:
    """The half whose operand alone made ``new`` differ from ``old`` (the word a block was
    compiled from), when that half may vary; None otherwise."""
    if new.__class__ is not str or len(new) != 12:  # type: ignore[arg-type]
        return None
    differ = [i for i in range(12) if old[i] != new[i]]  # type: ignore[index]
    for half in (0, 1):
        lo, hi = _span(half)
        if differ and all(lo <= i < hi for i in differ):
            op, _ = decode(new[6 * half:6 * half + 6])  # type: ignore[index]
            if op.code in TEMPLATED and op is decode(old[6 * half:6 * half + 6])[0]:
                return half
    return None
