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
from collections.abc import Callable

from . import ops
from .blockarith import _A, _L, _READS_A_AS_WORD, _WA, _WL, ArithmeticWriter
from .blockops import _PLAIN, _PLAIN_BY, _without_dead_counts
from .blockrt import _DONE, _NAMESPACE
from .timing import MINOR_CYCLE_PULSES, instruction_cost

# A block returns the next CC plus the instructions it ran times _DONE, plus _CHANGED times
# the pairs before the word it found changed when it left for that reason.
_CHANGED = 1 << 40
_FOLLOW = 1 << 48  # added when a block ending at a U has run HOT_RUNS times: follow it
_BRANCH = 1 << 50  # added when a test's taken side has left blocks TAKEN_RUNS times
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
# Taken exits of a conditional test (counted by site: the test's address and operand, for
# every block through it) before the blocks through it go on at its taken side
# (blockplan.py: a branch). Like HOT_RUNS, they must come within TAKEN_RUNS *
# blocktables.FOLLOW_SPAN instructions, else the count starts again.
TAKEN_RUNS = 1000
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
        self.step = 0  # the pair's index in the plan's steps (w3, k3, EX3_0, LAST3_0, TK3)
        self.depth = 0  # branches (blockplan.py) the pair is in
        self.indent = ""
        self.longest = _MAX_PAIRS  # pairs on the block's longest path

    def emit(self, *lines: str) -> None:
        self.lines += [" " + self.indent + line for line in lines]

    def now(self) -> str:
        return f"t + {self.off}" if self.off else "t"

    def _exit(self, cc: str, done: int, cr: tuple[str, int] | None, *, changed: bool = False,
              follow: bool = False, taken: str | None = None) -> str:
        """One line leaving the block normally: registers, clock and CR written back (a
        call for the rare exit at a changed word, which names its pair's step: less source
        to compile). ``taken``: the count of a test's taken exits, asking for a branch
        once used up."""
        code = done * _DONE + (_CHANGED * self.step if changed else 0)
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
        ask = f" + (0 if HOT > 0 or HOT_AT[0] > 0 else {_FOLLOW})" if follow else (
            f" + next({taken}, {_BRANCH})" if taken else "")
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
        pair = self.step
        self.cr_text = repr(word) if varying is None else f"w{pair}"
        if self.pair:
            leave = self._exit(str(address), 2 * self.pair, self.previous, changed=True)
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

    def end_pair(self, may_transfer: bool, last: bool, target: int | None = None,
                 branch: tuple[int, Callable[[], None]] | None = None,
                 taken: str | None = None) -> None:
        """``target``: a followed pair's U operand, where the block goes on unless ``n``
        (a transfer in the other half) says otherwise; ``branch``: a test's operand and
        what writes the path the block goes on along when the test is taken; ``taken``:
        the count of the test's taken exits (blockplan.py)."""
        self.previous = (self.cr_text, self.address)
        done = 2 * (self.pair + 1)
        main = not self.depth  # (a branch's path neither loops nor counts runs)
        if last and self.counting and main:  # the HOT_RUNS-th run asks to be followed
            self.emit("HOT -= 1", "HOT_AT[0] -= 1")
        if last:
            if self.loops and main:  # round again, everything in locals, while room allows
                self.emit(f"if n == {self.start} and passed + {done + 2 * self.longest} "
                          f"<= room and mem[{self.start}] == {self.first_word!r}:",
                          f" passed += {done}", *(" " + line for line in self._round()),
                          f" crw = {self.cr_text}; cra = {self.address}", " continue")
            self.emit(self._exit("n", done, self.previous, follow=self.counting and main))
        elif may_transfer:
            after = (self.address + 1) % 1000 if target is None else target
            leave = self._exit("n", done, self.previous, taken=taken)
            if branch is None:
                self.emit(f"if n != {after}:", " " + leave)
            else:
                self.emit(f"if n != {after}:", f" if n == {branch[0]}:")
                self._fork(branch[1])
                self.emit(" " + leave)
        self.pair += 1

    def _fork(self, write: Callable[[], None]) -> None:
        """A branch's path, written two levels in, from the state after this pair (its
        first pair is the next on its path); the state is this pair's again after."""
        kept = (self.off, self.phase, self.pair, self.half, self.address, self.word,
                self.cr_text, self.previous, self.boundary, self.right_code, self.step,
                self.depth, self.indent)
        words = set(self.words)
        self.pair += 1
        self.depth += 1
        self.indent += "  "
        write()
        (self.off, self.phase, self.pair, self.half, self.address, self.word, self.cr_text,
         self.previous, self.boundary, self.right_code, self.step, self.depth,
         self.indent) = kept
        self.words = words

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
            name = f"EX{self.step}_{self.half}"
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
