"""The desk's error neons and its input-ready lamp, as state a front end can show.

The UNIVAC's console lit a neon for each kind of fault (REFERENCE 6, U13). Here each neon
is read from why the machine last stopped: the CPU's error stops name their fault first
("adder fault: ...", "overflow: ...", ...), and the neon is that name.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..machine import Stop, StopKind

# Neon name -> the beginning of the error stop's reason that lights it.
_FAULTS = {
    "adder_fault": "adder fault",
    "overflow": "overflow",
    "divide_overflow": "divide overflow",
    "invalid_instruction": "invalid instruction",
    "bad_address": "bad address",
}


@dataclass(frozen=True)
class Neons:
    adder_fault: bool = False
    overflow: bool = False
    divide_overflow: bool = False
    invalid_instruction: bool = False
    bad_address: bool = False
    input_ready: bool = False

    def lit(self) -> list[str]:
        """The names of the lit neons, as the desk labels them."""
        return [f.name.replace("_", " ").upper() for f in fields(self) if getattr(self, f.name)]


def neons_for(stop: Stop | None) -> Neons:
    if stop is None:
        return Neons()
    if stop.kind is StopKind.KEYBOARD:
        return Neons(input_ready=True)
    if stop.kind is not StopKind.ERROR:
        return Neons()
    lit = {name: stop.reason.startswith(prefix) for name, prefix in _FAULTS.items()}
    return Neons(**lit)
