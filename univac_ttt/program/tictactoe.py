"""Everything Python knows about the shipped tic-tac-toe program, in one place to audit.

The board's memory label and cell values, reading the board from memory, the phrases the
program types for results and warnings, the kiosk's captions and demonstration scripts,
and the game's help text. Nothing here chooses a move for the UNIVAC: the demonstration
scripts are X's moves only, and every reply comes from the program in emulated memory.
A test checks that each phrase here occurs in the coding sheet's messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from ..machine.word import to_int
from .assembler import Program
from .board import BLANK, O, X

BOARD_LABEL = "BRD"  # square k's value is at BRD+k, k = 1..9
CELL_VALUES: dict[int, int] = {0: BLANK, 1: O, 4: X}  # word value -> board.py's marks

Result = Literal["univac", "draw", "opponent"]

# What the program types (tictactoe.ucs, messages), as the paper shows it.
RESULT_PHRASES: dict[Result, str] = {
    "univac": "THE UNIVAC WINS", "draw": "IS A DRAW", "opponent": "YOU WIN"}
BAD_CODE_PHRASE = "NOT A SQUARE CODE"
TAKEN_PHRASE = "IS ALREADY TAKEN"  # after "SQUARE n"
NEW_GAME_PHRASE = "NEW GAME"
CONGRATULATIONS_PHRASE = "CONGRATULATIONS"  # typed after a draw (and a win of X's)
RESULT_PATTERN = re.compile(r"(THE UNIVAC WINS)|(IS A DRAW)|(YOU WIN\b)")

CAPTIONS: dict[str, str] = {
    "OPENING": "The opening: a centre move is answered by a corner, any other by the centre.",
    "RULEA": "Scanning the eight elements for two O and a blank: a winning move.",
    "D2": "Scanning the eight elements for two X and a blank: a move that blocks.",
    "FORK": "After X's second move: looking for the one square where X could fork.",
    "FORCE": "Scanning for an element with one O and two blanks: a move that forces a reply.",
    "OWINS": "Two O and a blank: the UNIVAC completes its line and wins.",
    "NOMOVE": "No element is worth playing any more: the game is a draw.",
    "DRAW": "Four pairs of moves without a winner: the game is a draw.",
    "BADCODE": "That was not a square code: the UNIVAC asks again, politely.",
    "TAKEN": "That square is already taken: the UNIVAC says so.",
}

DemoResult = Literal["draw", "univac"]

# Demonstration games for the kiosk's attract mode: X's moves only, and how each ends.
# Half are careful games (drawn), half contain a blunder the UNIVAC punishes.
DEMO_GAMES: tuple[tuple[str, DemoResult], ...] = (
    ("5274", "draw"), ("597", "univac"), ("1384", "draw"), ("148", "univac"),
    ("2394", "draw"), ("2843", "univac"), ("9438", "draw"), ("974", "univac"),
    ("3942", "draw"), ("3742", "univac"), ("8314", "draw"), ("8241", "univac"),
    ("7613", "draw"), ("713", "univac"), ("4831", "draw"), ("4793", "univac"),
    ("6972", "draw"), ("612", "univac"),
)

GAME_HELP = """\
TIC-TAC-TOE ON THE UNIVAC I

You are X and you move first. Type the code of a square and press Enter:

      1 | 2 | 3
      4 | 5 | 6
      7 | 8 | 9

The UNIVAC (O) answers by typing the whole board. It keeps the board, warns you
politely about a wrong code or a taken square, and declares wins and draws.
The best you can do is draw; one mistake and it wins.

In the early 1950s Tom Gildersleeve of Remington Rand programmed the UNIVAC I to
play tic-tac-toe through its Supervisory Control keyboard and typewriter. Rather
than a table of games, the program judges the eight rows, columns and diagonals
by priority: win, block, then force. His code is lost; what runs here is a new
hand assembly in his manner, in an emulated 1000-word mercury memory."""


def results_in(text: str) -> list[Result]:
    """The results announced in a piece of paper, in order."""
    found: list[Result] = []
    for univac, draw, _opponent in RESULT_PATTERN.findall(text):
        found.append("univac" if univac else "draw" if draw else "opponent")
    return found


def has_board(program: Program | None) -> bool:
    return program is not None and BOARD_LABEL in program.symbols


def board_in_memory(memory: Sequence[str], program: Program) -> tuple[int, ...] | None:
    """The board the program keeps at BRD+1..BRD+9 (X, O, BLANK), or None if a word holds
    a value that is no mark."""
    base = program.symbols[BOARD_LABEL]
    cells = []
    for square in range(1, 10):
        value = to_int(memory[base + square])
        if value not in CELL_VALUES:
            return None
        cells.append(CELL_VALUES[value])
    return tuple(cells)


def board_lines(memory: Sequence[str], program: Program) -> list[str]:
    """The board in memory drawn as the monitor shows it: X, O, or the square's code
    (? for a word that holds no mark)."""
    base = program.symbols[BOARD_LABEL]
    shown = {BLANK: None, O: "O", X: "X"}
    rows = []
    for r in range(3):
        cells = []
        for c in range(3):
            square = r * 3 + c + 1
            value = to_int(memory[base + square])
            mark = shown[CELL_VALUES[value]] if value in CELL_VALUES else "?"
            cells.append(mark or str(square))
        rows.append("   " + "   ".join(cells))
    return rows


def caption_addresses(program: Program | None) -> dict[int, str]:
    """Caption text by instruction address, for the labels this program has."""
    if program is None:
        return {}
    return {program.symbols[label]: text for label, text in CAPTIONS.items()
            if label in program.symbols}
