"""A plain, slow reference for Machine.run: the same semantics, written the obvious way.

Every instruction is decoded from the word in CR (no compiled pairs, none of Machine's
caches) and timed from timing.instruction_cost; the executors of ops.OPERATIONS do the work.
``ops.decode`` is a pure function of the six characters, so its answers are memoised here,
in a table of the reference's own: the same answer, without re-reading the characters of
every instruction the differential tests run millions of times. The differential tests run
programs on both and compare everything observable.
"""

from __future__ import annotations

import functools

from univac_ttt.machine import checking, timing
from univac_ttt.machine.cpu import Machine
from univac_ttt.machine.ops import decode as _decode
from univac_ttt.machine.stops import Stop, StopKind, StopRequest

MINOR = timing.MINOR_CYCLE_PULSES
decode = functools.lru_cache(maxsize=1 << 16)(_decode)


def _wait_for(position: int, pulses: int) -> int:
    """Pulses until word ``position`` of a channel is under the heads."""
    return ((position - pulses // MINOR) % 10) * MINOR


def _stop_here(m: Machine, kind: StopKind, reason: str, done: int) -> Stop:
    m.instructions += done
    stop = Stop(kind, m.cr_address if m.half else m.cc, "right" if m.half else "left", reason)
    m.last_stop = stop
    return stop


def reference_run(m: Machine, max_steps: int = 10**12) -> Stop:
    """Run ``m`` as Machine.run does, one instruction at a time."""
    average = m.options.timing == "average"
    skip_right = not m.options.right_half_after_transfer
    resuming = m._resuming
    m._resuming = False
    done = 0
    while done < max_steps:
        left = m.half == 0
        if left:
            if not resuming and m.cc in m.break_addresses:
                return _stop_here(m, StopKind.MONITOR, f"breakpoint at {m.cc:03d}", done)
            fault = m.faults.get(m.cc)
            if fault is not None and m.mem[m.cc] == fault.word:
                return _stop_here(m, StopKind.ERROR, checking.odd_even_reason(fault), done)
            instruction = m.mem[m.cc][:6]
        else:
            instruction = m.cr[6:]
        op, operand = decode(instruction)
        if not resuming and op.execute in m.break_executors:
            return _stop_here(m, StopKind.MONITOR, "operation break", done)
        resuming = False
        if m.faults:
            reason = checking.failing_use(m, op.execute, operand)
            if reason:
                return _stop_here(m, StopKind.ERROR, reason, done)
        before = (m.pulses, m.cr, m.cr_address, m.cc)
        if left:
            m.cr, m.cr_address = m.mem[m.cc], m.cc
            if average:
                m.pulses += timing.AVERAGE_ACCESS_PULSES
            else:
                m.pulses += _wait_for(m.cc, m.pulses) + MINOR
            m.cc = (m.cc + 1) % 1000
        pulses, position = timing.instruction_cost(op, operand, average)
        if position >= 0:
            m.pulses += _wait_for(position, m.pulses)
        m.pulses += pulses
        outcome = op.execute(m, operand)
        done += 1
        if isinstance(outcome, StopRequest):
            address = before[3] if left else m.cr_address
            if outcome.advance:
                m.half = 1 if left else 0
            else:
                m.pulses = before[0]
                if left:
                    m.cr, m.cr_address, m.cc = before[1], before[2], address
                done -= 1
            m.instructions += done
            stop = Stop(outcome.kind, address, "left" if left else "right", outcome.reason)
            m.last_stop = stop
            return stop
        if isinstance(outcome, int):
            m.cc = outcome
            if left and skip_right:
                continue
        m.half = 1 if left else 0
    m.instructions += done
    address, where = m.next_instruction_address()
    stop = Stop(StopKind.STEP_LIMIT, address, where, f"{done} instructions executed")
    m.last_stop = stop
    return stop
