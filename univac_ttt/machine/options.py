"""Machine options: one typed settings object for every choice the reference leaves open."""

from __future__ import annotations

from .records import Record

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import Literal


class MachineOptions(Record):
    """Immutable and compared by value (a named tuple: no dataclasses at start-up)."""

    # U1: does the right instruction of a pair run after a transfer in the left half?
    right_half_after_transfer: bool = True
    # U9: an adder overflow transfers control to 000 ("transfer") or stops ("stop").
    overflow: Literal["transfer", "stop"] = "transfer"
    # Timing: operand waits from the delay-line position ("latency") or 222 us ("average").
    timing: Literal["latency", "average"] = "latency"
    # The console breakpoint switch for the ,0 conditional stop.
    breakpoint_switch: bool = False
    # Tapes (docs/fidelity.md, "Tapes"): do 5n/7n ignore the last digit of m, as the rI
    # transfers do (S-PROG53)? And does a write end the tape there ("truncate"), or leave
    # the blocks after it readable ("keep")? No source settles either.
    tape_write_aligned: bool = True
    tape_overwrite: Literal["truncate", "keep"] = "truncate"
    # Y and Z move a whole channel: the last digit of m is ignored, as S-PROG53 says of the
    # 60-word rI transfers (inference by analogy; docs/fidelity.md U7). False: the ten
    # words m ... m+9 wherever they lie, wrapping at 999 (the earlier reading).
    ten_word_aligned: bool = True
    # The typewriter's case when a run starts (docs/fidelity.md, "The typewriter's case"):
    # "lower" (S-PV: at rest it types small letters until the program types the upper-case
    # shift) or "capitals" (our option: shifted up, for programs that never shift).
    typewriter_case: Literal["capitals", "lower"] = "lower"
