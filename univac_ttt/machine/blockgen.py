"""Code generation for compiled superblocks: the source of one block, from memory's words.

A straight-line run of pairs becomes one Python function with memory, the clock and the
registers in locals. After a pair fetch the delay lines have a known phase (the fetch ends
as word cc passes the heads), so every later wait of the block (operands, and the fetches of
the pairs after it) is a constant worked out here; only a multiply's digits or a device make
the clock vary. Before each later pair the block compares the word memory holds with the
word it was compiled from and leaves, exactly as the machine stands, when it changed.

Each instruction's text comes from its row's body in ops.py, written in compiled code's
names (blockops.py); arithmetic on numbers whose values are known goes a way of its
own first (blockarith.py), leaving its results in the registers as ints and making no word;
a word is made only when something reads the register as one. Anything unusual leaves
through ``Bail`` before that instruction has changed anything, with the machine settled
just before it (``_settle``).
"""

from __future__ import annotations

import re

from . import arithmetic as ar
from . import fastarith, ops
from .blockarith import _A, _L, _READS_A_AS_WORD, _WA, _WL, ArithmeticWriter
from .blockops import _PLAIN, _PLAIN_BY, _stored_cells, _without_dead_counts
from .charset import MINUS, ZERO_DIGIT
from .ops import decode
from .timing import MINOR_CYCLE_PULSES, instruction_cost
from .word import ZERO

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .compiled import Tables
    from .cpu import Machine
    from .stops import StopRequest

# A block returns the next CC plus the instructions it ran times _DONE, plus _CHANGED times
# the pairs before the word it found changed when it left for that reason.
_DONE = 1024
_CHANGED = 1 << 40
_FOLLOW = 1 << 48  # added when a block ending at a U has run HOT_RUNS times: follow it
_MAX_PAIRS = 16  # pairs in one block
# Runs of the blocks at one address ending at an unconditional transfer before they are
# compiled again across it: a followed block saves a few hundred ns a run and costs a few ms
# to compile (2026-12-02: at 200 the proof, a short run, compiled 80 more blocks and took
# 0.2-0.3 s more CPU). With SHARE_BY_ADDRESS the runs are counted by address as well as by
# block: code that steps an address through a table makes a block for each word at the
# same place, each run a few hundred times, and the place is hot long before any one of
# them is; such a block is followed once the place has HOT_RUNS runs and it has a share
# of them of its own.
HOT_RUNS = 2000
# On since 2026-12-02 evening: shared, the tic-tac-toe minimum after the 3 M warm-up rose
# from 2.7 to over 3 of py65. (Its loss on "a new word every pass" was the one-pair blocks
# run at a budget's end counting too: once hot, each run of one asked for its address's
# long block to be followed again; they no longer count. docs/performance.md, fourth round.)
SHARE_BY_ADDRESS = True
OWN_SHARE = 10  # a block's own runs before it is followed: HOT_RUNS // OWN_SHARE
_TRANSFERS = ("Q", "T", "U", "A", "S", "X")  # codes that may change CC (A, S, X: overflow)
_REGISTER_NAMES = re.compile(r"\br([axlf])\b")
# A register as an assignment's target: ``m._a = ``, or in a list of targets
# (``m._a, m._x, m._f, p = r``).
_ASSIGNED = re.compile(r"\bm\._([axlf])(?=(?:\s*,\s*[\w.]+)*\s*=(?!=))")


class Bail(Exception):
    """The block cannot go on compiled; ``done`` instructions of it have run, and the
    machine is settled just before the next one (CC, CR, the half, the clock, registers).
    ``request``: the stop a device asked for there, having changed nothing (a keyboard with
    nothing typed), which the interpreter would only ask again by running it."""

    def __init__(self, done: int, request: StopRequest | None = None) -> None:
        super().__init__(done)
        self.done = done
        self.request = request


