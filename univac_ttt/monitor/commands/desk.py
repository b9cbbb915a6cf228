"""The Supervisory Control desk and its devices: type, paper, desk, attach, detach, boot,
reset."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...desk import TapeUnitError, tape_unit
from ...machine import KeyboardEntryError
from ...machine.word import to_text
from ...program.reel import ReelError, TapeSpec, save_reel
from .registry import MonitorError, command, count_word

if TYPE_CHECKING:
    from ..core import Monitor


@command("type", "ty", "key", usage="type text",
         summary="type a line on the UNIVAC keyboard (the word goes to the 10 instruction)")
def type_(mon: Monitor, rest: str) -> list[str]:
    keyboard = mon.keyboard
    replaced = keyboard.pending_words if mon.recorded_future else []
    try:
        if replaced:
            keyboard.replace_pending([])
        word = keyboard.type_line(rest)
    except KeyboardEntryError as exc:
        if replaced:
            keyboard.replace_pending(replaced)
        raise MonitorError(f"{exc}; nothing was typed") from None
    mon.recorded_future = False
    note = "" if mon.waiting_for_keyboard else " (the UNIVAC will read it at its next 10)"
    out = [f"keyboard word {to_text(word)} released{note}"]
    if replaced:
        out.append(f"(it replaces the recorded {len(replaced)} word"
                   f"{'s' if len(replaced) > 1 else ''}: the old future is discarded)")
    return out


@command("paper", "pa", usage="paper [n]", summary="the last n lines of the printer paper")
def paper(mon: Monitor, rest: str) -> list[str]:
    count = count_word(rest, 12)
    lines = mon.desk.paper.text.split("\n")
    return [f"| {line}" for line in lines[-count:]]


@command("desk", usage="desk [pair | clear-c | general-clear | initial-read | reread N | "
                      "switch on|off]",
         summary="the Supervisory Control desk: neons, one-pair step, clears, INITIAL READ, "
                 "the reread after a tape check, the ,0 breakpoint switch")
def desk(mon: Monitor, rest: str) -> list[str]:
    desk = mon.desk
    words = rest.lower().split()
    if not words:
        lit = desk.neons.lit()
        return [f"neons: {', '.join(lit) or 'none lit'}",
                f"breakpoint switch (,0 stops): {'on' if desk.breakpoint_switch else 'off'}"]
    if words == ["pair"]:
        mon.timeline.checkpoint()
        mon.machine.resume_past_breakpoint()
        desk.step_pair()
        return [mon.describe_stop()]
    if words == ["clear-c"]:
        desk.clear_c()
        mon.timeline.forget()
        return ["CLEAR C: the control register is cleared", mon.describe_stop()]
    if words == ["general-clear"]:
        desk.general_clear()
        mon.timeline.forget()
        return ["GENERAL CLEAR: registers cleared, CC 000; memory kept", mon.describe_stop()]
    if words == ["initial-read"]:
        stop = desk.initial_read()
        if stop is not None:
            return [stop.reason]
        mon.timeline.forget()
        block = mon.machine.tapes[1].position
        return [f"INITIAL READ: block {block} of Uniservo 1 read into 000-059",
                mon.describe_stop()]
    if len(words) == 2 and words[0] == "reread":
        try:
            stop = desk.reread(tape_unit(words[1]))
        except TapeUnitError as exc:
            raise MonitorError(str(exc)) from None
        mon.timeline.forget()
        if stop is not None:
            return [stop.reason]
        return [f"REREAD: Uniservo {words[1]} backed over the block and read it "
                "correctly into rI; the TAPE CHECK neon is out (continue goes on)",
                mon.describe_stop(with_stop=False)]
    if len(words) == 2 and words[0] == "switch" and words[1] in ("on", "off"):
        desk.breakpoint_switch = words[1] == "on"
        return [f"breakpoint switch {words[1]}"]
    raise MonitorError("desk, desk pair, desk clear-c, desk general-clear, "
                       "desk initial-read, desk reread N, desk switch on|off")


@command("attach", "at", usage="attach N FILE[:rw]",
         summary="mount a reel file on an empty Uniservo N (1-9, - for the tenth; a reel is on "
                 "one Uniservo at a time: detach first); :rw lets the program "
                 "write it (detach saves it)", files=True)
def attach(mon: Monitor, rest: str) -> list[str]:
    unit_text, _, path = rest.strip().partition(" ")
    if not path.strip():
        raise MonitorError("attach N FILE, or attach N FILE:rw for a reel the program "
                           "may write, e.g. attach 1 tictactoe.tape")
    try:
        unit = tape_unit(unit_text)
        spec = TapeSpec(f"{unit_text}={path.strip()}")
        _check_free(mon, unit, spec)
        reel = spec.load()
    except (TapeUnitError, ReelError, ValueError) as exc:
        raise MonitorError(f"{exc}; nothing was mounted") from None
    mon.desk.attach(unit, reel)
    mon.mounts[unit] = spec
    mon.timeline.forget()
    mounted = next(v for v in mon.desk.tape_units() if v.unit == unit)
    return [f"attached: {mounted.line()}"]


@command("detach", "det", usage="detach N | all",
         summary="take the reel off Uniservo N; a reel the program wrote is saved to its file",
         files=True)
def detach(mon: Monitor, rest: str) -> list[str]:
    word = rest.strip()
    if not word:
        raise MonitorError("detach N (1-9, or -), or detach all")
    try:
        units = ([v.unit for v in mon.desk.tape_units()] if word == "all"
                 else [tape_unit(word)])
    except TapeUnitError as exc:
        raise MonitorError(str(exc)) from None
    out: list[str] = []
    for unit in units:
        out += _save_if_written(mon, unit)
        reel = mon.desk.detach(unit)
        mon.mounts.pop(unit, None)
        name = _unit_name(unit)
        out.append(f"Uniservo {name}: {reel.name} taken off" if reel is not None
                   else f"Uniservo {name} had no reel")
    if units:
        mon.timeline.forget()
    return out or ["no reels mounted"]


@command("boot", usage="boot",
         summary="CLEAR C and INITIAL READ: block 1 of Uniservo 1 into 000-059, CC at 000")
def boot(mon: Monitor, rest: str) -> list[str]:
    if rest.strip() not in ("", "1"):
        raise MonitorError("boot takes no unit: INITIAL READ always reads Uniservo 1")
    stop = mon.desk.boot()
    if stop is not None:
        return [stop.reason + " (attach 1 FILE first)"]
    mon.timeline.forget()
    mon.recorded_future = False  # the keyboard was emptied with the old run
    servo = mon.machine.tapes[1]
    return [f"CLEAR C, INITIAL READ: block {servo.position} of {servo.block_count} on "
            "Uniservo 1 read into 000-059; start runs it from 000", mon.describe_stop()]


@command("reset", "new", usage="reset",
         summary="a fresh machine with the program reloaded "
                 "(memory, registers, keyboard and paper; breakpoints are kept)")
def reset(mon: Monitor, rest: str) -> list[str]:
    if rest:
        raise MonitorError("reset takes no arguments")
    mon.desk.load_program(mon.words)
    mon.desk.paper.replace("")
    mon.machine.last_stop = None
    mon.machine.clear_faults()
    mon.timeline.forget()
    mon.recorded_future = False
    mon.break_counts.clear()  # counts start again; the breakpoints themselves stay
    mon.watches = {a: mon.machine.mem[a] for a in mon.watches}
    return ["a fresh machine: the program reloaded, registers, keyboard and paper "
            "cleared (breakpoints, watches, trace and the mounted reels, where they "
            "are, kept)", mon.describe_stop()]


def _unit_name(unit: int) -> str:
    return "-" if unit == 10 else str(unit)


def _real_path(path: Path) -> Path:
    """Where a file really is (links followed), to tell when two names are one reel."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: the name as it stands
        return path.absolute()


