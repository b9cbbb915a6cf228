"""A class server on 127.0.0.1 (an ephemeral port) and telnet clients for it, every wait bounded."""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from collections.abc import AsyncIterator, Callable

from tests.support.telnet_client import TelnetClient
from univac_ttt.classroom.options import Endpoint, ServeOptions
from univac_ttt.cli import served_apps
from univac_ttt.serve.heap import Heap
from univac_ttt.serve.server import ClassServer

LOCAL = "127.0.0.1"


class CollectorLeftAlone(Heap):
    """The heap of a server started inside a test worker. serve/heap.py's policy is the
    whole process's: each start and release collects and freezes or unfreezes every object
    alive, in a worker most of the suite's (61 servers' starts and releases took 10.3 CPU-s
    of one suite run), and a release unfreezes what the suite froze for its own
    collections. Here the collector runs as it does for every other test, and departures
    are still handed over; tests/serve/test_serve_heap.py and the connect-cycles test keep
    the real policy, and so does every ``univac-ttt serve`` the tests start as a process."""

    def start(self, warm: Callable[[], object] | None = None) -> None:
        self.started = True  # nothing frozen, so nothing to build first (``warm``)

    def tick(self, active: int) -> bool:
        return False

    def release(self) -> None:
        self.started = False


def run(coro, timeout: float = 60.0):  # type: ignore[no-untyped-def]
    """Run one scenario with a hard time limit."""
    async def bounded():  # type: ignore[no-untyped-def]
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(bounded())


@contextlib.asynccontextmanager
async def serving(**kwargs: object) -> AsyncIterator[ClassServer]:
    options = ServeOptions(telnet=Endpoint(LOCAL, 0), **kwargs)  # type: ignore[arg-type]
    server = ClassServer(options, served_apps(), io.StringIO(), live=False,
                         heap=CollectorLeftAlone())
    stop = asyncio.Event()
    task = asyncio.get_running_loop().create_task(server.run(stop))
    await asyncio.wait_for(server.ready.wait(), 10)
    try:
        yield server
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


async def connected(server: ClassServer, columns: int = 60) -> TelnetClient:
    client = TelnetClient(columns=columns)
    assert server.telnet is not None
    await client.connect(server.telnet.bound_port)
    await client.wait_for(lambda c: c.keyboard_line() == "" and c.board() is not None)
    return client


async def key_in(client: TelnetClient, text: str) -> None:
    """Type a line and press Enter, waiting for the keyboard line to empty again."""
    await client.send(text)
    await client.wait_for(lambda c: c.keyboard_line() == text.upper())
    await client.send("\r")
    await client.wait_for(lambda c: c.keyboard_line() == "")


class TtySink(io.StringIO):
    """A served application's output written to memory, claiming to be a terminal."""

    def isatty(self) -> bool:
        return True


async def until(condition, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    """Wait on the loop until ``condition()`` holds (a condition, not a sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.005)
