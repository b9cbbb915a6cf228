"""The worker pool's seat lock survives a worker killed while it holds it: the kernel frees
the lock with the process, the first process clears the dead worker's seats, and the other
workers go on seating. Real processes (forked, as the pool's workers are) and a real
SIGKILL; every wait bounded, on conditions."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from pathlib import Path
from typing import Any

from univac_ttt.serve.workers import SharedSeats

WAIT = 30.0  # seconds a condition may take on a loaded machine (never reached when it holds)


def _park(seats: SharedSeats, index: int, inside: Any, never: Any) -> None:
    """A worker that takes a seat, then stops inside the seat lock (the test's seam)."""
    seats.index = index
    assert seats.take() is not None
    with seats.locked():
        inside.set()
        never.wait()  # killed here, the lock held


def _record_locks(pid: int) -> int:
    """POSIX record locks ``pid`` holds, from /proc/locks."""
    return sum(line.split()[1:5] == ["POSIX", "ADVISORY", "WRITE", str(pid)]
               for line in Path("/proc/locks").read_text().splitlines())


def test_a_worker_killed_inside_the_seat_lock_leaves_the_class_open() -> None:
    context = multiprocessing.get_context("fork")
    seats = SharedSeats(2, 2, context)
    seats.index = 1  # this process plays the other worker (and the first process)
    inside, never = context.Event(), context.Event()
    worker = context.Process(target=_park, args=(seats, 0, inside, never), daemon=True)
    worker.start()
    try:
        assert inside.wait(WAIT)
        assert _record_locks(worker.pid) == 1 and seats.taken == 1  # parked in the lock
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(WAIT)
        assert worker.exitcode == -signal.SIGKILL
        assert _record_locks(worker.pid) == 0

        taken: list[object] = []
        done = threading.Event()

        def after_the_death() -> None:  # what the pool does next: forget, then seat others
            seats.forget(0)
            taken.extend(seats.take() for _ in range(3))
            done.set()

        threading.Thread(target=after_the_death, daemon=True).start()
        assert done.wait(WAIT), "the seat lock stayed held by the killed worker"
        first, second, third = taken
        assert first is not None and second is not None and third is None  # 2 seats again
        assert seats.taken == 2
    finally:
        if worker.is_alive():
            worker.kill()
        seats.close()
