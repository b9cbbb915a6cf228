"""Every benchmark of univac-ttt in one table (run by hand; the tests never time anything).

    python3 -m pip install '.[bench]'      # py65, the reference Python emulator
    python3 benchmarks/run_all.py [--seconds S] [--markdown]

Figures: emulated instructions per second on the tic-tac-toe program's own mix and on a
synthetic mix of every instruction kind; py65 (pure-Python 6502) on a simple loop in the same
run, and our rate over its rate; the exhaustive proof's wall time; keystroke to fully printed
board through the plain console in fast mode; start to the first prompt of
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

from bench_core import all_kinds_machine, loop_machine, measure, measure_program  # noqa: E402

from univac_ttt.console.plain import PlainConsole  # noqa: E402
from univac_ttt.desk import Desk  # noqa: E402
from univac_ttt.machine.timing import format_time, pulses_to_us  # noqa: E402
from univac_ttt.program.shipped import load_tictactoe  # noqa: E402
from univac_ttt.verify.referee import Referee  # noqa: E402


def py65_rate(seconds: float) -> float | None:
    """Instructions per second of py65's MPU on a small counting loop, or None."""
    try:
        from py65.devices.mpu6502 import MPU
    except ImportError:
        return None
    mpu = MPU()
    program = [0xA2, 0x00,        # 0200 LDX #0
               0x18,              # 0202 CLC
               0x69, 0x01,        # 0203 ADC #1
               0x85, 0x10,        # 0205 STA $10
               0xE8,              # 0207 INX
               0xD0, 0xF8,        # 0208 BNE $0202
               0x4C, 0x00, 0x02]  # 020A JMP $0200
    for offset, byte in enumerate(program):
        mpu.memory[0x0200 + offset] = byte
    mpu.pc = 0x0200
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10_000):
            mpu.step()
        done += 10_000
    return done / (time.perf_counter() - start)


def monitor_step_rate() -> float:
    """Instructions per second of the monitor's `step 100000` on the every-kind loop."""
    from univac_ttt.monitor.core import Monitor

    machine = all_kinds_machine()
    monitor = Monitor({a: w for a, w in enumerate(machine.mem)})
    start = time.perf_counter()
    monitor.execute("step 100000")
    return 100_000 / (time.perf_counter() - start)


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
    parser.add_argument("--seconds", type=float, default=2.0, help="time per rate measurement")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    ours_program, _ = measure_program(args.seconds)
    ours_all, _ = measure(all_kinds_machine(), args.seconds)
    ours_loop, ratio_loop = measure(loop_machine(), args.seconds)
    theirs = py65_rate(args.seconds)
    stepping = monitor_step_rate()
    proof = verify_time()
    median, worst = keystroke_latency()
    start = startup_time()
    stop_ms = stop_latency()
    report = Referee().run()
    program = load_tictactoe().program
    mean_us = pulses_to_us(report.pulses_total) / report.moves
    rows = [
        ("instructions/s, tic-tac-toe program mix", f"{ours_program:,.0f}", "1,000,000"),
        ("instructions/s, every instruction kind", f"{ours_all:,.0f}", "1,000,000"),
        ("instructions/s, counting loop", f"{ours_loop:,.0f}", ""),
        ("simulated/wall time, counting loop", f"{ratio_loop:,.0f}x", ""),
        ("py65 instructions/s, 6502 loop", f"{theirs:,.0f}" if theirs else "not installed",
         ""),
        ("ours / py65 (program mix)", f"{ours_program / theirs:.2f}" if theirs else "-",
         "1.0"),
        ("ours / py65 (every kind)", f"{ours_all / theirs:.2f}" if theirs else "-", "1.0"),
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
