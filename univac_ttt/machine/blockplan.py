"""A compiled block's plan: which pairs it runs, read from memory's words, before its
source is written (blockgen.py writes it).

The main path is a straight line of pairs from the block's start: up to an unconditional
transfer (or on across it, for a followed block), a word that cannot be compiled, a pair
the block itself stores into, an observed address, or _MAX_PAIRS pairs. A conditional test
(Q, T) part-way along a path whose taken side has left blocks often (``Tables.taken``:
blockgen.TAKEN_RUNS times) is a *branch*: the block goes on at the test's operand along a
path of its own, planned the same way (with branches of its own), so a taken test costs
no return to the block loop, and the taken side starts with its phase known. A test not yet
hot counts its taken exits instead. No path from the start runs more than _MAX_PAIRS pairs
(the block loop's room for any block), and a branch ends before an address whose word
changed other than in one operand (``Tables.varying``'s UNSTABLE).

``Plan.steps`` holds every pair in planning order (the main path, then each branch's path
after its parent's); names in the source (``w3``, ``k3``, ``DYN3``, ``EX3_0``, ``TK3``) and a
changed word's exit name a pair by its index there; ``MAIN`` gives each pair's place on
the main path (None on a branch), by which compiled.py shortens a block.
"""

from __future__ import annotations

from . import blockgen, blockvary, ops
from .blockgen import _CODE_OF, _COMPILABLE, _MAX_PAIRS, _Writer
from .blockops import _stored_cells
from .blockrt import _NAMESPACE, _stall_raising
from .ops import decode

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .compiled import Tables

_TRANSFERS = ("Q", "T", "U", "A", "S", "X")  # codes that may change CC (A, S, X: overflow)
_TREE_PAIRS = 40  # pairs in one block, its branches' included (the source's size)

# (address, word, its halves decoded, their codes, the half whose operand varies or None)
_Step = tuple[int, str, list[tuple[ops.Operation, int]], list[str | None], "int | None"]
# A path: its pairs' indexes in Plan.steps, each with the branch at its taken test (the
# test's operand and the branch's path) or None.
_Path = list[tuple[int, "tuple[int, _Path] | None"]]


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


def _test_target(at: int, halves: list[tuple[ops.Operation, int]], codes: list[str | None],
                 varying: int | None) -> int | None:
    """The operand of a pair's one conditional test (Q or T, its operand compiled, no U
    beside it) when its taken side goes elsewhere than the next pair; else None."""
    half = 0 if codes[0] in ("Q", "T") else 1
    if codes[half] not in ("Q", "T") or codes[1 - half] in ("Q", "T", "U") or half == varying:
        return None
    target = halves[half][1]
    return None if target == (at + 1) % 1000 else target


