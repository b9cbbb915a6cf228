"""univac-ttt serve against clients that misbehave: every way a connection can end frees its
seat, and what one client does never costs the others their terminal. Real sockets on
127.0.0.1; every wait is on a condition and bounded."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

from tests.support.serving import LOCAL, connected, key_in, run, serving
from tests.support.telnet_client import IAC, NAWS, SB, TTYPE, WILL, TelnetClient
from univac_ttt.serve.server import ClassServer


async def until(condition, timeout: float = 5.0, what: str = "") -> None:  # type: ignore[no-untyped-def]
    """Wait for ``condition()`` to hold, looking every few milliseconds; fail after timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened within {timeout} s: {what}")
        await asyncio.sleep(0.01)


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset (SO_LINGER 0), as a crashed or hostile client's kernel does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


async def _raw(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(LOCAL, port)


def _connections(server: ClassServer) -> int:
    """Connections the server still holds in any state: accepted, negotiating or seated."""
    assert server.telnet is not None
    return len(server.telnet._application_tasks) + len(server.table.seats)


async def _early_ends(port: int) -> None:
    """Ten connections that end before (or while) the telnet negotiation ends."""
    for kind in range(10):
        if kind % 5 == 0:  # reset at once, before the server has said anything
            sock = socket.create_connection((LOCAL, port))
            _reset(sock)
        elif kind % 5 == 1:  # a plain close at once
            sock = socket.create_connection((LOCAL, port))
            sock.close()
        else:
            reader, writer = await _raw(port)
            await asyncio.wait_for(reader.read(3), 5)  # the server's first option is here
            if kind % 5 == 3:  # half a window size, then gone
                writer.write(bytes([IAC, WILL, NAWS, IAC, SB, NAWS, 0]))
                await writer.drain()
            elif kind % 5 == 4:  # a size, then a reset in the middle of naming the terminal
                writer.write(bytes([IAC, WILL, NAWS, IAC, SB, NAWS, 0, 80, 0, 24, IAC, 0xF0,
                                    IAC, WILL, TTYPE, IAC, SB, TTYPE, 0]) + b"xte")
                await writer.drain()
            sock = writer.get_extra_info("socket")
            if kind % 5 == 2:
                writer.close()
            else:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                writer.transport.abort()
        await asyncio.sleep(0)


def test_connections_that_end_before_the_negotiation_free_their_seats() -> None:
    async def scenario() -> None:
        async with serving(max_clients=5) as server:
            assert server.telnet is not None
            port = server.telnet.bound_port
            await _early_ends(port)
            await until(lambda: _connections(server) == 0, 3,
                        "every early-ended connection gone")
            assert not server.table.seats
            # The whole class can sit down again: five seats, not "the class is full".
            clients = [await connected(server) for _ in range(5)]
            assert len(server.table.seats) == 5
            assert server.table.refused == 0
            await key_in(clients[0], "5")
            for client in clients:
                await client.close()
            await until(lambda: _connections(server) == 0, 5, "the last client gone")
            assert server.seats.taken == 0
    run(scenario())


def test_a_seat_is_freed_after_a_reset_mid_reply_and_a_close_mid_reply() -> None:
    async def scenario() -> None:
        async with serving(max_clients=2) as server:
            for abrupt in (True, False, True, False):
                client = await connected(server)
                await client.send("5\r")  # Enter, then gone before the reply is drawn
                await client.close(abrupt=abrupt)
            await until(lambda: _connections(server) == 0, 5, "every client gone")
            assert server.seats.taken == 0
            first, second = await connected(server), await connected(server)
            assert len(server.table.seats) == 2
            await first.close()
            await second.close()
    run(scenario())


def test_the_seat_counter_never_lets_more_in_than_max_clients() -> None:
    async def scenario() -> None:
        async with serving(max_clients=3) as server:
            clients = [await connected(server) for _ in range(3)]
            assert server.seats.taken == 3
            extra = TelnetClient()
            assert server.telnet is not None
            await extra.connect(server.telnet.bound_port)
            await extra.wait_for(lambda c: c.closed)
            assert b"The class is full" in bytes(extra.raw)
            for client in clients:
                await client.close()
            await until(lambda: server.seats.taken == 0, 5, "all seats back")
    run(scenario())

