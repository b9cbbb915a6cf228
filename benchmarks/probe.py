"""What the probe servers (serve_probe.py, web_probe.py) and the load benchmarks share: a
loop-lag watcher, percentiles, and the class server's sweep patched to run the watcher.

Imported by scripts in this folder (run as ``python3 benchmarks/NAME.py``, so the folder is
on ``sys.path``); measures only, changes no behaviour.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

PERIOD = 0.01  # seconds the lag watcher sleeps: how late it wakes is the loop's lag


async def loop_lag(lags: list[float], period: float = PERIOD) -> None:
    """Until cancelled: how late this event loop wakes from a ``period`` sleep, in seconds
    (what every callback on the loop waited beyond its turn)."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(period)
        lags.append(time.perf_counter() - started - period)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value at ``fraction`` of the sorted values (nearest rank), 0 for none."""
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def pct_ms(values: Sequence[float], fraction: float) -> float:
    """``percentile`` of values in seconds, in milliseconds."""
    return percentile(values, fraction) * 1000


def watch_the_server_loop(lags: list[float]) -> None:
    """Run ``loop_lag`` on every class server's loop for as long as its sweep runs (each
    pool worker's too): ``ClassServer._sweep`` wrapped."""
    from univac_ttt.serve import server

    sweep = server.ClassServer._sweep

    async def probed_sweep(self: server.ClassServer) -> None:
        task = asyncio.get_running_loop().create_task(loop_lag(lags))
        try:
            await sweep(self)
        finally:
            task.cancel()

    server.ClassServer._sweep = probed_sweep  # type: ignore[method-assign]
