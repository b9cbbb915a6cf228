"""`univac-ttt serve` with probes: where a keystroke's waiting comes from. A BENCH_SERVER
(with --workers, each worker prints its own figures):

    BENCH_SERVER=benchmarks/serve_probe.py python3 benchmarks/bench_serve.py ...

Adds no behaviour; measures, and prints a summary to the server's log when it stops:
garbage-collection pauses (gc.callbacks), how late the event loop wakes (a 10 ms sleeper),
and the wall time of each screen redraw. BENCH_PROBE_GC=untuned switches serve/heap.py off
(CPython's own collector settings: the B side of the heap A/B), =freeze replaces it with
one gc.freeze() per seated terminal and CPython's thresholds, =rare-young restores the
young-collection threshold of 50,000 that serve/heap.py had before.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import time

from probe import pct_ms, watch_the_server_loop
from prompt_toolkit.application import Application

from univac_ttt.cli import main
from univac_ttt.serve import heap, server, workers

pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
lags: list[float] = []
redraws: list[float] = []
_started: list[float] = [0.0]


def _gc(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
    else:
        pauses[info["generation"]].append(time.perf_counter() - _started[0])


gc.callbacks.append(_gc)
_redraw = Application._redraw


def _timed_redraw(self: Application[object], render_as_done: bool = False) -> None:
    started = time.perf_counter()
    _redraw(self, render_as_done)
    redraws.append(time.perf_counter() - started)


Application._redraw = _timed_redraw  # type: ignore[method-assign]

watch_the_server_loop(lags)
_pct = pct_ms


def _summary() -> None:
    for generation, times in pauses.items():
        print(f"probe: gc gen{generation}: {len(times)} collections, total "
              f"{sum(times):.2f} s, p50 {_pct(times, .5):.1f} ms, max "
              f"{max(times, default=0) * 1000:.1f} ms")
    print(f"probe: loop woke late: {len(lags)} samples, p50 {_pct(lags, .5):.1f} ms, "
          f"p99 {_pct(lags, .99):.1f} ms, max {max(lags, default=0) * 1000:.1f} ms")
    print(f"probe: redraws: {len(redraws)}, p50 {_pct(redraws, .5):.2f} ms, p99 "
          f"{_pct(redraws, .99):.2f} ms, total {sum(redraws):.1f} s")
    sys.stdout.flush()


atexit.register(_summary)

_worker = workers._worker


def _probed_worker(*args: object) -> None:
    """A pool worker ends with os._exit (no atexit): its own summary, then."""
    try:
        _worker(*args)  # type: ignore[arg-type]
    finally:
        print(f"probe: worker {os.getpid()}:")
        _summary()


workers._worker = _probed_worker


class UntunedHeap(heap.Heap):
    def start(self) -> None:
        pass

    def settle(self) -> None:
        pass

    def tick(self, active: int) -> bool:
        return False

    def release(self) -> None:
        pass


class FreezeHeap(UntunedHeap):
    def settle(self) -> None:
        gc.freeze()


class RareYoungHeap(heap.Heap):
    """serve/heap.py as it was before 2026-11-30: young collections every 50,000 allocations."""

    def start(self) -> None:
        super().start()
        self.saved = gc.get_threshold()
        gc.set_threshold(50_000, self.saved[1], self.saved[2])

    def release(self) -> None:
        gc.set_threshold(*self.saved)
        super().release()


MODE = os.environ.get("BENCH_PROBE_GC", "tuned")
if MODE == "untuned":
    server.Heap = UntunedHeap  # type: ignore[misc]
elif MODE == "rare-young":
    server.Heap = RareYoungHeap  # type: ignore[misc]
elif MODE == "freeze":
    server.Heap = FreezeHeap  # type: ignore[misc]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
