"""The Supervisory Control desk: the only place that builds and runs a Machine.

The desk holds the machine, its SC keyboard and its typewriter with the paper, and runs
the machine under one ``Limits``: until it waits for the keyboard or stops, the cap is
reached, or STOP is pressed. Every front end (console, plain console, kiosk, monitor) and
the referee run the UNIVAC through a desk, so a runaway program is treated alike in all.
"""

from __future__ import annotations

from collections.abc import Callable

from ..hostio.wording import count
from ..machine import Machine, MachineOptions, MachineState, Stop, StopKind, tape
from ..machine.records import Record
from ..machine.tape import UNITS, Reel, TapeMove, unit_name
from ..machine.word import MEMORY_WORDS, ZERO
from .keyboard import DeskKeyboard
from .neons import Neons, neons_for
from .paper import PAPER_LIMIT, Paper, StampedTypewriter
from .run_limits import Limits

# Called after each instruction of a watched run with the address, half and instruction
# that just executed; returning True ends the run there.
AfterEach = Callable[[int, str, str], bool]

CONTINUOUS, ONE_INSTRUCTION, ONE_PAIR = "continuous", "one instruction", "one pair"
BOOT_UNIT = 1  # INITIAL READ reads Uniservo 1
LOADER_LIMIT = 10_000  # instructions a program tape's loader may take to hand over
NOTICED_LIMIT = 256  # notes one run keeps (a runaway loop through an observed address)


class TapeUnitError(ValueError):
    """A Uniservo the desk does not have (the message says which ones it has)."""


class TapeUnitView(Record):
    """What the operator sees of one Uniservo: its reel, the head, whether it moves."""

    unit: int
    reel: str  # the reel's name ("" when none is mounted)
    position: int  # blocks between the start of the tape and the head
    blocks: int  # blocks written on the reel
    writable: bool
    interlocked: bool
    moving: str  # "reading", "writing", "rewinding", ... or "" at rest

    @property
    def name(self) -> str:
        return unit_name(self.unit)

    def line(self) -> str:
        """One line for a listing: ``Uniservo 1  tictactoe.tape  block 3 of 18  ...``."""
        if not self.reel:
            return f"Uniservo {self.name}  no reel"
        head = ("at the start" if self.position == 0 else
                f"after block {self.position} of {self.blocks}")
        notes = ["read/write" if self.writable else "read only"]
        if self.interlocked:
            notes.append("interlocked (rewound with 8n; attach again)")
        if self.moving:
            notes.append(self.moving)
        return (f"Uniservo {self.name}  {self.reel}  {self.blocks} blocks, {head}  "
                f"({', '.join(notes)})")


def tape_unit(text: str) -> int:
    """A unit as the operator names it: 1-9, and - (or 10) for the tenth."""
    units = {**{str(n): n for n in UNITS}, "-": 10}
    if text.strip() not in units:
        raise TapeUnitError(f"{text.strip()!r} is not a Uniservo: 1-9, or - (or 10) for "
                            "the tenth")
    return units[text.strip()]


