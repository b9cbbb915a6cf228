"""Write tictactoe.img, the absolute listing, and tictactoe.tape, the program tape with
its loader, from the coding sheets tictactoe.ucs and loader.ucs."""

from __future__ import annotations

import sys
from pathlib import Path

from ..hostio.atomic_files import atomic_write
from .assembler import AssemblyError, assemble
from .image import format_image
from .shipped import IMAGE_HEADER, IMAGE_NAME, SHEET_NAME


def build_image_text() -> str:
    here = Path(__file__).parent
    program = assemble((here / SHEET_NAME).read_text(encoding="utf-8"), SHEET_NAME)
    return format_image(program.image, IMAGE_HEADER)


def main() -> int:
    try:
        text = build_image_text()
    except AssemblyError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    target = Path(__file__).parent / IMAGE_NAME
    atomic_write(target, text)  # a build stopped halfway never leaves half an image
    print(f"wrote {target}")
    from . import shipped
    from .boottape import TAPE_NAME, build_tape_text

    shipped.load_tictactoe.cache_clear()  # the image just written
    try:
        tape_text = build_tape_text()
    except shipped.ProgramError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    tape = Path(__file__).parent / TAPE_NAME
    tape.write_text(tape_text, encoding="utf-8")
    print(f"wrote {tape}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
