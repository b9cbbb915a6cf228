"""The lecture monitor's command layer: SIMH's console language for the UNIVAC I.

Plain Python and text: each command takes the words after its name and returns the lines
it prints. The full-screen monitor and ``--script`` are thin shells over this class. Bad
commands and bad addresses get one line and change nothing. The commands themselves are
in ``commands/``, one module a topic, registered in one table; this module holds the state
they share: the desk, breakpoints' counts and commands, watches, the timeline, and the run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..desk import Desk, Limits
from ..machine import MachineOptions, Stop, StopKind
from ..machine.charset import BY_GLYPH
from ..machine.tape import Reel
from ..machine.timing import format_time, pulses_to_us
from ..machine.word import MEMORY_WORDS, from_int, from_text, is_numeric, to_int, to_text
from ..program.address import AddressError, evaluate
from ..program.assembler import AssemblyError, Program, encode_instruction
from ..program.boottape import load_loader
from ..program.disassembler import instruction_text, view
from ..program.pack import BoardReader, Pack
from ..program.reel import TapeSpec
from .commands import COMMANDS, Command, MonitorError, find_command
from .commands.breaks import MAX_WATCHES
from .commands.memory import BUFFERS, REGISTERS
from .panes import Panes
from .sessionlog import SessionLog
from .timeline import CHECKPOINT_EVERY, Timeline

__all__ = ["COMMANDS", "MAX_WATCHES", "Command", "Monitor", "MonitorError", "find_command"]

SLOW_STEP_LIMIT = 2_000_000  # instructions a traced or watched run may take per command
# Bounds on the work and output of one command line (issue 16: a `do` that calls itself,
# trace with a huge step, history 999999999, a thousand watches).
TRACE_LIMIT = 10_000  # lines one traced run prints before it stops
COMMAND_BUDGET = 10_000  # commands one line may run through do files and breakpoint actions
OUTPUT_LIMIT = 50_000  # lines one command line may print


class Monitor:
    """A desk with a program loaded, its coding sheet, and the monitor's own settings."""

    files_allowed = True  # commands marked ``files`` may touch the host's files
    # How the operator answers a keyboard wait here: a script types with the type command;
    # the full screen sets its own (a line typed there goes to the UNIVAC).
    keyboard_hint = "use 'type TEXT'"
    # The program's board, drawn from memory: its pack's reader (the composer sets it);
    # None for a program without a board (any image or sheet without a pack).
    board_reader: BoardReader | None = None

    @classmethod
    def for_pack(cls, pack: Pack, options: MachineOptions | None = None,
                 limits: Limits | None = None,
                 tapes: dict[int, Reel] | None = None) -> Monitor:
        """A monitor on a pack's program: its sheet's labels, its board, and (unless
        ``tapes`` says otherwise) its tape on Uniservo 1 for boot and its own reels."""
        monitor = cls(pack.words, pack.program, options, limits,
                      pack.mounts() if tapes is None else tapes)
        monitor.board_reader = pack.board
        return monitor

    def __init__(self, words: dict[int, str], program: Program | None = None,
                 options: MachineOptions | None = None, limits: Limits | None = None,
                 tapes: dict[int, Reel] | None = None) -> None:
        self.sheet = program  # the coding sheet of the program (the loader has its own)
        self.words = dict(words)  # what reset loads again
        self._loader = load_loader()
        self.desk = Desk(words, options, limits, record_keys=True)
        for unit, reel in (tapes or {}).items():
            self.desk.attach(unit, reel)
        self.mounts: dict[int, TapeSpec] = {}  # reels attached from files by the operator
        self.keyboard = self.desk.keyboard
        self.machine = self.desk.machine
        self.timeline = Timeline(self.desk)
        self.watches: dict[int, str] = {}
        self.tracing = False
        self.finished = False  # quit was given
        self.changed: set[int] = set()  # words changed by the last command
        self.do_depth = 0  # do files now running, one inside another
        self.break_counts: dict[int, int] = {}  # address -> arrivals still to pass (SIMH)
        self.break_actions: dict[int, list[str]] = {}  # address -> commands run at a stop
        self._actions: list[str] = []  # breakpoint actions waiting to run
        self._budget = COMMAND_BUDGET  # commands this line may still run
        self._printed = 0  # lines this line has printed
        self._stopped = False  # STOP was pressed during this line
        self.recorded_future = False  # after back: pending keyboard words are the old future
        self.log: SessionLog | None = None
        self.panes = Panes()  # what the full screen shows (the lecturer's choice)

    # ---- running a command line ------------------------------------------------------

    def execute(self, line: str) -> list[str]:
        """Run one command line (and the breakpoint actions it sets off); always returns
        lines, never raises for bad input. One line's work and output are bounded."""
        if self.do_depth:
            return self.execute_one(line)
        self._budget, self._printed, self._stopped = COMMAND_BUDGET, 0, False
        before = tuple(self.machine.mem)
        out = self.execute_one(line)
        out += self.run_actions()
        self.changed = {a for a in range(MEMORY_WORDS) if self.machine.mem[a] != before[a]}
        self._write_log(line, out)
        return out

    def execute_one(self, line: str) -> list[str]:
        # a command line may start with the full screen's keyboard-mode ':' anywhere (a
        # script or a do file copied from a lecture's session): "?? no command ':e'" was all
        # it got outside the full screen
        text = line.strip().removeprefix(":").lstrip()
        if not text or text.startswith("#"):
            return []
        name, _, rest = text.partition(" ")
        try:
            command = find_command(name)
            if command.files and not self.files_allowed:
                raise MonitorError(f"{command.name}: this terminal cannot read or write files")
            out = command.step(self, rest.strip())
            if command.name != "do":  # a do file's lines are counted one by one
                self._printed += len(out)
            return out
        except MonitorError as exc:
            return [f"?? {exc}"]

    def run_actions(self) -> list[str]:
        """The commands attached to the breakpoint the machine stopped at (SIMH); an action
        that runs the machine may stop at a breakpoint again, so they loop, within the
        line's command budget, and STOP ends them."""
        out: list[str] = []
        while self._actions and not self.finished:
            if self.interrupted():
                out.append("?? STOP was pressed: the breakpoint's remaining commands were "
                           "not run")
                break
            if not self.spend(out):
                break
            action = self._actions.pop(0)
            out.append(f"monitor> {action}")
            out += self.execute_one(action)
        self._actions.clear()
        return out

    def spend(self, out: list[str]) -> bool:
        """Count one more command for this line; False (with a message) when spent."""
        if self._budget <= 0:
            out.append(f"?? this line has run {COMMAND_BUDGET:,} commands (do files and "
                       "breakpoint actions); the rest were not run")
            return False
        if self._printed > OUTPUT_LIMIT:
            out.append(f"?? this line has printed {OUTPUT_LIMIT:,} lines; the rest of its "
                       "commands were not run")
            return False
        self._budget -= 1
        self._printed += 1  # the command's echo
        return True

    def interrupted(self) -> bool:
        """STOP was pressed during this line (seen by a run, or not yet by any)."""
        if self.desk.limits.interrupt.is_set():
            self.desk.limits.interrupt.clear()
            self._stopped = True
        return self._stopped

    def _write_log(self, line: str, out: list[str]) -> None:
        log = self.log
        if log is None or not line.strip():
            return
        log.write([f"monitor> {line.strip()}", *out])
        if log.problem:
            out.append(f"?? {log.problem}")
            self.log = None

    @property
    def waiting_for_keyboard(self) -> bool:
        return self.desk.waiting_for_keyboard

    @property
    def program(self) -> Program | None:
        """The coding sheet for what memory holds: the loader's while INITIAL READ's block
        is at 000-059 (so examine, where and trace name the loader's words), else the
        program's."""
        mem = self.machine.mem
        if all(mem[a] == w for a, w in self._loader.image.words.items()):
            return self._loader
        return self.sheet

    # ---- addresses and words ---------------------------------------------------------

    def address(self, text: str) -> int:
        shown = self.program
        symbols = {**(self.sheet.symbols if self.sheet else {}),
                   **(shown.symbols if shown is not None and shown is not self.sheet else {})}
        try:
            base = evaluate(text, symbols or None)
        except AddressError as exc:
            raise MonitorError(exc.reason) from None
        if not 0 <= base < MEMORY_WORDS:
            raise MonitorError(f"address {text} is outside 000-999")
        return base

    def address_range(self, text: str) -> range:
        """``a``, ``a-b`` or ``a:b``; a minus between two labels' forms is a range too."""
        if ":" in text:
            first, _, last = text.partition(":")
            start, end = self.address(first), self.address(last)
        elif re.fullmatch(r"\d+-\d+", text):
            first, _, last = text.partition("-")
            start, end = self.address(first), self.address(last)
        else:
            start = end = -1
            try:
                start = end = self.address(text)
            except MonitorError:
                for i in range(1, len(text) - 1):
                    if text[i] != "-":
                        continue
                    try:
                        start, end = self.address(text[:i]), self.address(text[i + 1:])
                        break
                    except MonitorError:
                        continue
                else:
                    raise
        if end < start:
            raise MonitorError(f"the range {text} runs backwards")
        if end - start >= 200:
            raise MonitorError("examine at most 200 words at a time")
        return range(start, end + 1)

    def parse_word(self, text: str) -> str:
        """12 glyphs (a space may stand for Δ), a signed number, or OP ADDR OP ADDR."""
        raw = text.strip()
        if len(raw) == 12 and all(ch in BY_GLYPH or ch == " " for ch in raw):
            return from_text(raw)
        if re.fullmatch(r"[+-]?\d{1,11}", raw):
            return from_int(int(raw))
        parts = raw.split()
        if len(parts) == 4:
            try:
                return (encode_instruction(parts[0].upper(), self.address(parts[1]))
                        + encode_instruction(parts[2].upper(), self.address(parts[3])))
            except AssemblyError as exc:
                raise MonitorError(exc.reason) from None
        raise MonitorError("a word is 12 UNIVAC characters, a number of up to 11 digits, or "
                           "two instructions like 'B0 400 H0 341'")

    # ---- showing ---------------------------------------------------------------------

    def describe_stop(self, with_stop: bool = True) -> str:
        """``next: ...`` and, unless ``with_stop`` is False, why the machine stopped."""
        machine = self.machine
        stop = machine.last_stop if with_stop else None
        address, half = machine.next_instruction_address()
        instruction = machine.sr
        head = f"next: {address:03d} {half:<5} {instruction_text(instruction, self.program)}"
        if stop is None or stop.kind is StopKind.STEP_LIMIT:
            state = ""
        elif stop.kind is StopKind.KEYBOARD:
            state = (f"  [waiting for the keyboard: {self.keyboard_hint}]"
                     if self.waiting_for_keyboard else "")
        else:
            state = f"  [{stop.kind.value}: {stop.reason}]"
        figures = (f"  ({machine.instructions:,} instructions, "
                   f"{format_time(pulses_to_us(machine.pulses))} UNIVAC time)")
        return head + state + figures

    def register_lines(self, names: tuple[str, ...] = REGISTERS) -> list[str]:
        machine = self.machine
        lines = []
        for name in names:
            if name == "rV":
                lines += [self._register_word("rV", w, i) for i, w in enumerate(machine.v)]
            elif name == "rY":
                lines += [self._register_word("rY", w, i) for i, w in enumerate(machine.y)]
            elif name in BUFFERS:
                words = machine.ri if name == "rI" else machine.ro
                lines += [self._register_word(name, w, i) for i, w in enumerate(words)]
            elif name == "CC":
                lines.append(f"CC   {machine.cc:03d}")
            elif name == "SR":
                lines.append(f"SR   {to_text(machine.sr)}  "
                             f"{instruction_text(machine.sr, self.program)}")
            else:
                word = {"rA": machine.a, "rX": machine.x, "rL": machine.l, "rF": machine.f,
                        "CR": machine.cr}[name]
                lines.append(self._register_word(name, word))
        return lines

    def _register_word(self, name: str, word: str, index: int | None = None) -> str:
        label = f"{name}{index}" if index is not None else name
        label = f"{label:<4}" if len(label) <= 4 else label
        v = view(word, None, self.program)
        number = f"{v.number:+,d}" if v.number is not None else "text"
        return f"{label:<4} {v.glyphs}  {number:>17}  {v.left:<14} {v.right}"

    # ---- running the machine ---------------------------------------------------------

    def run(self, count: int | None, until: Callable[[], bool] | None = None) -> list[str]:
        """Run up to count instructions (None: until a stop, or the desk's limit) at the
        desk; fast unless trace/watch. STOP at the desk (Ctrl-C) ends any run. A
        breakpoint with a count lets the machine pass until its count'th arrival; one with
        commands queues them for ``execute``. A checkpoint every CHECKPOINT_EVERY keeps
        ``back`` short whatever the run."""
        self.timeline.checkpoint()
        desk, machine = self.desk, self.machine
        machine.resume_past_breakpoint()  # a run never stops on the instruction it starts at
        out: list[str] = []
        cap = count if count is not None else desk.limits.cap
        slow = bool(self.tracing or self.watches or until is not None)
        if slow and count is None:
            cap = min(cap, SLOW_STEP_LIMIT)
        ended: list[str] = []  # why after_each ended the run
        traced = 0

        def after_each(address: int, half: str, instruction: str) -> bool:
            nonlocal traced
            if self.tracing:
                out.append(self.trace_line(address, half, instruction))
                traced += 1
                if traced >= TRACE_LIMIT:
                    ended.append("trace")
                    return True
            if self._watch_fired(out) or (until is not None and until()):
                ended.append("watch")
                return True
            return False

        start = machine.instructions
        while True:
            left = cap - (machine.instructions - start)
            stop = desk.run(min(left, CHECKPOINT_EVERY), after_each if slow else None)
            if ended:
                break
            if stop.kind is StopKind.STEP_LIMIT and machine.instructions - start < cap:
                self.timeline.checkpoint()
                continue
            if stop.kind is StopKind.MONITOR and self._passes(stop):
                machine.resume_past_breakpoint()
                continue
            break
        if stop.kind is StopKind.INTERRUPT:
            self._stopped = True
        if ended == ["trace"]:
            out.append(f"?? trace printed {TRACE_LIMIT:,} lines and stopped the run here "
                       "(step or continue runs on)")
        elif count is None and stop.kind is StopKind.STEP_LIMIT and not ended:
            if slow:
                out.append(f"(stopped after {cap:,} instructions of tracing)")
            else:
                out.append(f"?? the program ran {cap:,} instructions without stopping, the "
                           "desk's limit (an endless loop?); continue runs on")
        if stop.kind is StopKind.MONITOR and stop.half == "left" \
                and stop.address in self.break_actions and not ended:
            self._actions = list(self.break_actions[stop.address])
        out.append(self.describe_stop())
        return out

    def _passes(self, stop: Stop) -> bool:
        """A breakpoint with arrivals still to pass lets this one go by (SIMH's count)."""
        left = self.break_counts.get(stop.address, 0)
        if stop.half != "left" or stop.address not in self.machine.break_addresses \
                or left <= 1:
            self.break_counts.pop(stop.address, None)
            return False
        self.break_counts[stop.address] = left - 1
        return True

    def trace_line(self, address: int, half: str, instruction: str) -> str:
        m = self.machine
        a = to_int(m.a) if is_numeric(m.a) else None
        shown = f"{a:+,d}" if a is not None else to_text(m.a)
        return (f"{address:03d} {half:<5} {instruction_text(instruction, self.program):<18}"
                f" rA {shown}")

    def _watch_fired(self, out: list[str]) -> bool:
        fired = False
        for address, old in list(self.watches.items()):
            new = self.machine.mem[address]
            if new != old:
                out.append(f"watch: {address:03d} changed from {to_text(old)} to {to_text(new)}")
                self.watches[address] = new
                fired = True
        return fired
