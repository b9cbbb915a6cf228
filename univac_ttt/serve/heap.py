"""Keep Python's full garbage collections from pausing every terminal at once.

Each terminal's prompt_toolkit application is a graph of a few thousand objects that lives
as long as the connection. With a hundred terminals a full collection walks all of them
(about 200 ms on the benchmark machine) while every terminal waits. So once a terminal is
built its objects are frozen (``gc.freeze``: the collector skips them), and the graphs of
terminals that have left are reclaimed in one collection when the room is quiet or enough
have left, never during a normal keystroke.
"""

from __future__ import annotations

import gc
import time

RECLAIM_AFTER_LEFT = 25  # terminals that have left before a reclaim even while others play
RECLAIM_SECONDS = 120.0  # at most this long between reclaims while any have left


class Heap:
    def __init__(self) -> None:
        self.left = 0
        self.reclaimed_at = time.monotonic()
        self.reclaims = 0

    def settle(self) -> None:
        """A terminal was built: its long-lived objects leave the collector's rounds."""
        gc.freeze()

    def terminal_left(self) -> None:
        self.left += 1

    def tick(self, active: int) -> bool:
        """Reclaim the left terminals' objects if the time is right; True if it did."""
        if not self.left:
            return False
        due = (active == 0 or self.left >= RECLAIM_AFTER_LEFT
               or time.monotonic() - self.reclaimed_at > RECLAIM_SECONDS)
        if not due:
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
        gc.unfreeze()
        gc.collect()
