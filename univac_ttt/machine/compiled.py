"""Compiled superblocks: the fast path of Machine.run for the ordinary case.

A straight-line run of pairs (up to an unconditional transfer, a word that cannot be
compiled, or 16 pairs) is compiled, the second time its first word is fetched at its
address, into one Python function (blockgen.py writes its source) that runs every
instruction of it and its timing; a pair seen for the first time runs through the
operation table's executors (firstsight.py). A block goes on at the taken side of a test
whose taken exits have come often (blockplan.py: a branch, asked for with _BRANCH).

Blocks are looked up by their address and the word memory holds there at the moment of the
fetch, and before each later pair a block compares the word memory holds now with the word
it was compiled from: a store from anywhere (an instruction, even one of the block itself,
the monitor, a restore, a tape, a fault) is seen at the next pair boundary, where the block
leaves exactly as the machine stands there. A block left that way at a word changed in one
half's operand alone is made again with that operand read at run time (blockvary.py:
address stepping, return links); otherwise it is shortened to the pairs before the changed
word.

Anything unusual (a stop, a keyboard with nothing typed, a tape error, an adder fault, an
overflow stop, a non-digit in a multiply or divide) leaves through ``Bail`` before that
instruction has changed anything, with the machine settled just before it (CC, CR, the
half, the clock, the registers), and the interpreter in cpu.py runs it as always.

Compiling a block's source is most of what making it costs, so blocks whose sources differ
only in their literals share their shape's code (shapes.py), and the code objects are kept
in ``CODE`` by their text (a shape's, or a source's that no shape serves): a block made again (in
another table, after a restore) is not compiled again, and a caller outside the machine may
fill ``CODE`` from an earlier process (hostio/block_cache.py); the same text always gives
the same code. With ``KEEP_OWN`` each block's own code is kept too, by its plan's key
(blockplan.Plan: its start, rules and every word it was made from), and found by it before
its source is written (writing and splitting a source cost more than the block's runs in
a short command). Blocks ending at a U may count their runs by address too
(Tables.runs_left).
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType, FunctionType

from . import blockvary, shapes
from .blockgen import _BRANCH, _CHANGED, _DONE, _FOLLOW, _MAX_PAIRS
from .blockplan import Plan, block_plan, block_source
from .blockrt import _STALLED, Bail
from .blocktables import _SEEN_LIMIT, TABLES, Block, Tables
from .fastarith import materialise, word_of
from .firstsight import _first_sight
from .ops import BY_CODE
from .stops import Stop, StopKind

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

# A block runs with room for so many instructions (at most _ROOM); what it returns is
# blockgen's: the next CC plus _DONE times the instructions it ran (plus _CHANGED ...).
_ROOM = 1 << 24
_DONE_SHIFT = _DONE.bit_length() - 1  # r >> _DONE_SHIFT: instructions; r & _CC_MASK: CC
_CC_MASK = _DONE - 1
_PER_ADDRESS = 64  # blocks kept for one address before its table is emptied
_CODE_LIMIT = 2_048  # code objects kept (verify makes 66 shapes; self-writing code makes more)

# Generated source -> its code object (a shape's, shapes.py, or a source's own);
# ``compiled_now`` counts the sources compiled here (not brought in from outside), so a
# keeper knows whether there is anything new to keep, and ``USED`` holds the sources this
# process made blocks of (what is worth keeping).
CODE: dict[str, CodeType] = {}
USED: set[str] = set()
compiled_now = 0
# Keep each block's own code object by its plan's key as well (for a keeper of CODE between
# runs: hostio/block_cache.py); off by default, as a long run making new blocks (the
# kiosk) would keep two code objects for each.
KEEP_OWN = False


def eligible(m: Machine) -> bool:
    """The compiled path serves the default timing and transfer rules with no monitor
    breakpoint and no injected fault, in memory or on a tape (a pending resume matters
    only to breakpoints); anything else runs plain."""
    options = m.options
    return (options.timing == "latency" and options.right_half_after_transfer
            and options.ten_word_aligned  # compiled Y and Z move whole channels
            and not (m.break_addresses or m.break_executors or m.faults)
            and not m.tapes.faulty)  # a tape fault stops after its read has moved the tape




# What the loop's look-up meets besides a block's answer (each at least _CHANGED, so one
# test of the answer sees them all): a word not looked up at that address before, and a
# pair that runs through the executors (a first sight) or in the interpreter.
_MISSING = 1 << 56
_GENERIC = 1 << 57


def _missing(m: Machine, room: int) -> int:
    return _MISSING


def _generic(m: Machine, room: int) -> int:
    return _GENERIC


def compile_block(tables: Tables, address: int, mem: list[str], pairs: int = _MAX_PAIRS,
                  *, single: bool = False, shadowed: set[int] | None = None,
                  word: str | None = None) -> Block:
    """The block for the word at ``address`` (remembered, once seen twice). ``single``:
    one pair, for the table used at the end of a budget; fewer ``pairs``: a block shortened
    after a word of it changed, replacing the long one at once; ``word``: the first word it
    was looked up by, when the block may since have stored another there (the shortened
    block is filed under, and starts with, that word). A cell holding a number's int (the
    value shadow) is made its word first, and dropped from ``shadowed``."""
    if word is None:
        word = mem[address]
    if word.__class__ is int:  # a number stored where the program now fetches a pair
        mem[address] = word = word_of(word)  # type: ignore[arg-type]
        if shadowed is not None:
            shadowed.discard(address)  # a word again: nothing left to make of it
        known = (tables.singles if single else tables.by_address)[address].get(word)
        if known is not None and pairs == _MAX_PAIRS:
            return known  # (code that computes its instruction words: a pair made again)
    key = (address, word)
    followed = key in tables.followed
    if not followed and key not in tables.seen and (single or pairs == _MAX_PAIRS):
        if len(tables.seen) >= _SEEN_LIMIT:
            tables.seen.clear()
        tables.seen.add(key)
        return _generic  # the first sight runs pair by pair through the executors
    function: Block = _generic
    args = (tables, address, mem, 1 if single else pairs, word, not single and followed,
            not single)  # (block_plan's: pairs, first, follow, count)
    if KEEP_OWN:
        plan = block_plan(*args)
        if plan is not None:
            function = _kept_function(plan)
    else:
        made = block_source(*args)
        if made is not None:
            function = _function_of(*made)
    if function is not _generic and address in tables.observed:
        function = _telling(function, address)
    table = (tables.singles if single else tables.by_address)[address]
    if len(table) >= _PER_ADDRESS:
        table.clear()
    table[word] = function
    return function


def _function_of(source: str, namespace: dict[str, object]) -> Block:
    """The block function of ``source``: the code of its shape with its own constants
    (shapes.py), or, for a shape the compiler did more with, compiled from the source."""
    try:
        function = shapes.function(source, namespace, _code_of)
    except ValueError:  # a literal it cannot read back
        function = None
    if function is None:
        exec(_code_of(source), namespace)  # noqa: S102 - our own generated source
        return namespace["block"]  # type: ignore[return-value]
    return function  # type: ignore[return-value]


def _kept_function(plan: Plan) -> Block:
    """The block function of ``plan`` with ``KEEP_OWN``: its own code, found in ``CODE``
    by the plan's key (kept there by this process or, through hostio/block_cache.py, an
    earlier one), so that a block made again is neither written nor split; or made from
    its written source and kept by its key."""
    global compiled_now
    key = plan.key
    code = CODE.get(key)
    if code is not None:
        USED.add(key)
        return FunctionType(code, plan.namespace)  # type: ignore[return-value]
    function = _function_of(*plan.write())
    if len(CODE) >= _CODE_LIMIT:
        CODE.clear()
        USED.clear()
    CODE[key] = function.__code__  # type: ignore[attr-defined]
    USED.add(key)
    compiled_now += 1  # (something new for the keeper)
    return function


def _code_of(source: str) -> CodeType:
    """The code object of a block's source, compiled once (this process or an earlier)."""
    global compiled_now
    code = CODE.get(source)
    if code is None:
        if len(CODE) >= _CODE_LIMIT:
            CODE.clear()
            USED.clear()
        code = CODE[source] = compile(source, "<string>", "exec")
        compiled_now += 1
    USED.add(source)
    return code


