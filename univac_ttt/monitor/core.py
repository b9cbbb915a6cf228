"""The lecture monitor's command layer: SIMH's console language for the UNIVAC I.

Plain Python and text: each command takes the words after its name and returns the lines
it prints. The full-screen monitor and ``--script`` are thin shells over this class. Bad
commands and bad addresses get one line and change nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..desk import Desk, Limits, TapeUnitError, tape_unit
from ..limits import JsonError, load_json
from ..machine import KeyboardEntryError, MachineOptions, Stop, StopKind
from ..machine.charset import BY_GLYPH
from ..machine.ops import OPERATIONS, decode, find_operation
from ..machine.tape import Reel
from ..machine.timing import format_time, pulses_to_us
from ..machine.word import MEMORY_WORDS, from_int, from_text, is_numeric, to_int, to_text
from ..program.address import AddressError, evaluate
from ..program.assembler import AssemblyError, Program, encode_instruction
from ..program.boottape import load_loader
from ..program.disassembler import instruction_text, symbol_for, view
from ..program.pack import BoardReader, Pack
from ..program.reel import ReelError, TapeSpec, save_reel
from ..safefile import atomic_write
from ..textfile import TextFileError, check_write_target, read_text_file
from .panes import MEMORY_MODES, Panes
from .sessionlog import SessionLog, SessionLogError
from .statefile import StateFileError, restore_state, save_state
from .timeline import CHECKPOINT_EVERY, Timeline

REGISTERS = ("rA", "rX", "rL", "rF", "rV", "rY", "CC", "CR", "SR")
BUFFERS = ("rI", "rO")  # the 60-word tape buffers: shown by examine, not by registers
MAX_DO_DEPTH = 8
FILE_LIMIT = 2_000_000  # bytes of a do script or a saved state
SLOW_STEP_LIMIT = 2_000_000  # instructions a traced or watched run may take per command
HISTORY_DEFAULT = 10
HELP_COLUMN = 24  # usages up to this wide share a line with their summary
# Bounds on the work and output of one command line (issue 16: a `do` that calls itself,
# trace with a huge step, history 999999999, a thousand watches).
HISTORY_LIMIT = 10_000  # instructions history lists at most
TRACE_LIMIT = 10_000  # lines one traced run prints before it stops
MAX_WATCHES = 16
MAX_BREAK_ACTIONS = 20
COMMAND_BUDGET = 10_000  # commands one line may run through do files and breakpoint actions
OUTPUT_LIMIT = 50_000  # lines one command line may print
COMMAND_LINE_LIMIT = 1_000  # characters of a line in a do file or a breakpoint action


class MonitorError(Exception):
    """A command that cannot be done: one line for the operator, nothing changed."""


@dataclass(frozen=True)
class Command:
    name: str
    aliases: tuple[str, ...]
    usage: str
    summary: str
    method: str
    files: bool = False  # reads or writes files on the host: refused where files are off


COMMANDS: tuple[Command, ...] = (
    Command("step", ("s",), "step [n]", "execute n instructions (default 1)", "do_step"),
    Command("next", ("n",), "next", "step over an R/U subroutine call", "do_next"),
    Command("go", ("g",), "go [addr]", "run from addr (or on) until a stop or breakpoint",
            "do_go"),
    Command("continue", ("c", "cont"), "continue", "run on from where the machine is",
            "do_continue"),
    Command("break", ("b",), "break [addr[count][; cmd; ...] | -op X | -keyboard | -printer]",
            "stop before an address (on its count'th arrival, then running the commands "
            "after ';') or an operation; alone, list breakpoints", "do_break"),
    Command("nobreak", ("nob",), "nobreak [addr | -op X | -keyboard | -printer | all]",
            "remove breakpoints", "do_nobreak"),
    Command("show", ("sh",), "show break | watch | options | tapes", "show settings",
            "do_show"),
    Command("examine", ("e", "ex"), "examine addr[-addr] | register",
            "show words as characters, number and instructions", "do_examine"),
    Command("deposit", ("d", "dep"), "deposit addr|register word",
            "store a word: 12 characters, a number, or OP ADDR OP ADDR", "do_deposit"),
    Command("watch", ("w",), "watch addr", "stop when that word changes", "do_watch"),
    Command("nowatch", (), "nowatch [addr | all]", "stop watching", "do_nowatch"),
    Command("fault", (), "fault [addr|rA|rX|rL|rF char bit | clear]",
            "flip a bit (char 1-12, bit 0-5, 6 = check bit): the odd-even check stops the "
            "machine at the word's next use", "do_fault"),
    Command("trace", ("t",), "trace on|off", "print each instruction as it executes",
            "do_trace"),
    Command("history", ("hi",), "history [n]", "the last n instructions executed",
            "do_history"),
    Command("back", ("ba",), "back [n]", "reverse n instructions (default 1), exactly",
            "do_back"),
    Command("where", ("wh",), "where", "which part of the program this is", "do_where"),
    Command("type", ("ty", "key"), "type text",
            "type a line on the UNIVAC keyboard (the word goes to the 10 instruction)",
            "do_type"),
    Command("paper", ("pa",), "paper [n]", "the last n lines of the printer paper",
            "do_paper"),
    Command("board", ("bo",), "board", "the program's board decoded from memory",
            "do_board"),
    Command("registers", ("r", "reg"), "registers", "all registers", "do_registers"),
    Command("desk", (), "desk [pair | clear-c | general-clear | initial-read | switch on|off]",
            "the Supervisory Control desk: neons, one-pair step, clears, INITIAL READ, "
            "the ,0 breakpoint switch", "do_desk"),
    Command("attach", ("at",), "attach N FILE[:rw]",
            "mount a reel file on an empty Uniservo N (1-9, - for the tenth; a reel is on one "
            "Uniservo at a time: detach first); :rw lets the program "
            "write it (detach saves it)", "do_attach", files=True),
    Command("detach", ("det",), "detach N | all",
            "take the reel off Uniservo N; a reel the program wrote is saved to its file",
            "do_detach", files=True),
    Command("boot", (), "boot",
            "CLEAR C and INITIAL READ: block 1 of Uniservo 1 into 000-059, CC at 000",
            "do_boot"),
    Command("save", (), "save FILE", "save the whole machine state as JSON", "do_save",
            files=True),
    Command("restore", (), "restore FILE", "restore a state saved with save", "do_restore",
            files=True),
    Command("do", (), "do FILE", "run the monitor commands in FILE", "do_do", files=True),
    Command("help", ("h", "?"), "help [command | ops]",
            "list commands, explain one, or list the operations", "do_help"),
    Command("quit", ("q", "exit"), "quit", "leave the monitor", "do_quit"),
    Command("reset", ("new",), "reset", "a fresh machine with the program reloaded "
            "(memory, registers, keyboard and paper; breakpoints are kept)", "do_reset"),
    Command("log", (), "log [FILE | off]",
            "append every command and what it printed to FILE; off closes it", "do_log",
            files=True),
    Command("pane", (), "pane [memory wide|narrow|off | registers|board|paper on|off]",
            "choose the full screen's panes (also F2, F3, F4, F6)", "do_pane"),
)

_BY_NAME: dict[str, Command] = {}
for _command in COMMANDS:
    _BY_NAME[_command.name] = _command
    for _alias in _command.aliases:
        _BY_NAME[_alias] = _command


def find_command(word: str) -> Command:
    """A command by name, alias, or unique prefix (SIMH style)."""
    word = word.lower()
    if word in _BY_NAME:
        return _BY_NAME[word]
    matches = {c.name for c in COMMANDS if c.name.startswith(word)}
    if len(matches) == 1:
        return _BY_NAME[matches.pop()]
    if matches:
        raise MonitorError(f"'{word}' could be {', '.join(sorted(matches))}")
    raise MonitorError(f"no command '{word}'; type help for the list")


def _real_path(path: Path) -> Path:
    """Where a file really is (links followed), to tell when two names are one reel."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: the name as it stands
        return path.absolute()


