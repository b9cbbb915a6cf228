"""The class's seats: ``--max-clients`` of them, each held by one connection from the moment
it is accepted to the moment it ends, however it ends.

A seat is a ``Hold``: taken before anything is said to the client, released exactly once
(``release`` is idempotent), by whoever sees the connection end first. The transports
(telnet, SSH, and any other front door) tie the release to something that always runs:
the done callback of the connection's task, a ``finally`` around the session. So a client
that resets, closes before or during the negotiation, or vanishes mid-reply gives its seat
back, and nobody on the network can fill a class with connections that never sit down.
"""

from __future__ import annotations

from typing import Protocol


class Hold:
    """One seat, taken; ``release`` gives it back (once, whatever calls it again)."""

    __slots__ = ("_seats", "released")

    def __init__(self, seats: SeatCounter) -> None:
        self._seats = seats
        self.released = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self._seats.give_back()

    def __enter__(self) -> Hold:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class SeatCounter(Protocol):
    """Seats as the server uses them (``Seats`` here, ``workers.SharedSeats`` over a pool)."""

    capacity: int

    @property
    def taken(self) -> int: ...

    def take(self) -> Hold | None: ...

    def give_back(self) -> None: ...


class Seats:
    """``capacity`` seats in one process."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.taken = 0

    def take(self) -> Hold | None:
        """A seat, or None when every seat is taken."""
        if self.taken >= self.capacity:
            return None
        self.taken += 1
        return Hold(self)

    def give_back(self) -> None:
        self.taken -= 1
