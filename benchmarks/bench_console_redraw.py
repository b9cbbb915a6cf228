"""What a served console's drawing costs, in process and in CPU time (issue 21's "redraws
that cost what changed"): a redraw at several terminal sizes, the CPU of a whole move (key,
echo, Enter, reply, redraw) over N moves, what it writes, and the memory of a seated
terminal (tracemalloc).

    python3 benchmarks/bench_console_redraw.py                    # 80x24, 120x40, 200x60
    python3 benchmarks/bench_console_redraw.py --sizes 120x40 --moves 60 --terminals 20

Each terminal is the console `univac-ttt serve` seats (``served_apps()["play"]``) on a pipe
input and a VT100 output into memory, as a telnet connection gives it. Moves are random
squares (a taken one is a reply too); a game's end waits for the next game, as a player
would. Every figure is CPU time (time.process_time), so other work on the machine weighs
less than on a wall clock; say the load average beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prompt_toolkit.application import Application  # noqa: E402
from prompt_toolkit.data_structures import Size  # noqa: E402
from prompt_toolkit.input import create_pipe_input  # noqa: E402
from prompt_toolkit.output.vt100 import Vt100_Output  # noqa: E402

from univac_ttt.cli.serve import served_apps  # noqa: E402


class Sink(io.StringIO):
    """A terminal that is a tty and keeps only a count of what was written."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0

    def write(self, text: str) -> int:
        self.written += len(text)
        return len(text)

    def isatty(self) -> bool:
        return True


redraw_cpu: list[float] = []  # each redraw's CPU seconds since it was last cleared
_redraw = Application._redraw


def _timed(self: Application[object], render_as_done: bool = False) -> None:
    started = time.process_time()
    _redraw(self, render_as_done)
    redraw_cpu.append(time.process_time() - started)


Application._redraw = _timed  # type: ignore[method-assign]


class Terminal:
    """One seated console and a way to wait for its next redraw."""

    def __init__(self, keys: object, columns: int, rows: int) -> None:
        self.sink = Sink()
        output = Vt100_Output(self.sink, lambda: Size(rows, columns), term="xterm",
                              enable_cpr=False)
        self.served = served_apps()["play"](keys, output)
        self.console = self.served.console
        self.drawn = asyncio.Event()
        self.served.application.after_render += lambda _app: self.drawn.set()
        self.task = asyncio.get_running_loop().create_task(self.served.run())

    async def settle(self) -> None:
        """Until the console is drawn and has nothing more to type."""
        while True:
            self.drawn.clear()
            try:
                await asyncio.wait_for(self.drawn.wait(), 0.3)
            except TimeoutError:
                if not self.console.typing:
                    return

    async def stop(self) -> None:
        self.served.application.exit(result=0)
        await asyncio.wait_for(self.task, 10)


async def play(terminal: Terminal, keys: object, square: str,
               echoes: list[float], replies: list[float]) -> None:
    """One move as a player makes it: the key, its echo, Enter, the whole reply."""
    console = terminal.console
    while console.holding():  # a game ended: the next one's greeting first
        await asyncio.sleep(0.05)
    typed = console.session.words_typed + console.session.refusals
    redraw_cpu.clear()
    terminal.drawn.clear()
    keys.send_text(square)  # type: ignore[attr-defined]
    await asyncio.wait_for(terminal.drawn.wait(), 10)
    echoes += redraw_cpu
    redraw_cpu.clear()
    terminal.drawn.clear()
    keys.send_text("\r")  # type: ignore[attr-defined]
    await asyncio.wait_for(terminal.drawn.wait(), 10)
    while console.session.words_typed + console.session.refusals == typed or console.typing:
        terminal.drawn.clear()
        await asyncio.wait_for(terminal.drawn.wait(), 10)
    replies += redraw_cpu


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2] * 1000 if values else 0.0


async def one_size(columns: int, rows: int, moves: int, warmup: int,
                   rng: random.Random) -> dict[str, float]:
    with create_pipe_input() as keys:
        terminal = Terminal(keys, columns, rows)
        await terminal.settle()
        for _ in range(warmup):  # the machine's first replies compile its code
            await play(terminal, keys, str(rng.randint(1, 9)), [], [])
        echoes: list[float] = []
        replies: list[float] = []
        written = terminal.sink.written
        started = time.process_time()
        for _ in range(moves):
            await play(terminal, keys, str(rng.randint(1, 9)), echoes, replies)
        cpu = time.process_time() - started
        result = {"echo_ms": _median(echoes), "reply_ms": _median(replies),
                  "redraws_a_move": (len(echoes) + len(replies)) / moves,
                  "cpu_a_move_ms": cpu / moves * 1000,
                  "bytes_a_move": (terminal.sink.written - written) / moves}
        await terminal.stop()
    return result


async def memory(columns: int, rows: int, count: int) -> tuple[float, float, float]:
    """MiB a seated terminal holds (drawn, idle), and after one move each; and the CPU
    microseconds a seated terminal at rest costs a second (its ticker)."""
    managers = [create_pipe_input() for _ in range(count)]
    inputs = [manager.__enter__() for manager in managers]
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    terminals = [Terminal(pipe, columns, rows) for pipe in inputs]
    for terminal in terminals:
        await terminal.settle()
    seated = (tracemalloc.get_traced_memory()[0] - base) / count / 2**20
    for pipe in inputs:
        pipe.send_text("5\r")
    for terminal in terminals:
        await terminal.settle()
    played = (tracemalloc.get_traced_memory()[0] - base) / count / 2**20
    tracemalloc.stop()
    started = time.process_time()
    await asyncio.sleep(2.0)
    idle = (time.process_time() - started) / 2.0 / count * 1e6
    for terminal in terminals:
        await terminal.stop()
    for manager in managers:
        manager.__exit__(None, None, None)
    return seated, played, idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="80x24,120x40,200x60")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=10, help="moves before measuring")
    parser.add_argument("--terminals", type=int, default=20, help="for the memory figure")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, "
          f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC")
    print("| terminal | echo redraw p50 ms | reply redraw p50 ms | redraws a move "
          "| CPU a move ms | bytes a move | MiB seated | MiB after a move "
          "| CPU at rest µs/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    rng = random.Random(args.seed)
    for size in args.sizes.split(","):
        columns, rows = (int(part) for part in size.split("x"))
        figures = asyncio.run(one_size(columns, rows, args.moves, args.warmup, rng))
        seated, played, idle = asyncio.run(memory(columns, rows, args.terminals))
        print(f"| {size} | {figures['echo_ms']:.2f} | {figures['reply_ms']:.2f} "
              f"| {figures['redraws_a_move']:.1f} | {figures['cpu_a_move_ms']:.2f} "
              f"| {figures['bytes_a_move']:,.0f} | {seated:.2f} | {played:.2f} "
              f"| {idle:.0f} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
