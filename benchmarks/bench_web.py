"""Load on `univac-ttt serve --web`: many browser tabs' WebSockets at once, on 127.0.0.1.

Run: python3 benchmarks/bench_web.py [--clients 100] [--moves 20] [--think 1.0-3.0]

The server runs in its own process (CPU and memory read from /proc); the clients run here,
each a WebSocket speaking the page's protocol at human pace: a pause of --think seconds
(uniform) before each key, a square code then WORD RELEASE. A client plays whatever square
the board the server sent says is free (a fifth of its moves on a taken square, to be
refused politely). Key-to-paper is timed from sending WORD RELEASE to the first piece of
paper the UNIVAC typed in answer (the keyed echo does not count). Every game must end in a
UNIVAC win or a draw. Memory a client is the server's resident memory with every client
connected and playing, less its memory before the first, over the clients.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent


def proc_figures(pid: int) -> tuple[float, int]:
    """CPU seconds (user + system) and resident KiB of a process."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{pid}/status") as handle:
        rss = next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))
    return cpu, rss


async def client(session: aiohttp.ClientSession, url: str, origin: str, moves: int,
                 think: tuple[float, float],
                 latencies: list[float], results: list[str], errors: list[str],
                 connected: asyncio.Event, count: list[int], total: int,
                 start: asyncio.Event) -> None:
    rng = random.Random()
    async with session.ws_connect(url, headers={"Origin": origin},
                                  max_msg_size=1 << 22) as ws:
        board: list[str] = []
        score = [0, 0, 0]

        async def until_ready(sent_at: float | None) -> None:
            nonlocal board, score
            first = True
            while True:
                message = await ws.receive(timeout=60)
                if message.type is not aiohttp.WSMsgType.TEXT:
                    raise RuntimeError(f"closed: {ws.close_code}")
                batch = json.loads(message.data)
                for data in batch if isinstance(batch, list) else [batch]:
                    if data["t"] == "paper" and not data["keyed"] and first and sent_at:
                        latencies.append(time.perf_counter() - sent_at)
                        first = False
                    if data["t"] != "state":
                        continue
                    after = data["after"]
                    board = after["board"]
                    if after["score"] != score:
                        for name, now, before in zip(("univac", "draw", "opponent"),
                                                     after["score"], score, strict=True):
                            results.extend([name] * (now - before))
                        score = after["score"]
                    if after["ready"]:
                        return

        await until_ready(None)
        count[0] += 1
        if count[0] == total:
            connected.set()
        await start.wait()
        for _ in range(moves):
            await asyncio.sleep(rng.uniform(*think))
            free = [str(i + 1) for i, mark in enumerate(board) if not mark]
            taken = [str(i + 1) for i, mark in enumerate(board) if mark]
            square = rng.choice(taken if taken and rng.random() < 0.2 else free)
            await ws.send_str(json.dumps({"k": square}))
            await until_ready(None)
            await asyncio.sleep(rng.uniform(0.05, 0.2))
            sent = time.perf_counter()
            await ws.send_str(json.dumps({"k": "Enter"}))
            await until_ready(sent)
        if "opponent" in results:
            errors.append("a client won a game")


async def run(args: argparse.Namespace) -> None:
    env = {**os.environ, "UNIVAC_TTT_DATA": "/tmp/univac-ttt-bench-web"}
    command = ([sys.executable, str(ROOT / "benchmarks" / "web_probe.py")] if args.probe
               else [sys.executable, "-m", "univac_ttt"])
    server = subprocess.Popen(
        [*command, "serve", "--web", "127.0.0.1:0",
         "--max-clients", str(args.clients + 10), "--idle", "3600", "--speed", "fast"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        line = ""
        while "web on" not in line:
            line = server.stdout.readline()
            if not line:
                raise SystemExit(server.stderr.read())
        base = line.split("web on ", 1)[1].split()[0].rstrip("/")
        url = base.replace("http://", "ws://") + "/ws"
        await asyncio.sleep(0.5)
        cpu0, rss0 = proc_figures(server.pid)
        latencies: list[float] = []
        results: list[str] = []
        errors: list[str] = []
        connected, start = asyncio.Event(), asyncio.Event()
        count = [0]
        think = tuple(float(x) for x in args.think.split("-"))
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        tasks = [asyncio.create_task(client(session, url, base, args.moves, think, latencies,
                                            results, errors, connected, count, args.clients,
                                            start))
                 for _ in range(args.clients)]
        await asyncio.wait_for(connected.wait(), 120)
        cpu1, rss1 = proc_figures(server.pid)
        began = time.perf_counter()
        start.set()
        await asyncio.gather(*tasks)
        await session.close()
        wall = time.perf_counter() - began
        cpu2, rss2 = proc_figures(server.pid)
        load = os.getloadavg()
    finally:
        server.terminate()
        probe, _ = server.communicate(timeout=20)
    for line in probe.splitlines():
        if line.startswith("probe:"):
            print(line)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
    per_client = (max(rss1, rss2) - rss0) / args.clients
    print(f"clients {args.clients}, moves each {args.moves}, think {args.think} s; "
          f"{len(latencies)} replies timed, {len(results)} games ended "
          f"(UNIVAC {results.count('univac')}, draws {results.count('draw')}, "
          f"opponent {results.count('opponent')})")
    print(f"key-to-paper ms: p50 {p(0.50):.1f}  p90 {p(0.90):.1f}  p99 {p(0.99):.1f}  "
          f"max {latencies[-1] * 1000:.1f}  mean {statistics.mean(latencies) * 1000:.1f}")
    print(f"server memory: {rss0 / 1024:.1f} MiB before, {rss1 / 1024:.1f} MiB with every "
          f"client connected, {rss2 / 1024:.1f} MiB after play: "
          f"{per_client:.0f} KiB a client")
    print(f"server CPU: {cpu1 - cpu0:.2f} s to seat them, {cpu2 - cpu1:.2f} s over "
          f"{wall:.1f} s of play ({(cpu2 - cpu1) / wall * 100:.0f}% of a core)")
    print(f"load average (shared machine) {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if errors:
        raise SystemExit("; ".join(errors[:5]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--probe", action="store_true",
                        help="run the server under benchmarks/web_probe.py (its own timings)")
    parser.add_argument("--think", default="1.0-3.0", help="seconds before each key: LOW-HIGH")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
