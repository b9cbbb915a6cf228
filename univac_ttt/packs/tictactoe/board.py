"""The tic-tac-toe program's board as the typewriter prints it (reading the paper only)."""

from __future__ import annotations

import re
from collections.abc import Iterator

X, O, BLANK = 1, -1, 0
_CODES = "123456789"  # what a blank square shows: its code
# Compiled at the first use (re keeps it): play imports this module but reads no paper.
_ROW = r"^[^A-Z0-9]*([XO1-9])[^A-Z0-9]+([XO1-9])[^A-Z0-9]+([XO1-9])[^A-Z0-9]*$"


def printed_boards(paper: str) -> list[tuple[int, ...]]:
    """Every board typed on the paper, in order (three rows of X, O or the square's code)."""
    return list(_boards(paper))


def _boards(paper: str) -> Iterator[tuple[int, ...]]:
    """The boards on the paper, found in order: each line is matched once, and only as far
    as the boards asked for (the proof asks for the first of each reply's paper)."""
    lines = paper.split("\n")
    row_of = re.compile(_ROW).match
    rows: list[re.Match[str] | None] = []  # the matches of lines[:len(rows)]
    i = 0
    while i < len(lines) - 2:
        while len(rows) < i + 3:
            rows.append(row_of(lines[len(rows)]))
        window = rows[i:i + 3]
        if all(window):
            board = _board_of(window)  # type: ignore[arg-type]
            if board is not None:
                yield board
                i += 3
                continue
        i += 1


def _board_of(rows: list[re.Match[str]]) -> tuple[int, ...] | None:
    """The board three matched rows show, or None if a blank square shows another's code."""
    board = []
    square = 0
    for match in rows:
        for ch in match.groups():
            if ch == "X":
                board.append(X)
            elif ch == "O":
                board.append(O)
            elif ch == _CODES[square]:
                board.append(BLANK)
            else:
                return None
            square += 1
    return tuple(board)


def printed_board(paper: str) -> tuple[int, ...] | None:
    """The first board typed on the paper, or None."""
    return next(_boards(paper), None)


def last_printed_board(paper: str) -> tuple[int, ...] | None:
    boards = printed_boards(paper)
    return boards[-1] if boards else None
