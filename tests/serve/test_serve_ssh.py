"""univac-ttt serve --ssh: asyncssh's own client plays on 127.0.0.1; every wait bounded."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.lazy import LazyModule
from tests.support.serving import CollectorLeftAlone, run
from tests.support.telnet_client import TelnetClient
from univac_ttt.classroom.options import Endpoint, ServeOptions
from univac_ttt.cli import served_apps
from univac_ttt.serve.server import ClassServer

asyncssh = LazyModule("asyncssh")  # the ssh extra, in the test extra too: never skipped
LOCAL = "127.0.0.1"
PASSWORD = "gildersleeve"


class SSHClient(TelnetClient):
    """The same screen reading as the telnet client, over an asyncssh session."""

    async def open(self, port: int, password: str = PASSWORD) -> None:
        self.conn = await asyncssh.connect(LOCAL, port, username="student", password=password,
                                           known_hosts=None, client_keys=None, agent_path=None)
        self.process = await self.conn.create_process(
            term_type="xterm", term_size=(self.columns, self.rows), encoding=None)
        self._pump = asyncio.get_running_loop().create_task(self._read_ssh())

    async def _read_ssh(self) -> None:
        try:
            while True:
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    break
                self.screen_data(chunk)
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed = True
            self._changed.set()

    async def send(self, text: str) -> None:
        self.process.stdin.write(text.encode())

    async def close(self, abrupt: bool = False) -> None:
        if abrupt:
            self.conn.abort()
        else:
            self.conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 2)
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)


@contextlib.asynccontextmanager
async def serving_ssh(data: Path, **kwargs: object) -> AsyncIterator[tuple[ClassServer, int]]:
    options = ServeOptions(ssh=Endpoint(LOCAL, 0), password=PASSWORD, data=data,
                           **kwargs)  # type: ignore[arg-type]
    server = ClassServer(options, served_apps(), io.StringIO(), live=False,
                         heap=CollectorLeftAlone())
    stop = asyncio.Event()
    task = asyncio.get_running_loop().create_task(server.run(stop))
    await asyncio.wait_for(server.ready.wait(), 10)
    try:
        yield server, server.ssh.get_port()
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


async def _move(client: SSHClient, move: str) -> None:
    await client.send(move)
    await client.wait_for(lambda c: c.keyboard_line() == move)
    await client.send("\r")
    await client.wait_for(lambda c: c.keyboard_line() == "")


def test_a_full_game_over_ssh_with_the_class_password(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving_ssh(tmp_path) as (server, port):
            client = SSHClient()
            await client.open(port)
            await client.wait_for(lambda c: c.keyboard_line() == "" and c.board() is not None)
            for move in ("5", "1", "9", "7"):
                await _move(client, move)
            assert "SQUARE 1 IS ALREADY TAKEN." in bytes(client.raw).decode("utf-8", "replace")
            assert client.last_result() == "THE UNIVAC WINS"
            assert server.table.totals().univac_wins == 1
            await client.close(abrupt=True)  # gone without a word: the terminal is let go
            for _ in range(100):
                if not server.apps:
                    break
                await asyncio.sleep(0.05)
            assert not server.apps and not server.table.seats
    run(scenario())
    key = tmp_path / "ssh_host_ed25519_key"
    assert key.exists() and key.stat().st_mode & 0o077 == 0


def test_ssh_refuses_a_wrong_password_and_any_command(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving_ssh(tmp_path) as (_server, port):
            with pytest.raises(asyncssh.PermissionDenied):
                await asyncssh.connect(LOCAL, port, username="student", password="guess",
                                       known_hosts=None, client_keys=None, agent_path=None)
            async with asyncssh.connect(LOCAL, port, username="root", password=PASSWORD,
                                        known_hosts=None, client_keys=None,
                                        agent_path=None) as conn:
                with pytest.raises(asyncssh.ChannelOpenError):
                    await asyncio.wait_for(conn.run("cat /etc/passwd"), 10)
                with pytest.raises(asyncssh.ChannelOpenError):
                    await asyncio.wait_for(conn.start_sftp_client(), 10)
    run(scenario())


def test_the_ssh_client_past_max_clients_is_told_the_class_is_full(tmp_path: Path) -> None:
    from univac_ttt.serve.server import FULL

    async def scenario() -> None:
        async with serving_ssh(tmp_path, max_clients=1) as (server, port):
            seated = SSHClient()
            await seated.open(port)
            await seated.wait_for(lambda c: c.keyboard_line() == "")
            refused = SSHClient()
            await refused.open(port)
            await refused.wait_for(lambda c: c.closed)
            assert FULL.format(n="1 terminal").encode() in bytes(refused.raw)
            assert server.table.refused == 1 and len(server.table.seats) == 1
            await refused.close()
            await seated.close()
    run(scenario())


def test_ssh_connections_that_end_early_or_abruptly_free_their_seats(tmp_path: Path) -> None:
    import socket
    import struct
    import time

    async def scenario() -> None:
        async with serving_ssh(tmp_path, max_clients=2) as (server, port):
            for _ in range(3):  # reset in the middle of the key exchange
                reader, writer = await asyncio.open_connection(LOCAL, port)
                await asyncio.wait_for(reader.readline(), 5)  # the server's version line
                writer.write(b"SSH-2.0-hostile\r\n")
                await writer.drain()
                sock = writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                writer.transport.abort()
            for abrupt in (True, False, True):  # seated, Enter, then gone mid-reply
                client = SSHClient()
                await client.open(port)
                await client.wait_for(lambda c: c.keyboard_line() == "")
                await client.send("5\r")
                await client.close(abrupt=abrupt)
            deadline = time.monotonic() + 10
            while (server.seats.taken or server.apps) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert server.seats.taken == 0 and not server.table.seats
            first, second = SSHClient(), SSHClient()
            for client in (first, second):
                await client.open(port)
                await client.wait_for(lambda c: c.keyboard_line() == "")
            assert len(server.table.seats) == 2 and server.table.refused == 0
            await first.close()
            await second.close()
    run(scenario())


def test_importing_the_ssh_server_prints_no_warning():
    """asyncssh's import made cryptography print ten lines of CryptographyDeprecationWarning
    (about DSA keys, which this server never uses) at every `serve --ssh`."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-W", "default", "-c",
                             "import univac_ttt.serve.ssh"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == ""
