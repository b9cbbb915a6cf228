"""The session's score, read off the paper as a person keeping score would.

The console never composes game text; it only recognises the results the program types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Result = Literal["univac", "draw", "opponent"]

# The program's own announcements (univac_ttt/program/tictactoe.ucs, messages).
_RESULTS = re.compile(r"(THE UNIVAC WINS)|(IS A DRAW)|(YOU WIN\b)")


def results_in(text: str) -> list[Result]:
    """The results announced in a piece of paper, in order."""
    found: list[Result] = []
    for univac, draw, _opponent in _RESULTS.findall(text):
        found.append("univac" if univac else "draw" if draw else "opponent")
    return found


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

    def record(self, result: Result) -> None:
        counter = RESULT_COUNTERS[result]
        setattr(self, counter, getattr(self, counter) + 1)
