"""The eleventh round's user trial of serve: the class table's numbers across workers and
its width, and a raw client's first screen."""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import re
import time

import pytest
from rich.console import Console

from tests.support.serving import LOCAL, run, serving
from tests.support.telnet_client import IAC, IS, NAWS, SB, SE, TTYPE, WILL
from univac_ttt.classroom.table import ClassTable, Seat
from univac_ttt.serve.workers import SharedSeats


def _draw(seats: SharedSeats, count: int, pipe) -> None:
    numbers = seats.numbers()
    pipe.send([next(numbers) for _ in range(count)])
    pipe.close()


def test_connection_numbers_are_one_series_across_workers_and_restarts():
    """Each worker numbered every Nth connection from its own slot (#1, #3, ... and #2,
    #4, ...), so the table's numbers said nothing of the order connections came in, and a
    worker started again after a crash began at its first number again: two terminals
    with one number in the table and the log."""
    context = multiprocessing.get_context("fork")
    seats = SharedSeats(10, 2, context)
    drawn: list[int] = []
    for _ in range(3):  # two workers, then one of them started again
        readers = []
        processes = []
        for _ in range(2):
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_draw, args=(seats, 5, writer))
            process.start()
            writer.close()
            readers.append(reader)
            processes.append(process)
        for reader, process in zip(readers, processes, strict=True):
            drawn += reader.recv()
            process.join(10)
    assert sorted(drawn) == list(range(1, 31))  # each once, none skipped
    seats.close()


@pytest.mark.parametrize("width", [60, 66, 72, 80, 100])
def test_the_class_table_is_readable_at_60_columns(width):
    """At 60 columns every heading was cut ("gam…", "UNI…", "pla…", "id…"), the
    transport too ("tel…"), and an IPv6 address's ":1234:" was drawn as an emoji."""
    table = ClassTable(io.StringIO(), live=False)
    table.seat(Seat(1, "192.168.100.200:54321", "telnet", lambda: (3, 1, 0)))
    table.seat(Seat(12, "[2001:db8::1234:5678]:60000", "ssh", lambda: (0, 0, 0)))
    table.seat(Seat(103, "127.0.0.1:40000", "web", lambda: (1, 0, 0)))
    drawn = Console(file=io.StringIO(), width=width)
    drawn.print(table.render())
    text = drawn.file.getvalue()
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines)
    assert "…" not in text and "🔢" not in text
    for heading in ("#", "from", "via", "UNIVAC", "draws", "player", "wins", "idle"):
        assert heading in text
    assert "telnet" in text and "192.168.100.200:54321" in text
    folded = "".join(line[line.find("[2001"):].split()[0] if "[2001" in line else
                     "" for line in lines)
    assert folded.startswith("[2001:db8::1234:5678]:")
    assert "[2001:db8::1234:5678]:60000" in text or any(
        line.split()[0] == "60000" for line in lines if line.strip())  # whole, or folded
    row = next(line for line in lines if "192.168.100.200:54321" in line)
    assert row.replace("│", " ").split()[-4:] == ["3", "1", "0", "0s"]  # UNIVAC ... idle


async def _until_screen(reader: asyncio.StreamReader, timeout: float) -> bytes:
    seen = b""
    while b"TIC-TAC-TOE" not in seen:
        chunk = await asyncio.wait_for(reader.read(65536), timeout)
        assert chunk, "closed before drawing the console"
        seen += chunk
    return seen


def test_a_raw_client_gets_its_screen_without_the_handshake_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """nc answers none of telnet's options: it waited the whole handshake (5 s) for its
    first screen. Set far longer here, so that a wait for it fails the test."""
    import univac_ttt.serve.telnet as telnet

    monkeypatch.setattr(telnet, "HANDSHAKE_SECONDS", 60)

    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            reader, writer = await asyncio.open_connection(LOCAL, server.telnet.bound_port)
            started = time.monotonic()
            screen = await _until_screen(reader, 10)
            assert time.monotonic() - started < 10
            # drawn for 80x24 (no size was told), not prompt_toolkit's guess of 79x40: a
            # row past 24 on a 24-row terminal overwrote the key bar
            (connection,) = server.telnet.connections
            assert (connection.size.columns, connection.size.rows) == (80, 24)
            rows = [int(row) for row in re.findall(rb"\x1b\[(\d+);\d+H", screen)]
            assert rows and max(rows) <= 24
            writer.close()
    run(scenario())


def test_a_telnet_client_slow_to_name_its_terminal_is_still_waited_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that answers the options (IAC WILL TTYPE) but names its terminal only
    later is no raw client: its screen waits for the name, and is drawn for it."""
    import univac_ttt.serve.telnet as telnet

    monkeypatch.setattr(telnet, "RAW_CLIENT_SECONDS", 0.1)
    monkeypatch.setattr(telnet, "HANDSHAKE_SECONDS", 60)
    named: list[str] = []
    real = telnet.ServedTelnetConnection._ttype_received

    def ttype_received(self, ttype: str) -> None:
        named.append(ttype)
        real(self, ttype)

    monkeypatch.setattr(telnet.ServedTelnetConnection, "_ttype_received", ttype_received)

    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            reader, writer = await asyncio.open_connection(LOCAL, server.telnet.bound_port)
            writer.write(bytes([IAC, WILL, TTYPE, IAC, WILL, NAWS]))
            writer.write(bytes([IAC, SB, NAWS, 0, 70, 0, 24, IAC, SE]))
            await writer.drain()
            with pytest.raises(TimeoutError):  # 3 x RAW_CLIENT_SECONDS: no screen yet
                await _until_screen(reader, 0.3)
            writer.write(bytes([IAC, SB, TTYPE, IS]) + b"xterm" + bytes([IAC, SE]))
            await writer.drain()
            await _until_screen(reader, 10)
            assert named == ["xterm"]
            writer.close()
    run(scenario())

