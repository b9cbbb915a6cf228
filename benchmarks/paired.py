"""The core against py65 in one process: interleaved rounds of CPU time, ratios per round.

Run: python3 benchmarks/paired.py [--rounds N] [--seconds S] [--slice T] [--only PREFIX ...]
                                  [--log FILE]

Each round measures one of our workloads against py65 (pure-Python 6502) on its counting
loop for about S seconds of CPU time (time.process_time) each, in alternating slices of
about T seconds (0.02 by default: ours, py65, ours, py65, ...), and records our instruction
rate over py65's. This virtual machine's speed wanders over a few hundred milliseconds, so
long halves (``--slice 0.3``: one slice a side, the method before 2026-12-02) give ratios
that swing with that drift; short slices put both sides in the same moments. Both see the
same machine load; the min and median of the ratios over the rounds are printed. Before
any timing every workload runs 3 million instructions (``--warm``): compiled blocks,
memos and followed blocks are made then, not inside the rounds. The minimal dispatch loop
is the ceiling of a Python core of this shape: fetch a word, look up its decoded pair,
call both halves (each half does nothing); its share is taken per round (our ratio to
py65 over the dispatch loop's ratio in the same round).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import TextIO

from bench_core import all_kinds_machine, loop_machine

from univac_ttt.machine import Machine, PaperPrinter, QueueKeyboard, StopKind
from univac_ttt.machine.word import from_int, from_text

Runner = Callable[[int], int]  # run about n instructions, return how many ran


def arithmetic_machine() -> Machine:
    """A, S, M and D on operands that are new every pass: x grows by k each pass (the
    overflow wraps it and transfers to 000), then x*c, x*c - x and 1/x are formed. Nothing
    repeats within 10^11 passes, so no memo of sums or products can help."""
    m = Machine()
    m.load({
        0: from_text("A00101H00100"),   # rA = x + k; x stored (overflow: wrap, back to 000)
        1: from_text("L00100M00103"),   # rL = x; rA = x * c rounded
        2: from_text("S00100D00104"),   # rA = x * c - x; rA = 1 / x
        3: from_text("B00100U00000"),   # rA = x; again
        100: from_int(0), 101: from_int(31_415_926_535), 103: from_int(27_182_818_284),
        104: from_int(1),
    })
    return m


def fresh_word_runner() -> Runner:
    """The worst case for compiled pairs: the loop adds one to word 002 every pass, so the
    pair it fetches there is a word never seen before (as address-stepping code does). Each
    call deposits a new left half there, so no word comes back in a whole benchmark."""
    m = Machine()
    m.load({0: from_text("B00002A00010"), 1: from_text("H00002000000"),
            3: from_text("000000U00000"), 10: from_int(1)})
    run = machine_runner(m)
    calls = [0]

    def fresh(n: int) -> int:
        calls[0] += 1
        m.mem[2] = from_text(f"B{calls[0] % 1000:05d}000000")  # right half: a skip + count
        return run(min(n, 200_000))  # fewer than 10^5 passes: the count stays in the skip
    return fresh


def tape_machine() -> Machine:
    """A pair the compiled path leaves to the interpreter (a tape rewind) every pass."""
    from univac_ttt.machine.tape import Reel

    m = Machine()
    m.load({0: from_text("B00100610000"), 1: from_text("000000U00000")})
    m.tapes.attach(1, Reel(name="scratch", writable=True))
    return m


def machine_runner(machine: Machine) -> Runner:
    def run(n: int) -> int:
        before = machine.instructions
        stop = machine.run(n)
        if stop.kind is not StopKind.STEP_LIMIT:
            raise SystemExit(f"benchmark program stopped: {stop.describe()}")
        return machine.instructions - before
    return run


def program_runner() -> Runner:
    """The tic-tac-toe program answering a fixed round of moves, again and again."""
    from univac_ttt.packs.tictactoe import load_tictactoe

    keyboard = QueueKeyboard()
    printer = PaperPrinter()
    machine = Machine(keyboard=keyboard, printer=printer)
    machine.load(load_tictactoe().image.words)
    moves = ["5", "9", "7", "2", "6", "1", "3", "8", "4"]
    turn = [0]

    def run(n: int) -> int:
        before = machine.instructions
        while machine.instructions - before < n:
            stop = machine.run(1_000_000)
            if stop.kind is not StopKind.KEYBOARD:
                raise SystemExit(f"program stopped: {stop.describe()}")
            keyboard.type_line(moves[turn[0] % len(moves)])
            turn[0] += 1
            printer.take()
        return machine.instructions - before
    return run


def py65_runner() -> Runner | None:
    """py65's MPU on a small counting loop (LDX CLC ADC STA INX BNE JMP), or None."""
    try:
        from py65.devices.mpu6502 import MPU
    except ImportError:
        return None
    mpu = MPU()
    program = [0xA2, 0x00, 0x18, 0x69, 0x01, 0x85, 0x10, 0xE8, 0xD0, 0xF8, 0x4C, 0x00, 0x02]
    for offset, byte in enumerate(program):
        mpu.memory[0x0200 + offset] = byte
    mpu.pc = 0x0200
    step = mpu.step

    def run(n: int) -> int:
        for _ in range(n):
            step()
        return n
    return run


