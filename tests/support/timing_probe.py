"""Average times of straight-line additions, multiplies and divides on random operands at
random addresses, as the quoted UNIVAC figures count them (memory access included)."""

from __future__ import annotations

import random

from univac_ttt.machine.cpu import Machine
from univac_ttt.machine.options import MachineOptions
from univac_ttt.machine.word import from_int, instruction

PROGRAM_WORDS = 400  # 800 instructions at 000-399; operands at 400-999
FIRST_OPERAND = 400


def _random_number(rng: random.Random, digits: int) -> str:
    value = rng.randrange(10 ** (digits - 1), 10**digits)
    return from_int(-value if rng.random() < 0.5 else value)


def average_us(op: str, seed: int = 1952, runs: int = 8,
               timing: str = "latency") -> float:
    """Mean microseconds per ``op`` instruction ("A", "M" or "D") in a straight-line program."""
    rng = random.Random(seed)
    total_us = 0.0
    count = 0
    for _ in range(runs):
        m = Machine(MachineOptions(timing=timing))  # type: ignore[arg-type]
        addresses = [rng.randrange(FIRST_OPERAND, 1000) for _ in range(2 * PROGRAM_WORDS)]
        for address in addresses:
            if op == "A":  # small enough that 800 of them never overflow
                m.mem[address] = _random_number(rng, 8)
            elif op == "M":
                m.mem[address] = _random_number(rng, 11)
            else:  # dividends below the divisor in rL
                m.mem[address] = _random_number(rng, 10)
        for i in range(PROGRAM_WORDS):
            m.mem[i] = instruction(op, addresses[2 * i]) + instruction(op, addresses[2 * i + 1])
        m.mem[PROGRAM_WORDS] = instruction("90", 0) * 2
        m.l = _random_number(rng, 11) if op == "M" else from_int(99_999_999_999)
        before = m.time_us
        m.run(2 * PROGRAM_WORDS)
        total_us += m.time_us - before
        count += 2 * PROGRAM_WORDS
    return total_us / count
