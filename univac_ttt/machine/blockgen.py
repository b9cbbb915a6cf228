"""Code generation for compiled superblocks: the source of one block, from memory's words.

A straight-line run of pairs becomes one Python function with memory, the clock and the
registers in locals. After a pair fetch the delay lines have a known phase (the fetch ends
as word cc passes the heads), so every later wait of the block (operands, and the fetches of
the pairs after it) is a constant worked out here; only a multiply's digits or a device make
the clock vary. Before each later pair the block compares the word memory holds with the
word it was compiled from and leaves, exactly as the machine stands, when it changed; a
pair whose operand is stepped is compared with its template instead, and its operand, its
wait and the phase after it are taken at run time (blockvary.py). A loop in place waits
for its first fetch on entry, and each pass round adds the wait from the end of the pass.

Each instruction's text comes from its row's body in ops.py, written in compiled code's
names (blockops.py); arithmetic on numbers whose values are known goes a way of its
own first (blockarith.py), leaving its results in the registers as ints and making no word;
a word is made only when something reads the register as one. Anything unusual leaves
through ``Bail`` before that instruction has changed anything, with the machine settled
just before it (blockrt.py's ``_settle``; a device's stop request is returned settled,
``_stall``).
"""

from __future__ import annotations

import re

from . import blockvary, ops
from .blockarith import _A, _L, _READS_A_AS_WORD, _WA, _WL, ArithmeticWriter
from .blockops import _PLAIN, _PLAIN_BY, _stored_cells, _without_dead_counts
from .blockrt import _DONE, _NAMESPACE, _stall_raising
from .ops import decode
from .timing import MINOR_CYCLE_PULSES, instruction_cost

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .compiled import Tables

