"""The desk's error neons and its input-ready lamp, as state a front end can show.

The UNIVAC's checking circuits stopped the computer "the instant an error occurs" and lit a
neon on the control panel "indicating the nature of the error" (S-ELEM-chk; docs/fidelity.md,
"The desk"). Here each neon is read from why the machine last stopped: the CPU's error stops
name their fault first ("odd-even check failed: ...", "adder fault: ...", ...), and the neon
is that kind. The odd-even and tape checks name their neon in the stop's reason as well, so
the message and the lamp cannot disagree (a test holds every neon to its reason).
"""

from __future__ import annotations

from ..machine import Stop, StopKind
from ..machine.records import Record

# Neon field -> the beginning of the error stop's reason that lights it.
FAULTS = {
    "odd_even_check": "odd-even check",
    "tape_check": "tape check",
    "adder_fault": "adder fault",
    "overflow": "overflow",
    "divide_overflow": "divide overflow",
    "invalid_instruction": "invalid instruction",
    "bad_address": "bad address",
}


class Neons(Record):
    """The neons at one moment (a named tuple: immutable, and no dataclasses at start-up)."""

    odd_even_check: bool = False
    tape_check: bool = False
    adder_fault: bool = False
    overflow: bool = False
    divide_overflow: bool = False
    invalid_instruction: bool = False
    bad_address: bool = False
    input_ready: bool = False

    def lit(self) -> list[str]:
        """The names of the lit neons, as the desk labels them."""
        return [label(name) for name, lit in zip(self._fields, self, strict=True) if lit]

    @property
    def error(self) -> list[str]:
        """The lit error neons (every neon but INPUT READY)."""
        return [name for name in self.lit() if name != "INPUT READY"]


def label(name: str) -> str:
    """A neon's label on the desk: ``odd_even_check`` is ODD-EVEN CHECK."""
    return name.replace("odd_even", "odd-even").replace("_", " ").upper()


def neon_of(reason: str) -> str | None:
    """The field of the neon an error stop with this reason lights (None: no neon)."""
    # Longest prefix first: "divide overflow" is not "overflow".
    for name, prefix in sorted(FAULTS.items(), key=lambda item: -len(item[1])):
        if reason.startswith(prefix):
            return name
    return None


def neons_for(stop: Stop | None, input_ready: bool = False) -> Neons:
    """The neons an operator sees after ``stop``; ``input_ready``: the machine is still
    waiting at its keyboard instruction (Desk.waiting_for_keyboard)."""
    if stop is None or stop.kind is not StopKind.ERROR:
        return Neons(input_ready=input_ready)
    name = neon_of(stop.reason)
    return Neons(**({name: True} if name else {}))
