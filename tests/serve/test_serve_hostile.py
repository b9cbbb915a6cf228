"""univac-ttt serve against clients that misbehave: every way a connection can end frees its
seat, and what one client does never costs the others their terminal. Real sockets on
127.0.0.1; every wait is on a condition and bounded."""

from __future__ import annotations

import asyncio
import contextlib
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



def _rss_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


async def _negotiated(port: int, columns: int, rows: int) -> tuple[asyncio.StreamReader,
                                                                   asyncio.StreamWriter]:
    """A raw client that answers the negotiation with the given window size."""
    reader, writer = await _raw(port)
    size = struct.pack("!HH", columns, rows).replace(b"\xff", b"\xff\xff")  # IAC doubled
    writer.write(bytes([IAC, WILL, NAWS, IAC, SB, NAWS]) + size
                 + bytes([IAC, 0xF0, IAC, WILL, TTYPE, IAC, SB, TTYPE, 0]) + b"xterm"
                 + bytes([IAC, 0xF0]))
    await writer.drain()
    return reader, writer


async def _player_moves_promptly(server: ClassServer, limit: float = 3.0) -> None:
    """Another terminal plays a move, Enter to new board, within ``limit`` seconds."""
    player = await connected(server)
    started = time.monotonic()
    await key_in(player, "5")
    await player.wait_for(lambda c: c.board() == list("O234X6789"), limit)
    assert time.monotonic() - started < limit
    await player.close()


def test_absurd_window_sizes_are_bounded() -> None:
    from univac_ttt.classroom.connection_limits import DEFAULT_SIZE, MAX_COLUMNS, MAX_ROWS

    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            port = server.telnet.bound_port
            rss = _rss_kib()
            huge_reader, huge = await _negotiated(port, 65535, 65535)
            zero_reader, zero = await _negotiated(port, 0, 0)
            await until(lambda: len(server.table.seats) == 2, 10, "both seated")
            sizes = sorted((c.size.columns, c.size.rows) for c in server.telnet.connections)
            assert sizes == sorted([(MAX_COLUMNS, MAX_ROWS),
                                    (DEFAULT_SIZE.columns, DEFAULT_SIZE.rows)])
            await _player_moves_promptly(server)
            assert _rss_kib() - rss < 64 * 1024  # not a screen of 65535 x 65535 cells
            for writer in (huge, zero):
                writer.transport.abort()
            del huge_reader, zero_reader
    run(scenario())


def test_an_option_flood_and_an_endless_subnegotiation_cost_only_their_own_terminal() -> None:
    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            port = server.telnet.bound_port
            flood_reader, flood = await _negotiated(port, 80, 24)
            endless_reader, endless = await _negotiated(port, 80, 24)
            await until(lambda: len(server.table.seats) == 2, 10, "both seated")
            # Options by the thousand (answered by nothing), resizes, and one option
            # whose sub-negotiation never ends.
            options = bytes([IAC, WILL, 1, IAC, 253, 3, IAC, 0xF1]) * 2000
            resizes = (bytes([IAC, SB, NAWS]) + struct.pack("!HH", 90, 30)
                       + bytes([IAC, 0xF0])) * 200
            flood.write(options + resizes)
            endless.write(bytes([IAC, SB, TTYPE, 0]) + b"x" * 5000)
            await _player_moves_promptly(server)
            # The endless one is let go; the flooder is only slowed (its reading paced).
            await until(lambda: len(server.table.seats) == 1, 10,
                        "the endless sub-negotiation's connection closed")
            flood.transport.abort()
            await until(lambda: _connections(server) == 0, 10, "all gone, the paced flooder too")
            del flood_reader, endless_reader
    run(scenario())



def test_a_client_that_never_reads_is_let_go_and_the_others_play_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import univac_ttt.serve.telnet as telnet

    monkeypatch.setattr(telnet, "OUTPUT_BACKLOG_BYTES", 32 * 1024)

    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            port = server.telnet.bound_port
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and never read
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, (LOCAL, port))
            sock.send(bytes([IAC, WILL, NAWS, IAC, SB, NAWS, 0, 200, 0, 60, IAC, 0xF0,
                             IAC, WILL, TTYPE, IAC, SB, TTYPE, 0]) + b"xterm"
                      + bytes([IAC, 0xF0]))
            await until(lambda: len(server.table.seats) == 1, 10, "seated")
            for connection in server.telnet.connections:  # the kernel's buffers fill sooner
                connection.conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            # Resizes redraw the whole 200 x 60 screen each time; none of it is read.
            async def resize() -> None:
                for step in range(2000):
                    if not server.table.seats:
                        return
                    columns = 100 + step % 100
                    with contextlib.suppress(BlockingIOError):
                        sock.send(bytes([IAC, SB, NAWS, 0, columns, 0, 60, IAC, 0xF0]))
                    await asyncio.sleep(0.02)
            resizing = asyncio.get_running_loop().create_task(resize())
            await _player_moves_promptly(server)
            await until(lambda: not server.table.seats, 20, "the non-reader let go")
            resizing.cancel()
            sock.close()
            await until(lambda: _connections(server) == 0, 5, "all gone")
    run(scenario())


def test_a_half_closed_client_is_let_go() -> None:
    async def scenario() -> None:
        async with serving() as server:
            client = await connected(server)
            assert client.writer is not None
            client.writer.write_eof()  # FIN: it will send no more, though it still reads
            await until(lambda: not server.table.seats, 5, "the half-closed client let go")
            await client.wait_for(lambda c: c.closed, 5)
            await until(lambda: _connections(server) == 0, 5, "all gone")
    run(scenario())


def test_client_sockets_watch_for_a_vanished_peer() -> None:
    async def scenario() -> None:
        async with serving() as server:
            client = await connected(server)
            assert server.telnet is not None
            (connection,) = server.telnet.connections
            conn = connection.conn
            assert conn.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            if hasattr(socket, "TCP_USER_TIMEOUT"):
                assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) > 0
            await client.close()
    run(scenario())
