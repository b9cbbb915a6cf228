"""Where a run stops: break, nobreak, watch, nowatch (SIMH's breakpoints, with counts and
commands after them, and watched words)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...machine.ops import OPERATIONS, find_operation
from ...machine.word import to_text
from ...program.disassembler import symbol_for
from .registry import COMMAND_LINE_LIMIT, MonitorError, command

if TYPE_CHECKING:
    from ..core import Monitor

MAX_WATCHES = 16
MAX_BREAK_ACTIONS = 20


@command("break", "b", usage="break [addr[count][; cmd; ...] | -op X | -keyboard | -printer]",
         summary="stop before an address (on its count'th arrival, then running the commands "
                 "after ';') or an operation; alone, list breakpoints")
def break_(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        return break_lines(mon) or ["no breakpoints"]
    machine = mon.machine
    if rest.startswith("-"):  # an operation: its code may hold a ';' (the ;n shift)
        executor, code = _op_executor(rest.split())
        machine.break_executors.add(executor)
        return [f"break before every {code} instruction"]
    spec, semicolon, tail = rest.partition(";")
    actions = [a.strip() for a in tail.split(";") if a.strip()] if semicolon else []
    words = spec.split()
    if not words:
        raise MonitorError("break ADDR[COUNT][; COMMAND; ...], e.g. break FIND[3]; "
                           "examine rA; continue")
    if len(actions) > MAX_BREAK_ACTIONS or any(len(a) > COMMAND_LINE_LIMIT for a in actions):
        raise MonitorError(f"at most {MAX_BREAK_ACTIONS} commands of up to "
                           f"{COMMAND_LINE_LIMIT:,} characters after a breakpoint")
    targets: list[tuple[int, int]] = []
    for word in words:
        match = re.fullmatch(r"(.+?)\[(\d{1,9})\]", word)
        if match and int(match.group(2)) < 1:
            raise MonitorError("a breakpoint's count is 1 or more")
        targets.append((mon.address(match.group(1)), int(match.group(2))) if match
                       else (mon.address(word), 1))
    lines = []
    for address, count in targets:
        machine.break_addresses.add(address)
        mon.break_counts.pop(address, None)
        mon.break_actions.pop(address, None)
        if count > 1:
            mon.break_counts[address] = count
        if actions:
            mon.break_actions[address] = actions
        lines.append(_break_line(mon, address))
    return lines


@command("nobreak", "nob", usage="nobreak [addr | -op X | -keyboard | -printer | all]",
         summary="remove breakpoints")
def nobreak(mon: Monitor, rest: str) -> list[str]:
    machine = mon.machine
    if not rest or rest == "all":
        machine.break_addresses.clear()
        machine.break_executors.clear()
        mon.break_counts.clear()
        mon.break_actions.clear()
        return ["all breakpoints removed"]
    words = rest.split()
    if words[0].startswith("-"):
        executor, code = _op_executor(words)
        if executor not in machine.break_executors:
            raise MonitorError(f"no break on {code}")
        machine.break_executors.discard(executor)
        return [f"no break on {code}"]
    address = mon.address(rest)
    if address not in machine.break_addresses:
        raise MonitorError(f"no breakpoint at {address:03d}")
    machine.break_addresses.discard(address)
    mon.break_counts.pop(address, None)
    mon.break_actions.pop(address, None)
    return [f"breakpoint at {address:03d} removed"]


@command("watch", "w", usage="watch addr", summary="stop when that word changes")
def watch(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        return watch_lines(mon)
    address = mon.address(rest)
    if address not in mon.watches and len(mon.watches) >= MAX_WATCHES:
        raise MonitorError(f"at most {MAX_WATCHES} watches (each makes every instruction "
                           "slower); nowatch one first")
    mon.watches[address] = mon.machine.mem[address]
    return [f"watching {address:03d} (runs are traced step by step while watching)"]


@command("nowatch", usage="nowatch [addr | all]", summary="stop watching")
def nowatch(mon: Monitor, rest: str) -> list[str]:
    if not rest or rest == "all":
        mon.watches.clear()
        return ["no watches"]
    address = mon.address(rest)
    if mon.watches.pop(address, None) is None:
        raise MonitorError(f"not watching {address:03d}")
    return [f"stopped watching {address:03d}"]


def break_lines(mon: Monitor) -> list[str]:
    """One line a breakpoint: addresses (with counts and commands), then operations."""
    machine = mon.machine
    lines = [_break_line(mon, a) for a in sorted(machine.break_addresses)]
    codes = sorted(o.code for o in OPERATIONS if o.execute in machine.break_executors)
    return lines + [f"break before every {code} instruction" for code in codes]


def watch_lines(mon: Monitor) -> list[str]:
    return [f"watching {a:03d} = {to_text(w)}" for a, w in sorted(mon.watches.items())
            ] or ["no watches"]


def _op_executor(words: list[str]) -> tuple[object, str]:
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


def _break_line(mon: Monitor, address: int) -> str:
    symbol = symbol_for(address, mon.program)
    line = f"break at {address:03d}" + (f" ({symbol})" if symbol else "")
    if address in mon.break_counts:
        line += f", stopping on arrival {mon.break_counts[address]:,} from now"
    if address in mon.break_actions:
        line += "; then: " + "; ".join(mon.break_actions[address])
    return line
