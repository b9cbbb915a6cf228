"""Addresses as people write them: 000-999, a label, LABEL+n or LABEL-n.

One parser for the assembler and the lecture monitor (as py65's AddressParser serves its
assembler and monitor alike); the caller checks the range and phrases its own errors.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

EXPRESSION_RE = re.compile(r"^(?:([A-Z][A-Z0-9_]*)|([0-9]+))(?:([+-])([0-9]+))?$")  # ASCII only
MAX_DIGITS = 9  # longer numbers are no address of any kind


class AddressError(ValueError):
    """Not an address expression, or a label that is not defined; ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def evaluate(expr: str, symbols: Mapping[str, int] | None) -> int:
    """The value of an address expression (not yet checked against 000-999)."""
    match = EXPRESSION_RE.match(expr.upper())
    if not match or any(len(part) > MAX_DIGITS for part in match.groups("") if
                        part.isdigit()):
        shown = expr if len(expr) <= 24 else expr[:20] + "..."
        raise AddressError(f"{shown!r} is not an address (digits, LABEL, LABEL+n or LABEL-n)")
    name, digits, op, offset = match.groups()
    if name is not None:
        if symbols is None or name not in symbols:
            raise AddressError(f"label {name[:24]} is not defined")
        base = symbols[name]
    else:
        base = int(digits)
    if offset is not None:
        base = base + int(offset) if op == "+" else base - int(offset)
    return base
