"""One-line captions of what the UNIVAC is doing, keyed by the coding sheet's labels.

The kiosk sets monitor breakpoints on these labels while a reply runs and shows the caption
of the last one reached: which rule decided the move.
"""

from __future__ import annotations

from ..program.assembler import Program

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


def caption_addresses(program: Program | None) -> dict[int, str]:
    """Caption text by instruction address, for the labels this program has."""
    if program is None:
        return {}
    return {program.symbols[label]: text for label, text in CAPTIONS.items()
            if label in program.symbols}
