"""What the Uniservo lamps show during a boot, for a front end replaying it at tape speed.

The desk records each tape movement with its clock pulses (``Desk.tape_moves``); a front
end in authentic speed asks, as wall time passes, which block is being read, so the
visitor sees UNISERVO 1 READING block by block at the real tape time. Screen-free.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..hostio.wording import count
from ..machine.tape import TapeMove, unit_name
from ..machine.timing import pulses_to_us, us_to_pulses


def tape_lamp(moves: Sequence[TapeMove], seconds: float) -> str:
    """The lamp ``seconds`` of UNIVAC time after the clock's zero ("" when no tape moves):
    ``UNISERVO 1 READING  block 3 of 18``."""
    if not moves or seconds < 0:
        return ""
    now = us_to_pulses(seconds * 1_000_000)
    if now >= moves[-1].end:
        return ""
    current = None
    for move in moves:
        if move.start > now:
            break
        current = move
    if current is None:
        return ""
    return (f"UNISERVO {unit_name(current.unit)} {current.motion.upper()}  "
            f"block {current.block} of {current.blocks}")


def tape_seconds(moves: Sequence[TapeMove]) -> float:
    """When the last movement ends, in seconds of UNIVAC time from the clock's zero."""
    return pulses_to_us(max((move.end for move in moves), default=0)) / 1_000_000


def loaded_note(moves: Sequence[TapeMove], reel_name: str) -> str:
    """One line for after the boot: which tape, how many blocks, how long it took."""
    blocks = sum(1 for move in moves if move.motion.startswith("reading"))
    return (f"Loaded from {reel_name} on Uniservo 1 by INITIAL READ: "
            f"{count(blocks, 'block')} in "
            f"{tape_seconds(moves):.1f} s of tape time.")
