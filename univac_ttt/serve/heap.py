"""Keep Python's garbage collections from pausing every terminal at once.

Each terminal's prompt_toolkit application is a graph of several thousand objects that lives
as long as the connection, and every redraw makes thousands more. With a hundred terminals a
full collection walks all of them (200 to 700 ms on the benchmark machine) while every
terminal waits. So: what start-up made (modules, the program, its compiled blocks) is
frozen once (``gc.freeze``: the collector's rounds skip it; reference counting still frees
it); CPython's own full collections are switched off (the oldest generation's threshold
raised), so the terminals' long-lived objects gather in the oldest generation, walked by
nobody, moved there by CPython's own young collections; and a reclaim collects
the oldest generation, the seated and departed terminals but not start-up's objects, after
``reclaim_due_after`` terminals have left (a quarter of the class, 5 to 50, the class being
the most seated within PEAK_SECONDS) or every RECLAIM_SECONDS: rare pauses instead of
frequent ones. When the room is empty the reclaim
is a whole one (everything unfrozen, collected and start-up's survivors frozen again), and
it is repeated every SETTLE_SECONDS while a departed terminal's application is still alive
(held by its ending task at the first reclaim), at most SETTLE_TRIES times. CPython's own
young-collection thresholds are kept: making young collections rarer (50,000 allocations)
was measured and dropped, as each then paused everyone for 50-100 ms. And nothing is
collected between reclaims but by those thresholds: until 2026-12-06 a young collection
ran once a second besides (a leftover of a freeze each second, dropped on 2026-12-04),
0.5-0.7 ms a second in each worker of a seated class, typing or not, for nothing the
thresholds do not do (docs/performance-log.md, "Tenth round ... serve10").

Until 2026-12-04 every terminal was frozen too and every reclaim unfroze and walked
everything, start-up's objects included: 25-35 ms of each reclaim in a class, whatever
was seated (docs/performance-log.md, "Sixth round").

A process-wide side effect, so bounded: only ``serve`` starts it, the server's ``finally``
always calls ``release`` (everything unfrozen and collected, the threshold given back), and
what it holds back is at most the cycles of ``reclaim_due_after`` departed terminals or
RECLAIM_SECONDS of play, and what start-up's objects leave as cycles until the room next
empties. docs/performance-log.md has the A/B measurements that keep it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import time
import weakref
from collections.abc import Callable

RECLAIM_AFTER_LEFT = 50  # at most this many departed terminals wait for a reclaim
RECLAIM_MIN_LEFT = 5  # ... and at least this many (or the room is empty) before one
RECLAIM_SHARE = 4  # ... or a quarter of those still seated: a reclaim walks them all
RECLAIM_SECONDS = 300.0  # at most this long between full collections
SETTLE_SECONDS = 2.0  # the room emptied: another reclaim this long after the last ...
SETTLE_TRIES = 5  # ... while a departed terminal is still alive, at most this many times
PEAK_SECONDS = 120.0  # the class's size: the most seated within this long


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
    connect/disconnect cycles grew a server by 65 MiB when 50 departures waited).

    ``Heap`` asks it with the class's size (the most seated within PEAK_SECONDS), not with
    those seated now: as a class leaves, a quarter of those still seated was fewer and
    fewer departures, so the reclaims came faster as the room emptied, each walking
    everyone still there (3.6 walks of a class of 100 leaving one a second, against 1.5;
    docs/performance-log.md, "Tenth round ... serve10"). The memory held is still a
    quarter of the class's at most, while the seated shrink: never more than the class
    held seated."""
    return max(RECLAIM_MIN_LEFT, min(RECLAIM_AFTER_LEFT, active // RECLAIM_SHARE))


NO_FULL_COLLECTIONS = 1 << 30  # the oldest generation's threshold while serving: never


class Heap:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.threshold: tuple[int, int, int] | None = None  # CPython's, while started
        self.left = 0
        self.peak = 0  # the class's size: the most seated within PEAK_SECONDS ...
        self.peak_at = clock()  # ... last seen then
        self.reclaimed_at = clock()
        self.reclaims = 0
        self.started = False
        self.settle_at: float | None = None  # when the emptied room's next reclaim is due
        self.settles = 0  # reclaims since the room emptied (after its first)
        self.departed: list[weakref.ref[object]] = []  # departed graphs not yet seen freed
        self.abandoned = 0  # departed graphs still alive when the settle tries ran out

    def start(self, warm: Callable[[], object] | None = None) -> None:
        """The server has started: what start-up made (modules, the program) leaves the
        collector's rounds at once, and CPython's own full collections stop (the young
        generations' thresholds stay; ``release`` gives back the oldest's and unfreezes).
        ``warm``, called first, makes what a first terminal would make for the whole
        process (the server builds one and lets it go), so that it is frozen with
        start-up's objects instead of walked by every reclaim."""
        self.started = True
        if warm is not None:
            warm()
        gc.collect()
        gc.freeze()
        if self.threshold is None:
            self.threshold = gc.get_threshold()
            young, middle, _ = self.threshold
            gc.set_threshold(young, middle, NO_FULL_COLLECTIONS)

    def settle(self) -> None:
        """A terminal was built: nothing to do. Its long-lived objects reach the oldest
        generation through the young collections, where only a reclaim walks them (once
        frozen here, a departed terminal could be freed only by unfreezing everything)."""

    def terminal_left(self, graph: object = None) -> None:
        """A terminal has gone; ``graph`` (its application), if given, is watched (weakly)
        until a reclaim frees it."""
        self.left += 1
        if graph is not None:
            self.departed.append(weakref.ref(graph))

    def held(self) -> int:
        """How many departed terminals' graphs are still alive (their weak references
        pruned of the freed ones)."""
        self.departed = [ref for ref in self.departed if ref() is not None]
        return len(self.departed)

    def tick(self, active: int) -> bool:
        """About once a second: reclaim if it is time (True); otherwise nothing (the young
        generations are CPython's, collected at its thresholds).

        Once the room has emptied, another reclaim follows SETTLE_SECONDS later, and again
        while a departed terminal's graph is still alive, up to SETTLE_TRIES: the last
        departures' graphs can be held for a while by their ending tasks (seen in
        tests/serve/test_serve_cycles.py, on a slow machine longer than one settle), and
        would otherwise stay frozen until someone else came and went."""
        now = self.clock()
        if active >= self.peak or now - self.peak_at > PEAK_SECONDS:
            self.peak, self.peak_at = active, now
        settle = active == 0 and self.settle_at is not None and now >= self.settle_at
        if active > 0 or settle:
            self.settle_at = None
        due = ((self.left > 0
                and (active == 0 or self.left >= reclaim_due_after(self.peak)))
               or (active > 0 and now - self.reclaimed_at > RECLAIM_SECONDS) or settle)
        if not due:
            return False
        if active == 0:  # nobody waits: start-up's objects too (their cycles, if any)
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        else:  # the terminals, seated and departed; start-up's objects stay frozen
            gc.collect()
        _malloc_trim()
        self.left = 0
        self.reclaimed_at = self.clock()
        self.reclaims += 1
        held = self.held()  # pruned at every reclaim: the list stays as short as the held
        if active == 0:
            self._settle_after(now, settle, held)
        return True

    def _settle_after(self, now: float, settle: bool, held: int) -> None:
        """An emptied room was reclaimed: when (if at all) to reclaim it again. The first
        reclaim is always followed by one; later ones only while graphs are still held."""
        self.settles = self.settles + 1 if settle else 0
        if self.settles < SETTLE_TRIES and (held or not settle):
            self.settle_at = now + SETTLE_SECONDS
        elif held:  # still alive after every try: no longer this heap's to wait for
            self.abandoned += held
            self.departed.clear()

    def release(self) -> None:
        """The server is stopping: give everything back to the collector."""
        self.started = False
        if self.threshold is not None:
            gc.set_threshold(*self.threshold)
            self.threshold = None
        gc.unfreeze()
        gc.collect()