def _follow(tables: Tables, address: int, mem: list[str], word: str) -> None:
    """Compile the block for ``word`` at ``address`` again, on across unconditional
    transfers (it has run blockgen.HOT_RUNS times): a jump costs no return to the loop."""
    if not tables.worth_following(address):
        return
    if len(tables.followed) >= _SEEN_LIMIT:
        tables.followed.clear()
    tables.followed.add((address, word))
    compile_block(tables, address, mem, word=word)


def _telling(block: Block, address: int) -> Block:
    """``block``, telling the machine's observer that execution reached ``address`` once
    the block's first pair has run (a bail before it leaves that to the interpreter)."""
    def observed(m: Machine, room: int) -> int:
        try:
            result = block(m, room)
        except Bail as bail:
            if bail.done:
                materialise(m)  # the observer reads memory as words
                m.on_arrival(address)
            raise
        materialise(m)
        m.on_arrival(address)
        return result
    return observed


# ---- the loop ----------------------------------------------------------------------------

def _blocks(m: Machine, budget: int, tables: Tables) -> int:
    """Run whole compiled blocks while two more instructions fit in ``budget``; return how
    many instructions ran. Leaves the machine settled (CC, CR, clock, count, registers)
    either at a pair boundary or, after a bail in a right half, just before that right
    half. Each block sets CR when it leaves."""
    mem = m.mem
    shadowed = m._shadowed  # cells holding ints: words again before anything else runs
    by_address = tables.by_address
    singles = tables.singles
    cc = m.cc
    done = 0
    budget = min(budget, _ROOM)  # (the caller comes back for the rest)
    limit = budget - 1
    whole = budget - 2 * _MAX_PAIRS  # below this, room for any block
    # A first sight runs in the interpreter where an observer must be told (it checks).
    first_sight = _first_sight if not (tables.overflow_stop or tables.observed) else None
    try:
        while True:
            while done <= whole:  # room for any block: the answer says what else to do
                r = by_address[cc].get(word := mem[cc], _missing)(m, budget - done)
                if r >= _CHANGED:
                    r = _rare(m, tables, cc, word, r, budget - done, first_sight)
                    if r < 0:
                        if r < -1:  # a device's stop: its block's instructions, settled
                            done += (-2 - r) >> _DONE_SHIFT
                            cc = (-2 - r) & _CC_MASK
                        break
                done += r >> _DONE_SHIFT
                cc = r & _CC_MASK
            else:  # the last few instructions of the budget: one pair at a time
                if done >= limit:
                    break
                function = singles[cc].get(word := mem[cc])
                if function is None:
                    function = compile_block(tables, cc, mem, single=True, shadowed=shadowed)
                r = function(m, budget - done)
                if r >= _CHANGED:
                    r = _rare(m, tables, cc, word, r, budget - done, first_sight)
                    if r < 0:
                        if r < -1:  # (as above)
                            done += (-2 - r) >> _DONE_SHIFT
                            cc = (-2 - r) & _CC_MASK
                        break
                done += r >> _DONE_SHIFT
                cc = r & _CC_MASK
                continue
            break  # (a pair for the interpreter)
    except Bail as bail:
        if shadowed:
            materialise(m)
        m.instructions += done + bail.done
        tables.ran += done
        if bail.request is not None and not bail.request.advance and not tables.observed:
            m._asked = bail.request  # (an observer is told of each fetch: ask again there)
        return done + bail.done
    if shadowed:
        materialise(m)
    m.cc = cc
    m.instructions += done
    tables.ran += done
    return done