def dispatch_runner() -> Runner:
    """The ceiling: a minimal loop fetching a word, looking up its decoded pair in a dict
    and calling both halves (which do nothing but return None)."""
    def nothing(m: object, a: int) -> None:
        return None
    mem = [f"W{i:011d}" for i in range(100)]
    decoded = {w: (nothing, 0, nothing, 0) for w in mem}

    def run(n: int) -> int:
        cc = 0
        done = 0
        while done < n:
            word = mem[cc]
            ex, a, ex2, a2 = decoded[word]
            ex(None, a)
            ex2(None, a2)
            cc = cc + 1 if cc < 99 else 0
            done += 2
        return done
    return run


def timed(run: Runner, seconds: float) -> float:
    """Instructions per CPU second over about ``seconds``."""
    done, spent = _slice(run, seconds)
    return done / spent


def _slice(run: Runner, seconds: float, chunk: int = 10_000) -> tuple[int, float]:
    """Run chunks of ``run`` for about ``seconds`` of CPU time: (instructions, seconds)."""
    done = 0
    start = time.process_time()
    while True:
        done += run(chunk)
        spent = time.process_time() - start
        if spent >= seconds:
            return done, spent


def interleaved(ours: Runner, theirs: Runner, seconds: float, slice_seconds: float
                ) -> tuple[float, float]:
    """Our rate and py65's over about ``seconds`` each, in alternating slices."""
    done = [0, 0]
    spent = [0.0, 0.0]
    while spent[0] < seconds or spent[1] < seconds:
        for side, run in enumerate((ours, theirs)):
            d, t = _slice(run, min(slice_seconds, max(seconds - spent[side], 0.001)))
            done[side] += d
            spent[side] += t
    return done[0] / spent[0], done[1] / spent[1]


def warm(run: Runner, instructions: int) -> None:
    """Run ``instructions`` untimed (compiling, memoising, following blocks)."""
    done = 0
    while done < instructions:
        done += run(min(200_000, instructions - done))


def workloads() -> dict[str, Runner]:
    return {
        "tic-tac-toe mix": program_runner(),
        "arithmetic, new operands": machine_runner(arithmetic_machine()),
        "counting loop": machine_runner(loop_machine()),
        "every kind": machine_runner(all_kinds_machine()),
        "new instruction word each pass": fresh_word_runner(),
        "tape rewind each pass": machine_runner(tape_machine()),
        "minimal dispatch loop": dispatch_runner(),
    }


DISPATCH = "minimal dispatch loop"
SHARED = ("tic-tac-toe mix", "every kind")  # whose share of the dispatch loop is reported


def paired(rounds: int, seconds: float, only: list[str] | None = None, *,
           slice_seconds: float = 0.02, warm_instructions: int = 3_000_000,
           log: TextIO | None = None) -> dict[str, tuple[float, float, float]]:
    """name -> (our median rate, min ratio to py65, median ratio to py65); ``only``: the
    workloads whose names start with one of these (the dispatch loop always runs). Also
    "share of the dispatch loop, NAME" -> (median rate share, min, median share per round)
    for the SHARED workloads measured. ``log``: one line a workload a round."""
    theirs = py65_runner()
    if theirs is None:
        raise SystemExit("py65 is not installed: pip install -e '.[bench]'")
    ours = {name: run for name, run in workloads().items()
            if not only or name == DISPATCH
            or any(name.startswith(prefix) for prefix in only)}
    for run in (*ours.values(), theirs):  # compile, memoise and follow blocks first
        warm(run, warm_instructions)
    rates: dict[str, list[float]] = {name: [] for name in ours}
    ratios: dict[str, list[float]] = {name: [] for name in ours}
    for number in range(rounds):
        for name, run in ours.items():
            rate, reference = interleaved(run, theirs, seconds, slice_seconds)
            rates[name].append(rate)
            ratios[name].append(rate / reference)
            if log is not None:
                print(f"round {number + 1}\t{name}\t{rate:.0f}\t{reference:.0f}\t"
                      f"{rate / reference:.3f}\t{os.getloadavg()[0]:.2f}", file=log,
                      flush=True)
    results = {name: (statistics.median(rates[name]), min(ratios[name]),
                      statistics.median(ratios[name])) for name in ours}
    for name in SHARED:
        if name in ours:
            shares = [mine / ceiling for mine, ceiling in zip(ratios[name], ratios[DISPATCH],
                                                             strict=True)]
            results[f"share of the dispatch loop, {name}"] = (
                results[name][0] / results[DISPATCH][0], min(shares),
                statistics.median(shares))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds per side")
    parser.add_argument("--slice", type=float, default=0.02, dest="slice_seconds",
                        help="CPU seconds a slice (0.3: one slice a side, the old method)")
    parser.add_argument("--warm", type=int, default=3_000_000,
                        help="instructions each workload runs untimed first")
    parser.add_argument("--only", action="append", metavar="PREFIX",
                        help="only the workloads whose names start so (repeatable)")
    parser.add_argument("--log", type=argparse.FileType("w"), metavar="FILE",
                        help="write each round's rates and ratio (and the load) there")
    args = parser.parse_args()
    results = paired(args.rounds, args.seconds, args.only, slice_seconds=args.slice_seconds,
                     warm_instructions=args.warm, log=args.log)
    print(f"{'workload':<32}{'instructions/s':>16}{'min x py65':>12}{'median':>9}")
    for name, (rate, low, mid) in results.items():
        if not name.startswith("share"):
            print(f"{name:<32}{rate:>16,.0f}{low:>12.2f}{mid:>9.2f}")
    for name, (_, low, mid) in results.items():
        if name.startswith("share"):
            print(f"{name} (per round, min, median): {low:.2f}, {mid:.2f}")


if __name__ == "__main__":
    main()
