"""Keep Python's garbage collections from pausing every terminal at once.

Each terminal's prompt_toolkit application is a graph of several thousand objects that lives
as long as the connection. With a hundred terminals a full collection walks all of them
(200 to 700 ms on the benchmark machine) while every terminal waits. So what has survived
is frozen (``gc.freeze``: the collector's rounds skip it; reference counting still frees it)
when a terminal is seated and about once a second, and CPython's own thresholds are left as
they are: its young collections stay small and its full ones see only the last second's
survivors. Collecting the young generations ourselves once a second, with young collections
made rarer, was measured and dropped: each of those collections paused everyone for 50 ms.

Frozen objects that become cyclic garbage (a departed terminal's application) wait for a
reclaim: unfreeze and one full collection, the one long pause. It runs when the room is
empty, or at most RECLAIM_SECONDS after the last one while terminals play, so what is held
back is bounded by the departures of RECLAIM_SECONDS. A process-wide side effect, so
bounded: only ``serve`` starts it and the server's ``finally`` always calls ``release``
(everything unfrozen and collected). docs/performance.md has the A/B measurements.
"""

from __future__ import annotations

import gc
import time

RECLAIM_SECONDS = 300.0  # at most this long between full collections while terminals play


class Heap:
    def __init__(self) -> None:
        self.left = 0
        self.reclaimed_at = time.monotonic()
        self.reclaims = 0
        self.started = False

    def start(self) -> None:
        """The server has started (``release`` gives the collector back)."""
        self.started = True
        self.reclaimed_at = time.monotonic()

    def settle(self) -> None:
        """A terminal was built: its long-lived objects leave the collector's rounds."""
        gc.freeze()

    def terminal_left(self) -> None:
        self.left += 1

    def tick(self, active: int) -> bool:
        """About once a second: freeze the survivors, or reclaim if it is time (True)."""
        due = ((self.left > 0 and active == 0)
               or (active > 0 and time.monotonic() - self.reclaimed_at > RECLAIM_SECONDS))
        if not due:
            gc.freeze()
            return False
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.left = 0
        self.reclaimed_at = time.monotonic()
        self.reclaims += 1
        return True

    def release(self) -> None:
        """The server is stopping: give everything back to the collector."""
        self.started = False
        gc.unfreeze()
        gc.collect()