def _rare(m: Machine, tables: Tables, cc: int, word: str, r: int, room: int,
          first_sight: Callable[[Machine, int], int] | None) -> int:
    """The block loop's answer from ``r`` when it is not a block's plain one: a word not
    looked up before (compiled, or seen, and run), a first sight (run through the
    executors: two instructions, or -1 to leave it to the interpreter), a block asking to
    be followed or shortened (done, its own answer returned), a device's stop in a block
    (blockrt._stall: -2 minus its answer, the machine settled, the loop leaves)."""
    mem = m.mem
    if r == _MISSING:
        function = compile_block(tables, cc, mem, shadowed=m._shadowed)
        r = _GENERIC if function is _generic else function(m, room)
    if _STALLED <= r < _MISSING:
        return -2 - (r - _STALLED)
    if r >= _GENERIC:
        if first_sight is None:
            return -1
        if m._shadowed:  # the executors read memory as words
            materialise(m)
        return first_sight(m, cc) + 2 * _DONE
    if r >= _BRANCH:  # a test's taken side is hot: the block goes on there
        r -= _BRANCH
        _branch(tables, cc, mem, word)
    elif r >= _FOLLOW:  # hot, and ending at a U: compiled on across it
        r -= _FOLLOW
        _follow(tables, cc, mem, word)
    elif r >= _CHANGED:  # a word of the block had changed
        pairs, r = divmod(r, _CHANGED)
        _changed(tables, cc, mem, pairs, word)
    return r


