"""Whole-machine state as JSON (never pickle), for the monitor's save and restore.

Restoring checks everything first: the machine changes only if the whole file is good.
"""

from __future__ import annotations

from collections.abc import Callable

from ..desk import Desk
from ..machine import MachineState
from ..machine.checking import CHECK_BIT, Fault, parse_location
from ..machine.tape import UNITS, Reel, TapesState, UnitState
from ..machine.word import (
    LAST_ADDRESS,
    MEMORY_WORDS,
    TAPE_BLOCK_WORDS,
    ZERO,
    from_text,
    to_text,
)


class StateFileError(ValueError):
    """Not a saved machine; the message says what is wrong."""

STATE_FORMAT = "univac-ttt machine state 1"


def save_state(desk: Desk) -> dict[str, object]:
    s = desk.machine.snapshot()
    return {
        "format": STATE_FORMAT,
        "memory": [to_text(w) for w in s.mem],
        "registers": {"rA": to_text(s.a), "rX": to_text(s.x), "rL": to_text(s.l),
                      "rF": to_text(s.f), "rV": [to_text(w) for w in s.v],
                      "rY": [to_text(w) for w in s.y], "CR": to_text(s.cr),
                      "rI": [to_text(w) for w in s.ri], "rO": [to_text(w) for w in s.ro]},
        "CC": s.cc, "half": s.half, "CR_address": s.cr_address,
        "counters": {"instructions": s.instructions, "pulses": s.pulses,
                     "keyboard_words": s.keyboard_words, "printed_words": s.printed_words,
                     "overflows": s.overflows},
        "breakpoint_switch": s.breakpoint_switch,
        "faults": [{"location": f.location, "position": f.position, "bit": f.bit,
                    "word": to_text(f.word)} for f in s.faults],
        "keyboard_pending": [to_text(w) for w in desk.keyboard.pending_words],
        "paper": desk.paper.text,
        "tapes": _tapes_data(s.tapes),
    }


def _tapes_data(tapes: TapesState) -> dict[str, object]:
    """The Uniservos: each unit's reel (name, blocks), head, interlock and busy time."""
    return {
        "ri_ready": tapes.ri_ready, "ro_free": tapes.ro_free,
        "blocks_read": tapes.blocks_read, "blocks_written": tapes.blocks_written,
        "units": [{"unit": u.number, "position": u.position, "interlocked": u.interlocked,
                   "busy_until": u.busy_until, "motion": u.motion,
                   "reel": None if u.reel is None else {
                       "name": u.reel_name, "writable": u.reel.writable,
                       "written": u.written,
                       "blocks": [[to_text(w) for w in block] for block in u.blocks]}}
                  for u in tapes.units],
    }


