"""The served heap's reclaim after the room empties, on a fake clock: it tries again while a
departed terminal's graph is still held by its ending task, and gives up after a few tries."""

from __future__ import annotations

import weakref

from tests.support.fake_clock import FakeClock
from univac_ttt.serve.heap import (
    PEAK_SECONDS,
    RECLAIM_MIN_LEFT,
    SETTLE_SECONDS,
    SETTLE_TRIES,
    Heap,
    reclaim_due_after,
)


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
        gc.collect(1)  # CPython's own young collections: both are old objects now
        assert not heap.tick(active=3)
        alive = weakref.ref(graph)
        heap.terminal_left(graph)
        del graph
        assert not heap.tick(active=3)  # one left: nothing collected yet ...
        gc.collect(1)  # ... and CPython's young collections leave the oldest alone ...
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


def test_a_tick_with_no_reclaim_due_collects_nothing() -> None:
    """Between reclaims the young generations are CPython's (its thresholds): a tick that
    is not a reclaim runs no collection, so a seated class, typing or not, pays none each
    second (a young collection a second was 0.5-0.7 ms in each worker of a class)."""
    import gc

    collections: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    heap = Heap(FakeClock(0.0))
    heap.start()
    gc.callbacks.append(seen)
    try:
        for active in (0, 1, 3, 20):
            assert not heap.tick(active=active)
        heap.terminal_left()
        assert not heap.tick(active=20)  # one left while twenty play: no reclaim yet
        assert collections == []
        for _ in range(RECLAIM_MIN_LEFT):
            heap.terminal_left()
        assert heap.tick(active=20) and collections == [2]  # the reclaim: one, full
    finally:
        gc.callbacks.remove(seen)
        heap.release()


def test_what_warm_makes_is_frozen_with_start_ups_objects() -> None:
    """The server builds one terminal before the heap freezes (``Heap.start(warm=...)``):
    the tables a first terminal makes for the whole process are then frozen, not walked by
    every reclaim of the class."""
    import gc

    made: list[Graph] = []
    heap = Heap(FakeClock(0.0))
    heap.start(warm=lambda: made.append(Graph()))
    try:
        assert len(made) == 1
        assert not any(any(o is made[0] for o in gc.get_objects(g)) for g in range(3))
    finally:
        heap.release()


def test_the_server_warms_a_terminal_before_the_heap_freezes() -> None:
    """``ClassServer.run`` hands the heap a warm that builds one terminal's front end with
    the server's own factory, on no terminal, and lets it go."""
    import asyncio
    import io

    from prompt_toolkit.input import DummyInput
    from prompt_toolkit.output import DummyOutput

    from tests.support.serving import CollectorLeftAlone
    from univac_ttt.classroom.options import Endpoint, ServeOptions
    from univac_ttt.cli import served_apps
    from univac_ttt.serve.server import ClassServer

    built: list[object] = []
    play = served_apps()["play"]

    def factory(input, output, **kwargs):  # type: ignore[no-untyped-def]
        built.append((type(input), type(output)))
        return play(input, output, **kwargs)

    class Warming(CollectorLeftAlone):
        def start(self, warm=None):  # type: ignore[no-untyped-def]
            assert warm is not None
            warm()
            super().start()

    async def scenario() -> None:
        server = ClassServer(ServeOptions(telnet=Endpoint("127.0.0.1", 0)),
                             {"play": factory}, io.StringIO(), live=False, heap=Warming())
        stop = asyncio.Event()
        task = asyncio.get_running_loop().create_task(server.run(stop))
        await asyncio.wait_for(server.ready.wait(), 10)
        assert built == [(DummyInput, DummyOutput)] and not server.apps
        assert not server.table.seats and server.table.connections_total == 0
        stop.set()
        await asyncio.wait_for(task, 15)

    asyncio.run(scenario())


def test_a_class_leaving_is_reclaimed_by_its_size_not_by_those_still_seated() -> None:
    """A hundred leave one a second: a reclaim after a quarter of the class (its most
    seated lately) has gone, not after a quarter of those still seated (which came faster
    and faster as the room emptied, each walking everyone still there). The departures
    held never pass a quarter of the class; and once the class has been small for
    PEAK_SECONDS, a quarter of the small class is the bound again."""
    clock = FakeClock(0.0)
    heap = Heap(clock)
    heap.start()
    try:
        class_size, walked, most_held = 100, 0, 0
        for seated in range(class_size, -1, -1):
            if seated < class_size:
                heap.terminal_left()
            most_held = max(most_held, heap.left)
            if heap.tick(active=seated):
                walked += seated  # a reclaim walks everyone still seated
            clock.now += 1.0
        assert most_held <= reclaim_due_after(class_size)
        # a quarter of those seated: reclaims at 80, 64, 51, 41, ... walked 356 in all
        assert walked <= 1.5 * class_size
        for seated in (8, 8):  # a small class, long after: a quarter of it again
            clock.now += PEAK_SECONDS + 1
            heap.tick(active=seated)
        for _ in range(RECLAIM_MIN_LEFT):
            heap.terminal_left()
        assert heap.tick(active=8)
    finally:
        heap.release()
