"""The central computer: memory, registers, and the fetch-execute cycle with its timing.

One pair is fetched from the word at CC into CR, CC advances, then the left and the right
instruction run in turn (REFERENCE 4.1). Decoded pairs are cached per word text, so the
hot loop does one dictionary lookup a pair and never allocates for plain instructions.
"""

from __future__ import annotations

from collections.abc import Callable

from . import checking, compiled, timing
from .fastarith import as_words, register_word, word_of
from .ops import decode
from .options import MachineOptions
from .records import Record
from .stops import Stop, StopKind, StopRequest
from .tape import TapesState, TapeUnits, initial_read
from .word import LAST_ADDRESS, MEMORY_WORDS, RETURN_LINKS, TAPE_BLOCK_WORDS, ZERO

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .devices import Keyboard, Printer

__all__ = ["MEMORY_WORDS", "TAPE_BLOCK_WORDS", "Machine", "MachineState"]
_CACHE_LIMIT = 200_000  # decoded pairs kept before the cache is emptied


def _ignore_arrival(address: int) -> None:
    """No observer: an arrival is told to nobody."""

# A decoded pair: executor, operand, execution pulses and operand word position (-1: none)
# for the left instruction, then the same four for the right one.
DecodedPair = tuple


class MachineState(Record):
    """Everything that makes up the machine at one moment (for back-stepping and saving);
    a named tuple, immutable and compared by value."""

    mem: tuple[str, ...]
    a: str
    x: str
    l: str
    f: str
    v: tuple[str, ...]
    y: tuple[str, ...]
    ri: tuple[str, ...]
    ro: tuple[str, ...]
    cc: int
    cr: str
    half: int
    instructions: int
    cr_address: int
    pulses: int
    keyboard_words: int
    printed_words: int
    overflows: int
    breakpoint_switch: bool
    faults: tuple[checking.Fault, ...] = ()  # words whose check bits are wrong
    tapes: TapesState = TapesState()  # reels mounted, heads, busy times (tape.py)


class _Register:
    """rA, rX, rL or rF read as a 12-character word whatever it holds inside: a word, or
    (left by compiled pairs) an int that stands for fastarith.register_word of it."""

    def __init__(self, slot: str, doc: str) -> None:
        self.slot = slot
        self.__doc__ = doc

    def __get__(self, machine: Machine | None, owner: type | None = None) -> str:
        if machine is None:
            return self  # type: ignore[return-value]
        v = getattr(machine, self.slot)
        return v if v.__class__ is str else register_word(v)

    def __set__(self, machine: Machine, word: str) -> None:
        setattr(machine, self.slot, word)


