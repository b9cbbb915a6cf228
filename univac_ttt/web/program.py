"""What the browser page needs to know of the program it plays, through one door.

Name, title, help, the line over the keyboard, the phrases that announce results, the board
read from memory, the captions and the demonstrations: what a program pack offers
(docs/programs.md). Until the pack system is on main they come from
``program/tictactoe.py``; this module is the only place in web/ that names that program,
so switching to its pack is one edit here. Nothing here chooses a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..machine.tape import Reel
from ..program import tictactoe
from ..program.assembler import Program
from ..program.boottape import fresh_tictactoe_tape
from ..program.shipped import load_tictactoe

Cell = str  # "X", "O" or "" (a blank square)


@dataclass(frozen=True)
class WebProgram:
    name: str
    title: str
    help: str
    key_hint: str
    words: dict[int, str]
    program: Program | None

    def boot_tape(self) -> Reel:
        """A fresh program tape for Uniservo 1 (each game boots it by INITIAL READ)."""
        return fresh_tictactoe_tape()

    def results_in(self, text: str) -> list[str]:
        """The result names announced in what the UNIVAC typed, in order."""
        return list(tictactoe.results_in(text))

    def caption_addresses(self) -> dict[int, str]:
        return tictactoe.caption_addresses(self.program)

    def board_lines(self, memory: Sequence[str]) -> list[str] | None:
        """The board kept in memory, drawn as the monitor draws it (None: no board)."""
        if not tictactoe.has_board(self.program):
            return None
        assert self.program is not None
        return tictactoe.board_lines(memory, self.program)

    def board(self, memory: Sequence[str]) -> list[Cell] | None:
        """The nine squares for the page's board, read from the board reader's lines
        (each square is X, O, its own code when blank, or ? for a word that holds no mark)."""
        lines = self.board_lines(memory)
        if lines is None:
            return None
        marks = [token for line in lines for token in line.split()]
        if len(marks) != 9:
            return None
        return [mark if mark in ("X", "O") else "" for mark in marks]


@cache
def shipped_program() -> WebProgram:
    """The shipped tic-tac-toe program (raises ProgramError when its files are broken)."""
    shipped = load_tictactoe()
    fresh_tictactoe_tape()  # checked once, before the first page asks for it
    return WebProgram(
        name="tictactoe", title="Tic-tac-toe: you are X and move first; the UNIVAC never loses",
        help=tictactoe.GAME_HELP, key_hint="Type a square code, 1 to 9, then WORD RELEASE.",
        words=shipped.image.words, program=shipped.program)
