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
Only an accept that succeeded counts as that worker's progress: one out of descriptors
rests its socket (ServedTelnetServer) and the others take its turn; one whose server is
closing is passed over while another is open.
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


def next_in_line(seats: Sequence[int], pack: int, closing: Sequence[int] = ()) -> int:
    """The worker that should take the next connection, given each worker's seats; a
    worker that is closing is passed over while another is not (when all are, the first
    says so to the newcomer)."""
    open_ = [index for index in range(len(seats))
             if not (index < len(closing) and closing[index])] or list(range(len(seats)))
    for index in open_:
        if seats[index] < pack:
            return index
    return min(open_, key=lambda index: seats[index])


class Turns:
    """The pool's shared view for ``next_in_line``: each worker's seats (``SharedSeats``'
    slots) and how many connections each has accepted (a sign of life), in shared
    memory, written by each worker for its own slot only."""

    def __init__(self, seats: Any, accepted: Any, pack: int = PACK_SEATS,
                 wait: float | None = None, closing: Any = None) -> None:
        self.seats, self.accepted = seats, accepted  # shared arrays, one slot a worker
        self.closing = closing if closing is not None else [0] * len(seats)  # and this
        self.pack, self.wait = pack, PACK_WAIT if wait is None else wait
        self.index = 0  # this process's worker; each worker sets its own

    def mine(self) -> bool:
        return self._first() == self.index

    def first(self) -> tuple[int, int]:
        """The worker next in line and how many it has accepted so far."""
        first = self._first()
        return first, self.accepted[first]

    def _first(self) -> int:
        return next_in_line(list(self.seats), self.pack, list(self.closing))


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
        if self.resting:
            return
        if self.turns.mine():
            if not self._take(listen_socket):
                return
            # and every other one waiting while it is still this worker's turn: one a
            # wake-up, a burst of connections was left waiting behind each new terminal's
            # first screen, long enough for the other workers to take them over
            for _ in range(TAKE_AT_ONCE - 1):
                if not (_waiting(listen_socket) and self.turns.mine()):
                    break
                if not self._take(listen_socket):
                    break
            return
        loop = asyncio.get_running_loop()
        loop.remove_reader(listen_socket)
        self._later = loop.call_later(self.turns.wait, self._look_again, listen_socket,
                                      self.turns.first())

    def _take(self, listen_socket: socket.socket) -> bool:
        """One connection taken; counted (the others' sign of this worker's life) only
        when the accept succeeded: a worker out of descriptors is passed over."""
        taken = self._accept_one(listen_socket)
        if taken:
            self.turns.accepted[self.turns.index] += 1
        return taken

    def closing_down(self) -> None:
        """This worker's server is closing: the others take the newcomers it would refuse
        (while one of them is open)."""
        self.turns.closing[self.turns.index] = 1

    def _look_again(self, listen_socket: socket.socket, before: tuple[int, int]) -> None:
        """After the wait: take what still waits if the worker next in line took nothing
        meanwhile; watch the socket again in any case."""
        self._later = None
        if self._closed or listen_socket.fileno() < 0:
            return
        if self.turns.first() == before:  # no progress there: it cannot take them now
            for _ in range(TAKE_AT_ONCE):  # bounded: an accept that keeps failing
                if not _waiting(listen_socket) or not self._take(listen_socket):
                    break
        if not self.resting:  # (a failed accept rests the socket: ServedTelnetServer)
            asyncio.get_running_loop().add_reader(listen_socket, self._accept, listen_socket)
