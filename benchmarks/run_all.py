"""Every benchmark of univac-ttt in one table (run by hand; the tests never time anything).

    python3 -m pip install '.[bench]'      # py65, the reference Python emulator
    python3 benchmarks/run_all.py [--seconds S] [--markdown]

Figures: emulated instructions per second on the tic-tac-toe program's own mix, arithmetic on
new operands, a counting loop and a mix of every instruction kind, each as a ratio to py65
(pure-Python 6502) in interleaved rounds of CPU time (paired.py: alternating ~20 ms slices of
both sides within each round), min and median; the share of a minimal dispatch loop's rate the
core reaches, per round (min, median); the exhaustive proof's wall time; keystroke
to fully printed board through the plain console in fast mode; start to the first prompt of
`univac-ttt play --plain`; the UNIVAC time per move; the program's size in words.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import all_kinds_machine, loop_machine, measure  # noqa: E402
from paired import paired  # noqa: E402

from univac_ttt.console.plain import PlainConsole  # noqa: E402
from univac_ttt.desk import Desk  # noqa: E402
from univac_ttt.machine.timing import format_time, pulses_to_us  # noqa: E402
from univac_ttt.packs.tictactoe import load_tictactoe  # noqa: E402
from univac_ttt.verify.referee import Referee  # noqa: E402


def monitor_step_rate(runs: int = 5) -> float:
    """Instructions per second of the monitor's `step 100000` on the every-kind loop (the
    best of a few runs: one run is a few tens of milliseconds of CPU time)."""
    from univac_ttt.monitor.core import Monitor

    best = 0.0
    for _ in range(runs):
        machine = all_kinds_machine()
        monitor = Monitor({a: w for a, w in enumerate(machine.mem)})
        start = time.process_time()
        monitor.execute("step 100000")
        best = max(best, 100_000 / (time.process_time() - start))
    return best


def verify_time(runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        report = Referee().run()
        best = min(best, time.perf_counter() - start)
        if not report.ok:
            raise SystemExit("the proof failed; fix that before measuring")
    return best



def keystroke_latency(replies: int = 300) -> tuple[float, float]:
    """Median and worst ms from Enter to the fully printed board, in-process, fast mode."""
    words = load_tictactoe().image.words
    moves = ["5", "9", "7", "2", "6", "1", "3", "8", "4"]
    out = io.StringIO()
    desk = Desk(words)
    PlainConsole(desk, io.StringIO(), out, io.StringIO())  # the paper goes to ``out``
    desk.run()
    timings = []
    for i in range(replies):
        start = time.perf_counter()
        desk.release(moves[i % len(moves)])
        desk.run()
        timings.append((time.perf_counter() - start) * 1000)
        out.seek(0)
        out.truncate()
    return statistics.median(timings), max(timings)


def stop_latency(presses: int = 10) -> float:
    """Worst ms from STOP pressed on another thread to the end of a runaway run."""
    import threading

    from univac_ttt.desk import Limits
    from univac_ttt.machine.word import from_text

    desk = Desk({0: from_text("000000U00000")}, limits=Limits(cap=10**15))
    worst = 0.0
    pressed = [0.0]

    def press() -> None:
        pressed[0] = time.perf_counter()
        desk.stop_key()

    for _ in range(presses):
        threading.Timer(0.1, press).start()
        desk.run()
        worst = max(worst, (time.perf_counter() - pressed[0]) * 1000)
    return worst


def startup_time(runs: int = 5) -> float:
    """Best ms from starting `univac-ttt play --plain` to its first prompt."""
    best = float("inf")
    env = dict(os.environ)
    for _ in range(runs):
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "univac_ttt", "play", "--plain"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        seen = b""
        while not seen.endswith(b"> "):
            chunk = process.stdout.read1(4096)  # type: ignore[union-attr]
            if not chunk:
                break
            seen += chunk
        best = min(best, (time.perf_counter() - start) * 1000)
        process.stdin.close()  # type: ignore[union-attr]
        process.wait()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="CPU seconds per side in each paired round")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds with py65")
    parser.add_argument("--slice", type=float, default=0.02, dest="slice_seconds",
                        help="CPU seconds a slice within a round (0.3: the old method)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    ratios = paired(args.rounds, args.seconds, slice_seconds=args.slice_seconds)
    _, ratio_loop = measure(loop_machine(), 1.0)
    stepping = monitor_step_rate()
    proof = verify_time()
    median, worst = keystroke_latency()
    start = startup_time()
    stop_ms = stop_latency()
    report = Referee().run()
    program = load_tictactoe().program
    mean_us = pulses_to_us(report.pulses_total) / report.moves
    goals = {"tic-tac-toe mix": "3.0", "arithmetic, new operands": "1.5",
             "counting loop": "3.0", "every kind": "",
             "new instruction word each pass": "1.0", "tape rewind each pass": "2.0"}
    rows = []
    for name, goal in goals.items():
        rate, low, mid = ratios[name]
        rows += [(f"instructions/s, {name}", f"{rate:,.0f}", ""),
                 (f"ours / py65, {name} (min, median)", f"{low:.2f}, {mid:.2f}", goal)]
    ceiling = ratios["minimal dispatch loop"][0]
    tic_share = ratios["share of the dispatch loop, tic-tac-toe mix"]
    all_share = ratios["share of the dispatch loop, every kind"]
    rows += [
        ("minimal dispatch loop, instructions/s", f"{ceiling:,.0f}", ""),
        ("share of it per round, tic-tac-toe mix (min, median)",
         f"{tic_share[1]:.2f}, {tic_share[2]:.2f}", "0.4"),
        ("share of it per round, every kind (min, median)",
         f"{all_share[1]:.2f}, {all_share[2]:.2f}", ""),
        ("simulated/wall time, counting loop", f"{ratio_loop:,.0f}x", ""),
        ("monitor `step 100000`, instructions/s", f"{stepping:,.0f}",
         "core's rate"),
        ("univac-ttt verify, wall", f"{proof:.2f} s", "2 s"),
        ("keystroke to printed board, median", f"{median:.2f} ms", "20 ms"),
        ("keystroke to printed board, worst", f"{worst:.2f} ms", "20 ms"),
        ("start to first prompt (play --plain)", f"{start:.0f} ms", "300 ms"),
        ("STOP to the end of a runaway run, worst of 10", f"{stop_ms:.1f} ms", "100 ms"),
        ("UNIVAC time per move, mean", format_time(mean_us), ""),
        ("UNIVAC time per move, worst", format_time(pulses_to_us(report.pulses_worst)), ""),
        ("program size", f"{program.size} words", "500"),
    ]
    machine = f"{platform.python_implementation()} {platform.python_version()}, " \
              f"{os.cpu_count()} cores, {platform.machine()}, {date.today().isoformat()}"
    if args.markdown:
        print("| figure | value | goal |\n|---|---|---|")
        for name, value, goal in rows:
            print(f"| {name} | {value} | {goal} |")
        print(f"\nMachine: {machine}.")
        return
    width = max(len(name) for name, _, _ in rows)
    print(f"{'figure':<{width}}  {'value':>16}  {'goal':>10}")
    for name, value, goal in rows:
        print(f"{name:<{width}}  {value:>16}  {goal:>10}")
    print(f"machine: {machine}")


if __name__ == "__main__":
    main()
