"""The state of a session at the Supervisory Control desk, separate from any screen.

A session owns the machine, its keyboard and typewriter, the paper typed so far, the
figures for the last move and the game, and the session's score. Front ends (the
full-screen console, the kiosk) read this state and send it keystrokes; they never touch
the program's words themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..machine import (
    KeyboardEntryError,
    Machine,
    MachineOptions,
    QueueKeyboard,
    Stop,
    StopKind,
    Typewriter,
)
from ..machine.cpu import MEMORY_WORDS
from ..machine.timing import pulses_to_us
from ..machine.word import ZERO
from .score import Score, results_in

REPLY_STEP_LIMIT = 5_000_000  # a reply that runs longer than this is a runaway program


@dataclass(frozen=True)
class PrintedChunk:
    """Text the typewriter typed, and the machine's clock (pulses) when it was typed."""

    text: str
    pulses: int


@dataclass
class MoveFigures:
    instructions: int = 0
    pulses: int = 0

    @property
    def time_us(self) -> float:
        return pulses_to_us(self.pulses)


@dataclass(frozen=True)
class Submission:
    accepted: bool
    message: str = ""


@dataclass
class GameSession:
    """One player's session: a machine running a program image, and what it has typed."""

    words: dict[int, str]
    options: MachineOptions = field(default_factory=MachineOptions)
    on_print: Callable[[PrintedChunk], None] | None = None
    # Instruction addresses to notice during a reply (the kiosk's captions): address -> text
    observe: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.keyboard = QueueKeyboard()
        self.machine = Machine(self.options, self.keyboard, Typewriter(self._typed))
        self.paper_pieces: list[str] = []
        self.score = Score()
        self.last_move = MoveFigures()
        self.game = MoveFigures()
        self.words_typed = 0
        self.refusals = 0  # entries the keyboard refused (characters it lacks)
        self.noticed: list[str] = []  # what ``observe`` saw during the last reply, in order
        self._start()

    # ---- the paper -------------------------------------------------------------------

    def _typed(self, text: str) -> None:
        self.paper_pieces.append(text)
        if self.on_print is not None:
            self.on_print(PrintedChunk(text, self.machine.pulses))

    @property
    def paper(self) -> str:
        return "".join(self.paper_pieces)

    # ---- the machine's state, as the console lamps show it ---------------------------

    @property
    def stop(self) -> Stop | None:
        return self.machine.last_stop

    @property
    def waiting_for_keyboard(self) -> bool:
        stop = self.stop
        return stop is not None and stop.kind is StopKind.KEYBOARD

    @property
    def error(self) -> str | None:
        stop = self.stop
        if stop is None:
            return None
        if stop.is_error:
            return stop.describe()
        if stop.kind is StopKind.STEP_LIMIT:
            return f"the program ran {REPLY_STEP_LIMIT:,} instructions without stopping"
        return None

    @property
    def halted(self) -> bool:
        stop = self.stop
        return stop is not None and stop.kind in (StopKind.HALT, StopKind.BREAKPOINT)

    # ---- what the operator does ------------------------------------------------------

    def _start(self) -> None:
        self.machine.clear()
        self.machine.mem[:] = [self.words.get(address, ZERO) for address in range(MEMORY_WORDS)]
        self.keyboard.clear()
        self.game = MoveFigures()
        self._run()

    def new_game(self) -> None:
        """Clear, reload the program and start it: what an operator does for a fresh game."""
        self._start()

    def submit(self, text: str) -> Submission:
        """Type a line and press word release; the machine runs until it waits again."""
        if not self.waiting_for_keyboard:
            return Submission(False, "the UNIVAC is not waiting for the keyboard")
        try:
            self.keyboard.type_line(text)
        except KeyboardEntryError as exc:
            self.refusals += 1
            return Submission(False, f"{exc}; nothing was sent")
        self.words_typed += 1
        before = len(self.paper_pieces)
        self._run()
        new_text = "".join(self.paper_pieces[before:])
        for result in results_in(new_text):
            self.score.record(result)
            self.game = MoveFigures()  # the next game has begun
        return Submission(True)

    def _run(self) -> None:
        machine = self.machine
        instructions, pulses = machine.instructions, machine.pulses
        self.noticed = []
        if not self.observe:
            machine.run(REPLY_STEP_LIMIT)
        else:
            machine.break_addresses = set(self.observe)
            try:
                while True:
                    left = REPLY_STEP_LIMIT - (machine.instructions - instructions)
                    stop = machine.run(max(left, 1))
                    if stop.kind is not StopKind.MONITOR:
                        break
                    self.noticed.append(self.observe[stop.address])
                    machine.resume_past_breakpoint()
            finally:
                machine.break_addresses = set()
        self.last_move = MoveFigures(machine.instructions - instructions,
                                     machine.pulses - pulses)
        self.game.instructions += self.last_move.instructions
        self.game.pulses += self.last_move.pulses
