"""The lecture monitor's bounded commands (issue 16): time and peak memory of each worst case.

    python3 benchmarks/bench_monitor_bounds.py

A `do` file of ten lines that calls itself; `trace on` then `step 999999999`; `history
10000` after a long run (and `history 999999999`, refused); 16 watches on a reply and on a
runaway `go` (which ends at the monitor's 2,000,000-instruction limit for watched runs).
Memory all zeros is a program that never stops (two skips a word, 2,000 instructions a lap).
docs/reliability.md quotes these figures.
"""

from __future__ import annotations

import tempfile
import time
import tracemalloc
from pathlib import Path

from univac_ttt.monitor.core import Monitor
from univac_ttt.packs.tictactoe import load_tictactoe


def measure(name: str, monitor: Monitor, command: str, trace_memory: bool = True) -> None:
    if trace_memory:
        tracemalloc.start()
    start = time.perf_counter()
    out = monitor.execute(command)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / 1e6 if trace_memory else float("nan")
    if trace_memory:
        tracemalloc.stop()
    print(f"{name:<34} {seconds:7.2f} s  {peak:6.1f} MB peak  {len(out):6,} lines  "
          f"{out[-1][:60]}")


def main() -> None:
    shipped = load_tictactoe()
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "self.txt"
        script.write_text(f"do {script}\n" * 10)
        measure("do that calls itself (10 lines)", Monitor({}), f"do {script}")
    traced = Monitor({})
    traced.execute("trace on")
    measure("trace on, step 999999999", traced, "step 999999999")
    long_run = Monitor({})
    long_run.execute("step 3000000")
    measure("history 999999999", long_run, "history 999999999")
    measure("history 10000", long_run, "history 10000")
    game = Monitor(shipped.image.words, shipped.program)
    for address in range(16):
        game.execute(f"watch {600 + address}")
    game.execute("go")
    game.execute("type 5")
    measure("16 watches, one reply", game, "continue")
    runaway = Monitor({})
    for address in range(16):
        runaway.execute(f"watch {600 + address}")
    measure("16 watches, runaway go", runaway, "go", trace_memory=False)


if __name__ == "__main__":
    main()
