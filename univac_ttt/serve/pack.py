"""Which pool worker takes a new telnet connection: the pool is packed, not spread.

A worker's loop costs less CPU a move the busier it is (its code and data stay warm in the
caches; docs/performance-log.md, twelfth round): 100 clients at 120x40 spread over two
workers ran the same callbacks, as many of them, as one worker did, each about 14 % slower,
and two workers pinned to one core cost as much more (not the cores, then, but the
processes). So the first worker takes every connection until it holds ``PACK_SEATS``
seats, then the next, and so on; when every worker holds that many, the one holding
fewest takes the next (lowest index on a tie): a class past the workers' share spreads
evenly over all of them.

The kernel wakes every worker watching the shared listening socket. The one next in line
takes every connection waiting while it stays next in line (a burst is not left waiting
behind each new terminal's first screen). A worker that is not
next in line stops watching for ``PACK_WAIT`` and then looks again: if a connection still
waits and the worker next in line has accepted nothing meanwhile (dead, being restarted,
or its loop stalled), it takes every waiting connection itself; so no connection waits
more than about ``PACK_WAIT`` longer than it would have, and none is left unaccepted.
Only telnet is packed; SSH and the browser page are handed out by the kernel as before.
"""

from __future__ import annotations

import asyncio
import select
import socket
from collections.abc import Sequence
from typing import Any

from .telnet import ServedTelnetServer

PACK_SEATS = 100  # a worker's share: seats it fills before the next worker takes any
PACK_WAIT = 0.05  # seconds a worker not next in line leaves a connection to that one
TAKE_AT_ONCE = 64  # at most this many waiting connections taken at one wake-up


def next_in_line(seats: Sequence[int], pack: int) -> int:
    """The worker that should take the next connection, given each worker's seats."""
    for index, held in enumerate(seats):
        if held < pack:
            return index
    return min(range(len(seats)), key=lambda index: seats[index])


class Turns:
    """The pool's shared view for ``next_in_line``: each worker's seats (``SharedSeats``'
    slots) and how many connections each has accepted (a sign of life), in shared
    memory, written by each worker for its own slot only."""

    def __init__(self, seats: Any, accepted: Any, pack: int = PACK_SEATS,
                 wait: float | None = None) -> None:
        self.seats, self.accepted = seats, accepted  # shared arrays, one slot a worker
        self.pack, self.wait = pack, PACK_WAIT if wait is None else wait
        self.index = 0  # this process's worker; each worker sets its own

    def mine(self) -> bool:
        return next_in_line(list(self.seats), self.pack) == self.index

    def first(self) -> tuple[int, int]:
        """The worker next in line and how many it has accepted so far."""
        first = next_in_line(list(self.seats), self.pack)
        return first, self.accepted[first]


def _waiting(listener: socket.socket) -> bool:
    """A connection waits on the listening socket (without taking it)."""
    try:
        poll = select.poll()  # not select.select: no limit on the descriptor's number
        poll.register(listener, select.POLLIN)
        return bool(poll.poll(0))
    except (OSError, ValueError):  # closed meanwhile
        return False


class PackedTelnetServer(ServedTelnetServer):
    """A pool worker's telnet listener: accepts when it is next in line (``Turns``), or
    when the one that is has left a connection waiting for ``PACK_WAIT``."""

    def __init__(self, *args: Any, turns: Turns, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turns = turns
        self._later: asyncio.TimerHandle | None = None
        self._closed = False

    async def run(self, ready_cb: Any = None) -> None:
        try:
            await super().run(ready_cb=ready_cb)
        finally:
            self._closed = True
            if self._later is not None:
                self._later.cancel()

    def _accept(self, listen_socket: socket.socket) -> None:
        if self.turns.mine():
            self._take(listen_socket)
            # and every other one waiting while it is still this worker's turn: one a
            # wake-up, a burst of connections was left waiting behind each new terminal's
            # first screen, long enough for the other workers to take them over
            for _ in range(TAKE_AT_ONCE - 1):
                if not (_waiting(listen_socket) and self.turns.mine()):
                    break
                self._take(listen_socket)
            return
        loop = asyncio.get_running_loop()
        loop.remove_reader(listen_socket)
        self._later = loop.call_later(self.turns.wait, self._look_again, listen_socket,
                                      self.turns.first())

    def _take(self, listen_socket: socket.socket) -> None:
        self.turns.accepted[self.turns.index] += 1
        super()._accept(listen_socket)

    def _look_again(self, listen_socket: socket.socket, before: tuple[int, int]) -> None:
        """After the wait: take what still waits if the worker next in line took nothing
        meanwhile; watch the socket again in any case."""
        self._later = None
        if self._closed or listen_socket.fileno() < 0:
            return
        if self.turns.first() == before:  # no progress there: it cannot take them now
            for _ in range(TAKE_AT_ONCE):  # bounded: an accept that keeps failing
                if not _waiting(listen_socket):
                    break
                self._take(listen_socket)
        asyncio.get_running_loop().add_reader(listen_socket, self._accept, listen_socket)
