"""Time and memory of hostile key streams: prompt_toolkit's parser against the guarded one.

Run: python3 benchmarks/bench_keys.py

Without the guard a paste that never ends and a long unfinished escape prefix cost time
that grows with the square of their length (and every prefix is cached); the quadratic
cases are run for prompt_toolkit's parser only at a size that ends in minutes.
The bytes a terminal delivers are fed in 1 KiB reads (as the terminal reader does) to
prompt_toolkit's Vt100Parser and to tui/keyguard.GuardedParser; the figures are wall time
and the peak of Python allocations (tracemalloc) during the feed, including the parser's
prefix cache.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prompt_toolkit.input import vt100_parser  # noqa: E402
from prompt_toolkit.input.vt100_parser import Vt100Parser  # noqa: E402

from univac_ttt.tui.keyguard import GuardedParser  # noqa: E402

READ = 1024


def random_keys(size: int) -> str:
    rng = random.Random(16)
    return bytes(rng.randrange(256) for _ in range(size)).decode("utf-8", "surrogateescape")


CASES: tuple[tuple[str, Callable[[], str], bool], ...] = (  # (name, input, run both)
    ("100,000 random bytes", lambda: random_keys(100_000), True),
    ("100,000 ordinary keys", lambda: "5" * 100_000, True),
    ("a paste that never ends, 10 MB", lambda: "\x1b[200~" + "x" * 10_000_000, True),
    ("Esc [ and 5,000 digits", lambda: "\x1b[" + "1" * 5_000, True),
    ("Esc [ and 200,000 digits", lambda: "\x1b[" + "1" * 200_000, False),
)


def measure(make: Callable[[Callable[[object], None]], Vt100Parser], data: str
            ) -> tuple[float, float, int]:
    """Seconds, peak MB and keys produced."""
    vt100_parser._IS_PREFIX_OF_LONGER_MATCH_CACHE.clear()
    keys = [0]

    def count(_key: object) -> None:
        keys[0] += 1

    parser = make(count)
    tracemalloc.start()
    started = time.perf_counter()
    for i in range(0, len(data), READ):
        parser.feed(data[i:i + READ])
    parser.flush()
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak / 1e6, keys[0]


def main() -> None:
    print(f"{'input':34} {'prompt_toolkit':>26} {'guarded':>26}")
    for name, build, both in CASES:
        data = build()
        row = [f"{name:34}"]
        for make in (Vt100Parser, GuardedParser):
            if make is Vt100Parser and not both:
                row.append(f"{'(quadratic: not run)':>26}")
                continue
            seconds, megabytes, keys = measure(make, data)
            row.append(f"{seconds:7.2f} s {megabytes:7.1f} MB {keys:7,}")
        print(" ".join(row), flush=True)


if __name__ == "__main__":
    main()
