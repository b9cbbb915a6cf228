"""The Uniservo tape units, their reels, and the initial read (docs/fidelity.md, "Tapes").

A reel is a list of 60-word blocks held in memory; reading and writing files is the job
of program/reel.py, so the machine stays pure. Each unit keeps its position (blocks
before the head), a write-protect flag on the reel, the rewind interlock, and the time
(in clock pulses) at which its tape is free again. The executors of the tape rows of
the operation table are here; ops.py only lists them.

Operands: a tape instruction's operand is ``unit * 1000 + address`` (unit 1-10, the
tenth written ``-``), so the CPU and its decode cache need nothing new.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from . import timing
from .stops import Stop, StopKind, StopRequest, error
from .word import WORD_LENGTH, ZERO

if TYPE_CHECKING:
    from .cpu import Machine

BLOCK_WORDS = 60  # a tape block: 60 words, 720 characters
MOVES_KEPT = 256  # the tape moves remembered for the desk's lamps and the console
UNITS = tuple(range(1, 11))  # Uniservo 1-9 and the tenth, written "-" in an instruction

# Timing (docs/fidelity.md): 128 characters an inch at 100 inches a second is 12,800
# characters a second nominal, a block in 56.25 ms; with the space between blocks and
# start/stop the sustained rate was about 7,200 characters a second, 100 ms a block.
TAPE_CHARACTERS_PER_SECOND = 12_800
BLOCK_TRANSFER_US = BLOCK_WORDS * WORD_LENGTH * 1_000_000 / TAPE_CHARACTERS_PER_SECOND
BLOCK_CYCLE_US = BLOCK_WORDS * WORD_LENGTH * 1_000_000 / 7_200
START_STOP_US = BLOCK_CYCLE_US - BLOCK_TRANSFER_US
# Low density (7n, for the off-line Uniprinter): 20 characters an inch, 36 inches a block.
LOW_DENSITY_BLOCK_US = BLOCK_WORDS * WORD_LENGTH / 20 / 100 * 1_000_000 + START_STOP_US
# Rewinding: assumed at the reading speed, one block cycle of tape per block passed.
REWIND_BLOCK_US = BLOCK_CYCLE_US

BLOCK_CYCLE_PULSES = timing.us_to_pulses(BLOCK_CYCLE_US)
LOW_DENSITY_PULSES = timing.us_to_pulses(LOW_DENSITY_BLOCK_US)
REWIND_BLOCK_PULSES = timing.us_to_pulses(REWIND_BLOCK_US)

_BLANK_BLOCK = (ZERO,) * BLOCK_WORDS


def unit_name(unit: int) -> str:
    """How the operator and the instruction name a unit: 1-9, and "-" for the tenth."""
    return "-" if unit == 10 else str(unit)


@dataclass
class Reel:
    """A reel of tape: its written blocks, a name to show, and whether it may be written."""

    blocks: list[tuple[str, ...]] = field(default_factory=list)
    writable: bool = False
    name: str = "reel"
    written: bool = False  # set when the machine writes on it (a reason to save it back)
    # Injected tape faults (teaching): block index (0 = the first) -> reads of that block
    # still to fail their check. Not part of the reel's file.
    bad: dict[int, int] = field(default_factory=dict)

    @property
    def block_count(self) -> int:
        return len(self.blocks)


@dataclass
class Uniservo:
    """One tape unit: the mounted reel, the head's position and the rewind interlock."""

    number: int
    reel: Reel | None = None
    position: int = 0  # blocks between the start of the tape and the head
    interlocked: bool = False  # rewound with 8n: no use until the operator remounts
    busy_until: int = 0  # clock pulse at which the tape has stopped moving
    motion: str = ""  # the last movement: "reading", "reading backward", "writing", ...

    def moving(self, now: int) -> str:
        """What the unit's lights would show at clock pulse ``now`` ("" when at rest)."""
        return self.motion if now < self.busy_until else ""

    @property
    def name(self) -> str:
        return unit_name(self.number)

    @property
    def block_count(self) -> int:
        return self.reel.block_count if self.reel is not None else 0

    def mount(self, reel: Reel) -> None:
        """Put a reel on the unit, at its first block (the operator threads it so)."""
        self.reel = reel
        self.position = 0
        self.interlocked = False

    def unmount(self) -> Reel | None:
        reel, self.reel = self.reel, None
        self.position = 0
        self.interlocked = False
        return reel


class TapeMove(NamedTuple):
    """One movement of a tape: which unit, what it did, the block it passed (1 = the
    first on the reel) and the clock pulses at which it began and ended. A named tuple:
    one is made at every tape instruction, and a frozen dataclass costs several times more."""

    unit: int
    motion: str
    block: int
    blocks: int  # blocks written on the reel then
    start: int
    end: int


class MoveLog:
    """The last tape moves, newest last, kept as plain tuples and read as TapeMoves (the
    log is written at every tape instruction and read only when a lamp or a note is shown)."""

    def __init__(self, kept: int = MOVES_KEPT) -> None:
        self._raw: deque[tuple[int, str, int, int, int, int]] = deque(maxlen=kept)
        self.append_raw = self._raw.append

    def append(self, move: TapeMove) -> None:
        self.append_raw(tuple(move))  # type: ignore[arg-type]

    def clear(self) -> None:
        self._raw.clear()

    def __len__(self) -> int:
        return len(self._raw)

    def __iter__(self) -> Iterator[TapeMove]:
        return map(TapeMove._make, self._raw)

    def __getitem__(self, index: int) -> TapeMove:
        return TapeMove._make(self._raw[index])


