"""The page's messages to the server, checked: anything else closes that one socket.

A message is a JSON object with exactly one field: ``k`` (a key: one character, or one of
the command names), ``pin`` (the staff PIN, museum mode) or ``password`` (the class
password, when the server has one). The server answers bad input with a WebSocket close
whose reason says what was wrong; the other tabs never notice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .tab import COMMANDS

MESSAGE_BYTES = 1024  # the largest message a page sends (aiohttp closes with 1009 past it)
TEXT_LIMIT = 512  # characters of a PIN or a password
CLOSE_BAD_MESSAGE = 4400  # application close codes (4000-4999): a message we cannot read
CLOSE_WRONG_PASSWORD = 4401
CLOSE_FULL = 4503
CLOSE_GOODBYE = 1000


class BadMessage(ValueError):
    """The reason a message was refused (at most 123 bytes: a close frame's reason)."""


@dataclass(frozen=True)
class Incoming:
    kind: str  # "k", "pin" or "password"
    value: str


def parse(text: str) -> Incoming:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict) or len(data) != 1:
        raise BadMessage("a message is an object with one field")
    ((kind, value),) = data.items()
    if kind not in ("k", "pin", "password"):
        raise BadMessage(f"unknown field {kind[:20]!r}")
    if not isinstance(value, str):
        raise BadMessage(f"{kind} must be a string")
    if kind == "k" and not (value in COMMANDS or (len(value) == 1 and value.isprintable())):
        raise BadMessage("k is one printable character or a command name")
    if len(value) > TEXT_LIMIT or not value.isprintable():
        raise BadMessage(f"{kind} is too long or not printable")
    return Incoming(kind, value)
