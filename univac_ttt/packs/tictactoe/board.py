"""The tic-tac-toe program's board as the typewriter prints it (reading the paper only)."""

from __future__ import annotations

import re

X, O, BLANK = 1, -1, 0
# Compiled at the first use (re keeps it): play imports this module but reads no paper.
_ROW = r"^[^A-Z0-9]*([XO1-9])[^A-Z0-9]+([XO1-9])[^A-Z0-9]+([XO1-9])[^A-Z0-9]*$"


def printed_boards(paper: str) -> list[tuple[int, ...]]:
    """Every board typed on the paper, in order (three rows of X, O or the square's code)."""
    row_of = re.compile(_ROW).match
    rows_at = [row_of(line) for line in paper.split("\n")]  # each line matched once
    boards = []
    i = 0
    while i < len(rows_at) - 2:
        rows = rows_at[i:i + 3]
        if all(rows):
            cells = [ch for match in rows for ch in match.groups()]  # type: ignore[union-attr]
            board = []
            for square, ch in enumerate(cells):
                if ch == "X":
                    board.append(X)
                elif ch == "O":
                    board.append(O)
                elif ch == str(square + 1):
                    board.append(BLANK)
                else:
                    board = []
                    break
            if board:
                boards.append(tuple(board))
                i += 3
                continue
        i += 1
    return boards


def printed_board(paper: str) -> tuple[int, ...] | None:
    """The first board typed on the paper, or None."""
    boards = printed_boards(paper)
    return boards[0] if boards else None


def last_printed_board(paper: str) -> tuple[int, ...] | None:
    boards = printed_boards(paper)
    return boards[-1] if boards else None
