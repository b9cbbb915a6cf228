"""The tape instructions and the initial read (docs/fidelity.md, "Tapes").

The executors of the tape rows of the operation table are here; ops.py only lists them.
The units they drive, their reels, the block format and the timing constants are in
uniservo.py (re-exported here, so ``from univac_ttt.machine.tape import Reel`` works).

Operands: a tape instruction's operand is ``unit * 1000 + address`` (unit 1-10, the
tenth written ``-``), so the CPU and its decode cache need nothing new.
"""

from __future__ import annotations

from .stops import Stop, StopKind, StopRequest, error
from .uniservo import (
    _BLANK_BLOCK,
    BLOCK_CYCLE_PULSES,
    BLOCK_CYCLE_US,
    BLOCK_TRANSFER_US,
    BLOCK_WORDS,
    LOW_DENSITY_BLOCK_US,
    LOW_DENSITY_PULSES,
    MOVES_KEPT,
    REWIND_BLOCK_PULSES,
    REWIND_BLOCK_US,
    START_STOP_US,
    TAPE_CHARACTERS_PER_SECOND,
    UNITS,
    MoveLog,
    Reel,
    TapeMove,
    TapesState,
    TapeUnits,
    Uniservo,
    UnitState,
    unit_name,
)

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

__all__ = [
    "BLOCK_CYCLE_PULSES", "BLOCK_CYCLE_US", "BLOCK_TRANSFER_US", "BLOCK_WORDS",
    "LOW_DENSITY_BLOCK_US", "LOW_DENSITY_PULSES", "MOVES_KEPT", "REWIND_BLOCK_PULSES",
    "REWIND_BLOCK_US", "START_STOP_US", "TAPE_CHARACTERS_PER_SECOND", "UNITS", "MoveLog",
    "Reel", "TapeMove", "TapeUnits", "TapesState", "UnitState", "Uniservo", "initial_read",
    "read_backward", "read_forward", "reread", "rewind", "rewind_interlock", "ri_to_memory",
    "ri_to_memory_read_backward", "ri_to_memory_read_forward", "split_operand",
    "tape_check_reason", "unit_name", "write", "write_low_density",
]


# ---- helpers for the executors ---------------------------------------------------------

def split_operand(operand: int) -> tuple[int, int]:
    """(unit, address) of a tape instruction's operand."""
    return divmod(operand, 1000)


def _block_address(address: int) -> int:
    """The last digit of m is ignored by the 60-word transfers (S-PROG53)."""
    return address - address % 10


def _usable(m: Machine, unit: int, writing: bool = False) -> StopRequest | Uniservo:
    servo = m.tapes[unit]
    if servo.reel is None:
        return error(f"Uniservo {servo.name} has no reel mounted")
    if servo.interlocked:
        return error(f"Uniservo {servo.name} was rewound with interlock; mount the reel again")
    if writing and not servo.reel.writable:
        return error(f"the reel on Uniservo {servo.name} is write-protected")
    return servo


def _wait(m: Machine, until: int) -> None:
    """The interlock: the computer stalls until a tape or a buffer is free."""
    if m.pulses < until:
        m.pulses = until


def _read(m: Machine, unit: int, backward: bool) -> StopRequest | None:
    servo = _usable(m, unit)
    if isinstance(servo, StopRequest):
        return servo
    assert servo.reel is not None
    if backward:
        if servo.position == 0:
            return error(f"Uniservo {servo.name}: read backward at the start of the tape")
        index = servo.position - 1
    else:
        if servo.position >= servo.reel.block_count:
            return error(f"Uniservo {servo.name}: read past the last written block "
                         f"(block {servo.position + 1} of {servo.reel.block_count})")
        index = servo.position
    tapes = m.tapes
    _wait(m, max(servo.busy_until, tapes.ri_ready))
    bad = servo.reel.bad
    failed = index in bad
    if failed:  # this read of the block fails its check (docs/fidelity.md, "Tape errors")
        bad[index] -= 1
        if bad[index] <= 0:
            del bad[index]
    # A backward read enters the characters in reverse order, so rI ends up holding the
    # block in its forward order (S-PROG53): the same words reach memory either way.
    m.ri = list(servo.reel.blocks[index])
    servo.position = index if backward else index + 1
    servo.motion = "reading backward" if backward else "reading"
    servo.busy_until = tapes.ri_ready = m.pulses + BLOCK_CYCLE_PULSES
    tapes.blocks_read += 1
    tapes.note(servo, index + 1, m.pulses)
    if failed:
        tapes.ri_check = (servo.number, index, backward)
        return StopRequest(StopKind.ERROR, tape_check_reason(servo.name, index),
                           advance=True)
    tapes.ri_check = None
    return None


def tape_check_reason(unit: str, index: int) -> str:
    """The stop's reason when block ``index`` of Uniservo ``unit`` fails its check."""
    return (f"tape check failed (Uniservo {unit}, block {index + 1} did not read correctly):"
            " the TAPE CHECK neon is lit; reread the block, then START")


def _ri_unchecked(m: Machine) -> StopRequest | None:
    """The stop before rI goes to memory while it holds a block that failed its check."""
    check = m.tapes.ri_check
    if check is None:
        return None
    unit, index, _ = check
    return error(f"tape check: rI holds block {index + 1} of Uniservo {unit_name(unit)}, "
                 "which did not read correctly: the TAPE CHECK neon is lit; reread the "
                 "block, then START")


