"""Emulated instructions per second, and simulated-to-wall time ratio.

Run: python3 benchmarks/bench_core.py [--seconds S]

Mixes:
  loop     a counting loop: B, A, H, L, Q, U and skips (the plain-transfer mix)
  program  the tic-tac-toe program's own mix: replies to a fixed set of opponent moves
  all      a synthetic mix with every central-computer instruction kind
"""

from __future__ import annotations

import argparse
import time

from univac_ttt.machine import Machine, PaperPrinter, QueueKeyboard, StopKind
from univac_ttt.machine.timing import pulses_to_us
from univac_ttt.machine.word import from_int, from_text


def loop_machine() -> Machine:
    m = Machine()
    m.load({
        0: from_text("B00100L00102"),
        1: from_text("A00101H00100"),
        2: from_text("Q00000000000"),
        3: from_text("000000U00001"),
        100: from_int(0), 101: from_int(1), 102: from_int(10**10),
    })
    return m


def all_kinds_machine() -> Machine:
    """Every central-computer instruction kind once per pass, looping forever."""
    m = Machine(keyboard=None, printer=PaperPrinter())
    words = [
        "B00100L00101", "F00102A00101", "S00101X00000", "M00103N00103", "P00103D00103",
        "E00102H00105", "C00106G00107", "J00108K00000", "V00100W00110", "Y00100Z00120",
        "B00100T00012", ".10000;10000", "-10000010000", "000000,00000", "500109R00140",
        "B00100L00100", "Q00018000000", "900000000000", "000000U00000",
    ]
    m.load({i: from_text(t) for i, t in enumerate(words)})
    m.load({100: from_int(5), 101: from_int(7), 102: from_text("101010101010"),
            103: from_int(3), 109: from_text("ιιιιιιιιιιιι")})
    return m


def measure(machine: Machine, seconds: float, chunk: int = 200_000) -> tuple[float, float]:
    start = time.perf_counter()
    instructions = 0
    pulses = machine.pulses
    while time.perf_counter() - start < seconds:
        before = machine.instructions
        stop = machine.run(chunk)
        if stop.kind is not StopKind.STEP_LIMIT:
            raise SystemExit(f"benchmark program stopped: {stop.describe()}")
        instructions += machine.instructions - before
    wall = time.perf_counter() - start
    simulated = pulses_to_us(machine.pulses - pulses) / 1e6
    return instructions / wall, simulated / wall


def measure_program(seconds: float) -> tuple[float, float]:
    from univac_ttt.packs.tictactoe import load_tictactoe

    image = load_tictactoe().image
    keyboard = QueueKeyboard()
    machine = Machine(keyboard=keyboard, printer=PaperPrinter())
    machine.load(image.words)
    moves = ["5", "9", "7", "2", "6", "1", "3", "8", "4"]
    start = time.perf_counter()
    done = 0
    wall_pulses = machine.pulses
    i = 0
    while time.perf_counter() - start < seconds:
        stop = machine.run(1_000_000)
        if stop.kind is not StopKind.KEYBOARD:
            raise SystemExit(f"program stopped: {stop.describe()}")
        keyboard.type_line(moves[i % len(moves)])
        i += 1
        machine.printer.take()  # type: ignore[union-attr]
        done = machine.instructions
    wall = time.perf_counter() - start
    return done / wall, pulses_to_us(machine.pulses - wall_pulses) / 1e6 / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per mix")
    args = parser.parse_args()
    rows = [
        ("loop (B A H L Q U)", *measure(loop_machine(), args.seconds)),
        ("tic-tac-toe program", *measure_program(args.seconds)),
        ("every instruction kind", *measure(all_kinds_machine(), args.seconds)),
    ]
    print(f"{'mix':<26}{'instructions/s':>16}{'simulated/wall':>16}")
    for name, rate, ratio in rows:
        print(f"{name:<26}{rate:>16,.0f}{ratio:>15,.0f}x")


if __name__ == "__main__":
    main()
