"""Demonstration games for attract mode: a scripted opponent's moves, and how each ends.

These are X's moves only (the visitor's part). Every reply in a demonstration still comes
from the program in emulated memory; a test plays each script against it and checks the
result. Half are careful games (drawn), half contain a blunder the UNIVAC punishes.
"""

from __future__ import annotations

from typing import Literal

DemoResult = Literal["draw", "univac"]

DEMO_GAMES: tuple[tuple[str, DemoResult], ...] = (
    ("5274", "draw"), ("597", "univac"), ("1384", "draw"), ("148", "univac"),
    ("2394", "draw"), ("2843", "univac"), ("9438", "draw"), ("974", "univac"),
    ("3942", "draw"), ("3742", "univac"), ("8314", "draw"), ("8241", "univac"),
    ("7613", "draw"), ("713", "univac"), ("4831", "draw"), ("4793", "univac"),
    ("6972", "draw"), ("612", "univac"),
)
