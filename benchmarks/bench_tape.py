"""Booting the program tape: wall time of INITIAL READ plus the loader, and its UNIVAC time.

Run: python3 benchmarks/bench_tape.py [--repeat N]

The boot is 18 block reads and 17 60-word transfers; its UNIVAC time is set by the tape
(about 100 ms a block), so the wall time shows what the emulator spends per block.
"""

from __future__ import annotations

import argparse
import statistics
import time

from univac_ttt.desk import Desk
from univac_ttt.machine import Machine
from univac_ttt.machine.timing import format_time
from univac_ttt.packs.tictactoe import fresh_tictactoe_tape, load_tictactoe_tape

LOADER_STEPS = 20


def boot_once() -> tuple[float, float]:
    """(wall seconds, UNIVAC microseconds) for CLEAR C, INITIAL READ and the loader."""
    start = time.perf_counter()
    m = Machine()
    m.tapes.attach(1, fresh_tictactoe_tape())
    m.clear()
    stop = m.initial_read()
    assert stop is None, stop
    m.step(LOADER_STEPS)
    assert m.cc == 0 and m.tapes[1].position == 18
    return time.perf_counter() - start, m.time_us


def desk_boot_once() -> float:
    """Wall seconds of ``Desk.load_tape``, the front ends' boot (a watched loader run)."""
    desk = Desk()
    start = time.perf_counter()
    stop = desk.load_tape(fresh_tictactoe_tape())
    assert stop is None, stop
    return time.perf_counter() - start


def snapshot_restore_once(desk: Desk) -> float:
    """Wall seconds of one snapshot and restore with the program tape mounted."""
    start = time.perf_counter()
    desk.restore(desk.snapshot())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    load_tictactoe_tape()  # parse and check the shipped tape once, outside the timing
    start = time.perf_counter()
    load_tictactoe_tape.cache_clear()
    load_tictactoe_tape()
    parse = time.perf_counter() - start
    runs = [boot_once() for _ in range(args.repeat)]
    walls = sorted(w for w, _ in runs)
    print(f"read and check tictactoe.tape        {parse * 1000:8.1f} ms")
    print(f"boot (initial read + loader), median {statistics.median(walls) * 1000:8.3f} ms")
    print(f"boot, worst                          {walls[-1] * 1000:8.3f} ms")
    print(f"boot, UNIVAC time                    {format_time(runs[0][1]):>11}")
    desk_walls = sorted(desk_boot_once() for _ in range(args.repeat))
    print(f"desk.load_tape, median               {statistics.median(desk_walls) * 1000:8.3f} ms")
    desk = Desk()
    desk.load_tape(fresh_tictactoe_tape())
    pairs = sorted(snapshot_restore_once(desk) for _ in range(args.repeat))
    print(f"snapshot + restore (tape on), median {statistics.median(pairs) * 1e6:8.1f} µs")


if __name__ == "__main__":
    main()
