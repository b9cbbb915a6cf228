"""Simulated time, counted in pulses of the 2.25 MHz clock (REFERENCE 7).

A word passes the read heads in one minor cycle of 91 pulses (about 40.4 us) and a channel
of ten words comes round every major cycle (about 404 us). In the "latency" model an
instruction first waits until its operand word is under the heads (its position in the
channel is the address's last digit), reads it in one minor cycle, then spends its execution
cycles; the pair fetch waits and reads the same way for the word at CC. Wait plus read average
5.5 minor cycles, the 222 us access of S-IEEE; the "average" model charges exactly that for
every access instead.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .ops import Operation

CLOCK_HZ = 2_250_000
PULSES_PER_US = CLOCK_HZ / 1_000_000
MINOR_CYCLE_PULSES = 91
WORDS_PER_CHANNEL = 10
AVERAGE_ACCESS_PULSES = 500  # 222 us, wait and read (REFERENCE 3, S-IEEE)
READ_PULSES = MINOR_CYCLE_PULSES  # the operand word passes the heads in one minor cycle


def pulses_to_us(pulses: int) -> float:
    return pulses / PULSES_PER_US


def us_to_pulses(us: float) -> int:
    return round(us * PULSES_PER_US)


def instruction_cost(op: Operation, operand: int, average: bool) -> tuple[int, int]:
    """(execution pulses, operand word position or -1) for one decoded instruction."""
    pulses = op.cycles * MINOR_CYCLE_PULSES
    if not op.uses_address:
        return pulses, -1
    if average:
        return pulses + AVERAGE_ACCESS_PULSES, -1
    return pulses + READ_PULSES, operand % WORDS_PER_CHANNEL


def format_time(us: float) -> str:
    """Human text for a simulated duration: "81 us", "59.3 ms", "1.801 s", and past a minute
    in minutes (and hours), "33 min 44.0 s", "4 h 04 min 49 s", never "14689.422 s"."""
    if us < 0.5:
        return "0 s"
    if round(us) < 1_000:
        return f"{us:.0f} us"
    if round(us / 1_000, 1) < 1_000:
        return f"{us / 1_000:.1f} ms"
    seconds = us / 1_000_000
    if round(seconds, 3) < 60:
        return f"{seconds:.3f} s"
    tenths = round(seconds * 10)
    if tenths < 36_000:
        return f"{tenths // 600} min {tenths % 600 / 10:.1f} s"
    whole = round(seconds)
    return f"{whole // 3_600} h {whole % 3_600 // 60:02d} min {whole % 60:02d} s"
