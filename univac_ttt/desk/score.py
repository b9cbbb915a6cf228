"""The session's score, read off the paper as a person keeping score would.

The desk never composes game text and knows no program's phrases: a pack says which
phrases announce which result (``Pack.results_in``), and a program without a pack scores
nothing. Any result name is counted; the three of a game against the UNIVAC (``univac``,
``draw``, ``opponent``, docs/programs.md) are also what a served class table and the
kiosk's daily tally add up.
"""

from __future__ import annotations

from collections.abc import Callable

from .paper import PrintedChunk

# Reads the results a piece of paper announces, in order (a pack's ``results_in``).
ResultReader = Callable[[str], list[str]]

GAME_RESULTS = ("univac", "draw", "opponent")
# The counter each game result adds to, in the kiosk's daily tally.
RESULT_COUNTERS: dict[str, str] = {
    "univac": "univac_wins", "draw": "draws", "opponent": "opponent_wins"}

__all__ = ["GAME_RESULTS", "RESULT_COUNTERS", "ResultReader", "Score", "no_results"]


def no_results(_text: str) -> list[str]:
    """The reader of a program without a pack: it announces nothing."""
    return []


class Score:
    """Results counted by name; ``univac_wins``, ``draws`` and ``opponent_wins`` are the
    game results' counts."""

    def __init__(self, univac_wins: int = 0, draws: int = 0, opponent_wins: int = 0) -> None:
        self.counts: dict[str, int] = {}
        for name, value in zip(GAME_RESULTS, (univac_wins, draws, opponent_wins),
                               strict=True):
            if value:
                self.counts[name] = value

    def count(self, name: str) -> int:
        return self.counts.get(name, 0)

    @property
    def univac_wins(self) -> int:
        return self.count("univac")

    @property
    def draws(self) -> int:
        return self.count("draw")

    @property
    def opponent_wins(self) -> int:
        return self.count("opponent")

    @property
    def games(self) -> int:
        """Results recorded, of any name."""
        return sum(self.counts.values())

    def add(self, results: tuple[int, int, int]) -> None:
        """Add another score's (univac wins, draws, opponent wins)."""
        for name, value in zip(GAME_RESULTS, results, strict=True):
            if value:
                self.counts[name] = self.count(name) + value

    def record(self, result: str) -> None:
        self.counts[result] = self.count(result) + 1

    def game_results(self) -> tuple[int, int, int]:
        """(UNIVAC wins, draws, opponent's wins): what a served terminal reports."""
        return self.univac_wins, self.draws, self.opponent_wins

    def __repr__(self) -> str:
        return f"Score({self.counts})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and self.counts == other.counts


class ScoreKeeper:
    """Counts results off the paper as it is typed, for a front end that keeps no session
    (the plain console): what the UNIVAC typed is read, keyed lines are not. A phrase split
    between two pieces of paper is still counted once."""

    def __init__(self, reader: ResultReader, names: tuple[str, ...] = (),
                 label: Callable[[str], str] = str, carry: int = 200) -> None:
        self.reader = reader
        self.names = names
        self.label = label
        self.score = Score()
        self._carry = ""
        self._keep = carry  # longer than any phrase

    def printed(self, chunk: PrintedChunk) -> None:
        """A paper listener: count the results this piece completes."""
        if chunk.keyed:
            return
        text = chunk.text
        before = len(self.reader(self._carry))
        for result in self.reader(self._carry + text)[before:]:
            self.score.record(result)
        self._carry = (self._carry + text)[-self._keep:]

    def line(self) -> str:
        """The score in one line: ``score: greeted 1``."""
        names = list(self.names) + [n for n in self.score.counts if n not in self.names]
        return "score: " + ", ".join(f"{self.label(n)} {self.score.count(n)}" for n in names)