def reread(m: Machine, unit: int) -> StopRequest | None:
    """The operator's reread (BN-168): the tape moves back over the block that failed and
    reads it again into rI, in the same direction. None when it now read correctly (START
    then goes on with the routine); otherwise the stop, rI still unchecked."""
    check = m.tapes.ri_check
    if check is None or check[0] != unit:
        return error(f"rI holds no block from Uniservo {unit_name(unit)} that failed its "
                     "check: nothing to reread")
    _, index, backward = check
    servo = m.tapes[unit]
    if servo.reel is None or index >= servo.reel.block_count:
        return error(f"Uniservo {servo.name} no longer holds that reel: nothing to reread")
    servo.position = index + 1 if backward else index
    return _read(m, unit, backward)


def _ri_to_memory(m: Machine, address: int) -> None:
    _wait(m, m.tapes.ri_ready)
    start = _block_address(address)
    mem = m.mem
    for i, word in enumerate(m.ri):
        mem[(start + i) % 1000] = word
    m.ri = list(_BLANK_BLOCK)  # "and erase rI"


# ---- executors (rows of ops.OPERATIONS) ------------------------------------------------

def read_forward(m: Machine, operand: int) -> StopRequest | None:
    return _read(m, operand // 1000, backward=False)


def read_backward(m: Machine, operand: int) -> StopRequest | None:
    return _read(m, operand // 1000, backward=True)


def ri_to_memory(m: Machine, operand: int) -> StopRequest | None:
    unchecked = _ri_unchecked(m)
    if unchecked is not None:
        return unchecked
    _ri_to_memory(m, operand % 1000)
    return None


def ri_to_memory_read_forward(m: Machine, operand: int) -> StopRequest | None:
    return _transfer_then_read(m, operand, backward=False)


def ri_to_memory_read_backward(m: Machine, operand: int) -> StopRequest | None:
    return _transfer_then_read(m, operand, backward=True)


def _transfer_then_read(m: Machine, operand: int, backward: bool) -> StopRequest | None:
    unit, address = split_operand(operand)
    check = _usable(m, unit)
    if isinstance(check, StopRequest):
        return check  # nothing moved: Start after mounting the reel runs it whole
    if backward and check.position == 0:
        return error(f"Uniservo {check.name}: read backward at the start of the tape")
    if not backward and check.reel is not None and check.position >= check.reel.block_count:
        return error(f"Uniservo {check.name}: read past the last written block "
                     f"(block {check.position + 1} of {check.reel.block_count})")
    unchecked = _ri_unchecked(m)
    if unchecked is not None:
        return unchecked
    _ri_to_memory(m, address)
    return _read(m, unit, backward)


def _write(m: Machine, operand: int, pulses: int) -> StopRequest | None:
    unit, address = split_operand(operand)
    servo = _usable(m, unit, writing=True)
    if isinstance(servo, StopRequest):
        return servo
    assert servo.reel is not None
    tapes = m.tapes
    _wait(m, max(servo.busy_until, tapes.ro_free))
    start = _block_address(address) if m.options.tape_write_aligned else address
    mem = m.mem
    m.ro = [mem[(start + i) % 1000] for i in range(BLOCK_WORDS)]
    reel = servo.reel
    if m.options.tape_overwrite == "truncate" or servo.position >= reel.block_count:
        # What lay beyond the head is no longer readable: the new block is the written end.
        del reel.blocks[servo.position:]
        reel.blocks.append(tuple(m.ro))
    else:
        reel.blocks[servo.position] = tuple(m.ro)  # the blocks after it stay readable
    reel.written = True
    servo.position += 1
    servo.motion = "writing"
    servo.busy_until = tapes.ro_free = m.pulses + pulses
    tapes.blocks_written += 1
    tapes.note(servo, servo.position, m.pulses)
    return None


def write(m: Machine, operand: int) -> StopRequest | None:
    return _write(m, operand, BLOCK_CYCLE_PULSES)


def write_low_density(m: Machine, operand: int) -> StopRequest | None:
    return _write(m, operand, LOW_DENSITY_PULSES)


def _rewind(m: Machine, operand: int, interlock: bool) -> StopRequest | None:
    servo = m.tapes.units[operand // 1000]
    if servo.reel is None or servo.interlocked:
        return _usable(m, operand // 1000)  # type: ignore[return-value] - the stop
    if m.pulses < servo.busy_until:  # the interlock (_wait)
        m.pulses = servo.busy_until
    servo.busy_until = m.pulses + servo.position * REWIND_BLOCK_PULSES
    servo.position = 0
    servo.interlocked = interlock
    servo.motion = "rewinding"
    m.tapes.note(servo, 0, m.pulses)
    return None


def rewind(m: Machine, operand: int) -> StopRequest | None:
    return _rewind(m, operand, interlock=False)


def rewind_interlock(m: Machine, operand: int) -> StopRequest | None:
    return _rewind(m, operand, interlock=True)


# ---- the initial read ------------------------------------------------------------------

def initial_read(m: Machine) -> Stop | None:
    """INITIAL READ on the desk: the next block of Uniservo 1 to 000-059; CC to 000.

    Returns a Stop (and changes nothing) when unit 1 has no reel, is interlocked or has
    no block left to read; None when the machine is ready to start at 000.
    """
    servo = m.tapes[1]
    before = servo.position
    request = _read(m, 1, backward=False)
    if request is None:
        _ri_to_memory(m, 0)
        m.cc = 0
        m.half = 0
        return None
    reason = f"initial read: {request.reason}"
    if m.tapes.ri_check is not None:
        # The block did not read correctly: nothing reaches memory and the head is put
        # back before it, so INITIAL READ again is the reread (our choice).
        servo.position = before
        m.tapes.ri_check = None
        m.ri = list(_BLANK_BLOCK)
        reason = (f"tape check failed during the initial read (Uniservo 1, block "
                  f"{before + 1} did not read correctly): the TAPE CHECK neon is lit; "
                  "press INITIAL READ again")
    stop = Stop(StopKind.ERROR, 0, "left", reason)
    m.last_stop = stop
    return stop
