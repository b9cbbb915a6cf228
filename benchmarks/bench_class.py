"""The class load on `univac-ttt serve`, as the clients see it: one command, a table.

Run: python3 benchmarks/bench_class.py [--clients 100,300] [--sizes 80x24,120x40,200x60]
         [--games 20] [--think-min 0.5] [--think-max 1.5] [--workers N] [--max-seconds 240]
         [--cycles 0]

Each configuration (clients x terminal size) is one run of benchmarks/bench_serve.py in its
own process against a fresh server: telnet clients with pyte screens playing --games games
at a human pace (--think-min to --think-max seconds before each key), each timing Enter to
its own new board. A configuration starts no new game after --max-seconds, so each is
bounded (a few minutes); the table says how many games were played. Figures: p50/p99/max of
keystroke to board over all legal moves, server CPU a move (all server processes, their
keys and illegal moves included), server memory a playing client (peak resident memory of
all server processes during the class, less the idle server, over the clients), and the
load average of the machine when the run ended: on a shared machine, read the latencies
with it. Every game must end in a UNIVAC win or a draw with no cross-talk; the server's
tallies must agree with the clients'.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_one(clients: int, size: str, args: argparse.Namespace) -> dict[str, object]:
    columns, rows = size.split("x")
    command = [sys.executable, str(HERE / "bench_serve.py"), "--clients", str(clients),
               "--games", str(args.games), "--cycles", str(args.cycles),
               "--think-min", str(args.think_min), "--think-max", str(args.think_max),
               "--columns", columns, "--rows", rows, "--workers", str(args.workers),
               "--max-seconds", str(args.max_seconds)]
    done = subprocess.run(command, capture_output=True, text=True,
                          timeout=args.max_seconds + 600)
    for line in done.stdout.splitlines():
        if line.startswith("result: "):
            return json.loads(line[len("result: "):])
    raise RuntimeError(f"{clients} at {size}: no result\n{done.stdout[-2000:]}"
                       f"{done.stderr[-2000:]}")


def row(result: dict[str, object]) -> str:
    r = result
    ok = "yes" if (r["opponent"] == 0 and r["errors"] == 0 and r["agree"]) else "NO"
    return (f"| {r['clients']} | {r['size']} | {r['workers']} | {r['games']} | "
            f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f} | "
            f"{r['cpu_move_ms']:.2f} | {r['mib_client_playing']:.2f} | {ok} | "
            f"{r['load']:.1f} |")


HEADER = ("| clients | terminal | workers | games | p50 ms | p99 ms | max ms | server CPU a move "
          "ms | MiB a playing client | all wins/draws, no cross-talk | load average |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="100,300")
    parser.add_argument("--sizes", default="80x24,120x40,200x60")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    parser.add_argument("--max-seconds", type=float, default=240.0)
    parser.add_argument("--cycles", type=int, default=0,
                        help="connect/disconnect cycles after each class (1000 to check "
                             "memory and descriptors come back)")
    args = parser.parse_args()
    print(HEADER, flush=True)
    failed = False
    for clients in (int(c) for c in args.clients.split(",")):
        for size in args.sizes.split(","):
            result = run_one(clients, size, args)
            print(row(result), flush=True)
            failed |= not (result["opponent"] == 0 and result["errors"] == 0
                           and result["agree"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