class Machine:
    """A UNIVAC I central computer with its Supervisory Control keyboard and printer."""

    def __init__(self, options: MachineOptions | None = None,
                 keyboard: Keyboard | None = None, printer: Printer | None = None) -> None:
        self.options = options or MachineOptions()
        self.keyboard = keyboard
        self.printer = printer
        # Memory: 1000 words. While the compiled path runs, a cell may hold a number's int
        # value instead (the value shadow: its word is made only when something reads it as
        # text); the cells that may are in _shadowed, and every one is a word again before
        # Machine.run returns. A reader in another thread uses word_at or words.
        self.mem: list[str] = [ZERO] * MEMORY_WORDS
        self._shadowed: set[int] = set()
        self.tapes = TapeUnits()  # Uniservos 1-10: a desk mounts and removes reels
        self._cache: dict[str, DecodedPair] = {}
        self.breakpoint_switch = self.options.breakpoint_switch
        # Monitor breakpoints: pair addresses, and executors of operations to stop before.
        self.break_addresses: set[int] = set()
        self.break_executors: set[object] = set()
        # Observers (the desk's): the fetch of a pair at one of ``arrivals`` is told to
        # ``on_arrival`` without stopping; the compiled path runs those pairs in the
        # interpreter and every other pair compiled, so observing costs little.
        self.arrivals: frozenset[int] = frozenset()
        self.on_arrival: Callable[[int], object] = _ignore_arrival
        # Injected faults by location; empty on a sound machine (see checking.py).
        self.faults: dict[checking.Location, checking.Fault] = {}
        self._a: str | int = ZERO  # the registers behind a, x, l, f (see "registers")
        self._x: str | int = ZERO
        self._l: str | int = ZERO
        self._f: str | int = ZERO
        # A stop a compiled block's device asked for before changing anything (compiled.py
        # makes the Stop the interpreter would, without running the device again).
        self._asked: StopRequest | None = None
        self.clear()

    # ---- registers --------------------------------------------------------------------
    # Compiled pairs may keep a number in rA, rX, rL or rF as its int value (no word made
    # until someone looks); everyone else reads and writes 12-character words here. An int
    # stands for fastarith.register_word of it. Reading never writes the register back: a
    # desk may read it from another thread while the machine runs and stores a newer value.

    a = _Register("_a", "rA as a word")
    x = _Register("_x", "rX as a word")
    l = _Register("_l", "rL as a word")  # noqa: E741 - rL, as the machine names it
    f = _Register("_f", "rF as a word")

    # ---- setting up ------------------------------------------------------------------

    def clear(self) -> None:
        """General clear: registers to zero, CC to 000; memory is kept."""
        self.a = self.x = self.l = self.f = ZERO
        self.v = [ZERO] * 2
        self.y = [ZERO] * 10
        # The tape buffers, 60 words each (examine rI, rO); tapes keep their positions.
        self.ri = [ZERO] * TAPE_BLOCK_WORDS
        self.ro = [ZERO] * TAPE_BLOCK_WORDS
        self.cc = 0
        self.cr = ZERO
        self.cr_address = 0  # where the pair in CR came from
        self.half = 0  # 0: next is the left half of the pair at CC; 1: right half of CR
        self.instructions = 0
        self.pulses = 0
        self.keyboard_words = 0
        self.printed_words = 0
        self.overflows = 0
        self.last_stop: Stop | None = None
        for name in checking.REGISTERS:  # cleared registers have sound check bits
            self.faults.pop(name, None)
        self._resuming = False  # the next instruction ignores monitor breakpoints once
        self.tapes.reset_clock()

    def load(self, words: dict[int, str] | list[str]) -> None:
        """Put words into memory; a list fills from 000, a dict names addresses."""
        items = words.items() if isinstance(words, dict) else enumerate(words)
        for address, word in items:
            self.mem[address] = word

    def initial_read(self) -> Stop | None:
        """The desk's INITIAL READ: next block of Uniservo 1 to 000-059, CC to 000 (tape.py)."""
        return initial_read(self)

    def inject_fault(self, location: checking.Location, position: int,
                     bit: int) -> checking.Fault:
        """Flip one bit (0-5 of the code, 6 the check bit) of character ``position`` (0-11)
        of a memory word or of rA, rX, rL, rF; the next instruction that uses the word
        stops with the ODD-EVEN CHECK neon. ValueError, nothing changed, for a bad request."""
        return checking.inject(self, location, position, bit)

    def clear_faults(self) -> None:
        """Mend every injected fault (the words keep the characters they now hold), the
        tapes' bad blocks included."""
        self.faults.clear()
        self.tapes.clear_faults()

    # ---- what the console shows ------------------------------------------------------

    def word_at(self, address: int) -> str:
        """The word at ``address``, also from another thread while the machine runs (a
        cell holding a number's int value is read as its word, and left as it is)."""
        cell = self.mem[address]
        return cell if cell.__class__ is str else word_of(cell)  # type: ignore[arg-type]

    def words(self) -> list[str]:
        """All of memory as words, taken at one moment (safe from another thread)."""
        return as_words(self.mem[:])

    @property
    def time_us(self) -> float:
        """Simulated UNIVAC time since the last clear, in microseconds."""
        return timing.pulses_to_us(self.pulses)

    @property
    def sr(self) -> str:
        """The static register: the instruction about to execute."""
        return self.word_at(self.cc)[:6] if self.half == 0 else self.cr[6:]

    def next_instruction_address(self) -> tuple[int, str]:
        """The word address and half of the instruction about to execute."""
        if self.half == 0:
            return self.cc, "left"
        return self.cr_address, "right"

    def return_link(self) -> str:
        """What R stores: a skip, then U back to the address in CC."""
        return RETURN_LINKS[self.cc]

    def _decode_uncached(self, word: str) -> DecodedPair:
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        parts: list[object] = []
        average = self.options.timing == "average"
        for half in (word[:6], word[6:]):
            op, operand = decode(half)
            pulses, position = timing.instruction_cost(op, operand, average)
            parts += [op.execute, operand, pulses, position]
        pair = tuple(parts)
        self._cache[word] = pair
        return pair

    # ---- running ---------------------------------------------------------------------

    def step(self, count: int = 1) -> Stop | None:
        """Execute up to ``count`` instructions; the stop, or None if none occurred."""
        stop = self.run(count)
        return None if stop.kind is StopKind.STEP_LIMIT else stop

    def run(self, max_steps: int = 10**12) -> Stop:
        """Run until the machine stops or ``max_steps`` instructions have executed.

        Whole pairs go through their compiled functions (compiled.py) when nothing needs
        watching; single steps, monitored runs and anything unusual use the interpreter."""
        if compiled.eligible(self):
            return compiled.run(self, max_steps)
        return self._run_generic(max_steps)  # type: ignore[return-value]

    def _run_generic(self, max_steps: int, quiet: bool = False) -> Stop | None:
        """The interpreter: one instruction at a time, with breakpoints and fault checks.
        ``quiet``: None instead of a step-limit Stop (the compiled path's short steps)."""
        mem = self.mem
        cache = self._cache
        decode_pair = self._decode_uncached
        skip_right = not self.options.right_half_after_transfer
        minor = timing.MINOR_CYCLE_PULSES
        average = self.options.timing == "average"
        fetch_average = timing.AVERAGE_ACCESS_PULSES
        cc = self.cc
        half = self.half
        pair = cache.get(self.cr) or decode_pair(self.cr) if half else None
        t = self.pulses
        done = 0
        request: StopRequest | None = None
        stop_half = 0
        breaks = self.break_addresses
        break_ops = self.break_executors
        monitored = bool(breaks or break_ops or self.faults)
        faults = self.faults
        arrivals = self.arrivals
        resuming = self._resuming
        self._resuming = False
        while done < max_steps:
            if half == 0:
                if monitored and not resuming and cc in breaks:
                    return self._monitor_stop(cc, 0, t, done, f"breakpoint at {cc:03d}")
                if monitored and cc in faults and mem[cc] == faults[cc].word:
                    return self._monitor_stop(cc, 0, t, done, checking.odd_even_reason(
                        faults[cc]), StopKind.ERROR)  # the pair fails on its way to CR
                word = mem[cc]
                pair = cache.get(word) or decode_pair(word)
                ex, operand, pulses, position, ex2, operand2, pulses2, position2 = pair
                if monitored:
                    if not resuming and ex in break_ops:
                        return self._monitor_stop(cc, 0, t, done, "operation break")
                    resuming = False
                    if faults and (reason := checking.failing_use(self, ex, operand)):
                        return self._monitor_stop(cc, 0, t, done, reason, StopKind.ERROR)
                if arrivals and cc in arrivals:
                    self.on_arrival(cc)
                t0, previous_cr, previous_address = t, self.cr, self.cr_address
                self.cr = word
                self.cr_address = cc
                if average:
                    t += fetch_average
                else:
                    t += ((cc - t // minor) % 10 + 1) * minor
                cc = cc + 1 if cc < LAST_ADDRESS else 0
                self.cc = cc
                if position >= 0:
                    t += ((position - t // minor) % 10) * minor
                t += pulses
                self.pulses = t  # devices may read the clock
                outcome = ex(self, operand)
                t = self.pulses  # a tape interlock or a multiply's digits move the clock
                done += 1
                if outcome is not None:
                    if outcome.__class__ is int:
                        cc = self.cc = outcome
                        if skip_right:
                            continue
                    else:
                        request = outcome
                        stop_half = 0
                        if not outcome.advance:
                            t, self.cr, self.cr_address = t0, previous_cr, previous_address
                        break
                half = 1
                if done >= max_steps:
                    break
            else:  # resuming in the right half of the pair in CR
                ex2, operand2, pulses2, position2 = pair[4], pair[5], pair[6], pair[7]
            t0 = t
            if monitored:
                if not resuming and ex2 in break_ops:
                    return self._monitor_stop(self.cr_address, 1, t, done, "operation break")
                resuming = False
                if faults and (reason := checking.failing_use(self, ex2, operand2)):
                    return self._monitor_stop(self.cr_address, 1, t, done, reason,
                                              StopKind.ERROR)
            if position2 >= 0:
                t += ((position2 - t // minor) % 10) * minor
            t += pulses2
            self.pulses = t
            outcome = ex2(self, operand2)
            t = self.pulses
            done += 1
            half = 0
            if outcome is not None:
                if outcome.__class__ is int:
                    cc = self.cc = outcome
                else:
                    request = outcome
                    stop_half = 1
                    if not outcome.advance:
                        t = t0
                    break
        self.pulses = t
        if request is None:
            self.half = half
            self.instructions += done
            if quiet:
                return None
            address, where = self.next_instruction_address()
            stop = Stop(StopKind.STEP_LIMIT, address, where, f"{done} instructions executed")
        else:
            stop = self._settle_stop(request, stop_half, done)
        self.last_stop = stop
        return stop

    def resume_past_breakpoint(self) -> None:
        """Let the next instruction run even if a monitor breakpoint names it."""
        self._resuming = True

    def _monitor_stop(self, address: int, half: int, t: int, done: int, reason: str,
                      kind: StopKind = StopKind.MONITOR) -> Stop:
        """Stop before an instruction (the monitor asked, or a check failed); nothing of it
        has run, so Start runs it again."""
        self.pulses = t
        self.half = half
        self.instructions += done
        stop = Stop(kind, address, "left" if half == 0 else "right", reason)
        self.last_stop = stop
        return stop

    def _settle_stop(self, request: StopRequest, stop_half: int, done: int) -> Stop:
        """Place CC so that Start goes on correctly, and describe the stop."""
        address = (self.cc - 1) % MEMORY_WORDS if stop_half == 0 else self.cr_address
        if stop_half == 0:
            if request.advance:
                self.half = 1
            else:
                self.cc = address  # the pair is fetched again on restart
                self.half = 0
                done -= 1
        else:
            if request.advance:
                self.half = 0
            else:
                self.half = 1
                done -= 1
        self.instructions += done
        return Stop(request.kind, address, "left" if stop_half == 0 else "right", request.reason)

    # ---- whole-machine state ---------------------------------------------------------

    def snapshot(self) -> MachineState:
        return MachineState(
            tuple(self.mem), self.a, self.x, self.l, self.f, tuple(self.v), tuple(self.y),
            tuple(self.ri), tuple(self.ro), self.cc, self.cr, self.half, self.instructions,
            self.cr_address, self.pulses, self.keyboard_words, self.printed_words,
            self.overflows, self.breakpoint_switch, tuple(self.faults.values()),
            self.tapes.state())

    def restore(self, state: MachineState) -> None:
        self.mem[:] = state.mem
        self.a, self.x, self.l, self.f = state.a, state.x, state.l, state.f
        self.v, self.y = list(state.v), list(state.y)
        self.ri, self.ro = list(state.ri), list(state.ro)
        self.cc, self.cr, self.half = state.cc, state.cr, state.half
        self.cr_address = state.cr_address
        self.instructions, self.pulses = state.instructions, state.pulses
        self.keyboard_words, self.printed_words = state.keyboard_words, state.printed_words
        self.overflows = state.overflows
        self.breakpoint_switch = state.breakpoint_switch
        self.faults = {fault.location: fault for fault in state.faults}
        self.tapes.restore(state.tapes)
