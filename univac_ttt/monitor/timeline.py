"""The machine's past, for `back` and `history`: checkpoints plus exact replay.

The machine is deterministic once its keyboard words are known. So instead of recording
every instruction (which would slow every run), the monitor keeps a checkpoint (a whole
machine state) at the start of every command that runs the machine and every
CHECKPOINT_EVERY instructions during long runs, together with the keyboard words read
and the length of the paper. Going back n instructions restores the nearest checkpoint
before the target and replays forward at full speed with the same keyboard words; the
state reached is exactly the state the machine had then.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..machine import Machine, MachineState, PaperPrinter, QueueKeyboard
from ..machine.stops import StopKind

CHECKPOINT_EVERY = 50_000
MAX_CHECKPOINTS = 400


class RecordingKeyboard(QueueKeyboard):
    """A keyboard that remembers every word the machine has read, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def read_word(self) -> str | None:
        word = super().read_word()
        if word is not None:
            self.log.append(word)
        return word

    def replace_pending(self, words: list[str]) -> None:
        self._words.clear()
        self._words.extend(words)

    @property
    def pending_words(self) -> list[str]:
        return list(self._words)


@dataclass(frozen=True)
class Checkpoint:
    state: MachineState
    keyboard_read: int  # words read so far
    paper_pieces: int  # pieces of paper typed so far
    upper: bool  # the typewriter's case

    @property
    def instructions(self) -> int:
        return self.state.instructions


class Timeline:
    def __init__(self, machine: Machine, keyboard: RecordingKeyboard,
                 printer: PaperPrinter) -> None:
        self.machine, self.keyboard, self.printer = machine, keyboard, printer
        self.checkpoints: list[Checkpoint] = []

    def checkpoint(self) -> None:
        """Remember the present (skipped if the machine has not moved since the last one)."""
        machine = self.machine
        if self.checkpoints and self.checkpoints[-1].instructions == machine.instructions \
                and self.checkpoints[-1].state == machine.snapshot():
            return
        self.checkpoints.append(Checkpoint(machine.snapshot(), len(self.keyboard.log),
                                           len(self.printer.pieces), self.printer.upper))
        if len(self.checkpoints) > MAX_CHECKPOINTS:
            del self.checkpoints[0]

    def forget(self) -> None:
        """After the operator changes state by hand (deposit, restore), the past is moot."""
        self.checkpoints.clear()

    @property
    def earliest(self) -> int | None:
        return self.checkpoints[0].instructions if self.checkpoints else None

    def go_to(self, target: int) -> None:
        """Put the machine in the exact state it had after ``target`` instructions."""
        candidates = [cp for cp in self.checkpoints if cp.instructions <= target]
        if not candidates:
            raise ValueError("that is further back than the recorded history")
        checkpoint = candidates[-1]
        machine, keyboard = self.machine, self.keyboard
        redo = keyboard.log[checkpoint.keyboard_read:] + keyboard.pending_words
        machine.restore(checkpoint.state)
        del keyboard.log[checkpoint.keyboard_read:]
        keyboard.replace_pending(redo)
        del self.printer.pieces[checkpoint.paper_pieces:]
        self.printer.upper = checkpoint.upper
        saved_breaks, saved_ops = machine.break_addresses, machine.break_executors
        machine.break_addresses, machine.break_executors = set(), set()
        try:
            while machine.instructions < target:
                stop = machine.run(target - machine.instructions)
                if stop.kind in (StopKind.KEYBOARD, StopKind.ERROR):
                    break  # cannot happen within one checkpoint's span; be safe
        finally:
            machine.break_addresses, machine.break_executors = saved_breaks, saved_ops
        # Drop checkpoints from the abandoned future.
        self.checkpoints = [cp for cp in self.checkpoints if cp.instructions <= target]
