"""What a listener may ask of the class server that seats its clients (serve/server.py's
ClassServer is one), so a listener of another kind (the browser page's) needs no import of
the terminal server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Protocol

from .options import ServeOptions
from .seats import Hold
from .table import ClassTable


class Heap(Protocol):
    def settle(self) -> None: ...

    def terminal_left(self, graph: object = None) -> None: ...


class Room(Protocol):
    options: ServeOptions
    table: ClassTable
    heap: Heap

    def admit(self, peer: str, transport: str = "telnet") -> Hold | str: ...

    def next_number(self) -> int: ...

    def transcript_path(self, number: int) -> Path: ...


class Listener(Protocol):
    """Another kind of connection the class server seats, handed in by the composer (the
    browser page's listener): it seats its clients through ``admit``, ``next_number`` and
    the table, and ``end`` closes one of them politely."""

    def bind(self) -> str | None:
        """Bind the listening socket now, before a pool of worker processes is forked, so
        that every worker accepts on it; the line announcing it, or None when this listener
        cannot be shared by several processes (then the server runs in one)."""
        ...

    async def start(self, server: Room, stop: asyncio.Event) -> str: ...

    def end(self, number: int, goodbye: str) -> None: ...

    async def close(self, goodbye: str) -> None: ...
