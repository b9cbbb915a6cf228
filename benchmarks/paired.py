"""The core against py65 in one process: interleaved rounds of CPU time, ratios per round.

Run: python3 benchmarks/paired.py [--rounds N] [--seconds S] [--only PREFIX ...]

Each round runs one of our workloads for about S seconds of CPU time (time.process_time),
then py65 (pure-Python 6502) on its counting loop for about as long, and records our
instruction rate over py65's. Interleaving means both see the same machine load; the min
and median of the ratios over the rounds are printed. The minimal dispatch loop is the
ceiling of a Python core of this shape: fetch a word, look up its decoded pair, call both
halves (each half does nothing).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

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
    chunk = 20_000
    done = 0
    start = time.process_time()
    while True:
        done += run(chunk)
        spent = time.process_time() - start
        if spent >= seconds:
            return done / spent


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


def paired(rounds: int, seconds: float, only: list[str] | None = None
           ) -> dict[str, tuple[float, float, float]]:
    """name -> (our median rate, min ratio to py65, median ratio to py65); ``only``: the
    workloads whose names start with one of these (the dispatch loop always runs)."""
    theirs = py65_runner()
    if theirs is None:
        raise SystemExit("py65 is not installed: pip install -e '.[bench]'")
    ours = {name: run for name, run in workloads().items()
            if not only or name == "minimal dispatch loop"
            or any(name.startswith(prefix) for prefix in only)}
    for run in (*ours.values(), theirs):  # warm the caches and memos once
        timed(run, seconds / 4)
    rates: dict[str, list[float]] = {name: [] for name in ours}
    ratios: dict[str, list[float]] = {name: [] for name in ours}
    for _ in range(rounds):
        for name, run in ours.items():
            rate = timed(run, seconds)
            reference = timed(theirs, seconds)
            rates[name].append(rate)
            ratios[name].append(rate / reference)
    return {name: (statistics.median(rates[name]), min(ratios[name]),
                   statistics.median(ratios[name])) for name in ours}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds per side")
    parser.add_argument("--only", action="append", metavar="PREFIX",
                        help="only the workloads whose names start so (repeatable)")
    args = parser.parse_args()
    results = paired(args.rounds, args.seconds, args.only)
    print(f"{'workload':<28}{'instructions/s':>16}{'min x py65':>12}{'median':>9}")
    for name, (rate, low, mid) in results.items():
        print(f"{name:<28}{rate:>16,.0f}{low:>12.2f}{mid:>9.2f}")
    ceiling = results["minimal dispatch loop"][0]
    for name in ("tic-tac-toe mix", "every kind"):
        if name in results:
            print(f"fraction of the minimal dispatch loop, {name}: "
                  f"{results[name][0] / ceiling:.2f}")


if __name__ == "__main__":
    main()
