"""The shipped tic-tac-toe program: its coding sheet and the committed memory image.

The image is what goes into memory; the coding sheet supplies labels, remarks and sections
for the disassembler and the monitor. The two must agree word for word.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .assembler import AssemblyError, Program, assemble
from .image import ImageError, MemoryImage, parse_image

SHEET_NAME = "tictactoe.ucs"
IMAGE_NAME = "tictactoe.img"
IMAGE_HEADER = (
    "TIC-TAC-TOE FOR THE UNIVAC I: memory image, generated from tictactoe.ucs\n"
    "by `python -m univac_ttt.program.build`; do not edit by hand.\n"
    "address, word (12 UNIVAC characters), label and remark"
)


class ProgramError(RuntimeError):
    """The shipped program is missing or broken."""


@dataclass(frozen=True)
class ShippedProgram:
    program: Program  # from the coding sheet: symbols, remarks, sections
    image: MemoryImage  # from the committed image file


def read_shipped(name: str) -> str:
    """A file shipped in this package (the sheet, the image, the loader, the tape)."""
    try:
        return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProgramError(f"the shipped file {name} cannot be read: {exc}") from None


def sheet_text() -> str:
    return read_shipped(SHEET_NAME)


@lru_cache(maxsize=1)
def load_tictactoe() -> ShippedProgram:
    try:
        program = assemble(sheet_text(), SHEET_NAME)
        image = parse_image(read_shipped(IMAGE_NAME), IMAGE_NAME)
    except (AssemblyError, ImageError) as exc:
        raise ProgramError(f"the shipped program is broken: {exc}") from None
    if image.words != program.image.words:
        raise ProgramError(f"{IMAGE_NAME} does not match {SHEET_NAME}; rebuild it with "
                           "`python -m univac_ttt.program.build`")
    return ShippedProgram(program, image)
