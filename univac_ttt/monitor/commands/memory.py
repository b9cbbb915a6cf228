"""Words and registers: examine, deposit, fault, registers, board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...desk import TapeUnitError, tape_unit
from ...hostio.wording import count as counted
from ...machine.tape import unit_name
from ...machine.word import MEMORY_WORDS, to_int
from ...program.disassembler import view
from .registry import MonitorError, command

if TYPE_CHECKING:
    from ..core import Monitor

REGISTERS = ("rA", "rX", "rL", "rF", "rV", "rY", "CC", "CR", "SR")
BUFFERS = ("rI", "rO")  # the 60-word tape buffers: shown by examine, not by registers
_REGISTER_FIELDS = {"RA": ("a", "rA"), "RX": ("x", "rX"), "RL": ("l", "rL"), "RF": ("f", "rF")}


@command("examine", "e", "ex", usage="examine addr[-addr] | register",
         summary="show words as characters, number and instructions")
def examine(mon: Monitor, rest: str) -> list[str]:
    if not rest:
        raise MonitorError("examine what? e.g. examine 400-409, examine BRD, examine rA")
    upper = rest.upper()
    for name in REGISTERS + BUFFERS:
        if upper == name.upper():
            return mon.register_lines((name,))
    return [view(mon.machine.mem[a], a, mon.program).line() for a in mon.address_range(rest)]


@command("deposit", "d", "dep", usage="deposit addr|register word",
         summary="store a word: 12 characters, a number, or OP ADDR OP ADDR")
def deposit(mon: Monitor, rest: str) -> list[str]:
    target, _, value = rest.partition(" ")
    if not value.strip():
        raise MonitorError("deposit ADDR WORD, e.g. deposit 405 4 or deposit rA 12")
    word = mon.parse_word(value)
    upper = target.upper()
    if upper in _REGISTER_FIELDS:
        field, name = _REGISTER_FIELDS[upper]
        setattr(mon.machine, field, word)
        mon.timeline.forget()
        return mon.register_lines((name,))
    if upper == "CC":
        number = to_int(word)
        if number is None or not 0 <= number < MEMORY_WORDS:
            raise MonitorError("CC holds an address, 000-999")
        mon.machine.cc, mon.machine.half = number, 0
        mon.timeline.forget()
        return [f"CC   {number:03d}"]
    address = mon.address(target)
    mon.machine.mem[address] = word
    mon.timeline.forget()
    return [view(word, address, mon.program).line()]


@command("fault", usage="fault [addr|rA|rX|rL|rF char bit | tape N block [reads] | clear]",
         summary="flip a bit (char 1-12, bit 0-5, 6 = check bit): the odd-even check stops "
                 "the machine at the word's next use; or make a tape block fail its next "
                 "read(s)")
def fault(mon: Monitor, rest: str) -> list[str]:
    machine = mon.machine
    words = rest.split()
    if not words:
        return ([f"fault: {f.describe()}" for f in machine.faults.values()]
                + _tape_fault_lines(mon)) or ["no faults"]
    if words[0].lower() == "tape":
        return _tape_fault(mon, words[1:])
    if words == ["clear"]:
        machine.clear_faults()
        mon.timeline.forget()
        return ["no faults: every check bit is right again"]
    if len(words) != 3 or not all(w.isascii() and w.isdigit() for w in words[1:]):
        raise MonitorError("fault ADDR|REGISTER CHAR BIT, e.g. fault 400 12 0 or "
                           "fault rA 1 6 (bit 6 is the check bit); fault clear")
    register = _REGISTER_FIELDS.get(words[0].upper())
    where: int | str = register[1] if register else mon.address(words[0])
    try:
        flipped = machine.inject_fault(where, int(words[1]) - 1, int(words[2]))
    except ValueError as exc:
        raise MonitorError(str(exc)) from None
    mon.timeline.forget()
    shown = (mon.register_lines((where,)) if isinstance(where, str)
             else [view(machine.mem[where], where, mon.program).line()])
    return [f"fault: {flipped.describe()} flipped; the next instruction that uses it "
            "stops with the ODD-EVEN CHECK neon lit", *shown]


def _tape_fault_lines(mon: Monitor) -> list[str]:
    tapes = mon.machine.tapes
    lines = [f"fault: Uniservo {servo.name}, block {index + 1} fails its next "
             f"{counted(reads, 'read')}"
             for servo in tapes.mounted() if servo.reel is not None
             for index, reads in sorted(servo.reel.bad.items())]
    if tapes.ri_check is not None:
        unit, index, _ = tapes.ri_check
        name = unit_name(unit)
        lines.append(f"fault: rI holds block {index + 1} of Uniservo {name}, which did not "
                     f"read correctly (desk reread {name})")
    return lines


def _tape_fault(mon: Monitor, words: list[str]) -> list[str]:
    """fault tape N BLOCK [READS]: a bad block on the reel on Uniservo N."""
    if len(words) not in (2, 3) or not all(w.isascii() and w.isdigit() for w in words[1:]):
        raise MonitorError("fault tape N BLOCK [READS], e.g. fault tape 2 3: block 3 of the "
                           "reel on Uniservo 2 fails its next read (or READS reads)")
    try:
        unit = tape_unit(words[0])
        reads = int(words[2]) if len(words) == 3 else 1
        mon.desk.inject_tape_fault(unit, int(words[1]), reads)
    except (TapeUnitError, ValueError) as exc:
        raise MonitorError(f"{exc}; no fault was made") from None
    mon.timeline.forget()
    return [f"fault: block {int(words[1])} of Uniservo {words[0]} fails its next "
            f"{counted(reads, 'read')}: the read stops with the TAPE CHECK neon lit; "
            f"recover with desk reread {words[0]}, then continue"]


@command("registers", "r", "reg", usage="registers", summary="all registers")
def registers(mon: Monitor, rest: str) -> list[str]:
    return mon.register_lines()


@command("board", "bo", usage="board", summary="the program's board decoded from memory")
def board(mon: Monitor, rest: str) -> list[str]:
    if mon.board_reader is None:
        raise MonitorError("this program has no board: no pack reads one for it (an image "
                           "or sheet loaded by name has no pack; monitor --program NAME "
                           "loads a pack, its board reader too)")
    return mon.board_reader(mon.machine.mem)
