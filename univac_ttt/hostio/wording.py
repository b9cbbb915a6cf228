"""Counts in words as people write them: "1 instruction", "2 instructions", "5,000 words".

One helper for every figure shown to a person, so no screen says "1 instructions".
Durations of UNIVAC time are ``machine.timing.format_time``.
"""

from __future__ import annotations


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with thousands separators and ``noun``, plural unless it is exactly one
    (``plural`` for nouns that do not just add an s)."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"