def restore_state(desk: Desk, data: object) -> None:
    """Check everything first; the machine changes only if the whole state is good."""
    def fail(why: str) -> StateFileError:
        return StateFileError(f"not a saved machine: {why}")

    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise fail(f"the format line is not '{STATE_FORMAT}'")

    def word(text: object, what: str) -> str:
        if not isinstance(text, str):
            raise fail(f"{what} is not text")
        try:
            return from_text(text)
        except ValueError as exc:
            raise fail(f"{what}: {exc}") from None

    def number(value: object, what: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise fail(f"{what} must be a whole number from {low} to {high}")
        return value

    def switch(value: object) -> bool:
        if not isinstance(value, bool):
            raise fail("breakpoint_switch must be true or false")
        return value

    memory = data.get("memory")
    if not isinstance(memory, list) or len(memory) != MEMORY_WORDS:
        raise fail(f"memory must list {MEMORY_WORDS} words")
    registers = data.get("registers")
    counters = data.get("counters")
    if not isinstance(registers, dict) or not isinstance(counters, dict):
        raise fail("registers and counters are missing")
    rv, ry = registers.get("rV"), registers.get("rY")
    if not isinstance(rv, list) or len(rv) != 2 or not isinstance(ry, list) or len(ry) != 10:
        raise fail("rV must hold 2 words and rY 10")
    blank_buffer = [to_text(ZERO)] * TAPE_BLOCK_WORDS
    ri, ro = registers.get("rI", blank_buffer), registers.get("rO", blank_buffer)
    if not isinstance(ri, list) or len(ri) != TAPE_BLOCK_WORDS or not isinstance(ro, list) \
            or len(ro) != TAPE_BLOCK_WORDS:
        raise fail(f"rI and rO must hold {TAPE_BLOCK_WORDS} words each")
    faults = data.get("faults", [])
    if not isinstance(faults, list) or not all(isinstance(f, dict) for f in faults):
        raise fail("faults must be a list of objects")

    def fault(entry: dict[str, object]) -> Fault:
        where = entry.get("location")
        try:
            numeric = isinstance(where, int) and not isinstance(where, bool)
            location = parse_location(f"{where:03d}" if numeric else str(where))
        except ValueError as exc:
            raise fail(f"fault location: {exc}") from None
        return Fault(location, number(entry.get("position"), "fault position", 0, 11),
                     number(entry.get("bit"), "fault bit", 0, CHECK_BIT),
                     word(entry.get("word"), "fault word"))

    big = 10**15
    tapes = _tapes_state(desk, data.get("tapes"), fail, word, number)
    state = MachineState(
        tuple(word(w, f"memory word {i:03d}") for i, w in enumerate(memory)),
        word(registers.get("rA"), "rA"), word(registers.get("rX"), "rX"),
        word(registers.get("rL"), "rL"), word(registers.get("rF"), "rF"),
        tuple(word(w, "rV") for w in rv), tuple(word(w, "rY") for w in ry),
        tuple(word(w, "rI") for w in ri), tuple(word(w, "rO") for w in ro),
        number(data.get("CC"), "CC", 0, LAST_ADDRESS),
        word(registers.get("CR", to_text(ZERO)), "CR"),
        number(data.get("half"), "half", 0, 1),
        number(counters.get("instructions"), "instructions", 0, big),
        number(data.get("CR_address", (data.get("CC", 1) - 1) % MEMORY_WORDS
                        if isinstance(data.get("CC"), int) else 0), "CR_address", 0,
               LAST_ADDRESS),
        number(counters.get("pulses"), "pulses", 0, big * 1000),
        number(counters.get("keyboard_words"), "keyboard_words", 0, big),
        number(counters.get("printed_words"), "printed_words", 0, big),
        number(counters.get("overflows"), "overflows", 0, big),
        switch(data.get("breakpoint_switch", False)),
        tuple(fault(f) for f in faults),
        tapes,
    )
    pending = data.get("keyboard_pending", [])
    paper = data.get("paper", "")
    if not isinstance(pending, list) or not isinstance(paper, str):
        raise fail("keyboard_pending must be a list and paper text")
    pending_words = [word(w, "a keyboard word") for w in pending]
    desk.restore(state)
    desk.keyboard.replace_pending(pending_words)
    desk.paper.replace(paper)


Fail = Callable[[str], StateFileError]
Word = Callable[[object, str], str]
Number = Callable[[object, str, int, int], int]


def _tapes_state(desk: Desk, tapes: object, fail: Fail, word: Word,
                 number: Number) -> TapesState:
    """The Uniservos from a saved state; a file saved before tapes keeps the present ones.
    A reel of the same name as the one mounted now is the same reel (its file stays
    attached); another becomes a reel held in memory."""
    if tapes is None:
        return desk.machine.tapes.state()
    if not isinstance(tapes, dict) or not isinstance(tapes.get("units"), list):
        raise fail("tapes must be an object with a list of units")
    big = 10**18
    units: dict[int, UnitState] = {}
    for entry in tapes["units"]:
        if not isinstance(entry, dict):
            raise fail("each tape unit must be an object")
        unit = number(entry.get("unit"), "tape unit", UNITS[0], UNITS[-1])
        if unit in units:
            raise fail(f"tape unit {unit} is listed twice")
        motion = entry.get("motion", "")
        interlocked = entry.get("interlocked", False)
        if not isinstance(motion, str) or len(motion) > 40 or not isinstance(interlocked, bool):
            raise fail("a tape unit's motion must be text and interlocked true or false")
        reel_data = entry.get("reel")
        reel: Reel | None = None
        name, blocks, written = "", (), False
        if reel_data is not None:
            if not isinstance(reel_data, dict) or not isinstance(reel_data.get("blocks"), list):
                raise fail("a reel must be an object with its blocks")
            name, writable = reel_data.get("name", "reel"), reel_data.get("writable", False)
            written = reel_data.get("written", False)
            if not isinstance(name, str) or not isinstance(writable, bool) \
                    or not isinstance(written, bool):
                raise fail("a reel's name must be text, writable and written true or false")
            blocks = tuple(_block(b, fail, word) for b in reel_data["blocks"])
            present = desk.machine.tapes[unit].reel
            reel = (present if present is not None and present.name == name
                    and present.writable == writable else Reel([], writable, name))
        position = number(entry.get("position", 0), "tape position", 0, len(blocks))
        units[unit] = UnitState(unit, reel, name, blocks, written, position, interlocked,
                                number(entry.get("busy_until", 0), "busy_until", 0, big),
                                motion)
    return TapesState(tuple(units[u] for u in sorted(units)),
                      *(number(tapes.get(key, 0), key, 0, big) for key in
                        ("ri_ready", "ro_free", "blocks_read", "blocks_written")))


def _block(block: object, fail: Fail, word: Word) -> tuple[str, ...]:
    if not isinstance(block, list) or len(block) != TAPE_BLOCK_WORDS:
        raise fail(f"a tape block must hold {TAPE_BLOCK_WORDS} words")
    return tuple(word(w, "a tape word") for w in block)
