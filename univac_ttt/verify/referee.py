"""The exhaustive proof: every opponent strategy against the program in emulated memory.

The referee boots the program as an operator did: the program tape (the shipped
tictactoe.tape, or one made from the sheet being judged) on Uniservo 1, CLEAR C and
INITIAL READ; the loader in block 1 loads the rest. From the first keyboard wait it tries
every legal square code, lets the UNIVAC reply, snapshots the whole machine, and goes on
depth first until every game has ended. It watches only what a person could see (the
paper) and what a lecturer could examine (the board words in memory), and judges each
game with the exact solver. No move is ever chosen here: the referee types every
possible move and checks the program's answers.
"""

from __future__ import annotations

import time

from ..desk import Desk, Limits
from ..desk.counts import Counts
from ..machine import MachineOptions, MachineState, StopKind
from ..machine.timing import format_time, pulses_to_us
from ..packs.tictactoe import (
    BAD_CODE_PHRASE,
    BOARD_LABEL,
    CONGRATULATIONS_PHRASE,
    NEW_GAME_PHRASE,
    TAKEN_PHRASE,
    board_at,
    fresh_tictactoe_tape,
    results_in,
    tictactoe_pack,
)
from ..packs.tictactoe.board import printed_board
from .solver import BLANK, O, Oracle, X, winner
from .typed import TypedSinceRelease

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import TextIO

if TYPE_CHECKING:  # the shipped program comes from its pack's snapshot: no assembler
    from ..program.assembler import Program

REPLY_STEP_LIMIT = 200_000  # instructions one reply may take before it counts as a hang
SHOWN = {X: "X", O: "O"}
MAX_FAILURES_KEPT = 20


class Failures(Counts):
    """What the referee can find wrong, counted by kind."""

    NAMES = ("losses", "missed_wins", "bad_draws", "illegal_moves",
             "mismatches",  # paper and memory disagree, or a message is missing or wrong
             "machine_faults")  # error stops or replies that never return to the keyboard
    losses: int
    missed_wins: int
    bad_draws: int
    illegal_moves: int
    mismatches: int
    machine_faults: int


class Report:
    """What the proof found: counted as it goes, then shown as a table."""

    def __init__(self) -> None:
        self.games = 0
        self.univac_wins = 0
        self.draws = 0
        self.failed = Failures()  # the faults found, by kind
        self.warnings_checked = 0
        self.moves = 0
        self.instructions_total = 0
        self.instructions_worst = 0
        self.pulses_total = 0
        self.pulses_worst = 0
        self.decision_pulses_total = 0  # keyboard release to the first character typed
        self.decision_pulses_worst = 0
        self.wall_seconds = 0.0
        self.booted_from = ""  # the program tape INITIAL READ loaded the program from
        self.failures: list[str] = []

    @property
    def ok(self) -> bool:
        return self.games > 0 and not (self.losses or self.missed_wins or self.bad_draws
                                       or self.illegal_moves or self.mismatches
                                       or self.machine_faults)

    @property
    def losses(self) -> int:
        return self.failed.losses

    @property
    def missed_wins(self) -> int:
        return self.failed.missed_wins

    @property
    def bad_draws(self) -> int:
        return self.failed.bad_draws

    @property
    def illegal_moves(self) -> int:
        return self.failed.illegal_moves

    @property
    def mismatches(self) -> int:
        return self.failed.mismatches

    @property
    def machine_faults(self) -> int:
        return self.failed.machine_faults

    def fail(self, kind: str, text: str) -> None:
        """Count a fault of ``kind`` (one of Failures.NAMES) and keep its description."""
        if kind not in Failures.NAMES:
            raise ValueError(f"no kind of fault {kind!r}")
        self.failed[kind] += 1
        if len(self.failures) < MAX_FAILURES_KEPT:
            self.failures.append(text)

    def table(self) -> str:
        mean_instr = self.instructions_total / self.moves if self.moves else 0
        mean_us = pulses_to_us(self.pulses_total) / self.moves if self.moves else 0
        rows = [
            ("program loaded by INITIAL READ from", self.booted_from or "(not loaded)"),
            ("games (every opponent strategy)", f"{self.games:,}"),
            ("UNIVAC wins", f"{self.univac_wins:,}"),
            ("draws", f"{self.draws:,}"),
            ("losses", f"{self.losses:,}"),
            ("missed wins", f"{self.missed_wins:,}"),
            ("bad draws", f"{self.bad_draws:,}"),
            ("illegal moves", f"{self.illegal_moves:,}"),
            ("paper/memory mismatches", f"{self.mismatches:,}"),
            ("machine faults", f"{self.machine_faults:,}"),
            ("polite warnings checked", f"{self.warnings_checked:,}"),
            ("opponent moves answered", f"{self.moves:,}"),
            ("instructions per reply, mean", f"{mean_instr:,.0f}"),
            ("instructions per reply, worst", f"{self.instructions_worst:,}"),
            ("UNIVAC time per reply, mean", format_time(mean_us)),
            ("UNIVAC time per reply, worst", format_time(pulses_to_us(self.pulses_worst))),
            ("decision time (to first print), mean",
             format_time(pulses_to_us(self.decision_pulses_total) / max(self.moves, 1))),
            ("decision time (to first print), worst",
             format_time(pulses_to_us(self.decision_pulses_worst))),
            ("wall time", f"{self.wall_seconds:.2f} s"),
        ]
        width = max(len(name) for name, _ in rows)
        lines = [f"{name:<{width}}  {value:>12}" for name, value in rows]
        verdict = "PERFECT PLAY PROVED" if self.ok else "FAILED"
        lines.append(f"{'verdict':<{width}}  {verdict:>12}")
        return "\n".join(lines)