class Monitor:
    """A desk with a program loaded, its coding sheet, and the monitor's own settings."""

    files_allowed = True  # commands marked ``files`` may touch the host's files
    # How the operator answers a keyboard wait here: a script types with the type command;
    # the full screen sets its own (a line typed there goes to the UNIVAC).
    keyboard_hint = "use 'type TEXT'"
    # The program's board, drawn from memory: its pack's reader (the composer sets it);
    # None for a program without a board (any image or sheet without a pack).
    board_reader: BoardReader | None = None

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
        self._do_depth = 0
        self.break_counts: dict[int, int] = {}  # address -> arrivals still to pass (SIMH)
        self.break_actions: dict[int, list[str]] = {}  # address -> commands run at a stop
        self._actions: list[str] = []  # breakpoint actions waiting to run
        self._budget = COMMAND_BUDGET  # commands this line may still run
        self._printed = 0  # lines this line has printed
        self._stopped = False  # STOP was pressed during this line
        self.recorded_future = False  # after back: pending keyboard words are the old future
        self.log: SessionLog | None = None
        self.panes = Panes()  # what the full screen shows (the lecturer's choice)

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

    # ---- running a command line ------------------------------------------------------

    def execute(self, line: str) -> list[str]:
        """Run one command line (and the breakpoint actions it sets off); always returns
        lines, never raises for bad input. One line's work and output are bounded."""
        if self._do_depth:
            return self._execute_one(line)
        self._budget, self._printed, self._stopped = COMMAND_BUDGET, 0, False
        before = tuple(self.machine.mem)
        out = self._execute_one(line)
        out += self._run_actions()
        self.changed = {a for a in range(MEMORY_WORDS) if self.machine.mem[a] != before[a]}
        self._write_log(line, out)
        return out

    def _execute_one(self, line: str) -> list[str]:
        text = line.strip()
        if not text or text.startswith("#"):
            return []
        name, _, rest = text.partition(" ")
        try:
            command = find_command(name)
            if command.files and not self.files_allowed:
                raise MonitorError(f"{command.name}: this terminal cannot read or write files")
            out = getattr(self, command.method)(rest.strip())
            if command.name != "do":  # a do file's lines are counted one by one
                self._printed += len(out)
            return out
        except MonitorError as exc:
            return [f"?? {exc}"]

    def _run_actions(self) -> list[str]:
        """The commands attached to the breakpoint the machine stopped at (SIMH); an action
        that runs the machine may stop at a breakpoint again, so they loop, within the
        line's command budget, and STOP ends them."""
        out: list[str] = []
        while self._actions and not self.finished:
            if self._interrupted():
                out.append("?? STOP was pressed: the breakpoint's remaining commands were "
                           "not run")
                break
            if not self._spend(out):
                break
            action = self._actions.pop(0)
            out.append(f"monitor> {action}")
            out += self._execute_one(action)
        self._actions.clear()
        return out

    def _spend(self, out: list[str]) -> bool:
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

    def _interrupted(self) -> bool:
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

    def describe_stop(self) -> str:
        machine = self.machine
        stop = machine.last_stop
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

    def _run(self, count: int | None, until: Callable[[], bool] | None = None) -> list[str]:
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
                out.append(self._trace_line(address, half, instruction))
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

    def _trace_line(self, address: int, half: str, instruction: str) -> str:
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

    def _count(self, rest: str, default: int = 1) -> int:
        if not rest:
            return default
        if not re.fullmatch(r"\d{1,9}", rest) or int(rest) < 1:
            shown = rest if len(rest) <= 20 else rest[:20] + "..."
            raise MonitorError(f"'{shown}' is not a count (1 to 999999999)")
        return int(rest)

    # ---- the commands ----------------------------------------------------------------

    def do_step(self, rest: str) -> list[str]:
        return self._run(self._count(rest))

    def do_next(self, rest: str) -> list[str]:
        if rest:
            raise MonitorError("next takes no arguments")
        machine = self.machine
        address, half = machine.next_instruction_address()
        pair = machine.mem[address] if half == "left" else machine.cr
        calls = any(decode(part)[0].code == "R" for part in (pair[:6], pair[6:]))
        if not calls:
            return self._run(1)
        target = (address + 1) % MEMORY_WORDS
        return self._run(None, until=lambda: machine.next_instruction_address() ==
                         (target, "left"))

    def do_go(self, rest: str) -> list[str]:
        if rest:
            start = self.address(rest)
            self.machine.cc, self.machine.half = start, 0
            self.timeline.forget()
        return self._run(None)

    def do_continue(self, rest: str) -> list[str]:
        if rest:
            raise MonitorError("continue takes no arguments (use go ADDR)")
        return self._run(None)

    def _op_executor(self, words: list[str]) -> tuple[object, str]:
        if words[0] == "-keyboard":
            op = next(o for o in OPERATIONS if o.code == "10")
        elif words[0] == "-printer":
            op = next(o for o in OPERATIONS if o.code == "50")
        elif words[0] == "-op" and len(words) == 2:
            op = find_operation(words[1])
            if op is None:
                raise MonitorError(f"no operation '{words[1]}' (e.g. -op B, -op 50, -op .n)")
        else:
            raise MonitorError("use break ADDR, break -op X, break -keyboard or -printer")
        return op.execute, op.code

    def do_break(self, rest: str) -> list[str]:
        if not rest:
            return self.do_show("break")
        machine = self.machine
        if rest.startswith("-"):  # an operation: its code may hold a ';' (the ;n shift)
            executor, code = self._op_executor(rest.split())
            machine.break_executors.add(executor)
            return [f"break before every {code} instruction"]
        spec, semicolon, tail = rest.partition(";")
        actions = [a.strip() for a in tail.split(";") if a.strip()] if semicolon else []
        words = spec.split()
        if not words:
            raise MonitorError("break ADDR[COUNT][; COMMAND; ...], e.g. break FIND[3]; "
                               "examine rA; continue")
        if len(actions) > MAX_BREAK_ACTIONS or any(len(a) > COMMAND_LINE_LIMIT
                                                   for a in actions):
            raise MonitorError(f"at most {MAX_BREAK_ACTIONS} commands of up to "
                               f"{COMMAND_LINE_LIMIT:,} characters after a breakpoint")
        targets: list[tuple[int, int]] = []
        for word in words:
            match = re.fullmatch(r"(.+?)\[(\d{1,9})\]", word)
            if match and int(match.group(2)) < 1:
                raise MonitorError("a breakpoint's count is 1 or more")
            targets.append((self.address(match.group(1)), int(match.group(2))) if match
                           else (self.address(word), 1))
        lines = []
        for address, count in targets:
            machine.break_addresses.add(address)
            self.break_counts.pop(address, None)
            self.break_actions.pop(address, None)
            if count > 1:
                self.break_counts[address] = count
            if actions:
                self.break_actions[address] = actions
            lines.append(self._break_line(address))
        return lines

    def _break_line(self, address: int) -> str:
        symbol = symbol_for(address, self.program)
        line = f"break at {address:03d}" + (f" ({symbol})" if symbol else "")
        if address in self.break_counts:
            line += f", stopping on arrival {self.break_counts[address]:,} from now"
        if address in self.break_actions:
            line += "; then: " + "; ".join(self.break_actions[address])
        return line

    def do_nobreak(self, rest: str) -> list[str]:
        machine = self.machine
        if not rest or rest == "all":
            machine.break_addresses.clear()
            machine.break_executors.clear()
            self.break_counts.clear()
            self.break_actions.clear()
            return ["all breakpoints removed"]
        words = rest.split()
        if words[0].startswith("-"):
            executor, code = self._op_executor(words)
            if executor not in machine.break_executors:
                raise MonitorError(f"no break on {code}")
            machine.break_executors.discard(executor)
            return [f"no break on {code}"]
        address = self.address(rest)
        if address not in machine.break_addresses:
            raise MonitorError(f"no breakpoint at {address:03d}")
        machine.break_addresses.discard(address)
        self.break_counts.pop(address, None)
        self.break_actions.pop(address, None)
        return [f"breakpoint at {address:03d} removed"]

    def do_show(self, rest: str) -> list[str]:
        machine = self.machine
        if rest in ("break", "breaks", "b"):
            lines = [self._break_line(a) for a in sorted(machine.break_addresses)]
            codes = sorted(o.code for o in OPERATIONS if o.execute in machine.break_executors)
            lines += [f"break before every {code} instruction" for code in codes]
            return lines or ["no breakpoints"]
        if rest in ("watch", "watches", "w"):
            return [f"watching {a:03d} = {to_text(w)}" for a, w in sorted(self.watches.items())
                    ] or ["no watches"]
        if rest in ("tapes", "tape", "t"):
            return [view.line() for view in self.desk.tape_units()] or [
                "no reels mounted (attach N FILE)"]
        if rest in ("options", "o"):
            o = machine.options
            return [f"right half after a transfer: {o.right_half_after_transfer}",
                    f"overflow: {o.overflow}", f"timing: {o.timing}",
                    f"breakpoint switch: {machine.breakpoint_switch}",
                    f"trace: {'on' if self.tracing else 'off'}"]
        raise MonitorError("show break, show watch, show options or show tapes")

    def do_examine(self, rest: str) -> list[str]:
        if not rest:
            raise MonitorError("examine what? e.g. examine 400-409, examine BRD, examine rA")
        upper = rest.upper()
        for name in REGISTERS + BUFFERS:
            if upper == name.upper():
                return self.register_lines((name,))
        return [view(self.machine.mem[a], a, self.program).line()
                for a in self.address_range(rest)]

    def do_deposit(self, rest: str) -> list[str]:
        target, _, value = rest.partition(" ")
        if not value.strip():
            raise MonitorError("deposit ADDR WORD, e.g. deposit 405 4 or deposit rA 12")
        word = self.parse_word(value)
        upper = target.upper()
        registers = {"RA": "a", "RX": "x", "RL": "l", "RF": "f"}
        if upper in registers:
            setattr(self.machine, registers[upper], word)
            self.timeline.forget()
            return self.register_lines(({"a": "rA", "x": "rX", "l": "rL", "f": "rF"}
                                        [registers[upper]],))
        if upper == "CC":
            number = to_int(word)
            if number is None or not 0 <= number < MEMORY_WORDS:
                raise MonitorError("CC holds an address, 000-999")
            self.machine.cc, self.machine.half = number, 0
            self.timeline.forget()
            return [f"CC   {number:03d}"]
        address = self.address(target)
        self.machine.mem[address] = word
        self.timeline.forget()
        return [view(word, address, self.program).line()]

    def do_watch(self, rest: str) -> list[str]:
        if not rest:
            return self.do_show("watch")
        address = self.address(rest)
        if address not in self.watches and len(self.watches) >= MAX_WATCHES:
            raise MonitorError(f"at most {MAX_WATCHES} watches (each makes every instruction "
                               "slower); nowatch one first")
        self.watches[address] = self.machine.mem[address]
        return [f"watching {address:03d} (runs are traced step by step while watching)"]

    def do_nowatch(self, rest: str) -> list[str]:
        if not rest or rest == "all":
            self.watches.clear()
            return ["no watches"]
        address = self.address(rest)
        if self.watches.pop(address, None) is None:
            raise MonitorError(f"not watching {address:03d}")
        return [f"stopped watching {address:03d}"]

    def do_fault(self, rest: str) -> list[str]:
        machine = self.machine
        words = rest.split()
        if not words:
            return [f"fault: {f.describe()}" for f in machine.faults.values()] or ["no faults"]
        if words == ["clear"]:
            machine.clear_faults()
            self.timeline.forget()
            return ["no faults: every check bit is right again"]
        if len(words) != 3 or not all(w.isascii() and w.isdigit() for w in words[1:]):
            raise MonitorError("fault ADDR|REGISTER CHAR BIT, e.g. fault 400 12 0 or "
                               "fault rA 1 6 (bit 6 is the check bit); fault clear")
        registers = {"RA": "rA", "RX": "rX", "RL": "rL", "RF": "rF"}
        where = registers.get(words[0].upper()) or self.address(words[0])
        try:
            fault = machine.inject_fault(where, int(words[1]) - 1, int(words[2]))
        except ValueError as exc:
            raise MonitorError(str(exc)) from None
        self.timeline.forget()
        shown = (self.register_lines((where,)) if isinstance(where, str)
                 else [view(machine.mem[where], where, self.program).line()])
        return [f"fault: {fault.describe()} flipped; the next instruction that uses it "
                "stops with the odd-even neon", *shown]

    def do_trace(self, rest: str) -> list[str]:
        if rest not in ("on", "off"):
            raise MonitorError("trace on or trace off")
        self.tracing = rest == "on"
        return [f"trace {rest}"]

    def do_history(self, rest: str) -> list[str]:
        count = self._count(rest, HISTORY_DEFAULT)
        if count > HISTORY_LIMIT:
            raise MonitorError(f"history lists at most {HISTORY_LIMIT:,} instructions "
                               "(use back to go further)")
        machine = self.machine
        now = machine.instructions
        earliest = self.timeline.earliest
        if earliest is None or earliest >= now:
            return ["no history recorded yet"]
        start = max(earliest, now - count)
        present = machine.snapshot()
        pending = self.keyboard.pending_words
        last_stop = machine.last_stop
        lines: list[str] = []
        self.timeline.go_to(start)

        def note(address: int, half: str, instruction: str) -> bool:
            lines.append(self._trace_line(address, half, instruction))
            return False

        try:
            self.desk.replay(now, note)
        finally:
            machine.last_stop = last_stop
        if machine.snapshot() != present or self.keyboard.pending_words != pending:
            raise MonitorError("history replay disagreed with the present (please report)")
        return lines

    def do_back(self, rest: str) -> list[str]:
        count = self._count(rest)
        machine = self.machine
        earliest = self.timeline.earliest
        if earliest is None or machine.instructions - count < earliest:
            available = 0 if earliest is None else machine.instructions - earliest
            raise MonitorError(f"only {available:,} instructions of history can be undone")
        read = len(self.keyboard.log)
        try:
            self.timeline.go_to(machine.instructions - count)
        except ValueError as exc:
            raise MonitorError(str(exc)) from None
        out = [self.describe_stop()]
        if len(self.keyboard.log) < read:
            # Words read in the undone stretch wait to be read again; a new type replaces
            # them (the recorded future is discarded, as an editor's undo then typing).
            self.recorded_future = True
            words = " ".join(to_text(w).rstrip("Δ").lstrip("0") or "0"
                             for w in self.keyboard.pending_words)
            out.append(f"(the keyboard will read the recorded words again: {words}; "
                       "type replaces them)")
        return out

    def do_where(self, rest: str) -> list[str]:
        address, half = self.machine.next_instruction_address()
        if self.program is None:
            return [f"{address:03d} {half}: no coding sheet for this image"]
        section = self.program.sections.get(address, "(outside the program)")
        label = symbol_for(address, self.program) or f"{address:03d}"
        remark = self.program.remarks.get(address, "")
        line = f"{address:03d} {half} = {label}, in: {section}"
        return [line] + ([f"remark: {remark}"] if remark else [])

    def do_type(self, rest: str) -> list[str]:
        keyboard = self.keyboard
        replaced = keyboard.pending_words if self.recorded_future else []
        try:
            if replaced:
                keyboard.replace_pending([])
            word = keyboard.type_line(rest)
        except KeyboardEntryError as exc:
            if replaced:
                keyboard.replace_pending(replaced)
            raise MonitorError(f"{exc}; nothing was typed") from None
        self.recorded_future = False
        note = "" if self.waiting_for_keyboard else " (the UNIVAC will read it at its next 10)"
        out = [f"keyboard word {to_text(word)} released{note}"]
        if replaced:
            out.append(f"(it replaces the recorded {len(replaced)} word"
                       f"{'s' if len(replaced) > 1 else ''}: the old future is discarded)")
        return out

    def do_paper(self, rest: str) -> list[str]:
        count = self._count(rest, 12)
        lines = self.desk.paper.text.split("\n")
        return [f"| {line}" for line in lines[-count:]]

    def do_board(self, rest: str) -> list[str]:
        if self.board_reader is None:
            raise MonitorError("this program has no board (its pack reads none)")
        return self.board_reader(self.machine.mem)

    def do_registers(self, rest: str) -> list[str]:
        return self.register_lines()

    def do_desk(self, rest: str) -> list[str]:
        desk = self.desk
        words = rest.lower().split()
        if not words:
            lit = desk.neons.lit()
            return [f"neons: {', '.join(lit) or 'none lit'}",
                    f"breakpoint switch (,0 stops): {'on' if desk.breakpoint_switch else 'off'}"]
        if words == ["pair"]:
            self.timeline.checkpoint()
            self.machine.resume_past_breakpoint()
            desk.step_pair()
            return [self.describe_stop()]
        if words == ["clear-c"]:
            desk.clear_c()
            self.timeline.forget()
            return ["CLEAR C: the control register is cleared", self.describe_stop()]
        if words == ["general-clear"]:
            desk.general_clear()
            self.timeline.forget()
            return ["GENERAL CLEAR: registers cleared, CC 000; memory kept",
                    self.describe_stop()]
        if words == ["initial-read"]:
            stop = desk.initial_read()
            if stop is not None:
                return [stop.reason]
            self.timeline.forget()
            block = self.machine.tapes[1].position
            return [f"INITIAL READ: block {block} of Uniservo 1 read into 000-059",
                    self.describe_stop()]
        if len(words) == 2 and words[0] == "switch" and words[1] in ("on", "off"):
            desk.breakpoint_switch = words[1] == "on"
            return [f"breakpoint switch {words[1]}"]
        raise MonitorError("desk, desk pair, desk clear-c, desk general-clear, "
                           "desk initial-read, desk switch on|off")

    def do_attach(self, rest: str) -> list[str]:
        unit_text, _, path = rest.strip().partition(" ")
        if not path.strip():
            raise MonitorError("attach N FILE, or attach N FILE:rw for a reel the program "
                               "may write, e.g. attach 1 tictactoe.tape")
        try:
            unit = tape_unit(unit_text)
            spec = TapeSpec(f"{unit_text}={path.strip()}")
            self._check_free(unit, spec)
            reel = spec.load()
        except (TapeUnitError, ReelError, ValueError) as exc:
            raise MonitorError(f"{exc}; nothing was mounted") from None
        self.desk.attach(unit, reel)
        self.mounts[unit] = spec
        self.timeline.forget()
        view = next(v for v in self.desk.tape_units() if v.unit == unit)
        return [f"attached: {view.line()}"]

    def _check_free(self, unit: int, spec: TapeSpec) -> None:
        """A reel is on one Uniservo at a time, and a mounted reel comes off only by
        detach (which saves what the program wrote): ValueError otherwise."""
        name = "-" if unit == 10 else str(unit)
        reel = self.machine.tapes[unit].reel
        if reel is not None:
            raise ValueError(f"Uniservo {name} already has {reel.name} mounted: "
                             f"detach {name} first")
        wanted = _real_path(spec.path)
        for other, mounted in self.mounts.items():
            if _real_path(mounted.path) == wanted and self.machine.tapes[other].reel:
                raise ValueError(f"{spec.path} is already mounted on Uniservo "
                                 f"{'-' if other == 10 else other}: a reel is on one "
                                 f"Uniservo at a time (detach {'-' if other == 10 else other} "
                                 "first)")

    def do_detach(self, rest: str) -> list[str]:
        word = rest.strip()
        if not word:
            raise MonitorError("detach N (1-9, or -), or detach all")
        try:
            units = ([v.unit for v in self.desk.tape_units()] if word == "all"
                     else [tape_unit(word)])
        except TapeUnitError as exc:
            raise MonitorError(str(exc)) from None
        out: list[str] = []
        for unit in units:
            out += self._save_if_written(unit)
            reel = self.desk.detach(unit)
            self.mounts.pop(unit, None)
            name = "-" if unit == 10 else str(unit)
            out.append(f"Uniservo {name}: {reel.name} taken off" if reel is not None
                       else f"Uniservo {name} had no reel")
        if units:
            self.timeline.forget()
        return out or ["no reels mounted"]

    def _save_if_written(self, unit: int) -> list[str]:
        """Save the reel on ``unit`` to its file if it is writable and was written."""
        spec = self.mounts.get(unit)
        reel = self.machine.tapes[unit].reel
        if spec is None or reel is None or not spec.writable or not reel.written:
            return []
        try:
            save_reel(reel, spec.path, "written by the univac-ttt monitor")
        except OSError as exc:
            raise MonitorError(f"cannot save the reel {spec.path}: {exc.strerror or exc}; "
                               "it stays mounted") from None
        reel.written = False
        return [f"saved the reel written on Uniservo {'-' if unit == 10 else unit} to "
                f"{spec.path}"]

    def do_boot(self, rest: str) -> list[str]:
        if rest.strip() not in ("", "1"):
            raise MonitorError("boot takes no unit: INITIAL READ always reads Uniservo 1")
        stop = self.desk.boot()
        if stop is not None:
            return [stop.reason + " (attach 1 FILE first)"]
        self.timeline.forget()
        self.recorded_future = False  # the keyboard was emptied with the old run
        servo = self.machine.tapes[1]
        return [f"CLEAR C, INITIAL READ: block {servo.position} of {servo.block_count} on "
                "Uniservo 1 read into 000-059; start runs it from 000", self.describe_stop()]

    def do_save(self, rest: str) -> list[str]:
        if not rest:
            raise MonitorError("save FILE")
        try:
            check_write_target(rest)
        except TextFileError as exc:
            raise MonitorError(f"cannot write {rest!r}: it {exc.reason}") from None
        data = save_state(self.desk)
        try:
            atomic_write(rest, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise MonitorError(f"cannot write {rest}: {exc.strerror or exc}") from None
        return [f"saved the machine to {rest}"]

    def do_restore(self, rest: str) -> list[str]:
        if not rest:
            raise MonitorError("restore FILE")
        try:
            data = load_json(read_text_file(rest, FILE_LIMIT), rest, FILE_LIMIT, max_digits=19)
        except TextFileError as exc:
            raise MonitorError(f"{rest}: {exc.reason}") from None
        except JsonError as exc:
            raise MonitorError(f"not a saved machine: {exc}") from None
        try:
            restore_state(self.desk, data)
        except StateFileError as exc:
            raise MonitorError(str(exc)) from None
        self.timeline.forget()
        return [f"restored the machine from {rest}", self.describe_stop()]

    def do_do(self, rest: str) -> list[str]:
        if not rest:
            raise MonitorError("do FILE")
        if self._do_depth >= MAX_DO_DEPTH:
            raise MonitorError("do files nested too deeply")
        try:
            lines = read_text_file(rest, FILE_LIMIT).split("\n")
        except TextFileError as exc:
            raise MonitorError(f"{rest}: {exc.reason}") from None
        out: list[str] = []
        self._do_depth += 1
        try:
            for number, line in enumerate(lines, start=1):
                if self.finished:
                    break
                if not line.strip() or line.strip().startswith("#"):
                    continue
                if self._interrupted():
                    out.append(f"?? STOP was pressed: {rest} was left at line {number}")
                    break
                if not self._spend(out):
                    break
                if len(line) > COMMAND_LINE_LIMIT:
                    out.append(f"?? {rest}, line {number}: longer than "
                               f"{COMMAND_LINE_LIMIT:,} characters; not run")
                    continue
                out.append(f"monitor> {line.strip()}")
                out += self._execute_one(line)
                out += self._run_actions()
        finally:
            self._do_depth -= 1
        return out

    def do_help(self, rest: str) -> list[str]:
        if rest.lower() in ("ops", "operations"):
            return [f"{op.code:<5} {op.name:<22} {op.action}"
                    + ("  (may transfer)" if op.transfers else "") for op in OPERATIONS]
        if rest:
            command = find_command(rest.split()[0])
            aliases = f" (also {', '.join(command.aliases)})" if command.aliases else ""
            return [f"{command.usage}{aliases}", f"  {command.summary}"]
        lines = []
        for c in COMMANDS:  # a long usage gets a line of its own, not a wide column
            if len(c.usage) <= HELP_COLUMN:
                lines.append(f"{c.usage:<{HELP_COLUMN}}  {c.summary}")
            else:
                lines += [c.usage, f"{'':<{HELP_COLUMN}}  {c.summary}"]
        return lines + [
            "Addresses: 000-999, a label from the coding sheet, LABEL+n; ranges a-b or a:b.",
            "Full screen: while the UNIVAC waits for its keyboard, a line goes to the UNIVAC; "
            "start a command with ':' (e.g. :examine BRD)."]

    def do_reset(self, rest: str) -> list[str]:
        if rest:
            raise MonitorError("reset takes no arguments")
        desk = self.desk
        desk.load_program(self.words)
        desk.paper.replace("")
        self.machine.last_stop = None
        self.machine.clear_faults()
        self.timeline.forget()
        self.recorded_future = False
        self.break_counts.clear()  # counts start again; the breakpoints themselves stay
        self.watches = {a: self.machine.mem[a] for a in self.watches}
        return ["a fresh machine: the program reloaded, registers, keyboard and paper "
                "cleared (breakpoints, watches, trace and the mounted reels, where they "
                "are, kept)", self.describe_stop()]

    def do_log(self, rest: str) -> list[str]:
        if not rest:
            return [f"logging to {self.log.path}" if self.log else "no log"]
        if rest == "off":
            if self.log is None:
                raise MonitorError("no log is open")
            path = self.log.path
            self.log.close()
            self.log = None
            return [f"log {path} closed"]
        try:
            log = SessionLog(rest)
        except SessionLogError as exc:
            raise MonitorError(str(exc)) from None
        if self.log is not None:
            self.log.close()
        self.log = log
        return [f"logging to {rest} (appending; log off closes it)"]

    def do_pane(self, rest: str) -> list[str]:
        words = rest.lower().split()
        panes = self.panes
        if not words:
            return [panes.describe()]
        if len(words) == 2 and words[0] == "memory" and words[1] in MEMORY_MODES:
            panes.memory = words[1]
        elif len(words) == 2 and words[0] in ("registers", "board", "paper") \
                and words[1] in ("on", "off"):
            setattr(panes, words[0], words[1] == "on")
        else:
            raise MonitorError("pane memory wide|narrow|off, or pane registers|board|paper "
                               "on|off")
        return [panes.describe()]

    def do_quit(self, rest: str) -> list[str]:
        self.finished = True
        return ["bye"]
