"""`univac-ttt serve --web` with probes: the server's own share of key-to-paper.

    python3 benchmarks/bench_web.py --probe

Adds no behaviour; measures, and prints a summary when the server stops: each WORD RELEASE's
handling in the server (the run of the reply and the paper handed to the socket), in wall
time and in the process's CPU time (which the other processes of a shared machine disturb
far less), garbage-collection pauses, and how late the event loop wakes (a 10 ms sleeper).
"""

from __future__ import annotations

import atexit
import gc
import sys
import time

from probe import pct_ms, watch_the_server_loop

from univac_ttt.cli import main
from univac_ttt.web import tab

walls: list[float] = []
cpus: list[float] = []
pauses: list[float] = []
by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
lags: list[float] = []
_started = [0.0]
first_key: list[float] = []  # set at the first WORD RELEASE: play has begun
during_play: list[float] = []  # full collections from then on


def _gc(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
    else:
        pauses.append(time.perf_counter() - _started[0])
        by_generation[info["generation"]].append(pauses[-1])
        if info["generation"] == 2 and first_key:
            during_play.append(pauses[-1])


gc.callbacks.append(_gc)
_key = tab.GameTab.key


async def _timed_key(self: tab.GameTab, key: str) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    await _key(self, key)
    if key == "Enter":
        first_key[:] = first_key or [wall]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)


tab.GameTab.key = _timed_key  # type: ignore[method-assign]
watch_the_server_loop(lags)
_pct = pct_ms


def _summary() -> None:
    print(f"probe: WORD RELEASE in the server: {len(walls)}; wall p50 {_pct(walls, .5):.2f} "
          f"p99 {_pct(walls, .99):.2f} ms; CPU p50 {_pct(cpus, .5):.2f} p99 "
          f"{_pct(cpus, .99):.2f} max {max(cpus, default=0) * 1000:.2f} ms")
    for generation, times in by_generation.items():
        print(f"probe: gc gen{generation}: {len(times)} collections, total {sum(times):.2f} s, "
              f"p99 {_pct(times, .99):.1f} ms, max {max(times, default=0) * 1000:.1f} ms")
    print(f"probe: full collections during play: {len(during_play)}, "
          f"max {max(during_play, default=0) * 1000:.1f} ms")
    print(f"probe: loop woke late: {len(lags)} samples, p50 {_pct(lags, .5):.1f} ms, "
          f"p99 {_pct(lags, .99):.1f} ms, max {max(lags, default=0) * 1000:.1f} ms")
    sys.stdout.flush()


atexit.register(_summary)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
