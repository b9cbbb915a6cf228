"""The Uniservo tape units and their reels: the devices the tape instructions drive.

A reel is a list of 60-word blocks held in memory; reading and writing files is the job
of program/reel.py, so the machine stays pure. Each unit keeps its position (blocks
before the head), a write-protect flag on the reel, the rewind interlock, and the time
(in clock pulses) at which its tape is free again (docs/fidelity.md, "Tapes"). The block
format and the timing constants live here with the units; the executors of the tape rows
of the operation table are in tape.py, which re-exports these names.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from . import timing
from .records import Record, SlotRecord
from .word import WORD_LENGTH, ZERO

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


class Reel(SlotRecord):
    """A reel of tape: its written blocks, a name to show, and whether it may be written.
    Compared by value, as the dataclass it was."""

    __slots__ = ("blocks", "writable", "name", "written", "bad")

    def __init__(self, blocks: list[tuple[str, ...]] | None = None, writable: bool = False,
                 name: str = "reel", written: bool = False,
                 bad: dict[int, int] | None = None) -> None:
        self.blocks: list[tuple[str, ...]] = [] if blocks is None else blocks
        self.writable = writable
        self.name = name
        self.written = written  # set when the machine writes on it (a reason to save it)
        # Injected tape faults (teaching): block index (0 = the first) -> reads of that
        # block still to fail their check. Not part of the reel's file.
        self.bad: dict[int, int] = {} if bad is None else bad

    @property
    def block_count(self) -> int:
        return len(self.blocks)


class Uniservo(SlotRecord):
    """One tape unit: the mounted reel, the head's position and the rewind interlock."""

    __slots__ = ("number", "reel", "position", "interlocked", "busy_until", "motion")

    def __init__(self, number: int, reel: Reel | None = None, position: int = 0,
                 interlocked: bool = False, busy_until: int = 0, motion: str = "") -> None:
        self.number = number
        self.reel = reel
        self.position = position  # blocks between the start of the tape and the head
        self.interlocked = interlocked  # rewound with 8n: no use until the operator remounts
        self.busy_until = busy_until  # clock pulse at which the tape has stopped moving
        self.motion = motion  # the last movement: "reading", "reading backward", ...

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


class TapeMove(Record):
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


class UnitState(Record):
    """A unit at one moment, for snapshots: the reel mounted, and its blocks then. The
    reel is kept by identity and left out of comparisons (``__eq__``, ``__hash__``)."""

    number: int
    reel: Reel | None
    reel_name: str
    blocks: tuple[tuple[str, ...], ...]
    written: bool
    position: int
    interlocked: bool
    busy_until: int
    motion: str
    bad: tuple[tuple[int, int], ...] = ()  # the reel's injected faults then

    def _compared(self) -> tuple[object, ...]:
        return (self.number, *self[2:])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._compared())


class TapesState(Record):
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
        if self.ri_check is not None:
            return True
        for unit in self.units.values():  # (a loop: asked before every compiled run)
            reel = unit.reel
            if reel is not None and reel.bad:
                return True
        return False

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