def _changed(tables: Tables, cc: int, mem: list[str], step: int, word: str) -> None:
    """The block for ``word`` at ``cc`` left at its pair ``step`` (blockplan's index),
    whose word had changed: if only one half's operand did, that address is read at run
    time from now on (blockvary.py) and the whole block is made again; otherwise (or if
    the pair was read so already and the word did not fit) it is shortened to the pairs
    before it on its main path (filed under the word it was found by), or, for a pair on a
    branch, made again with its branches ending before that address (UNSTABLE)."""
    block = tables.by_address[cc].get(word)
    names = getattr(block, "__globals__", {})
    steps = names.get("STEPS")
    pairs = step
    if steps is not None and step < len(steps):
        at, old, varying = steps[step]
        half = None if varying is not None else blockvary.changed_half(old, mem[at])
        if len(tables.varying) >= _SEEN_LIMIT:
            tables.varying.clear()
        tables.varying[at] = half
        main = names.get("MAIN")
        pairs = step if main is None else main[step]
        if half is not None or pairs is None:
            compile_block(tables, cc, mem, word=word)
            return
    compile_block(tables, cc, mem, pairs, word=word)


def _main_pairs(names: dict[str, object]) -> int:
    """The pairs on the main path of the block whose globals are ``names``."""
    main = names.get("MAIN")
    if main is None:
        return _MAX_PAIRS
    return sum(place is not None for place in main)  # type: ignore[attr-defined]


def _branch(tables: Tables, cc: int, mem: list[str], word: str) -> None:
    """The block for ``word`` at ``cc`` left at a test whose count of taken exits ran dry:
    made again (its main path as long) going on at the taken sides now hot, if their
    exits came often enough (``Tables.taken_sooner``); else it counts again as it is."""
    block = tables.by_address[cc].get(word)
    names = getattr(block, "__globals__", {})
    if tables.taken_sooner(names.get("COUNTED", ()), names):  # type: ignore[arg-type]
        compile_block(tables, cc, mem, _main_pairs(names), word=word)


def run(m: Machine, max_steps: int) -> Stop:
    """Machine.run on the compiled path (the caller has checked ``eligible``)."""
    m._resuming = False  # no breakpoint to pass
    total = 0
    tables = TABLES[m.options.overflow == "stop"]
    if m.arrivals:
        tables = tables.observing(m.arrivals)
    while total < max_steps:
        if not m.half and max_steps - total >= 2:
            total += _blocks(m, max_steps - total, tables)
            request = m._asked
            if request is not None:  # a device stopped, settled before it, nothing changed
                m._asked = None
                stop = Stop(request.kind, m.cr_address if m.half else m.cc,
                            "right" if m.half else "left", request.reason)
                m.last_stop = stop  # (as the interpreter stops there: _settle_stop)
                return stop
            if total >= max_steps:
                break
        steps = 1 if m.half or max_steps - total < 2 else 2
        stop = m._run_generic(steps, quiet=True)
        if stop is not None:
            return stop
        total += steps
    address, where = m.next_instruction_address()
    stop = Stop(StopKind.STEP_LIMIT, address, where, f"{total} instructions executed")
    m.last_stop = stop
    return stop


__all__ = ["BY_CODE", "TABLES", "Bail", "Tables", "block_source", "compile_block",
           "eligible", "run"]
