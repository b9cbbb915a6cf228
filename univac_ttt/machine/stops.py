"""Stops are values: why the machine stopped, where, and in plain English (SIMH style).

Named tuples rather than frozen dataclasses: importing dataclasses (with inspect, ast,
dis and tokenize) was a fifth of a start-up (docs/performance-log.md, "Start-up")."""

from __future__ import annotations

from enum import Enum

from .records import Record


class StopKind(Enum):
    HALT = "normal stop"  # 90m
    BREAKPOINT = "breakpoint stop"  # ,0m with the breakpoint switch set
    KEYBOARD = "keyboard wait"  # 10m with no word typed yet (input-ready lamp lit)
    STEP_LIMIT = "step limit"  # still running: the caller's step budget ran out
    ERROR = "error stop"
    MONITOR = "monitor stop"  # a breakpoint or watch set from the lecture monitor
    INTERRUPT = "operator stop"  # the STOP key at the desk, between instructions


class StopRequest(Record):
    """What an instruction asks of the control unit; the CPU adds the address."""

    kind: StopKind
    reason: str
    advance: bool  # True: on restart, go on with the next instruction


class Stop(Record):
    kind: StopKind
    address: int  # the word holding the instruction that stopped
    half: str  # "left" or "right"
    reason: str

    @property
    def is_error(self) -> bool:
        return self.kind is StopKind.ERROR

    def describe(self) -> str:
        return f"{self.kind.value} at {self.address:03d} ({self.half}): {self.reason}"


HALT = StopRequest(StopKind.HALT, "stop instruction (90)", advance=True)
BREAKPOINT = StopRequest(StopKind.BREAKPOINT, "breakpoint stop (,0) with the switch set",
                         advance=True)
KEYBOARD_WAIT = StopRequest(StopKind.KEYBOARD, "waiting for a word from the keyboard (10)",
                            advance=False)


def error(reason: str) -> StopRequest:
    """An error stop; the control counter stays on the failing instruction."""
    return StopRequest(StopKind.ERROR, reason, advance=False)
