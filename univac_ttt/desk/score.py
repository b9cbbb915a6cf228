"""The session's score, read off the paper as a person keeping score would.

The console never composes game text; it only recognises the results the program types.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..program.tictactoe import Result, results_in

__all__ = ["RESULT_COUNTERS", "Score", "results_in"]


# The counter each result adds to, in Score and in the kiosk's daily tally.
RESULT_COUNTERS: dict[Result, str] = {
    "univac": "univac_wins", "draw": "draws", "opponent": "opponent_wins"}


@dataclass
class Score:
    univac_wins: int = 0
    draws: int = 0
    opponent_wins: int = 0

    @property
    def games(self) -> int:
        return self.univac_wins + self.draws + self.opponent_wins

    def add(self, results: tuple[int, int, int]) -> None:
        """Add another score's (univac wins, draws, opponent wins)."""
        self.univac_wins += results[0]
        self.draws += results[1]
        self.opponent_wins += results[2]

    def record(self, result: Result) -> None:
        counter = RESULT_COUNTERS[result]
        setattr(self, counter, getattr(self, counter) + 1)
