"""Load on `univac-ttt serve`: many telnet clients at once, all on 127.0.0.1.

Run: python3 benchmarks/bench_serve.py [--clients 100] [--games 20] [--cycles 1000]

The server runs in its own process (its CPU, memory and open files read from /proc); the
clients run in processes of their own, each with its own screen (tests/support/
screen_rows.py's RowScreen, text rows held to pyte's by tests/serve/test_screen_rows.py;
``--pyte`` for pyte's screens, several times the clients' CPU), typing like a quick
student: a pause of
--think seconds (uniform, default 0.1-0.5) before each key. A quarter of the moves are
illegal (a taken square, or 0). For every legal move the benchmark times keystroke (Enter) to
board: until the client's screen shows the new board and an empty keyboard line. It checks
every board against the client's own moves (no cross-talk), that every game ends in a UNIVAC
win or a draw, and that the server's per-terminal tallies match the clients'. Then it makes
--cycles connect/disconnect cycles (half polite, half abrupt) and compares the server's
memory and open files with where they started. ``--server-cpus`` and ``--client-cpus``
pin the server (its workers too) and the clients to CPUs (os.sched_setaffinity), so that
the two can be kept off each other's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from probe import loop_lag, percentile  # noqa: E402

from tests.support.screen_rows import PyteRows, RowScreen, Screen  # noqa: E402
from tests.support.telnet_client import TelnetClient  # noqa: E402
from univac_ttt.console.app import TYPEAHEAD_GRACE  # noqa: E402

RESULTS = {"THE UNIVAC WINS": "univac", "IS A DRAW": "draw", "YOU WIN": "opponent"}
LEFT = re.compile(r"left \(.*\): (\d+) games, UNIVAC (\d+), draws (\d+), opponent (\d+)")


@dataclass
class ClientRecord:
    latencies: list[float] = field(default_factory=list)
    echoes: list[float] = field(default_factory=list)
    tally: dict[str, int] = field(default_factory=lambda: {"univac": 0, "draw": 0,
                                                            "opponent": 0})
    illegal: int = 0
    errors: list[str] = field(default_factory=list)


def _one_process(pid: int) -> tuple[float, int, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text()
               .splitlines() if line.startswith("VmRSS:"))
    return cpu, rss, len(os.listdir(f"/proc/{pid}/fd"))


def machine_busy() -> float:
    """CPU seconds every core of the machine has spent busy since boot (/proc/stat): over a
    run, less the server's and the clients', what the rest of the machine took."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def proc_figures(pid: int) -> tuple[float, int, int]:
    """CPU seconds, resident KiB, open fds of the server: its process and its workers."""
    cpu = rss = fds = 0
    for member in [pid, *_children(pid)]:
        with contextlib.suppress(OSError, StopIteration):
            c, r, f = _one_process(member)
            cpu, rss, fds = cpu + c, rss + r, fds + f
    return cpu, rss, fds


async def think(rng: random.Random, span: tuple[float, float]) -> None:
    await asyncio.sleep(rng.uniform(*span))


