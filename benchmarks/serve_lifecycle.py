"""A served terminal's life on the server's thread, phase by phase: seating, its first
moves (every lookup and table a terminal or the process builds at its first keys), the
moves after them, and leaving. In process and scripted, as bench_serve_cpu.py (whose
clients it uses): the figures are the server thread's CPU time, and, from a second run
under cProfile, its Python function calls (a count that does not move with the machine's
load: compare base and branch by it, and by the CPU time taken in the same minutes).

    python3 benchmarks/serve_lifecycle.py --terminals 100 --size 120x40 --moves 2
    python3 benchmarks/serve_lifecycle.py --calls       # the function calls a phase too

Each phase: seating connects the terminals one at a time and waits until each greeting is
typed; the first and the next rounds are ``--moves`` moves of every terminal (a square and
Enter, drawn before the next); leaving closes every client's socket and waits until the
server has unseated them all (the departures a class's end costs inside bench_serve's
measured time). Say the load average (printed) beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve_cpu import WAIT, Drainer, drive, seat, start_server  # noqa: E402

PHASES = ("seat", "first moves", "next moves", "leave")


class Meter:
    """The server thread's CPU time of each phase, and its function calls if counting."""

    def __init__(self, calls: bool) -> None:
        self.calls = calls
        self.cpu: dict[str, float] = {}
        self.counted: dict[str, int] = {}
        self._profile: cProfile.Profile | None = None
        self._started = 0.0

    def start(self) -> None:
        if self.calls:
            self._profile = cProfile.Profile(time.thread_time)
            self._profile.enable()
        self._started = time.thread_time()

    def stop(self, phase: str) -> None:
        self.cpu[phase] = time.thread_time() - self._started
        if self._profile is not None:
            self._profile.disable()
            self.counted[phase] = pstats.Stats(self._profile).total_calls  # type: ignore[attr-defined]
            self._profile = None


async def life(terminals: int, columns: int, rows: int, moves: int, meter: Meter) -> None:
    loop = asyncio.get_running_loop()
    server, seated, stop, task = await start_server(terminals)
    assert server.telnet is not None
    drainer = Drainer()
    drainer.start()
    meter.start()
    clients = await seat(server.telnet.bound_port, seated, drainer, terminals, columns, rows)
    meter.stop("seat")

    async def rounds(count: int) -> None:
        results: queue.Queue[object] = queue.Queue()
        finished = loop.create_future()
        done: Callable[[], None] = lambda: loop.call_soon_threadsafe(  # noqa: E731
            finished.set_result, None)
        thread = threading.Thread(target=drive, args=(clients, count, loop, results, done,
                                                         0.0))
        thread.start()
        await finished
        thread.join()
        error = results.get()
        if error is not None:
            raise error  # type: ignore[misc]

    for phase in ("first moves", "next moves"):
        meter.start()
        await rounds(moves)
        meter.stop(phase)
    meter.start()
    drainer.stopping = True
    drainer.join(5)
    for client in clients:
        client.sock.close()
    while server.apps:
        await asyncio.sleep(0.01)
    meter.stop("leave")
    stop.set()
    await asyncio.wait_for(task, WAIT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terminals", type=int, default=100)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--moves", type=int, default=2, help="a terminal's moves a round")
    parser.add_argument("--calls", action="store_true",
                        help="a second run under cProfile: the function calls a phase")
    args = parser.parse_args()
    columns, rows = (int(part) for part in args.size.split("x"))
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load average "
          f"{os.getloadavg()[0]:.2f}, {args.terminals} terminals at {args.size}, "
          f"{args.moves} moves a round")
    timed = Meter(calls=False)
    asyncio.run(life(args.terminals, columns, rows, args.moves, timed))
    counted = Meter(calls=True) if args.calls else None
    if counted is not None:
        asyncio.run(life(args.terminals, columns, rows, args.moves, counted))
    per = {"seat": args.terminals, "first moves": args.terminals * args.moves,
           "next moves": args.terminals * args.moves, "leave": args.terminals}
    print("| phase | server CPU ms | each | Python calls each |")
    print("|---|---|---|---|")
    for phase in PHASES:
        unit = "a terminal" if phase in ("seat", "leave") else "a move"
        calls = f"{counted.counted[phase] / per[phase]:,.0f}" if counted is not None else ""
        print(f"| {phase} | {timed.cpu[phase] * 1000:.1f} | "
              f"{timed.cpu[phase] / per[phase] * 1000:.3f} ms {unit} | {calls} |")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
