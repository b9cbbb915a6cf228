"""What a compiled block's code calls and names at run time (blockgen.py writes the code).

``Bail`` and ``_settle``: leaving before an instruction the block cannot run, with the
machine settled just before it; ``_leave``: the rare exit at a changed word written as a
call; Q's int-aware test; and the namespace every block runs with (the tables of values
and words, the adder's memo, the executors' names).
"""

from __future__ import annotations

from . import arithmetic as ar
from . import fastarith, ops
from .charset import MINUS, ZERO_DIGIT
from .word import ZERO

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine
    from .stops import StopRequest


class Bail(Exception):
    """The block cannot go on compiled; ``done`` instructions of it have run, and the
    machine is settled just before the next one (CC, CR, the half, the clock, registers).
    ``request``: the stop a device asked for there, having changed nothing (a keyboard with
    nothing typed), which the interpreter would only ask again by running it."""

    def __init__(self, done: int, request: StopRequest | None = None) -> None:
        super().__init__(done)
        self.done = done
        self.request = request


def _settle(m: Machine, pulses: int, cc: int, cr: str | None, cr_address: int, half: int,
            done: int, request: StopRequest | None = None, **registers: str | int) -> Bail:
    """Put the machine where a block leaves it before an instruction it cannot run: the
    clock, CC, CR (None: as it was, the block's first pair not yet fetched), the half and
    the registers the block holds in locals."""
    _put_back(m, pulses, cc, cr, cr_address, half, registers)
    return Bail(done, request)


def _put_back(m: Machine, pulses: int, cc: int, cr: str | None, cr_address: int, half: int,
              registers: dict[str, str | int]) -> None:
    """The block's locals written back to the machine (``_settle`` and ``_stall``)."""
    m.pulses = pulses
    m.cc = cc
    if cr is not None:
        m.cr, m.cr_address = cr, cr_address
    m.half = half
    for name, value in registers.items():
        setattr(m, "_" + name, value)


# A block's answer: the next CC plus _DONE times the instructions it ran (blockgen.py adds
# its flags); _STALLED: a device asked to stop before changing anything (``_stall``).
_DONE = 1024
_STALLED = 1 << 55


def _stall(m: Machine, pulses: int, cc: int, cr: str | None, cr_address: int, half: int,
           done: int, request: StopRequest, **registers: str | int) -> int:
    """A device's stop request in a block (a keyboard with nothing typed): the machine
    settled as ``_settle`` leaves it and the request kept for compiled.run to stop with
    (``Machine._asked``), returned as an answer instead of raised (a stop a move); a
    request that goes on past the instruction leaves through ``Bail`` as before."""
    if request.advance:
        raise _settle(m, pulses, cc, cr, cr_address, half, done, request, **registers)
    _put_back(m, pulses, cc, cr, cr_address, half, registers)
    m._asked = request
    return cc + done * _DONE + _STALLED


def _stall_raising(m: Machine, pulses: int, cc: int, cr: str | None, cr_address: int,
                   half: int, done: int, request: StopRequest, **registers: str | int) -> int:
    """``_stall`` where an observer is told of each fetch: the interpreter asks again."""
    raise _settle(m, pulses, cc, cr, cr_address, half, done, request, **registers)


def _leave(m: Machine, pulses: int, cr: str, cr_address: int, result: int,
           **registers: str | int) -> int:
    """A block's exit written as a call: the clock, CR and registers back in the machine."""
    m.pulses = pulses
    m.cr, m.cr_address = cr, cr_address
    for name, value in registers.items():
        setattr(m, "_" + name, value)
    return result


def _mixed_equal(a: str | int, l: str | int) -> bool:  # noqa: E741 - rL
    """Q's test when one of rA, rL holds an int and the other a word: as words, but a
    word whose value differs is unequal without making the int's word (a counting loop
    compares each new count with its limit)."""
    number, word = (a, l) if a.__class__ is int else (l, a)
    known = fastarith.value(word)  # type: ignore[arg-type]
    if known != number:  # None (text) included
        return False
    return fastarith.register_word(number) == word  # type: ignore[arg-type]


_NAMESPACE = {
    "MIXED_EQUAL": _mixed_equal, "SETTLE": _settle, "LEAVE": _leave, "STALL": _stall,
    "VALUE": fastarith._VALUES.get, "WORD": fastarith._WORDS.get, "WORD_OF": fastarith.word_of,
    "NEGATE": {MINUS: ZERO_DIGIT, **{chr(c): MINUS for c in range(64) if chr(c) != MINUS}},
    "Bail": Bail, "ZERO": ZERO, "REG": fastarith.register_word,
    "NEW": fastarith._new_word, "PASSES": fastarith.passes_of,
    "PASSES_OF": fastarith._PASSES_OF.get,
    "ADD": fastarith.add, "SUMS": ar._SUMS.get, "MUL": fastarith.multiply,
    "DIV": fastarith.divide,
    # Y's channels by their first address, for the test that none of its cells is shadowed.
    **{f"CHANNEL{c}": frozenset(range(c, c + 10)) for c in range(0, 1000, 10)},
    "AS_WORDS": fastarith.as_words, "MATERIALISE": fastarith.materialise,
    **ops.BODY_NAMES,  # what the bodies name (EXTRACT, GREATER, LINKS, AdderFault, ...)
}

__all__ = ["_DONE", "_NAMESPACE", "_STALLED", "Bail", "_leave", "_mixed_equal", "_settle",
           "_stall", "_stall_raising"]