def show(board: tuple[int, ...] | list[int]) -> str:
    if len(board) != 9:  # memory that does not hold a board: say so, do not crash
        return "no readable board"
    return "/".join("".join(SHOWN.get(board[r * 3 + c], "·") for c in range(3))
                    for r in range(3))


class RefereeError(ValueError):
    """The program cannot be judged (its coding sheet lacks what the referee reads)."""


class Referee:
    def __init__(self, options: MachineOptions | None = None,
                 patch: dict[int, str] | None = None, program: Program | None = None) -> None:
        if program is not None:
            words, board = program.image.words, program.symbols.get(BOARD_LABEL)
        else:  # the shipped program, from its pack's snapshot (no assembling)
            pack = tictactoe_pack()
            words, board = pack.words, pack.label_address(BOARD_LABEL)
        self.desk = Desk(options=options, limits=Limits(cap=REPLY_STEP_LIMIT))
        self.machine = self.desk.machine
        # The referee reads only what each reply typed, not the desk's stamped paper.
        self.typed = TypedSinceRelease(self.machine)
        self.typed.upper = self.desk.typewriter.upper
        self.desk.typewriter = self.machine.printer = self.typed  # type: ignore[assignment]
        if program is None and not patch:
            tape = fresh_tictactoe_tape()
        else:  # a tape for the sheet being judged, patches included, made with the loader
            from ..program.boottape import boot_reel

            tape = boot_reel({**words, **(patch or {})}, "program tape made from the sheet")
        self.tape = tape
        if board is None:
            raise RefereeError("the coding sheet has no label BRD: the referee reads the "
                               "board from BRD+1 to BRD+9")
        self.board_address = board  # the board is at BRD+1 ... BRD+9
        self.oracle = Oracle()
        self.report = Report()
        self.decision: int | None = None  # pulses from the last release to its first print

    def memory_board(self) -> tuple[int, ...] | None:
        return board_at(self.machine.mem, self.board_address)

    def _reply(self, text: str) -> tuple[str, bool]:
        """Type a line and run to the next keyboard wait; (paper, came back)."""
        typed = self.typed
        typed.clear()
        released = self.machine.pulses
        self.desk.release(text)
        stop = self.desk.run()
        first = typed.first_pulses
        self.decision = None if first is None else first - released
        return typed.text, stop.kind is StopKind.KEYBOARD

    def run(self) -> Report:
        started = time.perf_counter()
        booted = self.desk.load_tape(self.tape)
        self.report.booted_from = self.tape.name
        stop = booted if booted is not None else self.desk.run()
        if stop.kind is not StopKind.KEYBOARD:
            self.report.fail("machine_faults", f"the program never asked for a move: "
                                               f"{stop.describe()}")
        else:
            board = self.memory_board()
            if board != (BLANK,) * 9:
                self.report.fail("mismatches", "a new game does not start with an empty board")
            else:
                self._explore(self.machine.snapshot(), board, [], False)
        self.report.wall_seconds = time.perf_counter() - started
        return self.report

    def _check_warnings(self, state: MachineState, board: tuple[int, ...],
                        history: list[int]) -> None:
        """A taken square and a wrong code each get a warning and change nothing."""
        taken = next((sq for sq in range(9) if board[sq] != BLANK), None)
        trials = [("0", BAD_CODE_PHRASE)]
        if taken is not None:
            trials.append((str(taken + 1), f"SQUARE {taken + 1} {TAKEN_PHRASE}"))
        for typed, expected in trials:
            self.machine.restore(state)
            paper, back = self._reply(typed)
            self.report.warnings_checked += 1
            where = f"after {self._moves_text(history)}, typing {typed!r}"
            if not back:
                self.report.fail("machine_faults", f"{where}: no return to the keyboard")
            elif expected not in paper:
                self.report.fail("mismatches", f"{where}: expected {expected!r}, got {paper!r}")
            elif self.memory_board() != board:
                self.report.fail("mismatches", f"{where}: the board in memory changed")

    @staticmethod
    def _moves_text(history: list[int]) -> str:
        return "X " + ", ".join(str(sq + 1) for sq in history) if history else "the start"

    def _explore(self, state: MachineState, board: tuple[int, ...], history: list[int],
                 o_win_seen: bool) -> None:
        self._check_warnings(state, board, history)
        for square in range(9):
            if board[square] != BLANK:
                continue
            machine = self.machine
            machine.restore(state)
            before_instr, before_pulses = machine.instructions, machine.pulses
            paper, back = self._reply(str(square + 1))
            moves = [*history, square]
            where = f"game {self._moves_text(moves)}"
            if not back:
                self.report.fail("machine_faults",
                                 f"{where}: no return to the keyboard ({machine.last_stop})")
                continue
            report = self.report
            report.moves += 1
            used = machine.instructions - before_instr
            spent = machine.pulses - before_pulses
            report.instructions_total += used
            report.pulses_total += spent
            report.instructions_worst = max(report.instructions_worst, used)
            report.pulses_worst = max(report.pulses_worst, spent)
            if self.decision is not None:
                decided = self.decision
                report.decision_pulses_total += decided
                report.decision_pulses_worst = max(report.decision_pulses_worst, decided)
            after_x = list(board)
            after_x[square] = X
            value = self.oracle.value(after_x)
            o_win = o_win_seen or value == O
            self._judge(paper, tuple(after_x), moves, o_win, where)

    def _judge(self, paper: str, after_x: tuple[int, ...], moves: list[int], o_win: bool,
               where: str) -> None:
        report = self.report
        shown = printed_board(paper)
        results = results_in(paper)
        ending = results[0] if results else None
        if shown is None:
            report.fail("mismatches", f"{where}: no board was typed ({paper!r})")
            return
        if not self._legal(after_x, shown, where):
            return
        if ending is None:
            memory = self.memory_board()
            if memory != shown:
                report.fail("mismatches", f"{where}: paper shows {show(shown)} but memory "
                                          f"holds {show(memory or ())}")
                return
            if winner(shown) != BLANK or BLANK not in shown:
                report.fail("mismatches", f"{where}: the game is over at {show(shown)} but "
                                          "no result was typed")
                self._game_over(shown, "unannounced", o_win, where)
                return
            if NEW_GAME_PHRASE in paper:
                report.fail("mismatches", f"{where}: a new game started with no result")
                return
            self._explore(self.machine.snapshot(), shown, moves, o_win)
            return
        # The game has ended: the next game must already be set up in memory.
        if NEW_GAME_PHRASE not in paper or self.memory_board() != (BLANK,) * 9:
            report.fail("mismatches", f"{where}: after the result no new game was set up")
        result = winner(shown)
        if ending == "univac" and result != O:
            report.fail("mismatches", f"{where}: UNIVAC WINS typed at {show(shown)}")
        elif ending == "opponent" and result != X:
            report.fail("mismatches", f"{where}: YOU WIN typed at {show(shown)}")
        elif ending == "draw":
            if result != BLANK or self.oracle.value(shown) != BLANK:
                report.fail("bad_draws", f"{where}: draw declared at {show(shown)}, which the "
                                         "solver does not score as a draw")
            elif CONGRATULATIONS_PHRASE not in paper:
                report.fail("mismatches", f"{where}: a draw without congratulations")
        self._game_over(shown, ending, o_win, where)

    def _legal(self, after_x: tuple[int, ...], shown: tuple[int, ...], where: str) -> bool:
        changed = [sq for sq in range(9) if shown[sq] != after_x[sq]]
        if any(after_x[sq] != BLANK for sq in changed):
            self.report.fail("illegal_moves", f"{where}: an occupied square changed "
                                              f"({show(after_x)} -> {show(shown)})")
            return False
        if len(changed) > 1 or any(shown[sq] != O for sq in changed):
            self.report.fail("illegal_moves", f"{where}: the reply is not one O on a blank "
                                              f"square ({show(after_x)} -> {show(shown)})")
            return False
        return True

    def _game_over(self, final: tuple[int, ...], ending: str, o_win: bool,
                   where: str = "") -> None:
        report = self.report
        report.games += 1
        result = winner(final)
        if result == X:
            report.fail("losses", f"{where}: the opponent won at {show(final)}")
        elif result == O:
            report.univac_wins += 1
        else:
            report.draws += 1
        if o_win and result != O:
            report.fail("missed_wins", f"{where}: the opponent blundered into a lost position "
                                       f"but the game ended {show(final)} ({ending})")


def run_verification(options: MachineOptions | None, out: TextIO,
                     program: Program | None = None) -> int:
    """``univac-ttt verify``: print the table (and the first failures); 0 only if perfect."""
    report = Referee(options, program=program).run()
    out.write(report.table() + "\n")
    if report.failures:
        out.write("\nfirst failures:\n")
        for text in report.failures:
            out.write(f"  - {text}\n")
    return 0 if report.ok else 1


__all__ = ["Referee", "Report", "run_verification"]
