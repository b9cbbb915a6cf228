"""A board big enough to read from a step away: block letters in a ruled grid, drawn at
one of three sizes so that a large museum screen is filled, an 80x24 one still fits, and a
smaller one (60x20) still shows all nine squares."""

from __future__ import annotations

from ..packs.tictactoe.board import BLANK, O, X

_X = ("█▄   ▄█", " ▀█▄█▀ ", "  ███  ", " ▄█▀█▄ ", "█▀   ▀█")
_O = (" ▄███▄ ", "██   ██", "██   ██", "██   ██", " ▀███▀ ")
CELL_WIDTH, CELL_HEIGHT = 9, 5
SMALL = 0  # the scale of the small board: cells of three lines, for a screen under 21 rows
_SMALL_X = ("▀▄ ▄▀", "  █  ", "▄▀ ▀▄")
_SMALL_O = ("▄▀▀▀▄", "█   █", "▀▄▄▄▀")
SMALL_WIDTH, SMALL_HEIGHT = 7, 3


def _cell(value: int, square: int, scale: int = 1) -> tuple[str, ...]:
    small = scale == SMALL
    if value == X:
        art = _SMALL_X if small else _X
    elif value == O:
        art = _SMALL_O if small else _O
    elif small:
        art = ("     ", f"  {square}  ", "     ")
    else:
        art = ("       ", "       ", f"   {square}   ", "       ", "       ")
    return tuple(f" {row} " for row in art)


def _cell_size(scale: int) -> tuple[int, int]:
    """Columns and lines of one square at ``scale``."""
    if scale == SMALL:
        return SMALL_WIDTH, SMALL_HEIGHT
    return CELL_WIDTH * scale, CELL_HEIGHT * scale


_TOP = {"▄": " ", "▀": "█"}  # a doubled row: the upper line of a half-block character
_BOTTOM = {"▄": "█", "▀": " "}  # and the lower line


def _scaled_rows(row: str, scale: int) -> list[str]:
    """One row of a cell's art at ``scale`` (1 or 2): each character doubled across, and
    half blocks split into whole blocks on two lines, so the glyphs stay solid."""
    if scale <= 1:
        return [row]
    top = "".join(" " + ch if ch.isdigit() else _TOP.get(ch, ch) * 2 for ch in row)
    bottom = "".join("  " if ch.isdigit() else _BOTTOM.get(ch, ch) * 2 for ch in row)
    return [top, bottom]


def board_size(scale: int) -> tuple[int, int]:
    """Columns and rows of the board drawn at ``scale`` (``SMALL``, 1 or 2)."""
    width, height = _cell_size(scale)
    return 3 * width + 2, 3 * height + 2


def big_board_cells(board: tuple[int, ...] | None, scale: int = 1,
                    keyed: int | None = None) -> list[list[tuple[bool, str]]]:
    """Lines of the big board as pieces (is this the keyed square?, text). ``keyed`` (1-9)
    is the visitor's entry, drawn as an X on a blank square until the UNIVAC's reply shows
    the board; it is what the visitor keyed, not a move anyone chose."""
    cells = list(board or (BLANK,) * 9)
    shown_keyed = keyed if keyed is not None and 1 <= keyed <= 9 and \
        cells[keyed - 1] == BLANK else None
    if shown_keyed is not None:
        cells[shown_keyed - 1] = X
    lines: list[list[tuple[bool, str]]] = []
    for r in range(3):
        squares = [r * 3 + c + 1 for c in range(3)]
        width, height = _cell_size(scale)
        art = [[line for row in _cell(cells[square - 1], square, scale)
                for line in _scaled_rows(row, scale)] for square in squares]
        for i in range(height):
            pieces: list[tuple[bool, str]] = []
            for c, square in enumerate(squares):
                if c:
                    pieces.append((False, "│"))
                pieces.append((square == shown_keyed, art[c][i]))
            lines.append(pieces)
        if r < 2:
            lines.append([(False, "┼".join(["─" * width] * 3))])
    return lines


def big_board(board: tuple[int, ...] | None, scale: int = 1,
              keyed: int | None = None) -> list[str]:
    """Lines of the big board (an empty board when none has been typed yet)."""
    return ["".join(text for _, text in line) for line in big_board_cells(board, scale, keyed)]
