"""A game session at the desk: the program, the paper since start-up, the figures, the score.

Front ends (the full-screen console, the kiosk, the pictures for the docs) read this state
and send it keystrokes; they never touch the program's words themselves. Every game
starts as in 1951: the program tape goes on Uniservo 1 and INITIAL READ loads it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..hostio.wording import count
from ..machine import KeyboardEntryError, Machine, MachineOptions, Stop, StopKind
from ..machine.tape import Reel, TapeMove
from ..machine.timing import pulses_to_us
from ..program.boottape import boot_reel
from ..program.pack import Pack
from .desk import Desk
from .paper import PrintedChunk
from .run_limits import Limits
from .score import ResultReader, Score, no_results

# Said on the hint line as it is (the console, the page): a sentence. "the UNIVAC is not
# waiting for the keyboard" was the hint after the tape merge's final stop.
NOT_WAITING = "The UNIVAC is not waiting for the keyboard; nothing was sent."


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


class GameSession:
    """One player's session: a desk running a program booted from tape, and what it has
    typed. ``tape`` is the program tape (default: one made from ``words`` with the loader;
    the front ends pass their pack's), ``mounts`` the other reels mounted at each boot,
    ``results`` reads the results off the paper (a pack's ``results_in``; none by default:
    a program without a pack scores nothing)."""

    def __init__(self, words: dict[int, str], options: MachineOptions | None = None,
                 on_print: Callable[[PrintedChunk], None] | None = None,
                 observe: dict[int, str] | None = None, limits: Limits | None = None,
                 tape: Reel | None = None, results: ResultReader = no_results,
                 mounts: Callable[[], dict[int, Reel]] | None = None) -> None:
        self.words = words
        self.results = results
        self.mounts = mounts
        self.tape = tape if tape is not None else boot_reel(words, "program tape")
        self.boot_moves: list[TapeMove] = []  # the tape's blocks as the last boot read them
        self.desk = Desk(options=options or MachineOptions(), limits=limits)
        self.desk.echo_keys = True
        self.desk.observe = dict(observe or {})
        if on_print is not None:
            self.desk.paper.listeners.append(on_print)
        self.score = Score()
        self.last_move = MoveFigures()
        self.game = MoveFigures()
        self.game_over = False  # a result was typed: ``game`` holds the finished game's
        # figures until the next game's first word (a player reads them with the result)
        self.words_typed = 0
        self.refusals = 0  # entries the keyboard refused (characters it lacks)
        self._start()

    @classmethod
    def from_pack(cls, pack: Pack, options: MachineOptions | None = None,
                  on_print: Callable[[PrintedChunk], None] | None = None,
                  observe: dict[int, str] | None = None,
                  limits: Limits | None = None) -> GameSession:
        """A session running a pack's program: booted from its tape, its reels mounted
        fresh at each boot, scored by its result phrases."""
        return cls(pack.words, options, on_print, observe, limits, tape=pack.boot_tape(),
                   results=pack.results_in, mounts=pack.reels if pack.tapes else None)

    @property
    def machine(self) -> Machine:
        """The desk's machine, for reading (the monitor-style board in tests)."""
        return self.desk.machine

    @property
    def noticed(self) -> list[str]:
        """What the observed addresses saw during the last reply, in order."""
        return self.desk.noticed

    @property
    def paper(self) -> str:
        """The paper still kept (the current game and a capped history)."""
        return self.desk.paper.text

    # ---- the machine's state, as the console lamps show it ---------------------------

    @property
    def stop(self) -> Stop | None:
        return self.desk.stop

    @property
    def waiting_for_keyboard(self) -> bool:
        return self.desk.waiting_for_keyboard

    @property
    def error(self) -> str | None:
        stop = self.stop
        if stop is None:
            return None
        if stop.is_error:
            return stop.describe()
        if stop.kind is StopKind.STEP_LIMIT:
            return (f"the program ran {count(self.desk.limits.cap, 'instruction')} "
                    "without stopping")
        if stop.kind is StopKind.INTERRUPT:
            return "the run was stopped at the desk"
        return None

    @property
    def halted(self) -> bool:
        stop = self.stop
        return stop is not None and stop.kind in (StopKind.HALT, StopKind.BREAKPOINT)

    # ---- what the operator does ------------------------------------------------------

    def _start(self) -> None:
        """Mount the program tape, CLEAR C, INITIAL READ; the loader loads the program and
        starts it, and the program runs to its first keyboard wait."""
        stop = self.desk.load_tape(self.tape)
        for unit, reel in (self.mounts() if self.mounts is not None else {}).items():
            self.desk.attach(unit, reel)  # fresh reels each game, as an operator mounts
        self.boot_moves = self.desk.tape_moves
        self.game = MoveFigures()
        self.game_over = False
        self._begin()
        if stop is None:
            self.run_reply()

    @property
    def boot_pulses(self) -> int:
        """The tape time of the last boot, in clock pulses (0 when nothing was read)."""
        return max((move.end for move in self.boot_moves), default=0)

    def new_game(self) -> None:
        """Clear, boot the program tape again and start: an operator's fresh game."""
        self._start()

    def submit(self, text: str) -> Submission:
        """Type a line and press word release; the machine runs until it waits again."""
        submission = self.release(text)
        if submission.accepted:
            self.run_reply()
        return submission

    def release(self, text: str) -> Submission:
        """Type a line and press word release; ``run_reply`` then runs the reply."""
        if not self.waiting_for_keyboard:
            return Submission(False, NOT_WAITING)
        try:
            self.desk.release_line(text)
        except KeyboardEntryError as exc:
            self.refusals += 1
            return Submission(False, f"{str(exc)[:1].upper()}{str(exc)[1:]}; nothing was sent.")
        self.words_typed += 1
        if self.game_over:  # the next game's first word: its figures start from here
            self.game, self.game_over = MoveFigures(), False
        self._begin()
        return Submission(True)

    def run_reply(self, budget: int | None = None) -> bool:
        """Run the reply on, at most ``budget`` more instructions (None: to its end).
        True when it has ended: a keyboard wait, a stop, the desk's cap or STOP."""
        machine = self.desk.machine
        left = self.desk.limits.cap - (machine.instructions - self._from[0])
        if budget is not None and budget < left:
            if self.desk.run(budget).kind is StopKind.STEP_LIMIT:
                return False
        else:
            self.desk.run(max(left, 0))
        self._end()
        return True

    def _begin(self) -> None:
        machine = self.desk.machine
        self._from = (machine.instructions, machine.pulses, self.desk.paper.end)

    def _end(self) -> None:
        machine = self.desk.machine
        instructions, pulses, mark = self._from
        self.last_move = MoveFigures(machine.instructions - instructions,
                                     machine.pulses - pulses)
        self.game.instructions += self.last_move.instructions
        self.game.pulses += self.last_move.pulses
        for result in self.results(self.desk.paper.typed_since(mark)):
            self.score.record(result)
            self.game_over = True
