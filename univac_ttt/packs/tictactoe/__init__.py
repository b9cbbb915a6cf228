"""Tic-tac-toe's Python extras: what pack.toml cannot say, in one place to audit.

pack.toml holds the title, the help, the result phrases, the square-code card and the
kiosk's captions. Here: the board's memory label and cell values, reading the board from
memory (the monitor's board pane, the referee), the warnings the referee and the kiosk
recognise, the kiosk's demonstration games, and the shipped program checked against its
committed image and tape. Nothing here chooses a move for the UNIVAC: the demonstration
scripts are X's moves only, and every reply comes from the program in emulated memory.
A test checks that each phrase here occurs in the coding sheet's messages.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import lru_cache

from ...machine.records import Record
from ...machine.word import to_int
from ...program.pack import Demonstration, Pack, PackError
from ...program.shipped import ProgramError, read_shipped
from .board import BLANK, O, X

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import Literal

    Result = Literal["univac", "draw", "opponent"]
    DemoResult = Literal["draw", "univac"]

if TYPE_CHECKING:  # the assembler and the parsers are imported when a check needs them
    from ...machine.tape import Reel
    from ...program.assembler import Program
    from ...program.image import MemoryImage

NAME = "tictactoe"
FOLDER = os.path.dirname(__file__)  # a path's text: no pathlib at start-up
SHEET_NAME = "tictactoe.ucs"
IMAGE_NAME = "tictactoe.img"
TAPE_NAME = "tictactoe.tape"
BUILD_COMMAND = "python -m univac_ttt.packs.tictactoe.build"

BOARD_LABEL = "BRD"  # square k's value is at BRD+k, k = 1..9
CELL_VALUES: dict[int, int] = {0: BLANK, 1: O, 4: X}  # word value -> board.py's marks

# What the program types (tictactoe.ucs, messages), as the paper shows it. The result
# phrases are pack.toml's [results]; a test checks the two agree.
RESULT_PHRASES: dict[Result, str] = {
    "univac": "THE UNIVAC WINS", "draw": "IS A DRAW", "opponent": "YOU WIN"}
BAD_CODE_PHRASE = "NOT A SQUARE CODE"
TAKEN_PHRASE = "IS ALREADY TAKEN"  # after "SQUARE n"
NEW_GAME_PHRASE = "NEW GAME"
CONGRATULATIONS_PHRASE = "CONGRATULATIONS"  # typed after a draw (and a win of X's)
# No groups: a pattern whose every branch starts with a letter is searched for only where
# one of those letters stands (re finds the set), not tried at every position: verify reads
# 600 replies' paper (40 M of its 1,045 M host instructions went to a grouped pattern's
# search, 7 M now). A match's text is its phrase.
RESULT_PATTERN = re.compile(r"THE UNIVAC WINS|IS A DRAW|YOU WIN\b")
_RESULT_OF: dict[str, Result] = {phrase: result for result, phrase in RESULT_PHRASES.items()}


# Demonstration games for the kiosk's attract mode: X's moves only, and how each ends.
# Half are careful games (drawn), half contain a blunder the UNIVAC punishes.
DEMO_GAMES: tuple[tuple[str, DemoResult], ...] = (
    ("5274", "draw"), ("597", "univac"), ("1384", "draw"), ("148", "univac"),
    ("2394", "draw"), ("2843", "univac"), ("9438", "draw"), ("974", "univac"),
    ("3942", "draw"), ("3742", "univac"), ("8314", "draw"), ("8241", "univac"),
    ("7613", "draw"), ("713", "univac"), ("4831", "draw"), ("4793", "univac"),
    ("6972", "draw"), ("612", "univac"),
)


class ShippedProgram(Record):
    program: Program  # from the coding sheet: symbols, remarks, sections
    image: MemoryImage  # from the committed image file


def sheet_text() -> str:
    return read_shipped(SHEET_NAME, __name__)


@lru_cache(maxsize=1)
def load_tictactoe() -> ShippedProgram:
    """The coding sheet, checked word for word against the committed tictactoe.img."""
    from ...program.assembler import AssemblyError, assemble
    from ...program.image import ImageError, parse_image

    try:
        program = assemble(sheet_text(), SHEET_NAME)
        image = parse_image(read_shipped(IMAGE_NAME, __name__), IMAGE_NAME)
    except (AssemblyError, ImageError) as exc:
        raise ProgramError(f"the shipped program is broken: {exc}") from None
    if image.words != program.image.words:
        raise ProgramError(f"{IMAGE_NAME} does not match {SHEET_NAME}; rebuild it with "
                           f"`{BUILD_COMMAND}`")
    return ShippedProgram(program, image)


@lru_cache(maxsize=1)
def load_tictactoe_tape() -> Reel:
    """The committed program tape, checked against the coding sheet and the loader."""
    from ...program.boottape import boot_reel
    from ...program.reel import ReelError, parse_reel

    try:
        reel = parse_reel(read_shipped(TAPE_NAME, __name__), TAPE_NAME)
    except ReelError as exc:
        raise ProgramError(f"the shipped tape is broken: {exc}") from None
    if reel.blocks != boot_reel(load_tictactoe().image.words).blocks:
        raise ProgramError(f"{TAPE_NAME} does not match the coding sheet; rebuild it with "
                           f"`{BUILD_COMMAND}`")
    return reel


def fresh_tictactoe_tape() -> Reel:
    """A copy of the shipped tape to mount (a run must not change the cached one)."""
    return tictactoe_pack().boot_tape()


def check(pack: Pack) -> None:
    """The committed image and tape checked against the sheet the pack assembled (when
    the folder is read in full; its snapshot records the files so checked)."""
    from ...program.image import ImageError, parse_image
    from ...program.reel import ReelError, parse_reel

    if pack.program is None:
        raise PackError(f"{FOLDER}: the tic-tac-toe pack needs its coding sheet")
    try:
        image = parse_image(read_shipped(IMAGE_NAME, __name__), IMAGE_NAME)
        tape = parse_reel(read_shipped(TAPE_NAME, __name__), TAPE_NAME)
    except (ImageError, ReelError, ProgramError) as exc:
        raise PackError(f"the shipped program is broken: {exc}") from None
    for name, same in ((IMAGE_NAME, image.words == pack.words),
                       (TAPE_NAME, tape.blocks == pack.boot_tape().blocks)):
        if not same:
            raise PackError(f"{name} does not match {SHEET_NAME}; rebuild it with "
                            f"`{BUILD_COMMAND}`")


def extend(pack: Pack) -> Pack:
    """What the pack loader adds to pack.toml: the board reader and the demonstrations
    (the board's label is looked up when a board is first drawn, not at every start)."""
    def board(memory: Sequence[str]) -> list[str]:
        program = pack.program
        if program is None:
            raise PackError(f"{FOLDER}: the tic-tac-toe pack needs its coding sheet")
        return board_lines(memory, program)

    return pack.extended(
        board=board,
        demonstrations=tuple(Demonstration(tuple(moves), result)
                             for moves, result in DEMO_GAMES))


@lru_cache(maxsize=1)
def tictactoe_pack() -> Pack:
    """The pack, for the kiosk and the referee, which name tic-tac-toe."""
    from .. import shipped_pack

    return shipped_pack(NAME)


def results_in(text: str) -> list[Result]:
    """The results announced in a piece of paper, in order (RESULT_PATTERN's matches)."""
    return [_RESULT_OF[phrase] for phrase in RESULT_PATTERN.findall(text)]


def has_board(program: Program | None) -> bool:
    return program is not None and BOARD_LABEL in program.symbols


def board_in_memory(memory: Sequence[str], program: Program) -> tuple[int, ...] | None:
    """The board the program keeps at BRD+1..BRD+9 (X, O, BLANK), or None if a word holds
    a value that is no mark."""
    return board_at(memory, program.symbols[BOARD_LABEL])


def board_at(memory: Sequence[str], base: int) -> tuple[int, ...] | None:
    """The board at base+1..base+9, as ``board_in_memory`` reads it."""
    words = memory[base + 1:base + 10]
    if len(words) != 9:  # a board that would run past the end of memory is no board
        return None
    cells = []
    marks = _MARK_OF_WORD
    for word in words:
        mark = marks.get(word, _UNREAD)
        if mark is _UNREAD:  # read once per word: the proof reads 8,000 cells
            if len(marks) >= _MARKS_KEPT:
                marks.clear()
            mark = marks[word] = CELL_VALUES.get(to_int(word))  # type: ignore[arg-type]
        if mark is None:
            return None
        cells.append(mark)
    return tuple(cells)


_MARK_OF_WORD: dict[str, int | None] = {}  # a cell's word -> its mark (None: no mark)
_MARKS_KEPT = 1_024
_UNREAD = object()


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


def program_for_referee(words: dict[int, str], program: Program | None) -> Program:
    """What the referee judges: a sheet as it is; a bare image with the one label the
    referee reads, BRD, taken from the shipped program (an image has no labels)."""
    if program is not None:
        return program
    from ...program.assembler import Program
    from ...program.image import MemoryImage

    board = tictactoe_pack().label_address(BOARD_LABEL)
    if board is None:
        raise PackError(f"{FOLDER}: the tic-tac-toe pack's sheet has no label {BOARD_LABEL}")
    return Program(MemoryImage(dict(words)), symbols={BOARD_LABEL: board},
                   labels={board: BOARD_LABEL})
