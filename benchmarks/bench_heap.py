"""Collector pauses with many seated terminals in one server process.

Run: python3 benchmarks/bench_heap.py [--terminals 100,200,300]

Builds N served consoles in this process as serve builds them (``serve.apps.make_app``,
prompt_toolkit's default key bindings shared; each its own machine, paper and prompt_toolkit
application, drawn once on a VT100 output to nowhere), as one server process holds them,
then times (CPU time, best of 3) what the collector does to everyone at once: a full
collection with nothing frozen (CPython left alone), a young collection (generations 0
and 1, what CPython's thresholds run between serve/heap.py's reclaims) after one redraw
of every terminal, and a full collection after gc.freeze() (CPython's own automatic ones,
once the terminals are frozen). With serve --workers W each process holds about N / W of
them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import time

from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import make_app


class _Sink(io.StringIO):
    def isatty(self) -> bool:
        return True


def _best(action, rounds: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        action()
        best = min(best, time.process_time() - started)
    return best * 1000


async def measure(args: argparse.Namespace) -> None:
    factory = served_apps()["play"]
    held: list[object] = []
    pipes = []
    print("| terminals | full collection, nothing frozen | young collection | "
          "full collection, terminals frozen | objects tracked |")
    print("|---|---|---|---|---|")
    for target in (int(n) for n in args.terminals.split(",")):
        while len(held) < target:
            pipe = create_pipe_input()
            pipe.__enter__()
            pipes.append(pipe)
            output = Vt100_Output(_Sink(), lambda: Size(24, 80), term="xterm",
                                  enable_cpr=False)
            served = make_app(factory, pipe, output, authentic=False, transcript=None)
            app = served.application
            with set_app(app):
                app.renderer.render(app, app.layout)  # one screen drawn, as when seated
            held.append(served)
        gc.unfreeze()
        full = _best(gc.collect)
        gc.freeze()
        for served in held:  # a redraw on every terminal: the garbage of a busy second
            app = served.application  # type: ignore[attr-defined]
            with set_app(app):
                app.renderer.reset()
                app.renderer.render(app, app.layout)
        started = time.process_time()
        gc.collect(1)
        young = (time.process_time() - started) * 1000
        frozen = _best(gc.collect)
        tracked = len(gc.get_objects()) + gc.get_freeze_count()
        gc.unfreeze()
        print(f"| {target} | {full:.1f} ms | {young:.1f} ms | {frozen:.1f} ms | "
              f"{tracked:,} |", flush=True)
    for pipe in pipes:
        pipe.__exit__(None, None, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--terminals", default="100,200,300")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