@dataclass(frozen=True)
class UnitState:
    """A unit at one moment, for snapshots: the reel mounted, and its blocks then."""

    number: int
    reel: Reel | None = field(compare=False)
    reel_name: str
    blocks: tuple[tuple[str, ...], ...]
    written: bool
    position: int
    interlocked: bool
    busy_until: int
    motion: str
    bad: tuple[tuple[int, int], ...] = ()  # the reel's injected faults then


@dataclass(frozen=True)
class TapesState:
    """All ten units and the buffers' timing (part of MachineState)."""

    units: tuple[UnitState, ...] = ()
    ri_ready: int = 0
    ro_free: int = 0
    blocks_read: int = 0
    blocks_written: int = 0
    ri_check: tuple[int, int, bool] | None = None  # see TapeUnits.ri_check


class TapeUnits:
    """The ten Uniservos and the timing of the two tape buffers, rI and rO."""

    def __init__(self) -> None:
        self.units: dict[int, Uniservo] = {n: Uniservo(n) for n in UNITS}
        self.ri_ready = 0  # pulse at which the block being read is complete in rI
        self.ro_free = 0  # pulse at which rO has been written out to tape
        self.blocks_read = 0
        self.blocks_written = 0
        # (unit, block index, backward) while rI holds a block that failed its tape check:
        # the next transfer of rI to memory stops until the operator rereads it.
        self.ri_check: tuple[int, int, bool] | None = None
        # The last tape moves, newest last (the desk's lamps, the console's boot display).
        self.moves = MoveLog()

    def note(self, servo: Uniservo, block: int, start: int) -> None:
        """Remember a movement that began at ``start`` and ends at ``servo.busy_until``."""
        reel = servo.reel
        self.moves.append_raw((servo.number, servo.motion, block,
                               len(reel.blocks) if reel is not None else 0, start,
                               servo.busy_until))

    def state(self) -> TapesState:
        """The units as they stand (reels are kept by identity, their blocks by value)."""
        units = tuple(
            UnitState(u.number, u.reel, u.reel.name if u.reel is not None else "",
                      tuple(u.reel.blocks) if u.reel is not None else (),
                      u.reel.written if u.reel is not None else False,
                      u.position, u.interlocked, u.busy_until, u.motion,
                      tuple(sorted(u.reel.bad.items())) if u.reel is not None else ())
            for u in self.units.values()
            if u.reel is not None or u.position or u.busy_until or u.motion)
        return TapesState(units, self.ri_ready, self.ro_free, self.blocks_read,
                          self.blocks_written, self.ri_check)

    def restore(self, state: TapesState) -> None:
        """Put every unit back as ``state`` has it: reels remounted, their blocks and the
        heads' positions and busy times as they were."""
        for unit in self.units.values():
            unit.reel, unit.position, unit.interlocked = None, 0, False
            unit.busy_until, unit.motion = 0, ""
        for saved in state.units:
            unit = self.units[saved.number]
            unit.reel = saved.reel
            if saved.reel is not None:
                saved.reel.blocks[:] = saved.blocks
                saved.reel.written = saved.written
                saved.reel.bad = dict(saved.bad)
            unit.position, unit.interlocked = saved.position, saved.interlocked
            unit.busy_until, unit.motion = saved.busy_until, saved.motion
        self.ri_ready, self.ro_free = state.ri_ready, state.ro_free
        self.blocks_read, self.blocks_written = state.blocks_read, state.blocks_written
        self.ri_check = state.ri_check

    def __getitem__(self, unit: int) -> Uniservo:
        return self.units[unit]

    def attach(self, unit: int, reel: Reel) -> None:
        self.units[unit].mount(reel)

    def detach(self, unit: int) -> Reel | None:
        return self.units[unit].unmount()

    def mounted(self) -> list[Uniservo]:
        return [u for u in self.units.values() if u.reel is not None]

    @property
    def faulty(self) -> bool:
        """A tape fault is pending: a mounted reel has a bad block, or rI holds one (the
        CPU then runs its careful interpreter, as for injected word faults)."""
        return self.ri_check is not None or any(
            u.reel is not None and u.reel.bad for u in self.units.values())

    def inject(self, unit: int, block: int, reads: int = 1) -> None:
        """Make block ``block`` (1 = the first) of the reel on ``unit`` fail its check on
        its next ``reads`` reads; ValueError, nothing changed, for a bad request."""
        servo = self.units.get(unit)
        if servo is None or servo.reel is None:
            raise ValueError(f"Uniservo {unit_name(unit) if servo else unit} has no reel "
                             "mounted")
        if not isinstance(block, int) or not 1 <= block <= servo.reel.block_count:
            raise ValueError(f"the reel on Uniservo {servo.name} has blocks 1-"
                             f"{servo.reel.block_count}")
        if not isinstance(reads, int) or not 1 <= reads <= 1000:
            raise ValueError("a bad block fails 1 to 1000 reads")
        servo.reel.bad[block - 1] = reads

    def clear_faults(self) -> None:
        """Every reel reads correctly again, and rI is taken as sound."""
        for unit in self.units.values():
            if unit.reel is not None:
                unit.reel.bad.clear()
        self.ri_check = None

    def reset_clock(self) -> None:
        """After a general clear the clock restarts at zero: no tape is still moving."""
        self.ri_ready = self.ro_free = 0
        for unit in self.units.values():
            unit.busy_until = 0


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
