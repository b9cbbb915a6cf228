"""The tables of compiled blocks (compiled.py runs them): by address and word, the words
seen once, the counts that make a place hot (followed across its U) and a test's taken
side hot (a branch, blockplan.py), and the addresses read at run time (blockvary.py).
One ``Tables`` for each overflow rule, shared by every machine of the process."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import repeat
from operator import length_hint

from . import blockgen

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

# A block: called with the machine and its room, answers blockgen's code (compiled.py).
Block = Callable[["Machine", int], int]
_OBSERVING_LIMIT = 16  # sets of observed addresses whose tables are kept
_SEEN_LIMIT = 20_000  # words seen once, remembered so that the second sight compiles
# A place is followed only if its HOT_RUNS runs came within HOT_RUNS * FOLLOW_SPAN
# instructions of the block loop (once every 1,000 instructions on average, or oftener);
# a test's taken side likewise (blockgen.TAKEN_RUNS).
FOLLOW_SPAN = 1_000


class Tables:
    """Compiled blocks for one overflow rule, shared by every machine: ``by_address[cc]``
    maps the word at cc to the block that starts there. A block is compiled the second time
    its first word is fetched at its address: words made afresh on every pass run in the
    interpreter."""

    def __init__(self, overflow_stop: bool, observed: frozenset[int] = frozenset()) -> None:
        self.overflow_stop = overflow_stop
        self.by_address: list[dict[str, Block]] = [{} for _ in range(1000)]
        self.singles: list[dict[str, Block]] = [{} for _ in range(1000)]  # one pair each
        self.seen: set[tuple[int, str]] = set()
        # Blocks that have run often enough to be compiled on across their last U.
        self.followed: set[tuple[int, str]] = set()
        # Addresses the machine's observer is told of (Machine.arrivals): a block starts at
        # each and tells it, and none runs through one.
        self.observed = observed
        self._observing: dict[frozenset[int], Tables] = {}
        # The runs left before the blocks at an address are followed (one count for every
        # word there, shared by their blocks: blockgen.HOT_RUNS).
        self._runs_left: dict[int, list[int]] = {}
        # Instructions the block loop has run with these tables (counted as each call of
        # it ends), and that count when each address's runs began to be counted.
        self.ran = 0
        self._counted_since: dict[int, int] = {}
        # Addresses whose word changed in one half's operand alone: the half blocks read
        # at run time there (blockvary.py), or UNSTABLE where it changed otherwise.
        self.varying: dict[int, int | None] = {}
        # Conditional tests' taken exits left before blocks through them branch there
        # (blockplan.py), by site (the test's address and operand): an iterator each
        # exit takes one 0 from (``next(TK3, _BRANCH)``: no flag until it runs dry, one
        # C call), and ``ran`` when each count began.
        self._taken: dict[tuple[int, int], Iterator[int]] = {}
        self._taken_since: dict[tuple[int, int], int] = {}

    def runs_left(self, address: int) -> list[int]:
        """The count the blocks at ``address`` ending at a U they may follow share."""
        count = self._runs_left.get(address)
        if count is None:
            count = self._runs_left[address] = [blockgen.HOT_RUNS]
            self._counted_since[address] = self.ran
        return count

    def worth_following(self, address: int) -> bool:
        """Whether the runs at ``address`` came often enough for a followed block to pay
        for its compile (a few ms: about 10,000 runs saving a few hundred ns each) soon;
        if not, its count starts again (a place run once a game is hot only after
        millions of instructions: following it then was a compile in the middle of a
        long run, for nothing). Counts kept by block alone always follow."""
        since = self._counted_since.get(address)
        if since is None or self.ran - since <= blockgen.HOT_RUNS * FOLLOW_SPAN:
            return True
        count = self._runs_left.get(address)
        if count is not None:  # (machines in other threads share these tables)
            count[0] = blockgen.HOT_RUNS
        self._counted_since[address] = self.ran
        return False

    def taken_count(self, site: tuple[int, int]) -> Iterator[int]:
        """The count of taken exits the blocks through the test at ``site`` share."""
        count = self._taken.get(site)
        if count is None:
            if len(self._taken) >= _SEEN_LIMIT:
                self._taken.clear()
                self._taken_since.clear()
            count = self._taken[site] = repeat(0, blockgen.TAKEN_RUNS)
            self._taken_since[site] = self.ran
        return count

    def taken_hot(self, site: tuple[int, int]) -> bool:
        """Whether blocks through the test at ``site`` go on at its taken side."""
        count = self._taken.get(site)
        return count is not None and not length_hint(count)

    def taken_sooner(self, counted: tuple[tuple[str, tuple[int, int]], ...],
                     names: dict[str, object]) -> bool:
        """Whether a block whose globals are ``names``, counting the taken exits of
        ``counted`` (its names for them and their sites), is to be made again: one of
        them ran dry within TAKEN_RUNS * FOLLOW_SPAN instructions (as
        ``worth_following``). One that ran dry slower counts again (a new count, put in
        ``names`` as well: no block made again for it), as does one that another block
        started again."""
        hot = False
        for name, site in counted:
            count = self.taken_count(site)
            if not length_hint(count):
                if self.ran - self._taken_since.get(site, self.ran) <= (
                        blockgen.TAKEN_RUNS * FOLLOW_SPAN):
                    hot = True
                    continue
                count = self._taken[site] = repeat(0, blockgen.TAKEN_RUNS)
                self._taken_since[site] = self.ran
            names[name] = count
        return hot

    def hot(self, address: int) -> bool:
        """Whether a block at ``address`` has used up the runs: the next ones follow."""
        count = self._runs_left.get(address)
        return count is not None and count[0] <= 0

    def forget(self) -> None:
        """Drop every block, sight and count (tests start from a known state)."""
        self.seen.clear()
        self.followed.clear()
        self._runs_left.clear()
        self._counted_since.clear()
        self.varying.clear()
        self._taken.clear()
        self._taken_since.clear()
        for blocks in (*self.by_address, *self.singles):
            blocks.clear()

    def observing(self, addresses: frozenset[int]) -> Tables:
        """Tables for the same rule whose blocks tell ``Machine.on_arrival`` when they
        start at one of ``addresses``: an observed run stays compiled."""
        tables = self._observing.get(addresses)
        if tables is None:
            if len(self._observing) >= _OBSERVING_LIMIT:
                self._observing.clear()
            tables = self._observing[addresses] = Tables(self.overflow_stop, addresses)
        return tables


TABLES = {False: Tables(False), True: Tables(True)}  # by "overflow stops the machine"

__all__ = ["FOLLOW_SPAN", "TABLES", "Block", "Tables"]
