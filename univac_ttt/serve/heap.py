"""Keep Python's garbage collections from pausing every terminal at once.

Each terminal's prompt_toolkit application is a graph of several thousand objects that lives
as long as the connection, and every redraw makes thousands more. With a hundred terminals a
full collection walks all of them (200 to 700 ms on the benchmark machine) while every
terminal waits. So: about once a second the young generations are collected and the
survivors frozen (``gc.freeze``: the collector's rounds skip them; reference counting still
frees them), and one full collection reclaims frozen cycles when the room is empty, after
``reclaim_due_after`` terminals have left (a quarter of those seated, 5 to 50), or every
RECLAIM_SECONDS: rare pauses instead of frequent ones. CPython's own young-collection
thresholds are kept: making young collections rarer (50,000 allocations) was measured and
dropped, as each then paused everyone for 50-100 ms.

A process-wide side effect, so bounded: only ``serve`` starts it, the server's ``finally``
always calls ``release`` (everything unfrozen and collected), and what it holds back is at
most the cycles of ``reclaim_due_after`` departed terminals or RECLAIM_SECONDS of play.
docs/performance.md has the A/B measurements that keep it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import time

RECLAIM_AFTER_LEFT = 50  # at most this many departed terminals wait for a reclaim
RECLAIM_MIN_LEFT = 5  # ... and at least this many (or the room is empty) before one
RECLAIM_SHARE = 4  # ... or a quarter of those still seated: a reclaim walks them all
RECLAIM_SECONDS = 300.0  # at most this long between full collections
SETTLE_SECONDS = 2.0  # the room emptied: a second reclaim this long after the first


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library, looked up once (``find_library`` runs ldconfig: not at every reclaim)."""
    for name in ("libc.so.6", ctypes.util.find_library("c")):
        if name:
            with contextlib.suppress(OSError):
                return ctypes.CDLL(name)
    return None


def _malloc_trim() -> None:
    """Give the C allocator's free pages back to the system (glibc), after a reclaim freed
    departed terminals' buffers; where there is no ``malloc_trim``, nothing."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim(0)


def reclaim_due_after(active: int) -> int:
    """How many departures a reclaim waits for with ``active`` terminals seated.

    A departed terminal's graph is cyclic and frozen, so it stays in memory until a reclaim,
    and a reclaim walks every seated terminal: waiting for a quarter of the seated ones
    bounds both the memory held (a quarter of the class's, at most RECLAIM_AFTER_LEFT
    terminals) and the collector's work a departure (about four terminals' walk). Fewer
    held departures keep Python's allocator from growing its high-water mark (1,000
    connect/disconnect cycles grew a server by 65 MiB when 50 departures waited)."""
    return max(RECLAIM_MIN_LEFT, min(RECLAIM_AFTER_LEFT, active // RECLAIM_SHARE))


class Heap:
    def __init__(self) -> None:
        self.left = 0
        self.reclaimed_at = time.monotonic()
        self.reclaims = 0
        self.started = False
        self.settle_at: float | None = None  # when the emptied room's second reclaim is due

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
        """About once a second: freeze the survivors, or reclaim if it is time (True).

        Once the room has emptied, one more reclaim follows SETTLE_SECONDS later: the last
        departures' graphs can still be held for a moment by their ending tasks when the
        first runs (seen in tests/serve/test_serve_cycles.py), and would otherwise stay
        frozen until someone else came and went."""
        now = time.monotonic()
        settle = active == 0 and self.settle_at is not None and now >= self.settle_at
        if active > 0 or settle:
            self.settle_at = None
        due = ((self.left > 0 and (active == 0 or self.left >= reclaim_due_after(active)))
               or (active > 0 and now - self.reclaimed_at > RECLAIM_SECONDS) or settle)
        if not due:
            gc.collect(1)
            gc.freeze()
            return False
        if active == 0 and not settle:
            self.settle_at = now + SETTLE_SECONDS
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        _malloc_trim()
        self.left = 0
        self.reclaimed_at = time.monotonic()
        self.reclaims += 1
        return True

    def release(self) -> None:
        """The server is stopping: give everything back to the collector."""
        self.started = False
        gc.unfreeze()
        gc.collect()