def _check_free(mon: Monitor, unit: int, spec: TapeSpec) -> None:
    """A reel is on one Uniservo at a time, and a mounted reel comes off only by
    detach (which saves what the program wrote): ValueError otherwise."""
    name = _unit_name(unit)
    reel = mon.machine.tapes[unit].reel
    if reel is not None:
        raise ValueError(f"Uniservo {name} already has {reel.name} mounted: "
                         f"detach {name} first")
    wanted = _real_path(spec.path)
    for other, mounted in mon.mounts.items():
        if _real_path(mounted.path) == wanted and mon.machine.tapes[other].reel:
            raise ValueError(f"{spec.path} is already mounted on Uniservo "
                             f"{_unit_name(other)}: a reel is on one "
                             f"Uniservo at a time (detach {_unit_name(other)} first)")


def _save_if_written(mon: Monitor, unit: int) -> list[str]:
    """Save the reel on ``unit`` to its file if it is writable and was written."""
    spec = mon.mounts.get(unit)
    reel = mon.machine.tapes[unit].reel
    if spec is None or reel is None or not spec.writable or not reel.written:
        return []
    try:
        save_reel(reel, spec.path, "written by the univac-ttt monitor")
    except OSError as exc:
        raise MonitorError(f"cannot save the reel {spec.path}: {exc.strerror or exc}; "
                           "it stays mounted") from None
    reel.written = False
    return [f"saved the reel written on Uniservo {_unit_name(unit)} to {spec.path}"]