class Plan:
    """A block as memory holds it now, before its source is written: the pairs it runs
    (``steps``: address, word, the decoded halves and their codes; ``tree``: the main
    path with its branches), how it ends, its namespace, and ``key``, a text naming
    everything the source is written from (the start, the overflow rule, the loop and
    count choices, every pair's address and word and where each branch leaves; the rest is
    this package's code, which hostio/block_cache.generator_stamp covers). Equal keys give
    equal sources, so a kept block's code can be found by its key without writing its
    source (compiled.KEEP_OWN)."""

    def __init__(self, tables: Tables, address: int, steps: list[_Step], tree: _Path,
                 main: list[int | None], counted: dict[int, tuple[int, int]], longest: int,
                 follow: bool, count: bool) -> None:
        self.tables = tables
        self.address = address
        self.steps = steps
        self.tree = tree
        self.main = main
        self.counted = counted  # a test's pair index -> its site, counting taken exits
        self.longest = longest  # pairs on the longest path
        last_at, _, last_halves, last_codes, last_varying = steps[tree[-1][0]]
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
                         tuple((at, word, varying) for at, word, _, _, varying in steps),
                         _shape(tree), tuple(sorted(counted))))

    @property
    def namespace(self) -> dict[str, object]:
        """What the block's code runs with (the writer's, made without writing): the
        shared names, the run counts when it counts and the executors of its devices."""
        namespace: dict[str, object] = dict(_NAMESPACE)
        if self.counting:
            namespace.update(self._counts())
        for index, (_, _, halves, codes, _) in enumerate(self.steps):
            for half, code in enumerate(codes):
                if code == "device":
                    namespace[f"EX{index}_{half}"] = halves[half][0].execute
                elif halves[half][0].numbers.startswith("multiply"):  # (its memo:
                    namespace[f"LAST{index}_{half}"] = [(None,)]  # blockarith.multiply)
        namespace.update(self._varying())
        if self.tables.observed:  # (each fetch goes through the observer: Bail)
            namespace["STALL"] = _stall_raising
        return namespace

    def _varying(self) -> dict[str, object]:
        """The run-time operands' look-ups (blockvary.py), the words the block was made
        from (``STEPS``, with ``MAIN``: compiled.py reads which pair a changed exit met)
        and the counts of the tests' taken exits (``TK<pair>``)."""
        names: dict[str, object] = {"STEPS": tuple(
            (at, word, varying) for at, word, _, _, varying in self.steps),
            "MAIN": tuple(self.main)}
        for index, (_, word, _, _, varying) in enumerate(self.steps):
            if varying is not None:
                names[f"DYN{index}"], names[f"MISS{index}"] = blockvary.operand_lookup(
                    word, varying)
        for index, site in self.counted.items():
            names[f"TK{index}"] = self.tables.taken_count(site)
        names["COUNTED"] = tuple((f"TK{index}", site)  # (compiled._branch)
                                 for index, site in self.counted.items())
        return names

    def _counts(self) -> dict[str, object]:
        return {"HOT": blockgen.HOT_RUNS // blockgen.OWN_SHARE,  # (off: each counts alone)
                "HOT_AT": (self.tables.runs_left(self.address) if blockgen.SHARE_BY_ADDRESS
                           else [blockgen.HOT_RUNS])}

    def write(self) -> tuple[str, dict[str, object]]:
        """The block's source and the namespace it runs in."""
        writer = _Writer(self.address, self.tables.overflow_stop)
        writer.loops = self.loops
        writer.longest = self.longest
        writer.first_word = self.steps[0][1]
        if self.counting:
            writer.counting = True
            writer.namespace.update(self._counts())
        writer.namespace.update(self._varying())
        if self.tables.observed:
            writer.namespace["STALL"] = _stall_raising
        self._write_path(writer, self.tree)
        return writer.source(), writer.namespace

    def _write_path(self, writer: _Writer, path: _Path) -> None:
        """One path's pairs, a branch's written where its test leaves the path."""
        for place, (index, branch) in enumerate(path):
            at, word, halves, codes, varying = self.steps[index]
            writer.step = index
            writer.begin_pair(at, word, varying)
            writer.right_code = codes[1]
            for half, (code, (op, operand)) in enumerate(zip(codes, halves, strict=True)):
                writer.instruction(code, operand, op,  # type: ignore[arg-type]
                                   f"k{index}" if half == varying else None)
            last = place == len(path) - 1
            target = None if last or "U" not in codes else _followable(halves, codes, varying)
            # A followed pair goes on at its U's target; its other half may still transfer.
            transfers = [code for code in codes if code in _TRANSFERS]
            may_transfer = len(transfers) > (target is not None)
            writer.end_pair(may_transfer, last, target,
                            None if branch is None else (branch[0], lambda b=branch[1]:
                                                         self._write_path(writer, b)),
                            f"TK{index}" if index in self.counted else None)


def _shape(path: _Path) -> tuple[object, ...]:
    """The tree's shape for the key: each path's pair indexes, with its branches'."""
    return tuple((index, None if branch is None else (branch[0], _shape(branch[1])))
                 for index, branch in path)


