"""Memory that keeps numbers as numbers (the value shadow) against the plain reference.

Compiled stores of a new number put its int value in the memory cell and make no word
(blockgen.py); every reader must still see the reference's words: the printer, a reader in
another thread while the run goes on (Machine.word_at, Machine.words), the pair fetch
(a computed instruction word, also a later pair of the running block), V, Y, E, the
arithmetic, tapes, snapshots and the monitor, and memory after every run.
"""

from __future__ import annotations

from tests.machine.test_differential import LogPrinter, same, tape_state, twin
from tests.support.reference_cpu import reference_run
from univac_ttt.machine import Machine, MachineOptions
from univac_ttt.machine.tape import Reel
from univac_ttt.machine.word import from_int, from_text
from univac_ttt.monitor.core import Monitor


class WatchingPrinter(LogPrinter):
    """Notes, at every printed word, memory as a reader in another thread would read it,
    and whether some cell held an int at that moment (the shadow was in use)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, ...]] = []
        self.shadowed = 0

    def print_word(self, word: str) -> None:
        super().print_word(word)
        m = self.machine
        assert m is not None
        self.seen.append(tuple(m.words()))
        assert [m.word_at(a) for a in range(1000)] == list(self.seen[-1])
        self.shadowed += any(cell.__class__ is int for cell in m.mem)


def watched_twin(memory: dict[int, str], options: MachineOptions | None = None
                 ) -> tuple[tuple[Machine, WatchingPrinter], tuple[Machine, WatchingPrinter]]:
    pair = []
    for _ in range(2):
        printer = WatchingPrinter()
        m = Machine(options or MachineOptions(), None, printer)
        printer.machine = m
        m.load(memory)
        pair.append((m, printer))
    return pair[0], pair[1]  # type: ignore[return-value]


def only_words(m: Machine) -> None:
    assert all(cell.__class__ is str and len(cell) == 12 for cell in m.mem)


def words(program: dict[int, str], data: dict[int, str]) -> dict[int, str]:
    return {**{a: from_text(t) for a, t in program.items()}, **data}


COUNTING = {  # a new number stored every pass, printed from memory, read back
    0: "A00101H00100",  # x + k stored (an overflow wraps it and goes to 000 after H)
    1: "B00100500100", 2: "V00100Y00100", 3: "W00120Z00130",
    4: "F00102E00100", 5: "H00103500103", 6: "L00100M00101", 7: "S00100J00106",
    8: "D00104H00105", 9: "B00100U00000",
}
COUNTING_DATA = {
    100: from_int(0), 101: from_int(31_415_926_535), 102: from_text("ABCDEF123456"),
    104: from_int(1),
}


def test_a_reader_during_the_run_sees_the_references_words():
    fast, ref = watched_twin(words(COUNTING, COUNTING_DATA))
    for steps in (5000, 7, 18, 1, 4001):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        only_words(fast[0])  # every cell a word again once run returns
    assert fast[1].seen == ref[1].seen
    assert fast[1].shadowed > 100, "numbers were kept as ints while the machine ran"


SELF_MODIFYING = {  # computed instruction words: a skip and a print, one more each pass
    0: "B00003A00011",  # rA = the word at 003 + 1 (a number: 000000 500030 ...)
    1: "H00003B00010",  # stored into a later pair of this very block; rA = word 010
    2: "A00011H00010",  # the word at 010 + 1, stored there
    3: "000000500030",  # a skip, then print (030 + passes)
    4: "000000U00010",  # to the computed pair
    10: "000000500031",  # a skip, then print (031 + passes)
    11: "000000000001",  # the one added, and (when executed) two skips
    12: "000000U00000",
}


def test_computed_instruction_words_held_as_ints_run_as_on_the_reference():
    fast, ref = watched_twin(words(SELF_MODIFYING, {a: from_int(7 * a) for a in range(30, 400)}))
    for steps in (3000, 11, 2, 600, 1):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        only_words(fast[0])
    assert len(fast[1].log) > 300 and fast[1].seen == ref[1].seen


def test_tapes_write_shadowed_words_as_on_the_reference():
    program = {0: "B00100A00101", 1: "H00100H00159", 2: "510100A00101",
               3: "H00130610000", 4: "000000U00000"}
    data = {100: from_int(5), 101: from_int(12_345_678_901)}
    fast, ref = twin(MachineOptions(), words(program, data), [])
    for m in (fast[0], ref[0]):
        m.tapes.attach(1, Reel(name="out", writable=True))
    for steps in (200, 3, 1000, 9):
        same(fast, ref, fast[0].run(steps), reference_run(ref[0], steps))
        assert tape_state(fast[0]) == tape_state(ref[0])
        only_words(fast[0])
    reel = fast[0].tapes.units[1].reel
    assert reel is not None and reel.blocks and all(
        cell.__class__ is str for block in reel.blocks for cell in block)


def test_snapshots_restores_and_the_monitor_see_shadowed_memory_as_words():
    fast = Monitor(words(COUNTING, COUNTING_DATA))
    ref = Monitor(words(COUNTING, COUNTING_DATA))
    for command in ("step 3000", "examine 100-106", "back 5", "examine 100-106", "step 17",
                    "registers", "deposit 101 -00000000003", "continue 400",
                    "examine 100-106"):
        assert fast.execute(command) == ref.execute(command)
    fast.machine.run(999)
    reference_run(ref.machine, 999)
    state = fast.machine.snapshot()
    assert state == ref.machine.snapshot()
    fast.machine.restore(state)
    same((fast.machine, LogPrinter()), (ref.machine, LogPrinter()),
         fast.machine.run(500), reference_run(ref.machine, 500))