# A block returns the next CC plus the instructions it ran times _DONE, plus _CHANGED times
# the pairs before the word it found changed when it left for that reason.
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
# long block to be followed again; they no longer count. docs/performance-log.md, fourth round.)
SHARE_BY_ADDRESS = True
OWN_SHARE = 10  # a block's own runs before it is followed: HOT_RUNS // OWN_SHARE
_TRANSFERS = ("Q", "T", "U", "A", "S", "X")  # codes that may change CC (A, S, X: overflow)
_REGISTER_NAMES = re.compile(r"\br([axlf])\b")
# A register as an assignment's target: ``m._a = ``, or in a list of targets
# (``m._a, m._x, m._f, p = r``).
_ASSIGNED = re.compile(r"\bm\._([axlf])(?=(?:\s*,\s*[\w.]+)*\s*=(?!=))")


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
        # The minor cycle now: known, None until the first fetch (or after a multiply or a
        # device), or (name, c): (name + c) % 10 after a varying half's operand read.
        self.phase: int | tuple[str, int] | None = None
        self.pair = 0  # pairs begun
        self.half = 0
        self.address = start
        self.word = ""
        self.cr_text = ""  # CR's word as the block's text names it (a literal, or w<pair>)
        self.previous: tuple[str, int] | None = None  # the pair before this one (CR's text)
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
            return f"return LEAVE(m, {self.now()}, {cr[0]}, {cr[1]}, {result}@D@@REGS@)"
        parts = ["@FLUSH@", f"m.pulses = {self.now()}"]
        if cr is not None:
            parts.append(f"m.cr = {cr[0]}; m.cr_address = {cr[1]}")
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
                cr, address = self.previous[0], str(self.previous[1])
            else:  # the pair before the block, or the last of it after a pass round
                cr, address = ("crw", "cra") if self.loops else ("None", "0")
            return (f"raise SETTLE(m, {self.boundary}, {self.address}, {cr}, {address}, "
                    f"0, {done}@DI@@REGS@)")
        return (f"raise SETTLE(m, {pulses or self.now()}, n, {self.cr_text}, {self.address}, "
                f"1, {done}@DI@@REGS@)")

    def begin_pair(self, address: int, word: str, varying: int | None = None) -> None:
        """The fetch of the pair at ``address``: after the first, a check that memory still
        holds the word compiled, or (``varying``: the half whose operand is read at run
        time, blockvary.py) a word of its template, whose operand goes to ``k<pair>``."""
        self.address, self.word = address, word
        pair = self.pair
        self.cr_text = repr(word) if varying is None else f"w{pair}"
        if pair:
            leave = self._exit(str(address), 2 * pair, self.previous, changed=True)
            if varying is None:
                self.emit(f"if mem[{address}] != {word!r}:", " " + leave)
            else:
                self.emit(f"w{pair} = mem[{address}]", f"k{pair} = DYN{pair}(w{pair})",
                          f"if k{pair} is None:",  # (an int: the word it stands for)
                          f" if w{pair}.__class__ is int: mem[{address}] = w{pair} = "
                          f"WORD_OF(w{pair}); m._shadowed.discard({address})",
                          f" k{pair} = MISS{pair}(w{pair})", f" if k{pair} is None:",
                          "  " + leave)
        phase = self.phase
        if phase is None or phase.__class__ is tuple:
            if pair:
                self.emit(f"t += {self.off}" if self.off else "pass", "tb = t")
                self.boundary = "tb"
            self.off = 0
            self.emit(f"t += ({self._cycles_to(str(address))} + 1) * 91")
        else:
            self.boundary = self.now()
            self.off += ((address - phase) % 10 + 1) * MINOR_CYCLE_PULSES  # type: ignore[operator]
        if varying == 0 and self.boundary != "tb":  # its left half moves t: keep the boundary
            self.emit(f"tb = {self.boundary}")
            self.boundary = "tb"
        self.phase = (address + 1) % 10
        self.emit(f"n = {(address + 1) % 1000}")
        self.half = 0

    def _cycles_to(self, position: str) -> str:
        """The minor cycles from now (``t``, the offset already added) until word
        ``position`` (a digit, or a varying operand's name) is under the heads, as text."""
        phase = self.phase
        if phase is None:
            return f"({position} - t // 91) % 10"
        if phase.__class__ is tuple:
            name, c = phase  # type: ignore[misc]
            if position.isdigit():
                return f"({(int(position) - c) % 10} - {name}) % 10"
            return f"({position} - {name} - {c}) % 10"
        return f"({position} - {phase}) % 10"

    def end_pair(self, may_transfer: bool, last: bool, target: int | None = None) -> None:
        """``target``: a followed pair's U operand, where the block goes on unless ``n``
        (a transfer in the other half) says otherwise."""
        self.previous = (self.cr_text, self.address)
        done = 2 * (self.pair + 1)
        if last and self.counting:  # the HOT_RUNS-th run asks to be followed across its U
            self.emit("HOT -= 1", "HOT_AT[0] -= 1")
        if last:
            if self.loops:  # round again, everything kept in locals, while room allows
                self.emit(f"if n == {self.start} and passed + {2 * done} <= room and "
                          f"mem[{self.start}] == {self.first_word!r}:",
                          f" passed += {done}", *(" " + line for line in self._round()),
                          f" crw = {self.cr_text}; cra = {self.address}", " continue")
            self.emit(self._exit("n", done, self.previous, follow=self.counting))
        elif may_transfer:
            after = (self.address + 1) % 1000 if target is None else target
            self.emit(f"if n != {after}:", " " + self._exit("n", done, self.previous))
        self.pair += 1

    def _round(self) -> list[str]:
        """The clock from the end of a pass to the next pass's first fetch (the loop's top
        does not wait: source() puts the entry's wait before the loop), ``t0`` between:
        from a known phase one constant, no division a pass."""
        keep = "t0" in "\n".join(self.lines)
        if self.phase.__class__ is int:
            wait = ((self.start - self.phase) % 10 + 1) * MINOR_CYCLE_PULSES  # type: ignore[operator]
            if not keep:
                return [f"t += {self.off + wait}"]
            return [*([f"t += {self.off}"] if self.off else []), "t0 = t", f"t += {wait}"]
        return [*([f"t += {self.off}"] if self.off else []), *(["t0 = t"] if keep else []),
                f"t += ({self._cycles_to(str(self.start))} + 1) * 91"]

    def instruction(self, code: str, operand: int, op: ops.Operation,
                    varying: str | None = None) -> None:
        """One half; ``varying``: the name its operand is read into at run time."""
        bail = self.bail()  # the clock before this instruction's wait
        pulses, position = instruction_cost(op, operand, False)
        cycles = 0  # minor cycles this instruction moves the clock on, when known
        phase = self.phase
        if position >= 0:
            if varying is not None or phase is None or phase.__class__ is tuple:
                # wait by the clock (after a multiply or a device) or the operand read
                self.emit(*([f"t += {self.off}"] if self.off else []), "t1 = t",
                          f"t += ({self._cycles_to(varying or str(position))}) * 91")
                self.off = 0
                bail = self.bail("t1")
            else:
                cycles = (position - phase) % 10  # type: ignore[operator]
                self.off += cycles * MINOR_CYCLE_PULSES
        self.off += pulses
        whole, rest = divmod(pulses, MINOR_CYCLE_PULSES)
        if rest:
            self.phase = None
        elif position >= 0:  # after the operand's wait the phase is its position's
            self.phase = (varying, whole % 10) if varying else (position + whole) % 10
        elif phase.__class__ is tuple:
            self.phase = (phase[0], (phase[1] + whole) % 10)  # type: ignore[index]
        elif phase is not None:
            self.phase = (phase + whole) % 10  # type: ignore[operator]
        a: int | str = operand if varying is None else varying
        a1, c, c10 = ((operand + 1) % 1000, operand - operand % 10, operand - operand % 10 + 10
                      ) if varying is None else (f"({varying} + 1) % 1000", "", "")
        first = len(self.lines)
        known = self.words
        if code in _PLAIN:
            plain = _PLAIN_BY[self.overflow_stop, known >= {"a", "l"}]
            lines = [line.format(a=a, a1=a1, c=c, c10=c10, bail=bail, now=self.now(),
                                 cr=self.cr_text, address=self.address)
                     for line in plain[code]]
            if op.numbers:  # numbers kept as ints first, then the body for words
                kind, _, parameter = op.numbers.partition(" ")
                getattr(self, kind)(parameter, a, lines)  # (a: its text)
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
                      f"m.cr = {self.cr_text}", f"m.cr_address = {self.address}",
                      f"r = {name}(m, {a})", "if r is not None:",  # (STALL: blockrt)
                      " " + bail.replace("raise SETTLE(", "return STALL(")
                      .replace("@REGS@)", "@REGS@, request=r)"),
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
        entry = self.lines.pop(0) if self.loops else ""  # (the first fetch's wait)
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
        if self.loops:  # the entry waits for the first fetch; each pass round: _round
            head += [" passed = 0", " crw = m.cr", " cra = m.cr_address", entry, " while True:"]
            body = "\n".join(" " + line for line in body.split("\n"))
        return "\n".join(head) + "\n" + body