def _settle(m: Machine, pulses: int, cc: int, cr: str | None, cr_address: int, half: int,
            done: int, request: StopRequest | None = None, **registers: str | int) -> Bail:
    """Put the machine where a block leaves it before an instruction it cannot run: the
    clock, CC, CR (None: as it was, the block's first pair not yet fetched), the half and
    the registers the block holds in locals."""
    m.pulses = pulses
    m.cc = cc
    if cr is not None:
        m.cr, m.cr_address = cr, cr_address
    m.half = half
    for name, value in registers.items():
        setattr(m, "_" + name, value)
    return Bail(done, request)


def _leave(m: Machine, pulses: int, cr: str, cr_address: int, result: int,
           **registers: str | int) -> int:
    """A block's exit written as a call: the clock, CR and registers back in the machine."""
    m.pulses = pulses
    m.cr, m.cr_address = cr, cr_address
    for name, value in registers.items():
        setattr(m, "_" + name, value)
    return result


def _mixed_equal(a: str | int, l: str | int) -> bool:  # noqa: E741 - rL
    """Q's test when one of rA, rL holds an int and the other a word: as words, but a
    word whose value differs is unequal without making the int's word (a counting loop
    compares each new count with its limit)."""
    number, word = (a, l) if a.__class__ is int else (l, a)
    known = fastarith.value(word)  # type: ignore[arg-type]
    if known != number:  # None (text) included
        return False
    return fastarith.register_word(number) == word  # type: ignore[arg-type]


_NAMESPACE = {
    "MIXED_EQUAL": _mixed_equal, "SETTLE": _settle, "LEAVE": _leave,
    "VALUE": fastarith._VALUES.get, "WORD": fastarith._WORDS.get, "WORD_OF": fastarith.word_of,
    "NEGATE": {MINUS: ZERO_DIGIT, **{chr(c): MINUS for c in range(64) if chr(c) != MINUS}},
    "Bail": Bail, "ZERO": ZERO, "REG": fastarith.register_word,
    "NEW": fastarith._new_word, "PASSES": fastarith.passes_of,
    "PASSES_OF": fastarith._PASSES_OF.get,
    "ADD": fastarith.add, "SUMS": ar._SUMS.get, "MUL": fastarith.multiply,
    "DIV": fastarith.divide,
    # Y's channels by their first address, for the test that none of its cells is shadowed.
    **{f"CHANNEL{c}": frozenset(range(c, c + 10)) for c in range(0, 1000, 10)},
    "AS_WORDS": fastarith.as_words, "MATERIALISE": fastarith.materialise,
    **ops.BODY_NAMES,  # what the bodies name (EXTRACT, GREATER, LINKS, AdderFault, ...)
}
_SHIFTS = {".n": "SR", ";n": "SL", "-n": "SRK", "0n": "SLK"}
_CODE_OF = {op.execute: op.code for op in ops.OPERATIONS}
# Devices and stops: their executors are called as they are, with the clock, CC and CR set;
# each returns a stop request only before it has changed anything (tape.py), so the
# interpreter can run it again from the start.
_CODE_OF.update({op.execute: "device" for op in ops.OPERATIONS if op.device})
_COMPILABLE = set(_PLAIN) | {"device"}


