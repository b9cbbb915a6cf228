"""A board big enough to read from a step away: block letters in a ruled grid."""

from __future__ import annotations

from ..program.board import BLANK, O, X

_X = ("█▄   ▄█", " ▀█▄█▀ ", "  ███  ", " ▄█▀█▄ ", "█▀   ▀█")
_O = (" ▄███▄ ", "██   ██", "██   ██", "██   ██", " ▀███▀ ")
CELL_WIDTH, CELL_HEIGHT = 9, 5


def _cell(value: int, square: int) -> tuple[str, ...]:
    if value == X:
        art = _X
    elif value == O:
        art = _O
    else:
        art = ("       ", "       ", f"   {square}   ", "       ", "       ")
    return tuple(f" {row} " for row in art)


def big_board(board: tuple[int, ...] | None) -> list[str]:
    """Lines of the big board (an empty board when none has been typed yet)."""
    cells = board or (BLANK,) * 9
    lines: list[str] = []
    for r in range(3):
        rows = [_cell(cells[r * 3 + c], r * 3 + c + 1) for c in range(3)]
        for i in range(CELL_HEIGHT):
            lines.append("│".join(row[i] for row in rows))
        if r < 2:
            lines.append("┼".join(["─" * CELL_WIDTH] * 3))
    return lines
