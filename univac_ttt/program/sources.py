"""One loader for the files ``run``, ``monitor``, ``verify`` and ``assemble`` accept.

A user's file is either a coding sheet (``.ucs``: assembled, so labels and remarks come
with it) or a memory image (``address word remark`` lines). Every subcommand goes through
``read_program`` so that a file one of them takes, all of them take.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .assembler import AssemblyError, Program, assemble_file
from .image import ImageError, read_image

SHEET_SUFFIX = ".ucs"
IMAGE_SUFFIX = ".img"


class ProgramFileError(ValueError):
    """A file that is neither a coding sheet nor a memory image; one line says why."""


@dataclass(frozen=True)
class ProgramFile:
    words: dict[int, str]
    program: Program | None  # None: a bare image, with no labels or remarks
    kind: str  # "coding sheet" or "memory image"


def read_program(path: str | Path) -> ProgramFile:
    """A coding sheet by its ``.ucs`` name, an image by ``.img``; any other name is tried
    as an image and then as a sheet, and if both fail the image's reason is given."""
    suffix = Path(path).suffix.lower()
    if suffix == SHEET_SUFFIX:
        return read_sheet(path)
    try:
        return ProgramFile(read_image(path).words, None, "memory image")
    except ImageError as image_error:
        if suffix == IMAGE_SUFFIX or image_error.line is None:
            raise ProgramFileError(str(image_error)) from None
        try:
            return read_sheet(path)
        except ProgramFileError:
            raise ProgramFileError(f"{image_error} (and it is not a coding sheet either; "
                                   f"name a sheet {SHEET_SUFFIX})") from None


def read_sheet(path: str | Path) -> ProgramFile:
    try:
        program = assemble_file(path)
    except AssemblyError as exc:
        where = f"{path}: {exc.reason}" if exc.line == 0 else str(exc)  # 0: not a line's fault
        raise ProgramFileError(where) from None
    return ProgramFile(program.image.words, program, "coding sheet")
