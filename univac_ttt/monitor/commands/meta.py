"""The monitor about itself: show, pane, help, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...machine.ops import OPERATIONS
from ..panes import MEMORY_MODES
from .breaks import break_lines, watch_lines
from .registry import COMMANDS, MonitorError, command, find_command

if TYPE_CHECKING:
    from ..core import Monitor

HELP_COLUMN = 24  # usages up to this wide share a line with their summary


@command("show", "sh", usage="show break | watch | options | tapes", summary="show settings")
def show(mon: Monitor, rest: str) -> list[str]:
    machine = mon.machine
    if rest in ("break", "breaks", "b"):
        return break_lines(mon) or ["no breakpoints"]
    if rest in ("watch", "watches", "w"):
        return watch_lines(mon)
    if rest in ("tapes", "tape", "t"):
        return [unit.line() for unit in mon.desk.tape_units()] or [
            "no reels mounted (attach N FILE)"]
    if rest in ("options", "o"):
        o = machine.options
        return [f"right half after a transfer: {o.right_half_after_transfer}",
                f"overflow: {o.overflow}", f"timing: {o.timing}",
                f"breakpoint switch: {machine.breakpoint_switch}",
                f"trace: {'on' if mon.tracing else 'off'}"]
    raise MonitorError("show break, show watch, show options or show tapes")


@command("pane", usage="pane [memory wide|narrow|off | registers|board|paper on|off]",
         summary="choose the full screen's panes (also F2, F3, F4, F6)")
def pane(mon: Monitor, rest: str) -> list[str]:
    words = rest.lower().split()
    panes = mon.panes
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


@command("help", "h", "?", usage="help [command | ops]",
         summary="list commands, explain one, or list the operations")
def help_(mon: Monitor, rest: str) -> list[str]:
    if rest.lower() in ("ops", "operations"):
        return [f"{op.code:<5} {op.name:<22} {op.action}"
                + ("  (may transfer)" if op.transfers else "") for op in OPERATIONS]
    if rest:
        found = find_command(rest.split()[0])
        aliases = f" (also {', '.join(found.aliases)})" if found.aliases else ""
        return [f"{found.usage}{aliases}", f"  {found.summary}"]
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


@command("quit", "q", "exit", usage="quit", summary="leave the monitor")
def quit_(mon: Monitor, rest: str) -> list[str]:
    mon.finished = True
    return ["bye"]
