"""The class load on `univac-ttt serve`, as the clients see it: one command, a table.

Run: python3 benchmarks/bench_class.py [--quick] [--clients 100,300]
         [--sizes 80x24,120x40,200x60] [--games 20] [--think-min 0.5] [--think-max 1.5]
         [--workers N] [--max-seconds 240] [--cycles 0] [--client-processes P]
         [--pyte] [--server-cpus 0] [--client-cpus 1]

``--quick`` is the same table in about ten minutes (every configuration, 4 games a client,
no new game after 40 s): for a rerun on a quiet machine; the full run takes about 40.

Each configuration (clients x terminal size) is one run of benchmarks/bench_serve.py in its
own process against a fresh server: telnet clients with cheap text-row screens
(tests/support/screen_rows.py, held to pyte's rows by a test; ``--pyte`` for pyte's own,
the old way, whose CPU outgrew the server's) playing --games games at a human pace
(--think-min to --think-max seconds before each key), each timing Enter to its own new
board. A configuration starts no new game after --max-seconds, so each is bounded (a few
minutes); the table says how many games were played. Figures: p50/p99/max of keystroke to
board over all legal moves, server CPU a move (all server processes' CPU over the class,
their keys and the illegal moves' included, over the legal moves: the figure issue 21's
goal was set by), server CPU a keyed move (the same CPU over every move the machine
answered, legal or refused: a quarter of the moves are refused), server memory a playing
client (peak resident memory of all server processes during the class, less the idle
server, over the clients), and the load average of the machine when the run ended: on a
shared machine, read the latencies with it. The clients run in processes of their own (one
a hundred clients unless --client-processes says): the table gives their CPU (all their
processes, as a share of one core, and the busiest one's) and how late their event loops
woke (p99), so that a p99 the clients caused can be told from the server's, and what the
rest of the machine used meanwhile (/proc/stat's busy time less the server's and the
clients'): other work on the same cores. ``--server-cpus``/``--client-cpus`` pin each side
(os.sched_setaffinity). Every game must end in a UNIVAC win or a draw with no cross-talk;
the server's tallies must agree with the clients'.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench_serve import add_client_options

HERE = Path(__file__).resolve().parent


def run_one(clients: int, size: str, args: argparse.Namespace) -> dict[str, object]:
    columns, rows = size.split("x")
    command = [sys.executable, str(HERE / "bench_serve.py"), "--clients", str(clients),
               "--games", str(args.games), "--cycles", str(args.cycles),
               "--think-min", str(args.think_min), "--think-max", str(args.think_max),
               "--columns", columns, "--rows", rows, "--workers", str(args.workers),
               "--max-seconds", str(args.max_seconds)]
    if args.client_processes:
        command += ["--client-processes", str(args.client_processes)]
    if args.pyte:
        command.append("--pyte")
    command += ["--server-cpus", args.server_cpus, "--client-cpus", args.client_cpus]
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
            f"{r['cpu_move_ms']:.2f} | {r['cpu_keyed_move_ms']:.2f} | "
            f"{r['server_cpu_pct']:.0f} | "
            f"{r['mib_client_playing']:.2f} | {ok} | {r['client_processes']}: "
            f"{r['client_cpu_pct']:.0f} % / {r['client_cpu_max_pct']:.0f} %, lag p99 "
            f"{r['client_lag_p99_ms']:.0f} ms | {r['screen']} | {r['others_cpu_pct']:.0f} | "
            f"{r['load']:.1f} |")


HEADER = ("| clients | terminal | workers | games | p50 ms | p99 ms | max ms | server CPU a move "
          "ms | server CPU a keyed move ms | server CPU % of a core | MiB a playing client | "
          "all wins/draws, no cross-talk | client processes: CPU all / busiest, loop lag | "
          "clients' screens | other work's CPU % of a core | load average |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


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
    parser.add_argument("--quick", action="store_true",
                        help="4 games a client, no new game after 40 s: the whole table "
                             "in about ten minutes")
    add_client_options(parser)
    args = parser.parse_args()
    if args.quick:
        args.games, args.max_seconds = min(args.games, 4), min(args.max_seconds, 40.0)
    print(f"bench_class: {args.games} games a client, at most {args.max_seconds:.0f} s a "
          f"configuration, think {args.think_min}-{args.think_max} s, {args.workers} "
          f"workers, {'pyte' if args.pyte else 'row'} screens, server CPUs "
          f"{args.server_cpus or 'any'}, client CPUs {args.client_cpus or 'any'}; load "
          f"average {os.getloadavg()[0]:.1f} at the start, "
          f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC", flush=True)
    print(HEADER, flush=True)
    failed = False
    for clients in (int(c) for c in args.clients.split(",")):
        for size in args.sizes.split(","):
            try:
                result = run_one(clients, size, args)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                print(f"| {clients} | {size} | {args.workers} | failed: "
                      f"{str(exc).splitlines()[-1][:120]} |", flush=True)
                failed = True
                continue
            print(row(result), flush=True)
            failed |= not (result["opponent"] == 0 and result["errors"] == 0
                           and result["agree"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
