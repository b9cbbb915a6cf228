"""What ``univac-ttt tape`` does: make a program tape, list a reel's blocks, compare reels.

Each function returns text for the user (or raises ReelError, ImageError, AssemblyError,
ProgramError or OSError with a clear message); the CLI only prints and picks the status.
"""

from __future__ import annotations

from pathlib import Path

from ..hostio.atomic_files import atomic_write
from ..machine.tape import Reel
from ..machine.word import ZERO, to_text
from .assembler import assemble_file
from .boottape import boot_tape_text
from .image import read_image

MAX_DIFFERENCES = 10


def make_tape(source: str, output: str) -> str:
    """Write a program tape (loader + memory) for an image or a coding sheet (.ucs)."""
    if source.endswith(".ucs"):
        program = assemble_file(source)
        words, remarks = program.image.words, program.image.remarks
    else:
        image = read_image(source)
        words, remarks = image.words, image.remarks
    header = (f"program tape for Uniservo 1, made from {Path(source).name} by "
              "`univac-ttt tape make`\nMount on Uniservo 1, press CLEAR C and INITIAL READ.")
    atomic_write(output, boot_tape_text(words, remarks, header))
    return f"wrote {output}: the loader and 17 blocks of memory, 18 blocks in all"


def list_reel(reel: Reel) -> str:
    """One line a block: its number, first and last word, and how many words are not zero."""
    lines = [f"{reel.name}: {reel.block_count} block{'s' if reel.block_count != 1 else ''}"
             f"{' (writable)' if reel.writable else ''}"]
    for index, block in enumerate(reel.blocks, start=1):
        used = sum(1 for word in block if word != ZERO)
        lines.append(f"block {index:4d}  {to_text(block[0])} ... {to_text(block[-1])}  "
                     f"{used:2d} of 60 words not zero")
    return "\n".join(lines)


def compare_reels(first: Reel, second: Reel) -> tuple[bool, str]:
    """(same, report): the blocks that differ and, for the first few, the words."""
    if first.blocks == second.blocks:
        return True, f"the reels are the same: {first.block_count} blocks"
    lines = []
    if first.block_count != second.block_count:
        lines.append(f"{first.name} has {first.block_count} blocks, {second.name} has "
                     f"{second.block_count}")
    shown = 0
    for index, (a, b) in enumerate(zip(first.blocks, second.blocks, strict=False), start=1):
        for offset, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                if shown < MAX_DIFFERENCES:
                    lines.append(f"block {index} word {offset + 1}: {to_text(x)} / "
                                 f"{to_text(y)}")
                shown += 1
    if shown > MAX_DIFFERENCES:
        lines.append(f"... {shown - MAX_DIFFERENCES} more words differ")
    return False, "\n".join(lines)
