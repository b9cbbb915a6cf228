"""The full-screen monitor's state, apart from how it is drawn or keyed (ptpython's split):
the output lines, the queue of typed lines, whether a command is running, and what the
panes show of the machine, taken when no command is running it."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from ..desk.tapelamps import unit_lines
from ..machine import MEMORY_WORDS, StopKind
from ..machine.timing import format_time, pulses_to_us
from ..program.disassembler import view
from .core import Monitor, find_command
from .panes import REGISTERS_WIDTH, SIDE_WIDTH

# Words shown before and after the control counter: after it, enough for the tallest pane
# (a 300x120 served screen has 77 rows of panes); the pane draws only the rows it has.
MEMORY_BEFORE, MEMORY_AFTER = 6, 200
OUTPUT_LINES = 5_000  # the output pane's scrollback, in lines as printed
COMMAND_PREFIX = ":"  # no key of the UNIVAC keyboard: a command is never a keyboard word
KEYBOARD_HINT = "type the keys and Enter; :command for the monitor"
# A Ctrl-C this soon after STOP or a command's end is a STOP pressed late (or twice), not a
# first press of quit: three quick Ctrl-Cs on a runaway ended the lecture's session.
LATE_STOP_SECONDS = 1.0
LATE_STOP = "(Ctrl-C is STOP, and nothing is running now; Ctrl-Q twice quits.)"
WELCOME = ("UNIVAC I lecture monitor. Type help for commands; PageUp/PageDown scroll this "
           "output; Ctrl-Q quits.")


@dataclass
class Frozen:
    """What the panes show of the machine, as it was when the last command ended."""

    registers: list[str] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    state: list[str] = field(default_factory=list)
    memory: list[tuple[str, int, bool]] = field(default_factory=list)  # style, address, changed


class MonitorState:
    """One lecturer's session on the full screen: everything but the screen."""

    def __init__(self, monitor: Monitor) -> None:
        self.monitor = monitor
        monitor.keyboard_hint = KEYBOARD_HINT  # here a line typed goes to the UNIVAC
        self.lines: deque[str] = deque([WELCOME], maxlen=OUTPUT_LINES)
        self.quit_armed = False
        self.quit_key = "Ctrl-Q"  # the key that armed quit, as the key bar names it
        self.late_until = 0.0  # until then (time.monotonic) a Ctrl-C is a late STOP
        self.pending: deque[str | None] = deque()  # typed lines; None: a quit key
        self.busy = False  # a command is running on the worker thread
        # Lines of the last command's answer, its echo first, until the output shows it:
        # one taller than the output pane opens at its start (help on an 80x24 screen
        # opened at its end), and PageDown reads on.
        self.answer = 0
        self.frozen = Frozen()
        self.freeze()

    def is_command(self, line: str) -> bool:
        """In keyboard mode only ':anything' is a command; otherwise every line is."""
        return line.startswith(COMMAND_PREFIX) or not self.monitor.waiting_for_keyboard

    def interrupt(self) -> bool:
        """Ctrl-C: press STOP if a command is running (True), else do nothing (False)."""
        if not self.busy:
            return False
        self.monitor.desk.limits.stop()
        self.pending.clear()  # what was typed ahead is dropped with the run
        self.stopped()
        return True

    def stopped(self) -> None:
        """A command ended or STOP was pressed: a Ctrl-C in the next moment is a late STOP."""
        self.late_until = time.monotonic() + LATE_STOP_SECONDS

    def late_stop(self) -> bool:
        """True when a Ctrl-C now would be a STOP pressed late, not a wish to quit."""
        return time.monotonic() < self.late_until

    def execute(self, line: str) -> None:
        """Run one typed line (on the worker thread)."""
        monitor = self.monitor
        if not self.is_command(line):
            answer = [f"UNIVAC KEYBOARD ▸ {line}", *monitor.execute(f"type {line}")]
            if len(answer) > 1 and not answer[1].startswith("??"):
                answer += monitor.execute("continue")
        else:
            command = line[len(COMMAND_PREFIX):] if line.startswith(COMMAND_PREFIX) else line
            answer = [f"monitor> {command}", *monitor.execute(command)]
        self.lines.extend(answer)
        self.answer = min(len(answer), len(self.lines))

    def freeze(self) -> None:
        """Take what the panes show from the machine (never while the worker runs it)."""
        monitor = self.monitor
        self.frozen = Frozen(_compact_registers(monitor), _board(monitor),
                             _state_parts(monitor), _memory_rows(monitor))


def _memory_rows(monitor: Monitor) -> list[tuple[str, int, bool]]:
    """(style, address, changed) of the words around the control counter."""
    current, _half = monitor.machine.next_instruction_address()
    return [(("class:current" if a == current else
              "class:changed" if a in monitor.changed else ""), a, a in monitor.changed)
            for a in range(current - MEMORY_BEFORE, current + MEMORY_AFTER)
            if 0 <= a < MEMORY_WORDS]


def _board(monitor: Monitor) -> list[str]:
    """The board from memory; for a program without one, its Uniservos if it has reels
    (the first line is the pane's heading)."""
    if monitor.board_reader is not None:
        return [" BOARD (from memory)", *find_command("board").step(monitor, "")]
    desk = monitor.desk
    views = desk.tape_units()
    if not views:
        return [" BOARD (from memory)", "(this program has no board)"]
    return [" UNISERVOS", *unit_lines([(v.unit, v.reel, v.blocks) for v in views],
                                      desk.tape_moves, monitor.machine.pulses,
                                      SIDE_WIDTH - 2, one_line=True)]


def _state_parts(monitor: Monitor) -> list[str]:
    """The state line's parts, most important first (it is cut to the screen's width)."""
    machine = monitor.machine
    stop = machine.last_stop
    if stop is None:
        state = ("ready: nothing has run yet" if machine.instructions == 0
                 else "stopped by the operator")
    elif stop.kind is StopKind.STEP_LIMIT:
        state = "stopped (step done)"
    else:
        state = stop.kind.value
        if stop.reason and stop.kind is not StopKind.KEYBOARD:
            state += f": {stop.reason}"
    neons = monitor.desk.neons.lit()
    return [f"state: {state}",
            f"{machine.instructions:,} instr, {format_time(pulses_to_us(machine.pulses))}",
            f"neons: {', '.join(neons) or 'none lit'}"]


def _compact_registers(monitor: Monitor) -> list[str]:
    """One short line a register (CR's two instructions on a line of their own), to fit
    beside the memory window."""
    machine = monitor.machine
    program = monitor.program
    lines = []
    words = [("rA", machine.a), ("rX", machine.x), ("rL", machine.l), ("rF", machine.f),
             ("rV0", machine.v[0]), ("rV1", machine.v[1])]
    for name, word in words:
        v = view(word, None, program)
        number = f"{v.number:+,d}" if v.number is not None else "text"
        lines.append(f"{name:<4} {v.glyphs}  {number:>18}")
    cr = view(machine.cr, None, program)
    lines.append(f"CC   {machine.cc:03d}")
    # CR's two instructions on a line of their own: beside the word, a labelled pair
    # ("U0 000 START | 00 000") was cut at the pane's edge; too long even so, unlabelled.
    pair = f"     {cr.left} | {cr.right}"
    if len(pair) > REGISTERS_WIDTH:
        bare = view(machine.cr)
        pair = f"     {bare.left} | {bare.right}"
    lines += [f"CR   {cr.glyphs}", pair]
    lines.append(f"SR   {view(machine.sr + machine.sr, None, program).left}")
    lines.append("rY, rI, rO: examine rY, rI, rO")
    return lines
