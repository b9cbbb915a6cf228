"""A small telnet client for tests and the load benchmark: answers the negotiation, keeps a
screen (pyte's by default; the benchmark's cheap ``RowScreen``), and reads the paper's board
and the keyboard line off it."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import Callable

from tests.support.screen_rows import PyteRows, Screen

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
TTYPE, NAWS, IS = 24, 31, 0
BOARD_ROW = re.compile(r"^   ([OX1-9])   ([OX1-9])   ([OX1-9])\s*$")
RESULT = re.compile(r"THE UNIVAC WINS|IS A DRAW|YOU WIN\b")
PROMPT = "INPUT READY ▸"
WIDE, PANEL_COLUMNS = 76, 31  # the console shows its side panel (30 + a gap) from 76 columns
PAPER_MAX = 80  # the paper's widest: on a wider screen the panel stands right after it


class TelnetClient:
    """One terminal: ``columns`` under 64 keeps the side panel off, so the paper is plain.

    ``screen`` makes the screen from (columns, rows); ``keep_raw`` False keeps no copy of
    every byte received (a benchmark client's whole session)."""

    def __init__(self, columns: int = 60, rows: int = 24,
                 screen: Callable[[int, int], Screen] = PyteRows,
                 keep_raw: bool = True) -> None:
        self.columns, self.rows = columns, rows
        self.screen = screen(columns, rows)
        self.raw = bytearray()  # every byte of screen data, for plain-text messages
        self.keep_raw = keep_raw
        self._lines: list[str] = []
        self._lines_version = -1  # the screen's version self._lines was read at
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.closed = False
        self._changed = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None

    async def connect(self, port: int, host: str = "127.0.0.1") -> None:
        self.reader, self.writer = await asyncio.open_connection(host, port)
        sock = self.writer.get_extra_info("socket")
        if sock is not None:  # a terminal sends each key at once, as telnet clients do
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._pump = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.reader is not None
        buffer = b""
        try:
            while True:
                chunk = await self.reader.read(65536)
                if not chunk:
                    break
                data, buffer = self._negotiate(buffer + chunk)
                self.screen_data(data)
        except (ConnectionError, OSError):
            pass
        finally:
            self.closed = True
            self._changed.set()

    def screen_data(self, data: bytes) -> None:
        """Bytes for the screen (telnet commands already taken out)."""
        if data:
            if self.keep_raw:
                self.raw += data
            self.screen.feed(data)
            self._changed.set()

    def _negotiate(self, data: bytes) -> tuple[bytes, bytes]:
        """Strip telnet commands, answering TTYPE and NAWS; return (screen data, leftover)."""
        out = bytearray()
        i = 0
        while i < len(data):
            found = data.find(IAC, i)
            if found < 0:  # the rest is screen data: one slice, not a byte at a time
                out += data[i:]
                break
            out += data[i:found]
            i = found
            if i + 1 >= len(data):
                return bytes(out), data[i:]
            command = data[i + 1]
            if command in (DO, DONT, WILL, WONT):
                if i + 2 >= len(data):
                    return bytes(out), data[i:]
                option = data[i + 2]
                if command == DO and option == NAWS:
                    self._send(bytes([IAC, WILL, NAWS]))
                    self._send_size()
                elif command == DO and option == TTYPE:
                    self._send(bytes([IAC, WILL, TTYPE]))
                i += 3
            elif command == SB:
                end = data.find(bytes([IAC, SE]), i)
                if end < 0:
                    return bytes(out), data[i:]
                if data[i + 2] == TTYPE:
                    self._send(bytes([IAC, SB, TTYPE, IS]) + b"xterm" + bytes([IAC, SE]))
                i = end + 2
            elif command == IAC:
                out.append(IAC)
                i += 2
            else:
                i += 2
        return bytes(out), b""

    def _send(self, data: bytes) -> None:
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(data)

    def _send_size(self) -> None:
        self._send(bytes([IAC, SB, NAWS, 0, self.columns, 0, self.rows, IAC, SE]))

    def resize(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.screen.resize(columns, rows)
        self._send_size()

    async def send(self, text: str) -> None:
        self._send(text.encode())
        if self.writer is not None:
            await self.writer.drain()

    async def wait_for(self, predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
        """Wait until ``predicate(self)`` holds; TimeoutError with the screen if it never does."""
        deadline = time.monotonic() + timeout
        while not predicate(self):
            left = deadline - time.monotonic()
            if left <= 0 or (self.closed and not predicate(self)):
                raise TimeoutError("screen never matched:\n" + self.text())
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.5))

    # ---- reading the screen ----------------------------------------------------------

    def lines(self) -> list[str]:
        """The screen's rows without trailing blanks, read again only after new data."""
        if self._lines_version != self.screen.version:
            self._lines = [line.rstrip() for line in self.screen.display]
            self._lines_version = self.screen.version
        return self._lines

    def text(self) -> str:
        return "\n".join(self.lines())

    def keyboard_line(self) -> str | None:
        """What is typed after the lamp, or None when the lamp does not say INPUT READY."""
        for line in self.lines():
            if PROMPT in line:
                return line.split(PROMPT, 1)[1].strip()
        return None

    def board(self) -> list[str] | None:
        """The last board typed on the paper: nine cells, 'X', 'O' or the square's digit."""
        lines = self.lines()
        if self.columns >= WIDE:  # the side panel stands to the paper's right
            paper = min(self.columns - 1 - PANEL_COLUMNS, PAPER_MAX)  # 1: the gutter
            lines = [line[:paper].rstrip() for line in lines]
        for end in range(len(lines) - 1, 1, -1):
            rows = [BOARD_ROW.match(lines[end - k]) for k in (2, 1, 0)]
            if all(rows):
                return [cell for row in rows for cell in row.groups()]  # type: ignore[union-attr]
        return None

    def last_result(self) -> str | None:
        found = RESULT.findall(self.text())
        return found[-1] if found else None

    async def close(self, abrupt: bool = False) -> None:
        if self.writer is not None:
            if abrupt:
                transport = self.writer.transport
                transport.abort()
            else:
                self.writer.close()
            with contextlib.suppress(TimeoutError, ConnectionError, OSError):
                await asyncio.wait_for(self.writer.wait_closed(), 2)
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
