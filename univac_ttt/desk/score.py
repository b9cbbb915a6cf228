"""The session's score, read off the paper as a person keeping score would.

The console never composes game text; it only recognises the results the program types.
"""

from __future__ import annotations

from ..program.tictactoe import Result, results_in
from .counts import Counts

__all__ = ["RESULT_COUNTERS", "Score", "results_in"]


# The counter each result adds to, in Score and in the kiosk's daily tally.
RESULT_COUNTERS: dict[Result, str] = {
    "univac": "univac_wins", "draw": "draws", "opponent": "opponent_wins"}


class Score(Counts):
    """Games won by the UNIVAC, drawn, and won by the opponent (a Counter of those names)."""

    NAMES = ("univac_wins", "draws", "opponent_wins")
    univac_wins: int
    draws: int
    opponent_wins: int

    @property
    def games(self) -> int:
        return self.univac_wins + self.draws + self.opponent_wins

    def add(self, results: tuple[int, int, int]) -> None:
        """Add another score's (univac wins, draws, opponent wins)."""
        self.update(dict(zip(self.NAMES, results, strict=True)))

    def record(self, result: Result) -> None:
        self[RESULT_COUNTERS[result]] += 1
