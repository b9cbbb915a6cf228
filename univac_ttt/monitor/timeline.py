"""The machine's past, for `back` and `history`: checkpoints plus exact replay.

The machine is deterministic once its keyboard words are known. So instead of recording
every instruction (which would slow every run), the monitor keeps a checkpoint (a whole
machine state) at the start of every command that runs the machine and every
CHECKPOINT_EVERY instructions during long runs, together with the keyboard words read
and the position on the paper. Going back n instructions restores the nearest checkpoint
before the target and replays forward at full speed at the desk with the same keyboard
words; the state reached is exactly the state the machine had then. At most
MAX_CHECKPOINTS are kept, and the keyboard forgets the words read before the earliest, so a
monitor that runs all day keeps a bounded past.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..desk import Desk
from ..machine import MachineState

CHECKPOINT_EVERY = 50_000
MAX_CHECKPOINTS = 400


@dataclass(frozen=True)
class Checkpoint:
    state: MachineState
    keyboard_read: int  # words read so far
    paper_mark: int  # the paper's position then
    upper: bool  # the typewriter's case

    @property
    def instructions(self) -> int:
        return self.state.instructions


class Timeline:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.checkpoints: list[Checkpoint] = []

    def checkpoint(self) -> None:
        """Remember the present (skipped if the machine has not moved since the last one)."""
        desk = self.desk
        machine = desk.machine
        if self.checkpoints and self.checkpoints[-1].instructions == machine.instructions \
                and self.checkpoints[-1].state == machine.snapshot():
            return
        self.checkpoints.append(Checkpoint(machine.snapshot(), desk.keyboard.read,
                                           desk.paper.end, desk.typewriter.upper))
        if len(self.checkpoints) > MAX_CHECKPOINTS:
            del self.checkpoints[0]
            desk.keyboard.forget_before(self.checkpoints[0].keyboard_read)

    def forget(self) -> None:
        """After the operator changes state by hand (deposit, restore), the past is moot."""
        self.checkpoints.clear()
        keyboard = self.desk.keyboard
        keyboard.forget_before(keyboard.read)

    @property
    def earliest(self) -> int | None:
        return self.checkpoints[0].instructions if self.checkpoints else None

    def go_to(self, target: int) -> None:
        """Put the machine in the exact state it had after ``target`` instructions."""
        candidates = [cp for cp in self.checkpoints if cp.instructions <= target]
        if not candidates:
            raise ValueError("that is further back than the recorded history")
        self.rewind_to(candidates[-1])
        self.desk.replay(target)
        # Drop checkpoints from the abandoned future.
        self.checkpoints = [cp for cp in self.checkpoints if cp.instructions <= target]

    def rewind_to(self, checkpoint: Checkpoint) -> None:
        """Restore a checkpoint; the words read since go back into the keyboard."""
        desk = self.desk
        keyboard = desk.keyboard
        redo = keyboard.read_since(checkpoint.keyboard_read) + keyboard.pending_words
        desk.restore(checkpoint.state)
        keyboard.unread(checkpoint.keyboard_read)
        keyboard.replace_pending(redo)
        desk.paper.truncate(checkpoint.paper_mark)
        desk.typewriter.upper = checkpoint.upper
