"""`univac-ttt serve` with serve/heap.py switched off (CPython's own collector settings),
the B side of an A/B run of the load benchmark:

    BENCH_SERVER=benchmarks/serve_untuned_gc.py python3 benchmarks/bench_serve.py
"""

from __future__ import annotations

import sys

from univac_ttt.cli import main
from univac_ttt.serve import heap, server


class UntunedHeap(heap.Heap):
    """Counts as the real one does; touches nothing of the collector."""

    def start(self) -> None:
        pass

    def settle(self) -> None:
        pass

    def tick(self, active: int) -> bool:
        return False

    def release(self) -> None:
        pass


server.Heap = UntunedHeap  # type: ignore[misc]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