class Desk:
    """A UNIVAC I with its Supervisory Control keyboard, typewriter and paper."""

    def __init__(self, words: dict[int, str] | None = None,
                 options: MachineOptions | None = None, limits: Limits | None = None,
                 record_keys: bool = False, paper_limit: int = PAPER_LIMIT) -> None:
        self.limits = limits or Limits()
        self.keyboard = DeskKeyboard(record_keys)
        self.paper = Paper(paper_limit)
        self.typewriter = StampedTypewriter(self.paper, self._clock)
        self.machine = Machine(options, self.keyboard, self.typewriter)
        self.typewriter.machine = self.machine  # (its clock read as the word is typed)
        self.typewriter.upper = self.machine.options.typewriter_case == "capitals"
        # Addresses whose instruction a run notices without stopping (the kiosk's
        # captions): address -> note. Told by the machine's arrival hook, apart from the
        # monitor's breakpoints, so an observed run keeps the compiled path.
        self.observe: dict[int, str] = {}
        self.noticed: list[str] = []  # what ``observe`` saw during the last run, in order
        self.operation = CONTINUOUS  # the operation switch: how far START runs
        # Show each released entry on the paper as the operator's (the console, the plain
        # console and the kiosk do; the monitor's exact back-stepping keeps its own paper).
        self.echo_keys = False
        self._neons_cleared: Stop | None = None  # the stop whose neons a CLEAR put out
        if words is not None:
            self.machine.load(words)

    def _clock(self) -> int:
        return self.machine.pulses

    # ---- loading and clearing --------------------------------------------------------

    def load_program(self, words: dict[int, str]) -> None:
        """Clear, fill memory with the program (zeros elsewhere) and empty the keyboard."""
        self.general_clear()
        self.machine.mem[:] = [words.get(address, ZERO) for address in range(MEMORY_WORDS)]
        self.keyboard.clear()
        self.typewriter.upper = self.machine.options.typewriter_case == "capitals"

    def general_clear(self) -> None:
        """GENERAL CLEAR: every register to zero and CC to 000; memory is kept."""
        self.machine.clear()
        self.paper.released = 0

    def release(self, text: str) -> str:
        """Type a line on the SC keyboard and press word release; the word queued.

        KeyboardEntryError (a key the keyboard lacks) leaves everything as it was."""
        word = self.keyboard.type_line(text)
        self.paper.released = self.machine.pulses
        if self.echo_keys:
            self.paper.add_keyed(text.upper(), self.machine.pulses)
        return word

    def release_line(self, text: str) -> str:
        """A front end's typed line released. Blanks at either end are not keyed: a space
        after the last key cannot be seen on the paper and a phone's keyboard adds one, so
        "5 " got NOT A SQUARE CODE for a line that showed as "5"; the monitor's ``type``
        has always taken its text so. A blank between keys is keyed (docs/fidelity.md)."""
        return self.release(text.strip())

    def clear_c(self) -> None:
        """CLEAR C: the control register (and the pair in it) to zero; go on from CC.
        The error neons go out (the stop's record stays, for the monitor to show)."""
        self.machine.cr = ZERO
        self.machine.half = 0
        self._neons_cleared = self.machine.last_stop

    def initial_read(self) -> Stop | None:
        """INITIAL READ: the next block of the reel on Uniservo 1 into 000-059, CC to 000.

        None when the machine is ready to start at 000; otherwise the error stop (no reel
        mounted, nothing left to read), and nothing has changed. After a read the last
        stop is over (the machine is at 000, no longer waiting for its keyboard)."""
        stop = self.machine.initial_read()
        if stop is None:
            self.machine.last_stop = None
        return stop

    def boot(self) -> Stop | None:
        """CLEAR C then INITIAL READ, the operator's sequence to start a program tape.

        A program tape starts a new run, so the words released for the old one are
        dropped from the keyboard (a stale word would be read by the new program)."""
        self.clear_c()
        stop = self.initial_read()
        if stop is None:
            self.keyboard.clear()
        return stop

    def load_tape(self, reel: Reel) -> Stop | None:
        """A fresh start from a program tape: GENERAL CLEAR, the keyboard emptied, the
        reel mounted on Uniservo 1 at its first block, CLEAR C, INITIAL READ, and the
        loader run until it has read the whole tape and handed over at 000.

        None when the program is in memory, ready to start at 000; otherwise the stop
        (no block to read, the loader stopped or never handed over)."""
        self.general_clear()
        self.keyboard.clear()
        self.typewriter.upper = self.machine.options.typewriter_case == "capitals"
        self.attach(BOOT_UNIT, reel)
        self.machine.tapes.moves.clear()
        stop = self.boot()
        if stop is not None:
            return stop
        servo = self.machine.tapes[BOOT_UNIT]

        def handed_over() -> bool:
            return (servo.position >= servo.block_count
                    and self.machine.next_instruction_address() == (0, "left"))

        stop = self.run(LOADER_LIMIT, lambda _address, _half, _instruction: handed_over())
        if stop.kind is StopKind.STEP_LIMIT and handed_over():
            return None
        if stop.kind is StopKind.STEP_LIMIT:
            return self._halt(StopKind.ERROR, "the tape's loader did not hand over at 000 "
                              f"within {LOADER_LIMIT:,} instructions")
        return stop

    # ---- the Uniservos ---------------------------------------------------------------

    def attach(self, unit: int, reel: Reel) -> None:
        """Mount a reel on a Uniservo at its first block (one already there comes off)."""
        self._unit(unit)
        self.machine.tapes.attach(unit, reel)

    def detach(self, unit: int) -> Reel | None:
        """Take the reel off a Uniservo; the reel, or None if there was none."""
        self._unit(unit)
        return self.machine.tapes.detach(unit)

    def inject_tape_fault(self, unit: int, block: int, reads: int = 1) -> None:
        """A bad block for teaching: block ``block`` (1 = the first) of the reel on
        ``unit`` fails its tape check on its next ``reads`` reads. ValueError (nothing
        changed) for a unit without a reel or a block it does not have."""
        self._unit(unit)
        self.machine.tapes.inject(unit, block, reads)

    def reread(self, unit: int) -> Stop | None:
        """The operator's recovery from a tape check stop (BN-168): the tape backs over
        the block and reads it again into rI. None when it read correctly: the TAPE CHECK
        neon goes out and START goes on with the routine. Otherwise the stop (the block
        failed again, or there is nothing to reread) and the neon stays lit."""
        self._unit(unit)
        request = tape.reread(self.machine, unit)
        if request is None:
            self._neons_cleared = self.machine.last_stop
            return None
        address, half = self.machine.next_instruction_address()
        stop = Stop(request.kind, address, half, request.reason)
        if request.reason.startswith("tape check"):
            self.machine.last_stop = stop  # failed again: the neon is lit by this stop
        return stop

    def _unit(self, unit: int) -> None:
        if unit not in UNITS:
            raise TapeUnitError(f"there is no Uniservo {unit}: 1-9, and 10 (written -)")

    def tape_units(self, mounted_only: bool = True) -> list[TapeUnitView]:
        """The Uniservos as the operator sees them, at the machine's present time."""
        now = self.machine.pulses
        views = []
        for servo in self.machine.tapes.units.values():
            reel = servo.reel
            if reel is None and mounted_only:
                continue
            views.append(TapeUnitView(
                servo.number, reel.name if reel is not None else "", servo.position,
                servo.block_count, reel.writable if reel is not None else False,
                servo.interlocked, servo.moving(now)))
        return views

    @property
    def tape_moves(self) -> list[TapeMove]:
        """The last tape movements (block reads, writes, rewinds), oldest first, timed in
        clock pulses: how the console shows a boot as it happened."""
        return list(self.machine.tapes.moves)

    # ---- the desk's switches and lamps -----------------------------------------------

    @property
    def breakpoint_switch(self) -> bool:
        """The breakpoint switch: when set, a ,0 instruction stops the machine."""
        return self.machine.breakpoint_switch

    @breakpoint_switch.setter
    def breakpoint_switch(self, on: bool) -> None:
        self.machine.breakpoint_switch = on

    @property
    def neons(self) -> Neons:
        """The error neons and the input-ready lamp, from why the machine last stopped.

        An error neon stays lit until START runs the machine again or the operator presses
        CLEAR C or GENERAL CLEAR (our choice: docs/fidelity.md, "The desk")."""
        stop = self.machine.last_stop
        if stop is not None and stop is self._neons_cleared:
            stop = None
        return neons_for(stop, self.waiting_for_keyboard)

    def lamps_key(self) -> tuple[object, ...]:
        """What ``neons``, ``waiting_for_keyboard`` and ``stop`` (and so a session's
        error, halt and lamps) are read from: equal keys give equal answers. A console
        drawing two frames a move compares this instead of working its lamps out again."""
        machine = self.machine
        stop = machine.last_stop  # (a CLEAR puts out the neons of that very stop)
        return (stop, stop is self._neons_cleared, machine.half, machine.cc,
                machine.cr_address, self.limits.cap)

    def start(self) -> Stop:
        """START: run as the operation switch says (continuous, one instruction, one pair)."""
        if self.operation == ONE_INSTRUCTION:
            return self.step()
        if self.operation == ONE_PAIR:
            return self.step_pair()
        return self.run()

    def at_final_stop(self) -> bool:
        """The machine is at a normal stop with nothing after it: START would run only
        skips to the end of the pair and then a cleared word (twelve zeros, two skips), so
        the program has ended (our choice, docs/fidelity.md "Stops": no source defines a
        program's last stop). ``run --start-after-stop`` does not press START there."""
        machine = self.machine
        stop = machine.last_stop
        if stop is None or stop.kind not in (StopKind.HALT, StopKind.BREAKPOINT):
            return False
        if machine.half == 1 and machine.cr[6:8] != ZERO[:2]:
            return False  # a real instruction follows in the right half
        return machine.mem[machine.cc] == ZERO

    def stop_key(self) -> None:
        """STOP: end the run in progress at the desk's next look (safe from any thread)."""
        self.limits.stop()

    # ---- running ---------------------------------------------------------------------

    @property
    def stop(self) -> Stop | None:
        """Why the machine last stopped (None: it has not run since it was cleared)."""
        return self.machine.last_stop

    @property
    def waiting_for_keyboard(self) -> bool:
        """The machine stopped at a 10 instruction and is still there: an operator's
        clear, INITIAL READ or change of CC ends the wait (the mode follows the machine)."""
        machine = self.machine
        stop = machine.last_stop
        return (stop is not None and stop.kind is StopKind.KEYBOARD
                and machine.next_instruction_address() == (stop.address, stop.half))

    def run(self, cap: int | None = None, after_each: AfterEach | None = None) -> Stop:
        """START: run until the machine waits or stops, ``cap`` instructions (default: the
        limits' cap) have run, or STOP is pressed. The machine stays resumable in every
        case. With ``after_each`` the run goes one instruction at a time (trace, watch)."""
        limits = self.limits
        capped = cap is None  # the limits' cap, not the caller's (said if it is reached)
        cap = limits.cap if cap is None else cap
        machine = self.machine
        paper = self.paper
        start = machine.instructions
        self.noticed = []
        observe = self.observe
        if observe:  # told at each arrival, without a stop: the compiled path stays on
            machine.arrivals = frozenset(observe)
            machine.on_arrival = self._notice
        try:
            while True:
                if limits.interrupt.is_set():
                    limits.interrupt.clear()  # honoured: the next START runs on
                    return self._halt(StopKind.INTERRUPT, "STOP was pressed at the desk")
                left = cap - (machine.instructions - start)
                if left <= 0:  # (worded only here: verify runs the desk 889 times)
                    reason = (f"the desk's limit of {count(cap, 'instruction')} was reached"
                              if capped else f"{count(cap, 'instruction')} executed")
                    return self._halt(StopKind.STEP_LIMIT, reason)
                if after_each is None:
                    stop = machine.run(min(left, limits.check_every))
                    if paper.untold:  # what this chunk typed, told in one piece
                        paper.tell()
                else:
                    stop = self._run_watched(min(left, limits.check_every), after_each)
                    if stop is None:
                        return self._last()
                if stop.kind is not StopKind.STEP_LIMIT:
                    return stop
        finally:
            machine.arrivals = frozenset()
            paper.tell()  # (a run ended by an exception too)

    def _notice(self, address: int) -> None:
        """An observed address was reached: note it (the last NOTICED_LIMIT are kept)."""
        note = self.observe.get(address)
        if note is None:
            return
        noticed = self.noticed
        noticed.append(note)
        if len(noticed) > 2 * NOTICED_LIMIT:
            del noticed[:-NOTICED_LIMIT]

    def _run_watched(self, count: int, after_each: AfterEach) -> Stop | None:
        """Up to ``count`` single instructions; None if ``after_each`` ended the run."""
        machine = self.machine
        stop = machine.last_stop
        for _ in range(count):
            address, half = machine.next_instruction_address()
            instruction = machine.sr
            stop = machine.run(1)
            self.paper.tell()  # a watcher sees the paper's listeners told as it goes
            if stop.kind is not StopKind.STEP_LIMIT:
                return stop
            if after_each(address, half, instruction):
                return None
        assert stop is not None
        return stop

    def _last(self) -> Stop:
        stop = self.machine.last_stop
        assert stop is not None
        return stop

    def _halt(self, kind: StopKind, reason: str) -> Stop:
        machine = self.machine
        address, half = machine.next_instruction_address()
        stop = Stop(kind, address, half, reason)
        machine.last_stop = stop
        return stop

    def step(self, count: int = 1) -> Stop:
        """One-instruction operation: execute ``count`` instructions (or fewer if it stops)."""
        return self.run(count)

    def step_pair(self) -> Stop:
        """One-pair operation: finish the pair in hand (both halves from a fresh fetch)."""
        stop = self.run(1)
        if stop.kind is StopKind.STEP_LIMIT and self.machine.half == 1:
            stop = self.run(1)
        return stop

    def replay(self, target: int, after_each: AfterEach | None = None) -> None:
        """Run on, ignoring breakpoints and observers, until ``target`` instructions have
        executed: exact time travel replays a stretch already run once, so it cannot
        run away. ``after_each`` sees every instruction (the monitor's history)."""
        machine = self.machine
        saved = machine.break_addresses, machine.break_executors
        machine.break_addresses, machine.break_executors = set(), set()
        try:
            while machine.instructions < target:
                before = machine.instructions
                if after_each is None:
                    machine.run(target - before)
                    self.paper.tell()
                else:
                    address, half = machine.next_instruction_address()
                    instruction = machine.sr
                    machine.run(1)
                    self.paper.tell()
                    if machine.instructions > before:
                        after_each(address, half, instruction)
                if machine.instructions == before:
                    break  # a keyboard wait or error stop: nothing more can run
        finally:
            machine.break_addresses, machine.break_executors = saved
            self.paper.tell()

    # ---- whole-desk state ------------------------------------------------------------

    def snapshot(self) -> MachineState:
        return self.machine.snapshot()

    def restore(self, state: MachineState) -> None:
        self.machine.restore(state)
