"""What the Uniservo lamps show, for a front end replaying a run at tape speed.

The desk records each tape movement with its clock pulses (``Desk.tape_moves``); a front
end in authentic speed asks, as wall time passes, which block is being read or written, so
the visitor sees UNISERVO 1 READING block by block at the real tape time during the boot,
and a program's own reels (the merge's Uniservos 2, 3 and 4) as it runs. Screen-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..machine.tape import TapeMove, unit_name
from ..machine.timing import pulses_to_us, us_to_pulses
from ..wording import count


@dataclass(frozen=True)
class UnitLamp:
    """One Uniservo at a moment of the replay: its last movement, and whether it goes on."""

    unit: int
    motion: str  # "reading", "writing", "rewinding", ... ("" once it has stopped)
    last_motion: str  # the movement it made last, moving or not
    block: int  # the block it passed last (0: rewound to the start)
    blocks: int  # blocks written on its reel then

    def text(self, motion: str | None = None) -> str:
        """``UNISERVO 2 READING  block 3 of 4``; a rewind names no block."""
        motion = self.motion if motion is None else motion
        head = f"UNISERVO {unit_name(self.unit)} {motion.upper()}"
        return head if motion == "rewinding" else f"{head}  block {self.block} of {self.blocks}"


def units_at(moves: Sequence[TapeMove], pulses: int) -> dict[int, UnitLamp]:
    """Every unit that has moved by clock pulse ``pulses``, as its lamps stand then."""
    lamps: dict[int, UnitLamp] = {}
    for move in moves:
        if move.start > pulses:
            continue
        lamps[move.unit] = UnitLamp(move.unit, move.motion if pulses < move.end else "",
                                    move.motion, move.block, move.blocks)
    return lamps


def tape_lamp(moves: Sequence[TapeMove], seconds: float) -> str:
    """The lamps ``seconds`` of UNIVAC time after the clock's zero ("" once no tape moves
    any more): ``UNISERVO 1 READING  block 3 of 18``, every unit moving then, joined by
    `` · ``. Between two blocks (the tape stops for a moment) the last movement stays lit."""
    moves = [move for move in moves if move.end > move.start]  # a rewind at the start: none
    if not moves or seconds < 0:
        return ""
    now = us_to_pulses(seconds * 1_000_000)
    if now >= max(move.end for move in moves):
        return ""
    started = [move for move in moves if move.start <= now]
    if not started:
        return ""
    lamps = units_at(moves, now)
    moving = [lamp for lamp in lamps.values() if lamp.motion]
    if not moving:
        last = started[-1]
        return lamps[last.unit].text(last.motion)
    return " · ".join(lamp.text() for lamp in sorted(moving, key=lambda lamp: lamp.unit))


def tape_seconds(moves: Sequence[TapeMove]) -> float:
    """When the last movement ends, in seconds of UNIVAC time from the clock's zero."""
    return pulses_to_us(max((move.end for move in moves), default=0)) / 1_000_000


def loaded_note(moves: Sequence[TapeMove], reel_name: str) -> str:
    """One line for after the boot: which tape, how many blocks, how long it took."""
    blocks = sum(1 for move in moves if move.motion.startswith("reading"))
    return (f"Loaded from {reel_name} on Uniservo 1 by INITIAL READ: "
            f"{count(blocks, 'block')} in "
            f"{tape_seconds(moves):.1f} s of tape time.")


def work_note(moves: Sequence[TapeMove]) -> str:
    """One line for after a program's tape work: each unit's blocks read and written."""
    parts = []
    for unit in sorted({move.unit for move in moves}):
        read = sum(1 for m in moves if m.unit == unit and m.motion.startswith("reading"))
        wrote = sum(1 for m in moves if m.unit == unit and m.motion == "writing")
        did = [f"read {count(read, 'block')}"] * bool(read) + \
            [f"wrote {count(wrote, 'block')}"] * bool(wrote)
        if did:
            parts.append(f"Uniservo {unit_name(unit)} {' and '.join(did)}")
    return ("Tapes at rest: " + "; ".join(parts) + ".") if parts else ""


def unit_lines(reels: Sequence[tuple[int, str, int]], moves: Sequence[TapeMove],
               pulses: int, width: int, one_line: bool = False) -> list[str]:
    """Two short lines a mounted unit for a narrow panel, as the lamps stand at clock pulse
    ``pulses``: ``2 input-a.tape``, then ``READING  block 3 of 4`` or where it rests;
    with ``one_line`` both on one line, the reel's name shortened to fit.
    ``reels`` is (unit, reel name, blocks now) for each mounted unit."""
    lamps = units_at(moves, pulses)
    lines = []
    for unit, reel, blocks in reels:
        lamp = lamps.get(unit)
        if lamp is not None and lamp.motion:
            state = lamp.text()[len(f"UNISERVO {unit_name(unit)} "):]
        elif lamp is not None and lamp.block and lamp.last_motion != "rewinding":
            state = f"at block {lamp.block} of {lamp.blocks}"
        else:
            later = [m for m in moves if m.unit == unit and m.start > pulses]
            if lamp is not None:
                blocks = lamp.blocks
            elif later:  # what the reel held before its first movement to come
                blocks = later[0].blocks - (later[0].motion == "writing")
            state = f"at the start, {count(blocks, 'block')}"
        name = unit_name(unit)
        if one_line:
            room = max(width - len(name) - len(state) - 3, 4)
            short = reel if len(reel) <= room else "…" + reel[-(room - 1):]
            lines.append(f"{name} {short}  {state}"[:width])
        else:
            lines += [f"{name} {reel}"[:width], f"  {state}"[:width]]
    return lines