class _Planner:
    """Plans one block's tree (block_plan): the steps so far and the branches' budget."""

    def __init__(self, tables: Tables, mem: list[str], follow: bool, branches: bool) -> None:
        self.tables = tables
        self.mem = mem
        self.follow = follow
        self.branches = branches
        self.steps: list[_Step] = []
        self.main: list[int | None] = []
        self.counted: dict[int, tuple[int, int]] = {}
        self.longest = 0

    def path(self, at: int, pairs: int, depth: int, first: str | None,
             visited: set[int], stored: set[int]) -> _Path:
        """The path from ``at`` (``depth`` pairs from the block's start), at most ``pairs``
        pairs; ``visited`` and ``stored``: the addresses its ancestors run and the cells
        they store into (updated)."""
        tables = self.tables
        on_main = depth == 0
        path: _Path = []
        tests: list[tuple[int, int, set[int], set[int]]] = []  # (place, operand, visited,
        # stored) after each pair whose test may branch
        for _ in range(pairs):
            if self.steps and at in tables.observed:
                break  # an observed address starts a block of its own
            if len(self.steps) >= _TREE_PAIRS:
                break
            word = first if first is not None and not self.steps else self.mem[at]
            if word.__class__ is int:  # a number stored where a later pair is fetched
                break  # (the block ends before it; its own lookup makes it a word)
            halves, codes = _codes(word)
            if not all(code in _COMPILABLE for code in codes):
                break
            varying = None
            hint = tables.varying.get(at, False)
            if not on_main and hint is blockvary.UNSTABLE:
                break  # a branch ends before a word that changed otherwise
            if self.steps and (at in stored or hint is not False):  # (address stepping)
                varying = blockvary.choose(codes, hint)  # one operand read at run time
                if varying is None and at in stored:  # the block writes this pair itself:
                    break  # it ends before it, as it would be shortened on its first run
            path.append((len(self.steps), None))
            self.main.append(len(path) - 1 if on_main else None)
            self.steps.append((at, word, halves, codes, varying))
            visited.add(at)
            for half, (code, (_, operand)) in enumerate(zip(codes, halves, strict=True)):
                if half != varying:  # (a varying half's stores are met by the pairs' checks)
                    stored.update(_stored_cells(code, operand))
            if self.branches:
                target = _test_target(at, halves, codes, varying)
                if target is not None:
                    tests.append((len(path) - 1, target, set(visited), set(stored)))
            if "U" in codes:  # a straight line ends at an unconditional transfer, unless
                target = _followable(halves, codes, varying)  # followed
                if not self.follow or target is None or target in visited:
                    break
                at = target
                continue
            at = (at + 1) % 1000
            if at in visited:
                break
        self.longest = max(self.longest, depth + len(path))
        for place, target, seen, stores in tests:
            if place < len(path) - 1:  # (a path's last pair ends it anyway)
                self._branch(path, place, target, depth, seen, stores)
        return path

    def _branch(self, path: _Path, place: int, target: int, depth: int, visited: set[int],
                stored: set[int]) -> None:
        """The taken side of the test at ``path[place]`` (to ``target``), if it is worth
        a path: planned when hot, else counted."""
        index = path[place][0]
        room = _MAX_PAIRS - (depth + place + 1)
        if room < 1 or target in visited or not self._startable(target):
            return
        site = (self.steps[index][0], target)
        if not self.tables.taken_hot(site):
            self.counted[index] = site
            return
        branch = self.path(target, room, depth + place + 1, None, visited, stored)
        if branch:
            path[place] = (index, (target, branch))

    def _startable(self, at: int) -> bool:
        """Whether a branch could start at ``at``: a word of compilable codes, not
        observed, not marked unstable, and room for its pairs in the tree."""
        word = self.mem[at]
        tables = self.tables
        return (word.__class__ is str and at not in tables.observed
                and tables.varying.get(at, False) is not blockvary.UNSTABLE
                and len(self.steps) < _TREE_PAIRS
                and all(code in _COMPILABLE for code in _codes(word)[1]))


def block_plan(tables: Tables, address: int, mem: list[str], pairs: int = _MAX_PAIRS,
               first: str | None = None, follow: bool = False, count: bool = True
               ) -> Plan | None:
    """The plan of the block starting at ``address`` as memory holds it now (at most
    ``pairs`` pairs on its main path; its first word ``first`` if given); None if its
    first pair cannot be compiled. ``follow``: the block goes on across unconditional
    transfers (U) at the pair they transfer to, as one straight line; otherwise a block
    ending at a U it could follow counts its runs and asks to be followed once hot, unless
    not ``count`` (the one-pair blocks run at a budget's end: once hot, such a block would
    ask on every run, and the block it asks for replaces another, not itself; nor do they
    branch, nor do blocks telling an observer, which compiled._telling wraps)."""
    planner = _Planner(tables, mem, follow, count and not tables.observed)
    tree = planner.path(address, pairs, 0, first, set(), set())
    if not tree:
        return None
    return Plan(tables, address, planner.steps, tree, planner.main, planner.counted,
                planner.longest, follow, count)


def block_source(tables: Tables, address: int, mem: list[str], pairs: int = _MAX_PAIRS,
                 first: str | None = None, follow: bool = False, count: bool = True
                 ) -> tuple[str, dict[str, object]] | None:
    """The source of the block starting at ``address`` as memory holds it now, and its
    namespace; None if its first pair cannot be compiled (the arguments: block_plan)."""
    plan = block_plan(tables, address, mem, pairs, first, follow, count)
    return None if plan is None else plan.write()
