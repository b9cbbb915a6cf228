"""The fast core against the plain reference (tests/support/reference_cpu.py).

Both run the same programs: the exhaustive proof, random memory images and random
instruction mixes (self-modifying, with deposits, restores, faults and breakpoints between
runs), the shipped image and the boot tape. Full machine state and the stop must agree at
every stop, and every printed word must come out at the same clock and control counter.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.compiled_tables import forget_compiled, read_at_run_time
from tests.support.reference_cpu import reference_run
from univac_ttt.machine import Machine, MachineOptions, QueueKeyboard, StopKind, compiled
from univac_ttt.machine.cpu import MachineState
from univac_ttt.machine.ops import BY_CODE
from univac_ttt.machine.tape import Reel
from univac_ttt.machine.word import from_int, from_text, instruction
from univac_ttt.monitor.core import Monitor
from univac_ttt.packs.tictactoe import DEMO_GAMES, fresh_tictactoe_tape, load_tictactoe
from univac_ttt.verify import referee as referee_module
from univac_ttt.verify.typed import TypedSinceRelease

Runner = Callable[[Machine, int], object]


_FAST_RUN = Machine.run


def fast_run(m: Machine, steps: int) -> object:
    return _FAST_RUN(m, steps)


class LogPrinter:
    """Notes every printed word with the clock and CC the machine shows at that moment."""

    def __init__(self) -> None:
        self.machine: Machine | None = None
        self.log: list[tuple[str, int, int]] = []

    def print_word(self, word: str) -> None:
        assert self.machine is not None
        self.log.append((word, self.machine.pulses, self.machine.cc))


class ListKeyboard:
    def __init__(self, words: list[str]) -> None:
        self.words = list(words)

    def read_word(self) -> str | None:
        return self.words.pop(0) if self.words else None


def twin(options: MachineOptions, memory: dict[int, str], typed: list[str]
         ) -> tuple[tuple[Machine, LogPrinter], tuple[Machine, LogPrinter]]:
    pair = []
    for _ in range(2):
        printer = LogPrinter()
        m = Machine(options, ListKeyboard(typed), printer)  # type: ignore[arg-type]
        printer.machine = m
        m.load(memory)
        pair.append((m, printer))
    return pair[0], pair[1]


def same(fast: tuple[Machine, LogPrinter], ref: tuple[Machine, LogPrinter],
         fast_stop: object, ref_stop: object) -> None:
    assert fast_stop == ref_stop
    assert fast[0].last_stop == ref[0].last_stop
    assert fast[0].snapshot() == ref[0].snapshot()
    assert fast[1].log == ref[1].log


# ---- the proof ---------------------------------------------------------------------------

def record_proof(monkeypatch, run: Runner) -> tuple[list[object], list[object], bool]:
    """Every stop (with the whole state) and every printed word of the exhaustive proof."""
    stops: list[object] = []
    printed: list[object] = []
    original_print = TypedSinceRelease.print_word

    def hooked(self: Machine, max_steps: int = 10**12) -> object:
        stop = run(self, max_steps)
        stops.append((stop, self.last_stop, self.snapshot()))
        return stop

    def print_word(self, word: str) -> None:
        machine = self.machine
        printed.append((word, machine.pulses, machine.cc))
        original_print(self, word)

    with monkeypatch.context() as patch:
        patch.setattr(TypedSinceRelease, "print_word", print_word)
        patch.setattr(Machine, "run", hooked)
        report = referee_module.Referee().run()
    return stops, printed, report.ok


def test_the_proof_runs_identically_on_the_reference(monkeypatch):
    fast_stops, fast_printed, fast_ok = record_proof(monkeypatch, fast_run)
    ref_stops, ref_printed, ref_ok = record_proof(monkeypatch, reference_run)
    assert fast_ok and ref_ok
    assert len(fast_stops) == len(ref_stops) > 400
    for mine, theirs in zip(fast_stops, ref_stops, strict=True):
        assert mine == theirs
    assert fast_printed == ref_printed and len(fast_printed) > 1000


# ---- shipped image and demo games ----------------------------------------------------------

def play(run: Runner, lines: list[str], chunk: int) -> list[object]:
    keyboard = QueueKeyboard()
    printer = LogPrinter()
    m = Machine(keyboard=keyboard, printer=printer)  # type: ignore[arg-type]
    printer.machine = m
    m.load(load_tictactoe().image.words)
    seen: list[object] = []
    pending = list(lines)
    for _ in range(100_000):
        stop = run(m, chunk)
        seen.append((stop, m.snapshot()))
        if stop.kind is StopKind.KEYBOARD:  # type: ignore[attr-defined]
            if not pending:
                break
            keyboard.type_line(pending.pop(0))
    seen.append(printer.log)
    return seen


def test_demo_games_in_odd_chunks_match_the_reference():
    lines = [line for game, _ in DEMO_GAMES[:4] for line in game]
    for chunk in (1_000_000, 997, 2, 1):
        few = lines if chunk > 2 else lines[:3]
        assert play(fast_run, few, chunk) == play(reference_run, few, chunk)


# ---- random programs ---------------------------------------------------------------------

codes = st.integers(min_value=0, max_value=63).map(chr)
raw_words = st.text(alphabet=codes, min_size=12, max_size=12)
OPS = [code for code in BY_CODE if code not in ("10",)] + ["10"]
halves = st.builds(
    lambda code, address, n: instruction(code.replace("n", str(n)), address)
    if not code.startswith(("1", "2", "3", "4", "5", "6", "7", "8")) or code == "10"
    or code == "50" else instruction(code.replace("n", "1"), address),
    st.sampled_from(OPS), st.integers(0, 40), st.integers(1, 9))
instruction_words = st.builds(lambda a, b: a + b, halves, halves)
numbers = st.integers(-(10**11) + 1, 10**11 - 1).map(from_int)
any_words = st.one_of(instruction_words, instruction_words, numbers, raw_words)
options = st.builds(MachineOptions, right_half_after_transfer=st.booleans(),
                    overflow=st.sampled_from(["transfer", "stop"]),
                    timing=st.sampled_from(["latency", "average"]),
                    breakpoint_switch=st.booleans())
events = st.one_of(
    st.tuples(st.just("run"), st.integers(1, 400)),
    st.tuples(st.just("deposit"), st.integers(0, 40), any_words),
    st.tuples(st.just("restore"), st.integers(0, 5)),
    st.tuples(st.just("fault"), st.sampled_from([0, 1, 2, 5, 20, "rA", "rL"]),
              st.integers(0, 11), st.integers(0, 6)),
    st.tuples(st.just("break"), st.integers(0, 40)),
    st.tuples(st.just("switch"), st.booleans()),
    st.tuples(st.just("resume")),
)


def apply(m: Machine, event: tuple, saved: list[MachineState]) -> None:
    kind = event[0]
    if kind == "deposit":
        m.mem[event[1]] = event[2]
    elif kind == "restore":
        if saved:
            m.restore(saved[event[1] % len(saved)])
    elif kind == "fault":
        m.inject_fault(event[1], event[2], event[3])
    elif kind == "break":
        m.break_addresses ^= {event[1]}
    elif kind == "switch":
        m.breakpoint_switch = event[1]
    elif kind == "resume":
        m.resume_past_breakpoint()


def replay(fast: tuple[Machine, LogPrinter], ref: tuple[Machine, LogPrinter],
           script: list[tuple], saved: list[MachineState],
           after_run: Callable[[], None] | None = None) -> None:
    """Run a script of events on both machines: a run is compared (then ``after_run``, then
    the state saved for later restores), a typed word goes to both keyboards, anything
    else is applied to both."""
    for event in script:
        if event[0] == "run":
            same(fast, ref, fast[0].run(event[1]), reference_run(ref[0], event[1]))
            if after_run is not None:
                after_run()
            saved.append(fast[0].snapshot())
        elif event[0] == "type":
            for m in (fast[0], ref[0]):
                m.keyboard.words.append(from_int(7))  # type: ignore[union-attr]
        else:
            apply(fast[0], event, saved)
            apply(ref[0], event, saved)


@settings(deadline=None)
@given(st.dictionaries(st.integers(0, 40), any_words, max_size=40),
       st.lists(numbers, max_size=4), options, st.lists(events, min_size=1, max_size=25))
def test_random_programs_match_the_reference(memory, typed, opts, script):
    fast, ref = twin(opts, memory, typed)
    saved: list[MachineState] = []
    replay(fast, ref, script, saved)
    same(fast, ref, fast[0].run(3000), reference_run(ref[0], 3000))


@settings(deadline=None)
@given(st.dictionaries(st.integers(0, 999), raw_words, max_size=60),
       st.lists(raw_words, max_size=5), options)
def test_random_memory_images_match_the_reference(memory, typed, opts):
    fast, ref = twin(opts, memory, typed)
    for _ in range(5):
        same(fast, ref, fast[0].run(600), reference_run(ref[0], 600))


def test_self_modifying_loop_matches_the_reference():
    """The loop adds one to its own instruction each pass, so the pair it fetches next is
    a word it has not run before; a deposit from outside then changes it again."""
    memory = {
        0: instruction("B", 1) + instruction("A", 10),  # rA = (1) + 1: the next address
        1: instruction("H", 1) + instruction("B", 20),
        2: instruction("C", 30) + instruction("U", 0),
        10: from_int(1), 20: from_int(0),
    }
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (5, 1, 60, 333):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    for m in (fast[0], ref[0]):
        m.mem[2] = instruction("50", 1) + instruction("U", 0)
    same(fast, ref, fast[0].run(500), reference_run(ref[0], 500))
    assert fast[1].log, "the deposited print instruction ran"


def test_a_compiled_pair_rewritten_by_the_program_matches_the_reference():
    """Word 002 alternates between two pairs, swapped in by the loop itself every pass, so
    each fetch must find the one memory holds now. They differ in one operand alone, so the
    pair is compiled once with that operand read at run time (blockvary.py)."""
    forget_compiled()  # from a known state: an earlier test may have seen address 002
    memory = {
        0: instruction("B", 10) + instruction("H", 2),   # word 002 = (010)
        1: instruction("L", 11) + instruction("J", 10),  # (010) = (011)
        2: instruction("00", 0) + instruction("00", 0),  # replaced before it first runs
        3: instruction("H", 11) + instruction("U", 0),   # (011) = the old (010)
        10: instruction("50", 20) + instruction("00", 0),  # prints leave rA alone
        11: instruction("50", 21) + instruction("00", 0),
        20: from_int(20), 21: from_int(21),
    }
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (40, 1, 3, 2000):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    printed = [word for word, _, _ in fast[1].log]
    assert printed[:4] == [from_int(20), from_int(21), from_int(20), from_int(21)]
    assert read_at_run_time(2) == {0}


def test_the_boot_tape_loads_and_plays_as_on_the_reference():
    machines = []
    for run in (fast_run, reference_run):
        keyboard = QueueKeyboard()
        printer = LogPrinter()
        m = Machine(keyboard=keyboard, printer=printer)  # type: ignore[arg-type]
        printer.machine = m
        m.tapes.attach(1, fresh_tictactoe_tape())
        assert m.initial_read() is None
        seen: list[object] = [run(m, 1_000_000), m.snapshot()]
        for line in ["5", "1", "9", "3"]:
            keyboard.type_line(line)
            seen += [run(m, 1_000_000), m.snapshot()]
        machines.append((seen, printer.log))
    assert machines[0] == machines[1]
    assert len(machines[0][1]) > 50


common = st.sampled_from(["B", "L", "F", "H", "C", "G", "J", "K", "A", "S", "X", "M", "N",
                          "P", "D", "E", "V", "W", "Y", "Z", "Q", "T", "R", ".1", ";2", "-3",
                          "02", "00", ",0", "50"])
loop_halves = st.builds(lambda code, address: instruction(code, address), common,
                        st.integers(10, 45))
loop_words = st.builds(lambda a, b: a + b, loop_halves, loop_halves)


# A machine's clock when a run starts: a block works out every wait from the clock's phase,
# and a machine that has run for hours has a clock past 2**30 (a slower int in Python).
clocks = st.one_of(st.just(0), st.integers(0, 10**6), st.integers(0, 2**70))


@settings(deadline=None)
@given(st.lists(loop_words, min_size=1, max_size=8),
       st.dictionaries(st.integers(10, 45), st.one_of(numbers, numbers, loop_words, raw_words),
                       max_size=30),
       st.one_of(st.just(MachineOptions()), st.just(MachineOptions(overflow="stop")),
                 st.just(MachineOptions(breakpoint_switch=True)), options),
       st.lists(st.integers(1, 700), min_size=1, max_size=6), clocks)
def test_random_loops_match_the_reference(body, data, opts, runs, clock):
    """Straight-line code that transfers back to 000, so its pairs are fetched again and
    again (and compiled), storing into itself and its data as it goes."""
    memory = {**data, **dict(enumerate(body))}
    memory[len(body)] = instruction("00", 0) + instruction("U", 0)
    fast, ref = twin(opts, memory, [])
    fast[0].pulses = ref[0].pulses = clock
    for steps in runs:
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))


ARITHMETIC_LOOP = {  # benchmarks/paired.py: new operands every pass, overflow wraps to 000
    0: "A00101H00100", 1: "L00100M00103", 2: "S00100D00104", 3: "B00100U00000"}
EVERY_KIND_LOOP = {  # benchmarks/bench_core.py: every central-computer instruction kind
    i: text for i, text in enumerate([
        "B00100L00101", "F00102A00101", "S00101X00000", "M00103N00103", "P00103D00103",
        "E00102H00105", "C00106G00107", "J00108K00000", "V00100W00110", "Y00100Z00120",
        "B00100T00012", ".10000;10000", "-10000010000", "000000,00000", "500109R00140",
        "B00100L00100", "Q00018000000", "900000000000", "000000U00000"])}


def test_the_benchmark_loops_match_the_reference():
    arithmetic = {a: from_text(t) for a, t in ARITHMETIC_LOOP.items()}
    arithmetic.update({100: from_int(0), 101: from_int(31_415_926_535),
                       103: from_int(27_182_818_284), 104: from_int(1)})
    every_kind = {a: from_text(t) for a, t in EVERY_KIND_LOOP.items()}
    every_kind.update({100: from_int(5), 101: from_int(7), 102: from_text("101010101010"),
                       103: from_int(3), 109: from_text("ιιιιιιιιιιιι")})
    for memory in (arithmetic, every_kind):
        for opts in (MachineOptions(), MachineOptions(overflow="stop")):
            fast, ref = twin(opts, memory, [])
            for steps in (1, 7, 3000, 2, 20_001):
                same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))


def tape_state(m: Machine) -> tuple:
    tapes = m.tapes
    return (tapes.ri_ready, tapes.ro_free, tapes.blocks_read, tapes.blocks_written,
            tuple((u.position, u.interlocked, u.busy_until, u.motion,
                   None if u.reel is None else tuple(u.reel.blocks))
                  for u in tapes.units.values()))


tape_codes = st.sampled_from(["1n", "2n", "30", "3n", "40", "4n", "5n", "6n", "7n", "8n",
                              "B", "A", "H", "00", "10", "50"])
tape_halves = st.builds(
    lambda code, unit, address: instruction(code.replace("n", str(unit)), address),
    tape_codes, st.integers(1, 3), st.sampled_from([100, 160, 200, 230]))
tape_loop_words = st.builds(lambda a, b: a + b, tape_halves, tape_halves)


@settings(deadline=None)
@given(st.lists(tape_loop_words, min_size=1, max_size=6), st.lists(numbers, max_size=3),
       st.sampled_from([(True, "truncate"), (False, "keep")]),
       st.lists(st.integers(1, 500), min_size=1, max_size=5))
def test_random_tape_loops_match_the_reference(body, typed, tape_options, runs):
    """Loops reading, writing and rewinding mounted reels (and the keyboard) pass after
    pass, so their pairs are compiled; the reels and every unit must agree too."""
    memory = dict(enumerate(body))
    memory[len(body)] = instruction("00", 0) + instruction("U", 0)
    opts = MachineOptions(tape_write_aligned=tape_options[0], tape_overwrite=tape_options[1])
    fast, ref = twin(opts, memory, typed)
    for m in (fast[0], ref[0]):
        for unit in (1, 2):
            blocks = [tuple(from_int(1000 * unit + 60 * b + i) for i in range(60))
                      for b in range(3)]
            m.tapes.attach(unit, Reel(blocks=blocks, writable=unit == 1, name=f"r{unit}"))
    for steps in runs:
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        assert tape_state(fast[0]) == tape_state(ref[0])


# ---- registers that keep numbers as ints -----------------------------------------------------
# Compiled arithmetic leaves its results in m._a, m._x, m._l, m._f as ints; m.a, m.x, m.l,
# m.f, snapshots, the monitor, faults and printing must see exactly the reference's words.

NUMERIC_LOOP = {  # every result below passes through a register as an int
    0: "A00101H00100",  # rA = x + k (int), stored: x; overflow wraps, back to 000
    1: "L00100M00103",  # rL = x; rA = x * c rounded, rX = c, rF = 3x (ints)
    2: "S00100D00104",  # rA = x * c - x; rA, rX = 1 / x rounded and not (ints)
    3: "J00105P00103",  # the unrounded quotient stored; rA, rX = x * c in 22 digits
    4: "G00106X00000",  # rF (a triple, maybe 12 digits) stored; rA = rA + rX
    5: "500105500106",  # both printed
    6: "K00000N00103",  # rL = rA (an int), rA = 0; rA = -(rL * c)
    7: "T00009E00107",  # to 009 if rA > rL (two ints); rA = extract of (107) under rF
    8: "Q00000-20000",  # to 000 if rA = rL (a word and an int); shift rA
    9: "C00108D00109",  # rA stored and cleared; rA, rX = (109) / rL (a negative int)
    10: "J00110500110",  # the unrounded quotient stored and printed
    11: "B00100U00000",  # rA = x for the next pass
}


def numeric_memory() -> dict[int, str]:
    memory = {a: from_text(t) for a, t in NUMERIC_LOOP.items()}
    memory.update({100: from_int(0), 101: from_int(31_415_926_535),
                   103: from_int(-27_182_818_284), 104: from_int(1),
                   107: from_text("ABCDEFGHIJKL"), 109: from_int(1)})
    return memory


def held_as_ints(m: Machine) -> set[str]:
    """Registers holding an int right now (looked at without materialising them)."""
    return {name for name in ("_a", "_x", "_l", "_f") if vars(m)[name].__class__ is int}


def test_registers_holding_numbers_read_as_on_the_reference():
    seen: set[str] = set()
    for opts in (MachineOptions(), MachineOptions(overflow="stop")):
        fast, ref = twin(opts, numeric_memory(), [])
        for steps in (60, 1, 3, 7, 50, 2001, 4, 999, 20_000, *[2] * 40):  # 2: pair by pair
            fast_stop, ref_stop = fast[0].run(steps), reference_run(ref[0], steps)
            ints_before = held_as_ints(fast[0])
            seen |= ints_before
            assert (fast[0].a, fast[0].x, fast[0].l, fast[0].f) == \
                (ref[0].a, ref[0].x, ref[0].l, ref[0].f)
            assert held_as_ints(fast[0]) == ints_before, "reading changes no register"
            same(fast, ref, fast_stop, ref_stop)
        assert len(fast[1].log) > 100 or opts.overflow == "stop"  # which stops on pass 3
    assert seen == {"_a", "_x", "_l", "_f"}, "the new representation was exercised"


def test_snapshots_and_restores_of_registers_holding_numbers():
    fast, ref = twin(MachineOptions(), numeric_memory(), [])
    same(fast, ref, fast[0].run(3001), reference_run(ref[0], 3001))
    fast[0].run(77)
    assert held_as_ints(fast[0])
    state = fast[0].snapshot()  # taken while the registers hold ints
    assert all(isinstance(word, str) and len(word) == 12
               for word in (state.a, state.x, state.l, state.f))
    reference_run(ref[0], 77)
    assert state == ref[0].snapshot()
    for steps in (500, 9):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        fast[0].restore(state)
        ref[0].restore(state)
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))


def test_faults_in_registers_holding_numbers_stop_as_on_the_reference():
    found: set[str] = set()
    for register in ("rA", "rX", "rL", "rF"):
        for start in range(1001, 1023, 2):  # at every pair of the loop in turn
            fast, ref = twin(MachineOptions(), numeric_memory(), [])
            fast[0].run(start)
            reference_run(ref[0], start)
            ints = held_as_ints(fast[0])
            for bit in (0, 6):  # a code bit (the word changes), then the check bit
                for m in (fast[0], ref[0]):
                    m.inject_fault(register, 4, bit)
                same(fast, ref, fast[0].run(60), reference_run(ref[0], 60))
                if fast[0].last_stop.kind is StopKind.ERROR and f"_{register[1].lower()}" in ints:
                    found.add(register)
                for m in (fast[0], ref[0]):
                    m.clear_faults()
                same(fast, ref, fast[0].run(60), reference_run(ref[0], 60))
    assert found == {"rA", "rX", "rL", "rF"}, "a fault in a register holding an int is found"


def test_the_monitor_sees_registers_holding_numbers_as_on_the_reference():
    fast, ref = Monitor(numeric_memory()), Monitor(numeric_memory())
    for steps in (1000, 6, 32):  # whole pairs, so that they run compiled
        fast.machine.run(steps)
        reference_run(ref.machine, steps)
        for _ in range(12):  # on, pair by pair, to where registers hold ints
            if held_as_ints(fast.machine):
                break
            fast.machine.run(2)
            reference_run(ref.machine, 2)
        assert held_as_ints(fast.machine)
        for command in ("registers", "examine rF", "examine rA", "where"):
            assert fast.execute(command) == ref.execute(command)
    for command in ("deposit rA 12", "deposit rF 7", "step 9", "registers", "back 3",
                    "registers", "history 5", "continue 500", "registers"):
        assert fast.execute(command) == ref.execute(command)
    assert fast.machine.snapshot() == ref.machine.snapshot()


ZERO_PRODUCTS = [("-00000000005", "000000000000", "000000000001"),
                 ("-00000000005", "000000000003", "-00000000001"),
                 ("000000000000", "-00000000007", "-00000000000"),
                 ("-00000000000", "-00000000000", "000000000009"),
                 ("-10000000000", "050000000000", "-00000000001")]


def test_zero_products_of_unlike_signs_are_minus_zero_on_both_paths():
    """The product's sign comes from the operands' signs (BN-158), zero or not: the
    compiled pairs (run again and again, so that they are compiled) and the reference
    make the same -0 words (docs/fidelity.md, "The multiplier")."""
    program = {0: "L00100M00101", 1: "H00110P00102", 2: "H00111J00112",
               3: "N00101H00113", 4: "900000U00000"}
    for data in ZERO_PRODUCTS:
        memory = {a: from_text(t) for a, t in program.items()}
        memory.update({100 + i: from_text(t) for i, t in enumerate(data)})
        fast, ref = twin(MachineOptions(), memory, [])
        for _ in range(4):
            same(fast, ref, fast_run(fast[0], 1000), reference_run(ref[0], 1000))
        words = [fast[0].mem[a] for a in (110, 111, 112, 113)]
        signs = [(data[0][0] == "-") != (d[0] == "-") for d in (data[1], data[2], data[2])]
        signs.append(not signs[0])  # N: the other sign
        assert [w[0] == "\x02" for w in words] == signs, (data, words)


# ---- superblocks ---------------------------------------------------------------------------
# A straight-line run of pairs is one compiled function (compiled.py): it must leave exactly
# as the reference stands when an instruction in its middle bails (a stop, a keyboard with
# nothing typed, a tape error, an overflow stop, a non-digit in a multiply), when a word of it
# is changed by itself or from outside, and around breakpoints and faults set between runs.

block_codes = st.sampled_from(
    ["B", "L", "F", "H", "C", "G", "J", "K", "A", "S", "X", "M", "N", "P", "D", "E", "V",
     "W", "Y", "Z", "Q", "T", "R", ".1", ";2", "-3", "02", "00", "00", "00", ",0", "50",
     "90", "10", "11", "21", "31", "51", "61"])
block_halves = st.builds(lambda code, address: instruction(code, address), block_codes,
                         st.integers(0, 40))  # operands reach the code itself (000-017)
block_words = st.builds(lambda a, b: a + b, block_halves, block_halves)
block_events = st.one_of(
    st.tuples(st.just("run"), st.integers(1, 300)),
    st.tuples(st.just("deposit"), st.integers(0, 17), block_words),
    st.tuples(st.just("fault"), st.integers(0, 17), st.integers(0, 11), st.integers(0, 6)),
    st.tuples(st.just("break"), st.integers(0, 17)),
    st.tuples(st.just("switch"), st.booleans()),
    st.tuples(st.just("resume")),
    st.tuples(st.just("type"),),
)


@settings(deadline=None)
@given(st.lists(block_words, min_size=2, max_size=16),
       st.dictionaries(st.integers(18, 40), st.one_of(numbers, numbers, raw_words),
                       max_size=20),
       st.sampled_from([MachineOptions(), MachineOptions(overflow="stop"),
                        MachineOptions(breakpoint_switch=True)]),
       st.booleans(), st.lists(block_events, min_size=1, max_size=12), clocks)
def test_superblocks_match_the_reference(body, data, opts, mounted, script, clock):
    """Long straight-line blocks whose instructions bail part-way, store into the block
    itself, and meet deposits, breakpoints, faults and typed words between runs."""
    memory = {**data, **dict(enumerate(body))}
    memory[len(body)] = instruction("00", 0) + instruction("U", 0)
    fast, ref = twin(opts, memory, [])
    for m in (fast[0], ref[0]):
        m.pulses = clock
        if mounted:
            m.tapes.attach(1, Reel(blocks=[tuple(from_int(i) for i in range(60))],
                                   writable=True, name="r1"))
    saved: list[MachineState] = []
    for steps in (200, 1, 3):  # compile the blocks (second sight), then leave part-way
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    def same_tapes() -> None:
        assert tape_state(fast[0]) == tape_state(ref[0])

    replay(fast, ref, script, saved, same_tapes)
    same(fast, ref, fast[0].run(2000), reference_run(ref[0], 2000))


def test_a_block_that_rewrites_its_own_later_pair_matches_the_reference():
    """Pair 001 stores into pair 003 of the same block every pass (alternating two
    words), so the block must see the change at the boundary before 003 and be shortened."""
    memory = {
        0: instruction("B", 20) + instruction("L", 21),
        1: instruction("H", 3) + instruction("J", 22),    # (003) = (020); (022) = (021)
        2: instruction("B", 22) + instruction("H", 21),   # swap (020) and (021) through 022
        3: instruction("00", 0) + instruction("00", 0),
        4: instruction("L", 20) + instruction("J", 23),
        5: instruction("B", 23) + instruction("H", 20),
        6: instruction("00", 0) + instruction("U", 0),
        20: instruction("50", 30) + instruction("00", 0),
        21: instruction("50", 31) + instruction("00", 0),
        30: from_int(30), 31: from_int(31),
    }
    fast, ref = twin(MachineOptions(), memory, [])
    for steps in (14, 1, 2, 13, 29, 400, 5, 1000):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert len(fast[1].log) > 50
    block = compiled.TABLES[False].by_address[0].get(fast[0].mem[0])
    assert block is not None and block is not compiled._generic


def test_a_long_block_leaves_part_way_exactly():
    """A 16-pair block with a multiply of text in its middle: the bail leaves the machine
    just before that instruction, with the registers the block held in locals."""
    words = [instruction("B", 40) + instruction("A", 41)] * 6 + [
        instruction("L", 42) + instruction("M", 43)] + [
        instruction("H", 44) + instruction("K", 0)] * 8 + [
        instruction("00", 0) + instruction("U", 0)]
    memory = {**dict(enumerate(words)), 40: from_int(5), 41: from_int(-3), 42: from_int(9),
              43: from_int(11), 44: from_int(0)}
    fast, ref = twin(MachineOptions(), memory, [])
    same(fast, ref, fast[0].run(200), reference_run(ref[0], 200))
    for m in (fast[0], ref[0]):
        m.mem[43] = from_text("ABCDEFGHIJKL")  # the multiply in pair 006 now bails
    for steps in (40, 1, 1, 40):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
    assert fast[0].last_stop.kind is StopKind.ERROR
    assert fast[0].last_stop.address == 6 and fast[0].last_stop.half == "right"


# ---- the arithmetic rules live in arithmetic.py ------------------------------------------------

def _forget_every_result() -> None:
    """Empty every memo and value table, and every compiled block, so that a rule changed
    in arithmetic.py is used from now on."""
    from univac_ttt.machine import arithmetic as ar
    from univac_ttt.machine import fastarith

    ar._SUMS.clear()
    for function in (ar.multiply_rounded, ar.multiply_full, ar.divide, ar.triple):
        function.cache.clear()  # type: ignore[attr-defined]
    fastarith._VALUES.clear()
    fastarith._WORDS.clear()
    for table in fastarith.PRODUCTS.values():
        table.clear()
    for tables in compiled.TABLES.values():
        tables.seen.clear()
        for blocks in (*tables.by_address, *tables.singles):
            blocks.clear()


def test_a_zero_results_sign_is_taken_from_arithmetic_alone(monkeypatch):
    """Were the rule for the sign of a zero product or quotient changed in arithmetic.py
    (a negative zero kept), compiled blocks and fastarith give what the reference gives:
    zero results are always formed there."""
    from univac_ttt.machine import arithmetic as ar
    from univac_ttt.machine.charset import MINUS

    def keep_negative_zero(sign: int, magnitude: int) -> str:
        word = from_int(magnitude)
        return MINUS + word[1:] if sign < 0 else word

    memory = {
        0: instruction("L", 20) + instruction("M", 21),   # -3 x 4: rounds to zero
        1: instruction("H", 30) + instruction("N", 22),   # 3 x ... negated, zero
        2: instruction("H", 31) + instruction("P", 21),   # -3 x 4 in 22 digits: high zero
        3: instruction("H", 32) + instruction("J", 33),
        4: instruction("B", 24) + instruction("D", 23),   # 0 / -3 (rL): a zero quotient
        5: instruction("H", 34) + instruction("U", 0),
        20: from_int(-3), 21: from_int(4), 22: from_int(-2), 23: from_int(0), 24: from_int(-7),
    }
    with monkeypatch.context() as patch:
        patch.setattr(ar, "_signed_word", keep_negative_zero)
        _forget_every_result()
        fast, ref = twin(MachineOptions(), memory, [])
        for steps in (400, 1, 2, 37, 2000):
            same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        negative_zero = MINUS + from_int(0)[1:]
        assert fast[0].mem[30] == negative_zero  # the changed rule was used
        assert fast[0].mem[34] == negative_zero
    _forget_every_result()


def test_a_block_looping_in_place_leaves_exactly_on_a_later_pass():
    """A block whose last pair transfers back to its start runs round in place; when its
    first instruction stops on a later pass (an overflow stop, the keyboard running dry),
    CR, CC and the clock must be the reference's. The block is entered from a prologue
    (a restore puts the machine back there once the block is compiled), so the CR it was
    entered with is not the one it must leave with."""
    prologue = instruction("00", 0) + instruction("U", 1)
    overflowing = {0: prologue, 1: instruction("A", 21) + instruction("H", 20),
                   2: instruction("00", 0) + instruction("U", 1), 21: from_int(3 * 10**10)}
    reading = {0: prologue, 1: instruction("10", 30) + instruction("B", 30),
               2: instruction("A", 31) + instruction("H", 32),
               3: instruction("00", 0) + instruction("U", 1), 31: from_int(1)}
    typed = [from_int(n) for n in range(12)]
    for memory, opts in ((overflowing, MachineOptions(overflow="stop")),
                         (reading, MachineOptions())):
        fast, ref = twin(opts, memory, typed)
        start = fast[0].snapshot()
        for _ in range(3):  # seen once, compiled, then entered from the prologue
            for m in (fast[0], ref[0]):
                m.restore(start)
                m.keyboard.words[:] = typed  # type: ignore[union-attr]
            same(fast, ref, fast[0].run(1000), reference_run(ref[0], 1000))
            assert fast[0].last_stop.kind in (StopKind.ERROR, StopKind.KEYBOARD)
