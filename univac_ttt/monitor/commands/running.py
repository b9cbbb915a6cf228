"""Running the machine and moving through its time: step, next, go, continue, trace,
history, back, where."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...machine.ops import decode
from ...machine.word import MEMORY_WORDS, to_text
from ...program.disassembler import symbol_for
from .registry import MonitorError, command, count_word

if TYPE_CHECKING:
    from ..core import Monitor

HISTORY_DEFAULT = 10
HISTORY_LIMIT = 10_000  # instructions history lists at most


@command("step", "s", usage="step [n]", summary="execute n instructions (default 1)")
def step(mon: Monitor, rest: str) -> list[str]:
    return mon.run(count_word(rest))


@command("next", "n", usage="next", summary="step over an R/U subroutine call")
def next_(mon: Monitor, rest: str) -> list[str]:
    if rest:
        raise MonitorError("next takes no arguments")
    machine = mon.machine
    address, half = machine.next_instruction_address()
    pair = machine.mem[address] if half == "left" else machine.cr
    calls = any(decode(part)[0].code == "R" for part in (pair[:6], pair[6:]))
    if not calls:
        return mon.run(1)
    target = (address + 1) % MEMORY_WORDS
    return mon.run(None, until=lambda: machine.next_instruction_address() == (target, "left"))


@command("go", "g", usage="go [addr]",
         summary="run from addr (or on) until a stop or breakpoint")
def go(mon: Monitor, rest: str) -> list[str]:
    if rest:
        start = mon.address(rest)
        mon.machine.cc, mon.machine.half = start, 0
        mon.timeline.forget()
    return mon.run(None)


@command("continue", "c", "cont", usage="continue",
         summary="run on from where the machine is")
def continue_(mon: Monitor, rest: str) -> list[str]:
    if rest:
        raise MonitorError("continue takes no arguments (use go ADDR)")
    return mon.run(None)


@command("trace", "t", usage="trace on|off", summary="print each instruction as it executes")
def trace(mon: Monitor, rest: str) -> list[str]:
    if rest not in ("on", "off"):
        raise MonitorError("trace on or trace off")
    mon.tracing = rest == "on"
    return [f"trace {rest}"]


@command("history", "hi", usage="history [n]", summary="the last n instructions executed")
def history(mon: Monitor, rest: str) -> list[str]:
    count = count_word(rest, HISTORY_DEFAULT)
    if count > HISTORY_LIMIT:
        raise MonitorError(f"history lists at most {HISTORY_LIMIT:,} instructions "
                           "(use back to go further)")
    machine = mon.machine
    now = machine.instructions
    earliest = mon.timeline.earliest
    if earliest is None or earliest >= now:
        return ["no history recorded yet"]
    start = max(earliest, now - count)
    present = machine.snapshot()
    pending = mon.keyboard.pending_words
    last_stop = machine.last_stop
    lines: list[str] = []
    mon.timeline.go_to(start)

    def note(address: int, half: str, instruction: str) -> bool:
        lines.append(mon.trace_line(address, half, instruction))
        return False

    try:
        mon.desk.replay(now, note)
    finally:
        machine.last_stop = last_stop
    if machine.snapshot() != present or mon.keyboard.pending_words != pending:
        raise MonitorError("history replay disagreed with the present (please report)")
    return lines


@command("back", "ba", usage="back [n]",
         summary="reverse n instructions (default 1), exactly")
def back(mon: Monitor, rest: str) -> list[str]:
    count = count_word(rest)
    machine = mon.machine
    earliest = mon.timeline.earliest
    if earliest is None or machine.instructions - count < earliest:
        available = 0 if earliest is None else machine.instructions - earliest
        raise MonitorError(f"only {available:,} instructions of history can be undone")
    read = mon.keyboard.read
    try:
        mon.timeline.go_to(machine.instructions - count)
    except ValueError as exc:
        raise MonitorError(str(exc)) from None
    out = [mon.describe_stop()]
    if mon.keyboard.read < read:
        # Words read in the undone stretch wait to be read again; a new type replaces
        # them (the recorded future is discarded, as an editor's undo then typing).
        mon.recorded_future = True
        words = " ".join(to_text(w).rstrip("Δ").lstrip("0") or "0"
                         for w in mon.keyboard.pending_words)
        out.append(f"(the keyboard will read the recorded words again: {words}; "
                   "type replaces them)")
    return out


@command("where", "wh", usage="where", summary="which part of the program this is")
def where(mon: Monitor, rest: str) -> list[str]:
    address, half = mon.machine.next_instruction_address()
    program = mon.program
    if program is None:
        return [f"{address:03d} {half}: no coding sheet for this image"]
    section = program.sections.get(address, "(outside the program)")
    label = symbol_for(address, program) or f"{address:03d}"
    remark = program.remarks.get(address, "")
    line = f"{address:03d} {half} = {label}, in: {section}"
    return [line] + ([f"remark: {remark}"] if remark else [])
