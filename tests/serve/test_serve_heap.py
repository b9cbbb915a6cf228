"""The served heap's reclaim after the room empties, on a fake clock: it tries again while a
departed terminal's graph is still held by its ending task, and gives up after a few tries."""

from __future__ import annotations

import weakref

from tests.support.fake_clock import FakeClock
from univac_ttt.serve.heap import RECLAIM_MIN_LEFT, SETTLE_SECONDS, SETTLE_TRIES, Heap


class Graph:
    """A departed terminal's application, in little: a cycle, which only a full collection
    frees once nothing else holds it."""

    def __init__(self) -> None:
        self.me = self


def test_an_emptied_room_is_reclaimed_again_until_its_last_graph_is_freed() -> None:
    clock = FakeClock(0.0)
    heap = Heap(clock)
    heap.start()
    try:
        ending = [Graph()]  # the terminal's ending task still holds its application
        alive = weakref.ref(ending[0])
        heap.terminal_left(ending[0])
        assert heap.tick(active=0)  # the room is empty: reclaimed at once ...
        assert alive() is not None and heap.settle_at is not None  # ... but still held
        assert not heap.tick(active=0)  # nothing before the settle time
        for _ in range(2):  # each settle finds it still held, and tries again
            clock.now += SETTLE_SECONDS
            assert heap.tick(active=0) and heap.settle_at is not None
        ending.clear()  # the task ends: a frozen cycle, garbage until a full collection
        assert alive() is not None
        clock.now += SETTLE_SECONDS
        assert heap.tick(active=0)
        assert alive() is None and heap.settle_at is None and not heap.departed
        clock.now += SETTLE_SECONDS
        assert not heap.tick(active=0)  # nothing more to do
    finally:
        heap.release()


def test_a_graph_held_for_ever_is_tried_a_bounded_number_of_times() -> None:
    clock = FakeClock(0.0)
    heap = Heap(clock)
    heap.start()
    try:
        forever = Graph()  # a leak elsewhere: no reclaim can free it
        heap.terminal_left(forever)
        assert heap.tick(active=0)
        settles = 0
        while heap.settle_at is not None and settles <= SETTLE_TRIES:
            clock.now = heap.settle_at
            assert heap.tick(active=0)
            settles += 1
        assert settles == SETTLE_TRIES and heap.abandoned == 1 and not heap.departed
        clock.now += 10 * SETTLE_SECONDS
        assert not heap.tick(active=0)
    finally:
        heap.release()


def test_a_seated_room_watches_only_the_departed_still_alive() -> None:
    """While others play, reclaims come with departures; the weak references to the freed
    graphs go at each, so the list stays as short as what is really held."""
    heap = Heap(FakeClock(0.0))
    heap.start()
    try:
        for _ in range(10 * RECLAIM_MIN_LEFT):  # a reclaim every RECLAIM_MIN_LEFT of them
            heap.terminal_left(Graph())
            heap.tick(active=20)
        assert heap.reclaims == 10 and len(heap.departed) < RECLAIM_MIN_LEFT
        assert heap.settle_at is None  # a seated room has no settle reclaims
    finally:
        heap.release()


def test_a_reclaim_with_terminals_seated_frees_the_departed_and_leaves_startup_frozen() -> None:
    import gc

    from univac_ttt.serve.heap import NO_FULL_COLLECTIONS

    def walked(thing: object) -> bool:  # in a generation the collector walks (not frozen)
        return any(any(o is thing for o in gc.get_objects(g)) for g in range(3))

    thresholds = gc.get_threshold()
    heap = Heap(FakeClock(0.0))
    early = Graph()  # start-up's
    heap.start()
    try:
        assert gc.get_threshold() == (*thresholds[:2], NO_FULL_COLLECTIONS)
        assert not walked(early)
        seated, graph = Graph(), Graph()
        assert not heap.tick(active=3)  # a young collection: both are old objects now
        alive = weakref.ref(graph)
        heap.terminal_left(graph)
        del graph
        assert not heap.tick(active=3)  # one left: only the young generations collected ...
        assert alive() is not None  # ... so the old departed graph waits
        for _ in range(RECLAIM_MIN_LEFT - 1):
            heap.terminal_left()
        assert heap.tick(active=3)  # enough have left: the reclaim frees it ...
        assert alive() is None
        assert walked(seated)  # ... the seated stay where the next reclaim walks them ...
        assert not walked(early)  # ... and start-up's objects stay frozen
    finally:
        heap.release()
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