async def play(port: int, games: int, seed: int, span: tuple[float, float],
               ready: asyncio.Barrier, size: tuple[int, int], gate: asyncio.Event,
               deadline: Any, screen: Callable[[int, int], Screen]) -> ClientRecord:
    rng = random.Random(seed)
    record = ClientRecord()
    client = TelnetClient(columns=size[0], rows=size[1], screen=screen, keep_raw=False)
    await client.connect(port)
    await client.wait_for(lambda c: c.keyboard_line() == "" and c.board() is not None, 60)
    await ready.wait()
    await gate.wait()
    try:
        for _game in range(games):
            if time.monotonic() > deadline.value:
                break  # the configuration's time is up: no new game
            mine: set[int] = set()
            board = client.board() or list("123456789")
            while True:
                board = client.board() or board  # illegal moves' messages may scroll it off
                free = [i for i, cell in enumerate(board) if cell.isdigit()]
                taken = [i for i, cell in enumerate(board) if not cell.isdigit()]
                illegal = rng.random() < 0.25
                if illegal:
                    key = str(rng.choice(taken) + 1) if taken and rng.random() < 0.7 else "0"
                else:
                    key = str(rng.choice(free) + 1)
                await think(rng, span)
                started = time.perf_counter()
                await client.send(key)
                await client.wait_for(lambda c, k=key: c.keyboard_line() == k, 30)
                record.echoes.append(time.perf_counter() - started)
                await think(rng, span)
                started = time.perf_counter()
                await client.send("\r")
                if illegal:
                    await client.wait_for(lambda c: c.keyboard_line() == "", 30)
                    record.illegal += 1
                    if client.board() not in (board, None):
                        record.errors.append(f"an illegal {key} changed the board")
                    continue
                square = int(key) - 1

                def answered(c: TelnetClient, square: int = square) -> bool:
                    if c.keyboard_line() != "":
                        return False
                    now = c.board()
                    return now is not None and (now[square] == "X" or
                                                all(cell.isdigit() for cell in now))
                await client.wait_for(answered, 30)
                record.latencies.append(time.perf_counter() - started)
                mine.add(square)
                now = client.board()
                assert now is not None
                if all(cell.isdigit() for cell in now):  # the game ended; a new one is ready
                    result = client.last_result()
                    record.tally[RESULTS.get(result or "", "opponent")] += 1
                    if result not in ("THE UNIVAC WINS", "IS A DRAW"):
                        record.errors.append(f"game ended with {result!r}")
                    # The console drops keys typed within TYPEAHEAD_GRACE of a new game
                    # (they belong to the game that ended): a player reads the result first.
                    await asyncio.sleep(TYPEAHEAD_GRACE + 0.1)
                    break
                xs = {i for i, cell in enumerate(now) if cell == "X"}
                if xs != mine:
                    record.errors.append(f"cross-talk: board X {sorted(xs)}, mine "
                                         f"{sorted(mine)}")
                if sum(cell == "O" for cell in now) != len(mine):
                    record.errors.append("the UNIVAC did not answer exactly once")
    finally:
        await client.close()
    return record


async def cycle(port: int, abrupt: bool) -> None:
    client = TelnetClient()
    await client.connect(port)
    await client.wait_for(lambda c: c.keyboard_line() == "", 30)
    await client.close(abrupt=abrupt)


def connect_seconds(clients: int) -> float:
    """How long the class may take to sit down: every client connected and its first screen
    drawn (a loaded machine draws 300 first screens slowly)."""
    return 60.0 + 1.5 * clients


def client_process(port: int, seeds: list[int], games: int, span: tuple[float, float],
                   size: tuple[int, int], ready_queue: Any, go: Any, deadline: Any,
                   results: Any, clients_in_all: int, use_pyte: bool,
                   cpus: set[int] | None) -> None:
    """One process of clients: connect them all, report ready, play when ``go`` is set;
    send back the records, this process's CPU time while playing and its loop's lag."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    screen: Callable[[int, int], Screen] = PyteRows if use_pyte else RowScreen

    async def clients() -> dict[str, Any]:
        ready = asyncio.Barrier(len(seeds) + 1)
        gate = asyncio.Event()
        tasks = [asyncio.create_task(play(port, games, seed, span, ready, size, gate,
                                          deadline, screen)) for seed in seeds]
        # every client connected and drawn (a loaded machine draws 300 first screens slowly)
        await asyncio.wait_for(ready.wait(), connect_seconds(clients_in_all))
        ready_queue.put(len(seeds))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, go.wait)
        lags: list[float] = []
        lag_task = asyncio.create_task(loop_lag(lags))
        cpu = time.process_time()
        gate.set()
        records = await asyncio.gather(*tasks)
        cpu = time.process_time() - cpu
        lag_task.cancel()
        return {"records": records, "cpu": cpu, "lags": lags}

    asyncio._set_running_loop(None)  # forked from the parent's running loop
    results.put(asyncio.run(clients()))


async def wait_empty(log: Path, seated: int, timeout: float = 60) -> None:
    """Until the server's log says every terminal so far has left."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.read_text().count(" left (") >= seated:
            return
        await asyncio.sleep(0.2)
    raise TimeoutError("the server still holds terminals")


