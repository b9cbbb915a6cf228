"""Keep Python's garbage collections from pausing every terminal at once.

Each terminal's prompt_toolkit application is a graph of several thousand objects that lives
as long as the connection, and every redraw makes thousands more. With a hundred terminals a
full collection walks all of them (200 to 700 ms on the benchmark machine) while every
terminal waits. So: about once a second the young generations are collected and the
survivors frozen (``gc.freeze``: the collector's rounds skip them; reference counting still
frees them), and one full collection reclaims frozen cycles when the room is quiet, after
RECLAIM_AFTER_LEFT terminals have left, or every RECLAIM_SECONDS: rare pauses instead of
frequent ones. CPython's own young-collection thresholds are kept: making young collections
rarer (50,000 allocations) was measured and dropped, as each then paused everyone for
50-100 ms.

A process-wide side effect, so bounded: only ``serve`` starts it, the server's ``finally``
always calls ``release`` (everything unfrozen and collected), and what it holds back is at
most the cycles of RECLAIM_AFTER_LEFT departed terminals or RECLAIM_SECONDS of play.
docs/performance.md has the A/B measurements that keep it.
"""

from __future__ import annotations

import gc
import time

RECLAIM_AFTER_LEFT = 50  # terminals that have left before a reclaim even while others play
RECLAIM_SECONDS = 300.0  # at most this long between full collections


class Heap:
    def __init__(self) -> None:
        self.left = 0
        self.reclaimed_at = time.monotonic()
        self.reclaims = 0
        self.started = False

    def start(self) -> None:
        """The server has started: what start-up made (modules, the program) leaves the
        collector's rounds at once. CPython's thresholds stay (``release`` unfreezes)."""
        self.started = True
        gc.collect()
        gc.freeze()

    def settle(self) -> None:
        """A terminal was built: its long-lived objects leave the collector's rounds."""
        gc.freeze()

    def terminal_left(self) -> None:
        self.left += 1

    def tick(self, active: int) -> bool:
        """About once a second: freeze the survivors, or reclaim if it is time (True)."""
        due = ((self.left > 0 and (active == 0 or self.left >= RECLAIM_AFTER_LEFT))
               or (active > 0 and time.monotonic() - self.reclaimed_at > RECLAIM_SECONDS))
        if not due:
            gc.collect(1)
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
