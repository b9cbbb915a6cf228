"""`univac-ttt serve` with its CPU split by the loop's callbacks: where a class's server CPU
goes, without a profiler's overhead. A BENCH_SERVER (use ``--workers 1``):

    BENCH_SERVER=benchmarks/serve_cpu_parts.py python3 benchmarks/bench_serve.py \\
        --workers 1 --clients 50 --games 4 --cycles 0 --columns 120 --rows 40 \\
        --think-min 0.5 --think-max 1.5

Every callback the event loop runs is timed in thread CPU (``Handle._run`` wrapped) and
filed under what it runs (a task's coroutine, a callback's function); garbage collections
are timed by generation (``gc.callbacks``) and taken out of the callback they fell in;
compiling the machine's blocks (``compile_block``) and every reclaim of serve/heap.py
(with how many were seated and how many departures it reclaimed) are timed too. Counting
starts when the first terminal leaves (bench_serve's warming connection) and the figures
are printed to the server's log as ``probe:`` lines when it exits. Adds no behaviour.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import gc
import sys
import time
from typing import Any

from univac_ttt.cli import main
from univac_ttt.machine import compiled
from univac_ttt.serve import heap, server

clock = time.thread_time
parts: collections.Counter[str] = collections.Counter()
counts: collections.Counter[str] = collections.Counter()
state = {"on": False, "gc_start": 0.0, "gc_in_callback": 0.0, "start": 0.0}
_run = asyncio.events.Handle._run


def _name(handle: asyncio.events.Handle) -> str:
    callback = handle._callback
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        return f"task {code.co_qualname if code else type(coro).__name__}"
    function = getattr(callback, "__func__", callback)
    return getattr(function, "__qualname__", repr(function))


_nested: list[float] = []  # a handle run inside another's (a key read in the socket's
# turn, serve/memory_input.py): its time is taken out of the outer one's, as collections are


def _timed_run(self: asyncio.events.Handle) -> None:
    if not state["on"]:
        return _run(self)
    outer_gc = state["gc_in_callback"]
    state["gc_in_callback"] = 0.0
    _nested.append(0.0)
    started = clock()
    try:
        return _run(self)
    finally:
        spent = clock() - started
        inner = _nested.pop()
        name = _name(self)
        parts[name] += spent - state["gc_in_callback"] - inner
        counts[name] += 1
        if _nested:
            _nested[-1] += spent - state["gc_in_callback"]
            state["gc_in_callback"] = outer_gc + state["gc_in_callback"]


def _gc(phase: str, info: dict[str, int]) -> None:
    if not state["on"]:
        return
    if phase == "start":
        state["gc_start"] = clock()
    else:
        spent = clock() - state["gc_start"]
        parts[f"gc gen{info['generation']}"] += spent
        counts[f"gc gen{info['generation']}"] += 1
        state["gc_in_callback"] += spent


_compile = compiled.compile_block


def _timed_compile(*args: Any, **kwargs: Any) -> Any:
    started = clock()
    try:
        return _compile(*args, **kwargs)
    finally:
        if state["on"]:
            parts["(inside callbacks) compile_block"] += clock() - started
            counts["(inside callbacks) compile_block"] += 1


_tick = heap.Heap.tick
reclaims: list[tuple[int, int, float]] = []  # (seated, departed waiting, CPU seconds)


def _timed_tick(self: heap.Heap, active: int) -> bool:
    left, started = self.left, clock()
    reclaimed = _tick(self, active)
    if reclaimed and state["on"]:
        reclaims.append((active, left, clock() - started))
    return reclaimed


_unseat = server.ClassTable.unseat


def _counting_unseat(self: server.ClassTable, number: int, why: str) -> None:
    _unseat(self, number, why)
    if not state["on"]:
        state["on"] = True
        state["start"] = clock()


def _summary() -> None:
    total = clock() - state["start"]
    inside = sum(v for k, v in parts.items() if not k.startswith("(inside"))
    print(f"probe: thread CPU since counting {total:.3f} s; callbacks and collections "
          f"{inside:.3f} s; the loop's own {total - inside:.3f} s")
    for active, left, spent in reclaims:
        print(f"probe: reclaim with {active} seated, {left} departed waiting: "
              f"{spent * 1000:.1f} ms")
    for name, spent in parts.most_common(40):
        print(f"probe: {spent:8.3f} s {counts[name]:7d} x {name}")
    sys.stdout.flush()


asyncio.events.Handle._run = _timed_run  # type: ignore[method-assign]
gc.callbacks.append(_gc)
compiled.compile_block = _timed_compile
server.ClassTable.unseat = _counting_unseat  # type: ignore[method-assign]
heap.Heap.tick = _timed_tick  # type: ignore[method-assign]
atexit.register(_summary)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
