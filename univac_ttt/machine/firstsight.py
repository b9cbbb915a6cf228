"""A pair seen for the first time runs through the operation table's executors.

A word fetched once is not worth compiling (code that makes new instruction words each pass
would compile every one of them); the compiled loop runs such a pair here, with its timing,
as the interpreter would, instead of leaving for the interpreter (whose setting up costs
about a microsecond a pair).
"""

from __future__ import annotations

from collections.abc import Callable

from . import ops
from .blockrt import Bail
from .ops import decode
from .timing import instruction_cost

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

# Executors that never change anything before returning a stop request: a pair of these
# seen for the first time runs here, through the operation table's executors, instead of
# leaving the compiled path (the adder and the multiplier change rX first; they go to the
# interpreter).
_SAFE = frozenset(op.execute for op in ops.OPERATIONS
                  if op.code not in ("A", "S", "X", "M", "N", "P"))
_HALVES: dict[str, tuple[Callable[..., object], int, int, int] | None] = {}
_HALVES_LIMIT = 8192


def _half(instruction: str) -> tuple[Callable[..., object], int, int, int] | None:
    """(executor, operand, execution pulses, operand word position or -1) of a half, or
    None when it is not one of the safe executors; remembered."""
    op, operand = decode(instruction)
    pulses, position = instruction_cost(op, operand, False)
    known = (op.execute, operand, pulses, position) if op.execute in _SAFE else None
    if len(_HALVES) >= _HALVES_LIMIT:
        _HALVES.clear()
    _HALVES[instruction] = known
    return known


def _first_sight(m: Machine, cc: int) -> int:
    """Run the pair at ``cc`` (not compiled: seen for the first time) with its timing, as
    the interpreter does; return the next CC. Bail, settled, before a half that is not
    safe here or that asks to stop."""
    word = m.mem[cc]
    left = _HALVES.get(word[:6], False)
    if left is False:
        left = _half(word[:6])
    right = _HALVES.get(word[6:], False)
    if right is False:
        right = _half(word[6:])
    if left is None or right is None:
        m.cc = cc  # the machine stands at the pair boundary: the interpreter runs it
        raise Bail(0)
    t0 = t = m.pulses
    previous = m.cr, m.cr_address
    m.cr, m.cr_address = word, cc
    t += ((cc - t // 91) % 10 + 1) * 91
    n = m.cc = cc + 1 if cc != 999 else 0
    ex, operand, pulses, position = left
    if position >= 0:
        t += ((position - t // 91) % 10) * 91
    m.pulses = t + pulses
    outcome = ex(m, operand)
    if outcome is not None:
        if outcome.__class__ is not int:  # a stop request: nothing has changed
            m.pulses, m.cc = t0, cc
            m.cr, m.cr_address = previous
            raise Bail(0)
        n = m.cc = outcome  # type: ignore[assignment]
    t = t1 = m.pulses
    ex, operand, pulses, position = right
    if position >= 0:
        t += ((position - t // 91) % 10) * 91
    m.pulses = t + pulses
    outcome = ex(m, operand)
    if outcome is not None:
        if outcome.__class__ is not int:
            m.pulses = t1
            m.half = 1
            raise Bail(1)
        n = m.cc = outcome  # type: ignore[assignment]
    return n