def _codes(word: str) -> tuple[list[tuple[ops.Operation, int]], list[str | None]]:
    halves = [decode(word[:6]), decode(word[6:])]
    return halves, [_CODE_OF.get(op.execute) for op, _ in halves]


def _followable(halves: list[tuple[ops.Operation, int]], codes: list[str | None],
                varying: int | None = None) -> int | None:
    """Where a pair with one U goes next unless its other half transfers (a taken Q or T,
    an overflow) after it: the U's operand, or None (also for a U read at run time)."""
    if codes.count("U") != 1 or codes.index("U") == varying:
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
        last_at, _, last_halves, last_codes, last_varying = steps[-1]
        self.loops = address not in tables.observed and (any(  # (each arrival goes back
            code in ("U", "Q", "T") and operand == address and half != last_varying or
            code in ("A", "S", "X") and address == 0  # overflow: to 000 (through the observer)
            for half, (code, (_, operand)) in enumerate(zip(last_codes, last_halves,
                                                            strict=True))
        ) or (  # a followed block whose last pair runs on into its start
            "U" not in last_codes and (last_at + 1) % 1000 == address))
        self.counting = (count and not follow and not self.loops
                         and _followable(last_halves, last_codes, last_varying) is not None)
        self.key = repr(("block", address, tables.overflow_stop, self.loops, self.counting,
                         tuple((at, word, varying) for at, word, _, _, varying in steps)))

    @property
    def namespace(self) -> dict[str, object]:
        """What the block's code runs with (the writer's, made without writing): the
        shared names, the run counts when it counts and the executors of its devices."""
        namespace: dict[str, object] = dict(_NAMESPACE)
        if self.counting:
            namespace.update(self._counts())
        for pair, (_, _, halves, codes, _) in enumerate(self.steps):
            for half, code in enumerate(codes):
                if code == "device":
                    namespace[f"EX{pair}_{half}"] = halves[half][0].execute
        namespace.update(self._varying())
        if self.tables.observed:  # (each fetch goes through the observer: Bail)
            namespace["STALL"] = _stall_raising
        return namespace

    def _varying(self) -> dict[str, object]:
        """The run-time operands' look-ups (blockvary.py) and the words the block was made
        from (``STEPS``: compiled.py reads which pair a changed exit met)."""
        names: dict[str, object] = {"STEPS": tuple(
            (at, word, varying) for at, word, _, _, varying in self.steps)}
        for pair, (_, word, _, _, varying) in enumerate(self.steps):
            if varying is not None:
                names[f"DYN{pair}"], names[f"MISS{pair}"] = blockvary.operand_lookup(
                    word, varying)
        return names

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
        writer.namespace.update(self._varying())
        if self.tables.observed:
            writer.namespace["STALL"] = _stall_raising
        for index, (at, word, halves, codes, varying) in enumerate(self.steps):
            writer.begin_pair(at, word, varying)
            writer.right_code = codes[1]
            for half, (code, (op, operand)) in enumerate(zip(codes, halves, strict=True)):
                writer.instruction(code, operand, op,  # type: ignore[arg-type]
                                   f"k{index}" if half == varying else None)
            last = index == len(self.steps) - 1
            target = None if last or "U" not in codes else _followable(halves, codes, varying)
            # A followed pair goes on at its U's target; its other half may still transfer.
            transfers = [code for code in codes if code in _TRANSFERS]
            may_transfer = len(transfers) > (target is not None)
            writer.end_pair(may_transfer, last, target)
        return writer.source(), writer.namespace


# (address, word, its halves decoded, their codes, the half whose operand varies or None)
_Step = tuple[int, str, list[tuple[ops.Operation, int]], list[str | None], "int | None"]


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
        word = first if first is not None and not steps else mem[at]
        if word.__class__ is int:  # a number stored where a later pair is fetched
            break  # (the block ends before it; its own lookup makes it a word)
        halves, codes = _codes(word)
        if not all(code in _COMPILABLE for code in codes):
            break
        varying = None
        hint = tables.varying.get(at, False)
        if steps and (at in stored or hint is not False):  # (address stepping)
            varying = blockvary.choose(codes, hint)  # one half's operand read at run time
            if varying is None and at in stored:  # the block writes this pair itself: it
                break  # ends before it, as it would be shortened at once on its first run
        steps.append((at, word, halves, codes, varying))
        visited.add(at)
        for half, (code, (_, operand)) in enumerate(zip(codes, halves, strict=True)):
            if half != varying:  # (a varying half's stores are met by the pairs' checks)
                stored.update(_stored_cells(code, operand))
        if "U" in codes:  # straight line ends at an unconditional transfer, unless followed
            target = _followable(halves, codes, varying)
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
