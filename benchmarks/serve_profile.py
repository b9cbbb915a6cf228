"""`univac-ttt serve` under cProfile, in process CPU time: where a class's server CPU goes.
A BENCH_SERVER (use ``--workers 1``: a pool worker ends with os._exit, unprofiled):

    BENCH_SERVER=benchmarks/serve_profile.py BENCH_PROFILE_OUT=/tmp/serve.prof \\
        python3 benchmarks/bench_serve.py --workers 1 --clients 30 --games 3 --cycles 0

Counting starts when the server's first terminal leaves (bench_serve's warming connection,
made before the class sits down), so start-up and the warm-up stay out; it stops when the
server exits. Adds no behaviour. Read the file with ``python3 -m pstats``.
"""

from __future__ import annotations

import cProfile
import os
import sys
import time

from univac_ttt.cli import main
from univac_ttt.serve import server

profile = cProfile.Profile(time.process_time)
_unseat = server.ClassTable.unseat
_started = [False]


def _counting_unseat(self: server.ClassTable, number: int, why: str) -> None:
    _unseat(self, number, why)
    if not _started[0]:
        _started[0] = True
        profile.enable()


server.ClassTable.unseat = _counting_unseat  # type: ignore[method-assign]

if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    finally:
        profile.disable()
        profile.dump_stats(os.environ.get("BENCH_PROFILE_OUT", "serve.prof"))
    sys.exit(code)
