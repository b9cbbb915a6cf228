"""Numbers and JSON from users and files: bounded before Python is asked to convert them.

Python refuses integers of more than 4,300 digits with a ValueError and recurses once per
level of JSON nesting, so every number a user or a file gives is checked for length first
and JSON is checked for size and depth before it is parsed. Each refusal is one clear line.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

MAX_DIGITS = 18  # far more than any count, address or word (11 digits) needs
JSON_MAX_DEPTH = 8  # a saved machine is 3 levels deep, a tally 2
_DIGITS = re.compile(r"[+-]?[0-9]+")


class NumberError(ValueError):
    """Not a number we accept; the message says why in words."""


def parse_number(text: str, what: str = "a number", low: int | None = None,
                 high: int | None = None, max_digits: int = MAX_DIGITS) -> int:
    """``text`` as a whole number (ASCII digits, optional sign) within bounds."""
    raw = text.strip()
    if not _DIGITS.fullmatch(raw):
        raise NumberError(f"{_quoted(raw)} is not a whole number ({what})")
    if len(raw.lstrip("+-")) > max_digits:
        raise NumberError(f"{what} has more than {max_digits} digits")
    value = int(raw)
    if low is not None and value < low:
        raise NumberError(f"{what} must be at least {low:,}")
    if high is not None and value > high:
        raise NumberError(f"{what} must be at most {high:,}")
    return value


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:20] + "...")


def count_option(high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 1 to ``high``."""
    def convert(text: str) -> int:
        if not _DIGITS.fullmatch(text.strip()):  # "'abc' is not a whole number (the value)"
            raise argparse.ArgumentTypeError(
                f"{_quoted(text.strip())} is not a whole number from 1 to {high:,}")
        try:
            return parse_number(text, "the value", 1, high)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = "whole number"
    return convert


class JsonError(ValueError):
    """Text that is not JSON we accept: too big, too deep, or with a number out of range."""


def load_json(text: str, what: str, max_bytes: int, max_depth: int = JSON_MAX_DEPTH,
              max_digits: int = MAX_DIGITS) -> object:
    """Parse JSON after bounding its size and nesting; numbers are bounded in length."""
    if len(text) > max_bytes:
        raise JsonError(f"{what} is larger than {max_bytes:,} characters")
    depth = _nesting(text)
    if depth > max_depth:
        raise JsonError(f"{what} is nested {depth} levels deep; at most {max_depth} allowed")

    def integer(token: str) -> int:
        if len(token.lstrip("-")) > max_digits:
            raise JsonError(f"{what} holds a number of more than {max_digits} digits")
        return int(token)

    def refuse(token: str) -> float:
        raise JsonError(f"{what} holds {_quoted(token)}, which is not a whole number")

    import json  # here: only a saved state or a tally is JSON, not every start

    try:
        return json.loads(text, parse_int=integer, parse_float=refuse, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        raise JsonError(f"{what} is not JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:  # cannot happen after the depth check; a last guard
        raise JsonError(f"{what} is nested too deeply") from None


def _nesting(text: str) -> int:
    """The deepest bracket nesting outside strings (a cheap scan, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