def cpu_set(text: str) -> set[int] | None:
    """'0' or '0,1' (CPU numbers), or '' for no pinning."""
    return {int(cpu) for cpu in text.split(",")} if text else None


async def main_async(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    log = work / "server.log"
    server_cpus, client_cpus = cpu_set(args.server_cpus), cpu_set(args.client_cpus)
    with log.open("w") as out:
        server = subprocess.Popen(
            # BENCH_SERVER: another way to start the server (an instrumented script)
            [sys.executable, *os.environ.get("BENCH_SERVER", "-m univac_ttt").split(), "serve",
             "--telnet", "127.0.0.1:0",
             "--max-clients", str(args.clients + 50), "--idle", "3600", "--data", str(work),
             "--workers", str(args.workers)],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
            # pinned before it starts, so its workers (forked) inherit the CPUs
            preexec_fn=(lambda: os.sched_setaffinity(0, server_cpus)) if server_cpus else None)
    try:
        for _ in range(100):
            found = re.search(r"telnet on 127\.0\.0\.1:(\d+)", log.read_text())
            if found:
                break
            await asyncio.sleep(0.1)
        else:
            raise RuntimeError("the server did not start: " + log.read_text())
        port = int(found.group(1))
        await cycle(port, False)  # warm: the program loaded, the modules imported
        await wait_empty(log, 1)
        cpu0, rss0, fds0 = proc_figures(server.pid)

        # ---- phase 1: the class ----------------------------------------------------------
        # The clients run in --client-processes processes of their own (forked): 300
        # screens in one Python process can cost more CPU than the server (pyte's do), and
        # the p99 would measure the benchmark. Each process connects its share, says it is
        # ready, and starts playing when all are.
        span = (args.think_min, args.think_max)
        size = (args.columns, args.rows)
        context = multiprocessing.get_context("fork")
        ready_queue, results = context.Queue(), context.Queue()
        go, deadline = context.Event(), context.Value("d", float("inf"))
        shares = [list(range(args.clients))[i::args.client_processes]
                  for i in range(args.client_processes)]
        children = [context.Process(target=client_process,
                                    args=(port, share, args.games, span, size, ready_queue,
                                          go, deadline, results, args.clients, args.pyte,
                                          client_cpus))
                    for share in shares if share]
        for child in children:
            child.start()
        loop = asyncio.get_running_loop()
        for _ in children:
            await loop.run_in_executor(None, ready_queue.get, True,
                                       connect_seconds(args.clients) + 30)
        await asyncio.sleep(0.5)
        _, rss_seated, fds_seated = proc_figures(server.pid)
        cpu_start, wall_start = proc_figures(server.pid)[0], time.perf_counter()
        busy_start = machine_busy()
        peak = [rss_seated]
        deadline.value = time.monotonic() + args.max_seconds
        go.set()

        async def sample() -> None:  # the server's memory while the class plays
            while True:
                await asyncio.sleep(2)
                peak[0] = max(peak[0], proc_figures(server.pid)[1])
        sampler = asyncio.create_task(sample())
        outcomes = []
        for _ in children:
            bound = args.max_seconds + 900 if args.max_seconds < float("inf") else None
            outcomes.append(await loop.run_in_executor(None, results.get, True, bound))
        sampler.cancel()
        for child in children:
            child.join(30)
        wall = time.perf_counter() - wall_start
        cpu_class = proc_figures(server.pid)[0] - cpu_start
        busy = machine_busy() - busy_start
        records = [r for outcome in outcomes for r in outcome["records"]]
        client_cpu = sum(outcome["cpu"] for outcome in outcomes)
        client_cpu_max = max(outcome["cpu"] for outcome in outcomes)
        lags = [x for outcome in outcomes for x in outcome["lags"]]
        await wait_empty(log, 1 + args.clients)
        _, rss_after_class, fds_after_class = proc_figures(server.pid)

        latencies = [x for r in records for x in r.latencies]
        echoes = [x for r in records for x in r.echoes]
        client_p99 = [percentile(r.latencies, 0.99) for r in records]
        errors = [e for r in records for e in r.errors]
        tally = {k: sum(r.tally[k] for r in records) for k in ("univac", "draw", "opponent")}
        server_tally = [0, 0, 0, 0]
        for match in LEFT.finditer(log.read_text()):
            for i in range(4):
                server_tally[i] += int(match.group(i + 1))
        agree = server_tally[1:] == [tally["univac"], tally["draw"], tally["opponent"]]

        # ---- phase 2: connect/disconnect cycles -----------------------------------------
        _, rss_c0, fds_c0 = proc_figures(server.pid)
        done = 0
        while done < args.cycles:
            batch = min(10, args.cycles - done)
            await asyncio.gather(*(cycle(port, (done + i) % 2 == 1) for i in range(batch)))
            done += batch
        await wait_empty(log, 1 + args.clients + args.cycles, 120)
        await asyncio.sleep(1.0)
        _, rss_c1, fds_c1 = proc_figures(server.pid)
        cpu_end = proc_figures(server.pid)[0]
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
    ms = 1000.0
    games = sum(tally.values())
    illegal = sum(r.illegal for r in records)
    print(f"clients {args.clients} x games {args.games} at {args.columns}x{args.rows}; "
          f"think {span[0]}-{span[1]} s a key; load average {os.getloadavg()[0]:.1f}")
    print(f"games played: {games}; UNIVAC wins {tally['univac']}, draws {tally['draw']}, "
          f"opponent wins {tally['opponent']}; illegal moves {illegal}")
    print(f"server tallies agree with the clients': {agree} {server_tally}")
    print(f"errors (cross-talk, bad endings): {len(errors)} {errors[:5]}")
    print(f"keystroke to board, legal moves: {len(latencies)}; "
          f"p50 {percentile(latencies, .5)*ms:.1f} ms; "
          f"p99 {percentile(latencies, .99)*ms:.1f} ms; worst client's p99 "
          f"{max(client_p99)*ms:.1f} ms; max {max(latencies)*ms:.1f} ms")
    print(f"keystroke to echo: p50 {percentile(echoes, .5)*ms:.1f} ms; "
          f"p99 {percentile(echoes, .99)*ms:.1f} ms")
    print(f"server CPU during the class: {cpu_class:.1f} s in {wall:.1f} s wall "
          f"({cpu_class / wall * 100:.0f}% of one core); "
          f"{cpu_class / max(1, len(latencies) + len(echoes)) * 1000 / 2:.2f} ms a keystroke; "
          f"{cpu_class / max(1, len(latencies)) * 1000:.2f} ms a move (its keys included); "
          f"{cpu_class / max(1, len(latencies) + illegal) * 1000:.2f} ms a keyed move, legal "
          f"or refused")
    print(f"the clients' own CPU ({args.client_processes} processes of "
          f"{'pyte' if args.pyte else 'row'} screens): "
          f"{client_cpu:.1f} s ({client_cpu / wall * 100:.0f}% of one core; the busiest "
          f"process {client_cpu_max / wall * 100:.0f}%)")
    print(f"the machine's cores were busy {busy / wall * 100:.0f}% of one core in all; "
          f"besides the server and the clients {(busy - cpu_class - client_cpu) / wall * 100:.0f}%")
    print(f"the clients' event loop woke late by: p50 {percentile(lags, .5)*ms:.1f} ms, "
          f"p99 {percentile(lags, .99)*ms:.1f} ms")
    print(f"server memory: {rss0/1024:.1f} MiB idle; {rss_seated/1024:.1f} MiB with "
          f"{args.clients} seated: {(rss_seated - rss0) / args.clients / 1024:.2f} MiB a "
          f"connection; {rss_after_class/1024:.1f} MiB after all left")
    print(f"open fds: {fds0} idle; {fds_seated} seated "
          f"({(fds_seated - fds0) / args.clients:.1f} a connection); {fds_after_class} after")
    print(f"{args.cycles} connect/disconnect cycles: memory {rss_c0/1024:.1f} -> "
          f"{rss_c1/1024:.1f} MiB; open fds {fds_c0} -> {fds_c1}; server CPU total "
          f"{cpu_end - cpu0:.1f} s")
    for line in log.read_text().splitlines():  # an instrumented server's own figures
        if line.startswith("probe:"):
            print(line)
    print("result: " + json.dumps({
        "clients": args.clients, "size": f"{args.columns}x{args.rows}", "games": games,
        "workers": args.workers, "univac": tally["univac"], "draws": tally["draw"],
        "opponent": tally["opponent"], "errors": len(errors), "agree": agree,
        "p50_ms": percentile(latencies, .5) * ms, "p99_ms": percentile(latencies, .99) * ms,
        "max_ms": max(latencies) * ms, "cpu_move_ms": cpu_class / max(1, len(latencies)) * ms,
        "moves": len(latencies), "illegal": illegal,
        "cpu_keyed_move_ms": cpu_class / max(1, len(latencies) + illegal) * ms,
        "mib_client": (rss_seated - rss0) / args.clients / 1024,
        "mib_client_playing": (peak[0] - rss0) / args.clients / 1024,
        "cycles": args.cycles, "rss_cycles": [rss_c0 / 1024, rss_c1 / 1024],
        "fds_cycles": [fds_c0, fds_c1], "load": os.getloadavg()[0],
        "client_processes": args.client_processes,
        "screen": "pyte" if args.pyte else "rows",
        "server_cpus": args.server_cpus or "any", "client_cpus": args.client_cpus or "any",
        "client_lag_p50_ms": percentile(lags, .5) * ms,
        "client_cpu_pct": client_cpu / wall * 100,
        "client_cpu_max_pct": client_cpu_max / wall * 100,
        "client_lag_p99_ms": percentile(lags, .99) * ms,
        "server_cpu_pct": cpu_class / wall * 100,
        "machine_busy_pct": busy / wall * 100,
        "others_cpu_pct": (busy - cpu_class - client_cpu) / wall * 100}))
    return 0 if agree and not errors and tally["opponent"] == 0 and fds_c1 == fds_c0 else 1


def add_client_options(parser: argparse.ArgumentParser) -> None:
    """How the clients run and where each side runs (bench_class.py passes them on)."""
    parser.add_argument("--client-processes", type=int, default=0,
                        help="processes the clients are spread over (default: one a "
                             "hundred clients)")
    parser.add_argument("--pyte", action="store_true",
                        help="pyte screens for the clients (the old way: several times the "
                             "clients' CPU) instead of RowScreen's text rows")
    parser.add_argument("--server-cpus", default="",
                        help="pin the server and its workers to these CPUs, e.g. 0")
    parser.add_argument("--client-cpus", default="",
                        help="pin the clients' processes to these CPUs, e.g. 1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--think-min", type=float, default=0.1)
    parser.add_argument("--think-max", type=float, default=0.5)
    parser.add_argument("--columns", type=int, default=60, help="each client's terminal width")
    parser.add_argument("--rows", type=int, default=24, help="each client's terminal height")
    parser.add_argument("--workers", type=int, default=1, help="serve --workers")
    parser.add_argument("--max-seconds", type=float, default=float("inf"),
                        help="start no new game after this long (bounds a configuration)")
    add_client_options(parser)
    args = parser.parse_args()
    args.client_processes = args.client_processes or max(1, -(-args.clients // 100))
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