class _Writer(ArithmeticWriter):
    """Source of one block; the clock is ``t`` plus the constant ``off``, and ``phase`` is
    the minor cycle (mod 10) at that time, or None once a multiply or a device has made it
    vary. Registers are the locals ra, rx, rl, rf (written m._a ... while generating)."""

    def __init__(self, start: int, overflow_stop: bool) -> None:
        self.start = start
        self.overflow_stop = overflow_stop
        self.lines: list[str] = []
        self.off = 0
        self.phase: int | None = None  # unknown until the first fetch
        self.pair = 0  # pairs begun
        self.half = 0
        self.address = start
        self.word = ""
        self.previous: tuple[str, int] | None = None  # the pair before this one
        self.boundary = "t0"  # the clock before this pair's fetch
        self.right_code: str | None = None  # the right half's operation, for the left
        self.words: set[str] = set()  # registers ("a", "l") known to hold words here
        self.namespace: dict[str, object] = dict(_NAMESPACE)
        self.loops = False  # the last pair may transfer back to the start: loop in place
        self.first_word = ""
        self.counting = False  # the block ends at a U it may follow once hot: count runs

    def emit(self, *lines: str) -> None:
        self.lines += [" " + line for line in lines]

    def now(self) -> str:
        return f"t + {self.off}" if self.off else "t"

    def _exit(self, cc: str, done: int, cr: tuple[str, int] | None, *, changed: bool = False,
              follow: bool = False) -> str:
        """One line leaving the block normally: registers, clock and CR written back (a
        call for the rare exit at a changed word: less source to compile)."""
        code = done * _DONE + (_CHANGED * (done // 2) if changed else 0)
        # One literal for a known CC: a sum of two would be folded by the compiler into a
        # constant of its own, which no block of the same shape could share (shapes.py).
        result = str(int(cc) + code) if cc.isdigit() else f"{cc} + {code}"
        if changed and cr is not None:
            return f"return LEAVE(m, {self.now()}, {cr[0]!r}, {cr[1]}, {result}@D@@REGS@)"
        parts = ["@FLUSH@", f"m.pulses = {self.now()}"]
        if cr is not None:
            parts.append(f"m.cr = {cr[0]!r}; m.cr_address = {cr[1]}")
        # (HOT: this block's runs left to count; HOT_AT: those of every block at its
        # address, one list shared by them)
        ask = f" + (0 if HOT > 0 or HOT_AT[0] > 0 else {_FOLLOW})" if follow else ""
        parts.append(f"return {result}@D@{ask}")
        return "; ".join(parts)

    def bail(self, pulses: str | None = None) -> str:
        """Leave before the instruction about to be written: the machine as it stands."""
        done = 2 * self.pair + self.half
        if self.half == 0:
            if self.previous is not None:
                cr, address = repr(self.previous[0]), str(self.previous[1])
            else:  # the pair before the block, or the last of it after a pass round
                cr, address = ("crw", "cra") if self.loops else ("None", "0")
            return (f"raise SETTLE(m, {self.boundary}, {self.address}, {cr}, {address}, "
                    f"0, {done}@DI@@REGS@)")
        return (f"raise SETTLE(m, {pulses or self.now()}, n, {self.word!r}, {self.address}, "
                f"1, {done}@DI@@REGS@)")

    def begin_pair(self, address: int, word: str) -> None:
        """The fetch of the pair at ``address``: after the first, a check that memory still
        holds the word compiled."""
        self.address, self.word = address, word
        if self.pair:
            done = 2 * self.pair
            self.emit(f"if mem[{address}] != {word!r}:",
                      " " + self._exit(str(address), done, self.previous, changed=True))
        if self.phase is None:
            if self.pair:
                self.emit(f"t += {self.off}" if self.off else "pass", "tb = t")
                self.boundary = "tb"
            self.off = 0
            self.emit(f"t += (({address} - t // 91) % 10 + 1) * 91")
        else:
            self.boundary = self.now()
            self.off += ((address - self.phase) % 10 + 1) * MINOR_CYCLE_PULSES
        self.phase = (address + 1) % 10
        self.emit(f"n = {(address + 1) % 1000}")
        self.half = 0

    def end_pair(self, may_transfer: bool, last: bool, target: int | None = None) -> None:
        """``target``: a followed pair's U operand, where the block goes on unless ``n``
        (a transfer in the other half) says otherwise."""
        self.previous = (self.word, self.address)
        done = 2 * (self.pair + 1)
        if last and self.counting:  # the HOT_RUNS-th run asks to be followed across its U
            self.emit("HOT -= 1", "HOT_AT[0] -= 1")
        if last:
            if self.loops:  # round again, everything kept in locals, while room allows
                self.emit(f"if n == {self.start} and passed + {2 * done} <= room and "
                          f"mem[{self.start}] == {self.first_word!r}:",
                          f" passed += {done}", f" t += {self.off}" if self.off else " pass",
                          f" crw = {self.word!r}; cra = {self.address}", " continue")
            self.emit(self._exit("n", done, self.previous, follow=self.counting))
        elif may_transfer:
            after = (self.address + 1) % 1000 if target is None else target
            self.emit(f"if n != {after}:", " " + self._exit("n", done, self.previous))
        self.pair += 1

    def instruction(self, code: str, operand: int, op: ops.Operation) -> None:
        bail = self.bail()  # the clock before this instruction's wait
        pulses, position = instruction_cost(op, operand, False)
        cycles = 0  # minor cycles this instruction moves the clock on, when known
        if position >= 0:
            if self.phase is None:  # after a multiply or a device: wait by the clock
                self.emit(f"t += {self.off}", "t1 = t",
                          f"t += (({position} - t // 91) % 10) * 91")
                self.off = 0
                bail = self.bail("t1")
            else:
                cycles = (position - self.phase) % 10
                self.off += cycles * MINOR_CYCLE_PULSES
        self.off += pulses
        if self.phase is not None:
            whole, rest = divmod(pulses, MINOR_CYCLE_PULSES)
            self.phase = None if rest else (self.phase + cycles + whole) % 10
        a = operand
        first = len(self.lines)
        known = self.words
        if code in _PLAIN:
            plain = _PLAIN_BY[self.overflow_stop, known >= {"a", "l"}]
            lines = [line.format(a=a, a1=(a + 1) % 1000, c=a - a % 10, c10=a - a % 10 + 10,
                                 bail=bail, now=self.now(), cr=repr(self.word),
                                 address=self.address) for line in plain[code]]
            if op.numbers:  # numbers kept as ints first, then the body for words
                kind, _, parameter = op.numbers.partition(" ")
                getattr(self, kind)(parameter, a, lines)
            else:
                self.emit(*lines)
        elif code == "device":
            name = f"EX{self.pair}_{self.half}"
            self.namespace[name] = op.execute
            if self.pair == 0 and self.half == 0 and not self.loops:  # CR is set for the
                self.emit("crw = m.cr", "cra = m.cr_address")  # device: keep the old
                bail = f"raise SETTLE(m, t0, {self.address}, crw, cra, 0, 0@REGS@)"
            self.emit("@FLUSH@", "if m._shadowed: MATERIALISE(m)",  # devices read words
                      f"m.pulses = {self.now()}", "m.cc = n",
                      f"m.cr = {self.word!r}", f"m.cr_address = {self.address}",
                      f"r = {name}(m, {a})", "if r is not None:",
                      " " + bail.replace("@REGS@)", "@REGS@, request=r)"),
                      "t = m.pulses")
            self.off = 0
            self.phase = None
        self._simplify(first)
        self._learn(code)
        self.half = 1

    def _simplify(self, first: int) -> None:
        """Drop the int checks of rA and rL where they are known to hold words."""
        lines = self.lines[first:]
        for register, check, expression in (("a", _WA[1], _A), ("l", _WL[1], _L)):
            if register in self.words:
                lines = [line.replace(expression, f"m._{register}") for line in lines
                         if line.strip() != check]
        self.lines[first:] = lines

    def _learn(self, code: str) -> None:
        """What this instruction leaves in rA and rL: a word for sure, or perhaps an int."""
        words = self.words
        if code == "K":
            words.discard("l")
            if "a" in words:
                words.add("l")
        if code in ("C", "E", "K", *_SHIFTS) or (
                code in ("A", "S", "X") and self.half == 0
                and self.right_code in _READS_A_AS_WORD):
            words.add("a")
        elif code in ("A", "S", "X", "M", "N", "P", "D", "B"):  # B: a cell may hold an int
            words.discard("a")
        elif code == "L":
            words.discard("l")
        elif code == "device":
            words.clear()

    def source(self) -> str:
        body = "\n".join(self.lines)
        # A register the block only reads is the machine's still: not written back.
        assigned = set(_ASSIGNED.findall(body))
        for register in "axlf":
            body = body.replace(f"m._{register}", f"r{register}")
        found = set(_REGISTER_NAMES.findall(body))
        used = [r for r in "axlf" if r in found]
        kept = [r for r in used if r in assigned]
        flush = "; ".join(f"m._{r} = r{r}" for r in kept) or "pass"
        body = body.replace("@FLUSH@", flush)
        if not self.loops:  # called once: the shadow set is looked up only when needed
            body = body.replace("sh(", "m._shadowed.add(")
        body = body.replace("@REGS@", "".join(f", {r}=r{r}" for r in kept))
        body = body.replace("@D@", f" + passed * {_DONE}" if self.loops else "")
        body = body.replace("@DI@", " + passed" if self.loops else "")
        body = _without_dead_counts(body)
        head = ["def block(m, room):", *([" global HOT"] if self.counting else []),
                " mem = m.mem",
                *([" sh = m._shadowed.add"] if "sh(" in body and self.loops else []),
                " t = t0 = m.pulses" if "t0" in body else " t = m.pulses",
                *(f" r{r} = m._{r}" for r in used)]
        if self.loops:
            head += [" passed = 0", " crw = m.cr", " cra = m.cr_address", " while True:"]
            body = "\n".join(" " + line for line in body.split("\n"))
            if "t0" in body:
                head.append("  t0 = t")
        return "\n".join(head) + "\n" + body


def _codes(word: str) -> tuple[list[tuple[ops.Operation, int]], list[str | None]]:
    halves = [decode(word[:6]), decode(word[6:])]
    return halves, [_CODE_OF.get(op.execute) for op, _ in halves]


def _followable(halves: list[tuple[ops.Operation, int]], codes: list[str | None]
                ) -> int | None:
    """Where a pair with one U goes next unless its other half transfers (a taken Q or T,
    an overflow) after it: the U's operand, or None."""
    if codes.count("U") != 1:
        return None
    return halves[codes.index("U")][1]


class Plan:
    """A block as memory holds it now, before its source is written: the pairs it runs
    (``steps``: address, word, the decoded halves and their codes), how it ends, its
    namespace, and ``key``, a text naming everything the source is written from (the
    start, the overflow rule, the loop and count choices and every pair's address and
    word; the rest is this package's code, which hostio/block_cache.generator_stamp
    covers). Equal keys give equal sources, so a kept block's code can be found by its key
    without writing its source (compiled.KEEP_OWN)."""

    def __init__(self, tables: Tables, address: int, steps: list[_Step], follow: bool,
                 count: bool) -> None:
        self.tables = tables
        self.address = address
        self.steps = steps
        last_at, _, last_halves, last_codes = steps[-1]
        self.loops = address not in tables.observed and (any(  # (each arrival goes back
            code in ("U", "Q", "T") and operand == address or  # through the observer)
            code in ("A", "S", "X") and address == 0  # overflow: to 000
            for code, (_, operand) in zip(last_codes, last_halves, strict=True)
        ) or (  # a followed block whose last pair runs on into its start
            "U" not in last_codes and (last_at + 1) % 1000 == address))
        self.counting = (count and not follow and not self.loops
                         and _followable(last_halves, last_codes) is not None)
        self.key = repr(("block", address, tables.overflow_stop, self.loops, self.counting,
                         tuple((at, word) for at, word, _, _ in steps)))

    @property
    def namespace(self) -> dict[str, object]:
        """What the block's code runs with (the writer's, made without writing): the
        shared names, the run counts when it counts and the executors of its devices."""
        namespace: dict[str, object] = dict(_NAMESPACE)
        if self.counting:
            namespace.update(self._counts())
        for pair, (_, _, halves, codes) in enumerate(self.steps):
            for half, code in enumerate(codes):
                if code == "device":
                    namespace[f"EX{pair}_{half}"] = halves[half][0].execute
        return namespace

    def _counts(self) -> dict[str, object]:
        return {"HOT": HOT_RUNS // OWN_SHARE,  # (off: each block counts alone)
                "HOT_AT": (self.tables.runs_left(self.address) if SHARE_BY_ADDRESS
                           else [HOT_RUNS])}

    def write(self) -> tuple[str, dict[str, object]]:
        """The block's source and the namespace it runs in."""
        writer = _Writer(self.address, self.tables.overflow_stop)
        writer.loops = self.loops
        writer.first_word = self.steps[0][1]
        if self.counting:
            writer.counting = True
            writer.namespace.update(self._counts())
        for index, (at, word, halves, codes) in enumerate(self.steps):
            writer.begin_pair(at, word)
            writer.right_code = codes[1]
            for code, (op, operand) in zip(codes, halves, strict=True):
                writer.instruction(code, operand, op)  # type: ignore[arg-type]
            last = index == len(self.steps) - 1
            target = None if last or "U" not in codes else _followable(halves, codes)
            # A followed pair goes on at its U's target; its other half may still transfer.
            transfers = [code for code in codes if code in _TRANSFERS]
            may_transfer = len(transfers) > (target is not None)
            writer.end_pair(may_transfer, last, target)
        return writer.source(), writer.namespace


_Step = tuple[int, str, list[tuple[ops.Operation, int]], list[str | None]]


def block_plan(tables: Tables, address: int, mem: list[str], pairs: int = _MAX_PAIRS,
               first: str | None = None, follow: bool = False, count: bool = True
               ) -> Plan | None:
    """The plan of the block starting at ``address`` as memory holds it now (at most
    ``pairs`` pairs; its first word ``first`` if given); None if its first pair cannot be
    compiled. ``follow``: the block goes on across unconditional transfers (U) at the pair
    they transfer to, as one straight line; otherwise a block ending at a U it could follow
    counts its runs and asks to be followed once hot, unless not ``count`` (the one-pair
    blocks run at a budget's end: once hot, such a block would ask on every run, and the
    block it asks for replaces another, not itself)."""
    steps: list[_Step] = []
    at = address
    visited = set()
    stored: set[int] = set()  # cells the pairs so far store into
    for _ in range(pairs):
        if steps and at in tables.observed:
            break  # an observed address starts a block of its own
        if at in stored:  # the block writes this pair's word itself (address stepping):
            break  # it ends before it, as it would be shortened at once on its first run
        word = first if first is not None and not steps else mem[at]
        if word.__class__ is int:  # a number stored where a later pair is fetched
            break  # (the block ends before it; its own lookup makes it a word)
        halves, codes = _codes(word)
        if not all(code in _COMPILABLE for code in codes):
            break
        steps.append((at, word, halves, codes))
        visited.add(at)
        for code, (_, operand) in zip(codes, halves, strict=True):
            stored.update(_stored_cells(code, operand))
        if "U" in codes:  # straight line ends at an unconditional transfer, unless followed
            target = _followable(halves, codes)
            if not follow or target is None or target in visited:
                break
            at = target
            continue
        at = (at + 1) % 1000
        if at in visited:
            break
    return Plan(tables, address, steps, follow, count) if steps else None


def block_source(tables: Tables, address: int, mem: list[str], pairs: int = _MAX_PAIRS,
                 first: str | None = None, follow: bool = False, count: bool = True
                 ) -> tuple[str, dict[str, object]] | None:
    """The source of the block starting at ``address`` as memory holds it now, and its
    namespace; None if its first pair cannot be compiled (the arguments: block_plan)."""
    plan = block_plan(tables, address, mem, pairs, first, follow, count)
    return None if plan is None else plan.write()
