"""Write tictactoe.img, the absolute listing, and tictactoe.tape, the program tape with
its loader, from the coding sheets tictactoe.ucs and loader.ucs:

    python -m univac_ttt.packs.tictactoe.build
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...hostio.atomic_files import atomic_write
from ...program.assembler import AssemblyError, assemble
from ...program.boottape import boot_tape_text
from ...program.image import format_image
from . import BUILD_COMMAND, IMAGE_NAME, SHEET_NAME, TAPE_NAME

HERE = Path(__file__).parent
IMAGE_HEADER = (
    f"TIC-TAC-TOE FOR THE UNIVAC I: memory image, generated from {SHEET_NAME}\n"
    f"by `{BUILD_COMMAND}`; do not edit by hand.\n"
    "address, word (12 UNIVAC characters), label and remark"
)
TAPE_HEADER = (
    "TIC-TAC-TOE FOR THE UNIVAC I: program tape for Uniservo 1, generated from\n"
    f"{SHEET_NAME} and loader.ucs by `{BUILD_COMMAND}`; do not edit.\n"
    "Mount on Uniservo 1, press CLEAR C and INITIAL READ. One word a line, 60 a block."
)


def _program():
    return assemble((HERE / SHEET_NAME).read_text(encoding="utf-8"), SHEET_NAME)


def build_image_text() -> str:
    return format_image(_program().image, IMAGE_HEADER)


def build_tape_text() -> str:
    """tictactoe.tape as the build writes it, from the coding sheet."""
    program = _program()
    return boot_tape_text(program.image.words, program.image.remarks, TAPE_HEADER)


def main() -> int:
    try:
        image_text, tape_text = build_image_text(), build_tape_text()
    except AssemblyError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    for name, text in ((IMAGE_NAME, image_text), (TAPE_NAME, tape_text)):
        target = HERE / name
        atomic_write(target, text)  # a build stopped halfway never leaves half a file
        print(f"wrote {target}")
    from ..snapshot import main as write_snapshots  # the snapshots record the new files

    return write_snapshots()


if __name__ == "__main__":
    sys.exit(main())
