"""Program tapes: the loader (loader.ucs) in block 1, then the whole memory in 17 blocks.

INITIAL READ puts block 1 at 000-059 and starts it; the loader stores blocks 2-18 at the
addresses in LOAD_ORDER, the last over itself, and transfers to 000. Every pack's program
is booted from such a tape (``Pack.boot_tape``); tic-tac-toe also ships its tape as a file.
"""

from __future__ import annotations

from functools import lru_cache

from ..machine.tape import BLOCK_WORDS, Reel
from ..machine.word import MEMORY_WORDS, ZERO
from .assembler import AssemblyError, Program, assemble
from .reel import format_reel
from .shipped import ProgramError, read_shipped

LOADER_NAME = "loader.ucs"
# Where the loader puts blocks 2, 3, ... 18 (must agree with loader.ucs; a test checks).
LOAD_ORDER: tuple[int, ...] = tuple(range(60, 901, 60)) + (940, 0)
TAPE_HEADER = (
    "A program tape for Uniservo 1, generated with its loader (loader.ucs); do not edit.\n"
    "Mount on Uniservo 1, press CLEAR C and INITIAL READ. One word a line, 60 a block."
)


@lru_cache(maxsize=1)
def load_loader() -> Program:
    """The loader, assembled from its coding sheet."""
    try:
        loader = assemble(read_shipped(LOADER_NAME), LOADER_NAME)
    except AssemblyError as exc:
        raise ProgramError(f"the loader is broken: {exc}") from None
    if max(loader.image.words) >= BLOCK_WORDS:
        raise ProgramError("the loader does not fit in one block (000-059)")
    return loader


def _memory(words: dict[int, str]) -> list[str]:
    memory = [ZERO] * MEMORY_WORDS
    for address, word in words.items():
        memory[address] = word
    return memory


def boot_reel(words: dict[int, str], name: str = "program tape") -> Reel:
    """A tape that loads these words (all 1000, unlisted ones zero) by INITIAL READ."""
    loader = load_loader().image.words
    blocks = [tuple(loader.get(i, ZERO) for i in range(BLOCK_WORDS))]
    memory = _memory(words)
    for start in LOAD_ORDER:
        blocks.append(tuple(memory[start:start + BLOCK_WORDS]))
    return Reel(blocks, writable=False, name=name)


def boot_tape_text(words: dict[int, str], remarks: dict[int, str] | None = None,
                   header: str = TAPE_HEADER) -> str:
    """The reel file for a program tape; remarks from the loader and the program's image."""
    reel = boot_reel(words)
    notes: dict[tuple[int, int], str] = {}
    for address, remark in load_loader().image.remarks.items():
        notes[(0, address)] = remark
    for index, start in enumerate(LOAD_ORDER, start=1):
        for offset in range(BLOCK_WORDS):
            remark = (remarks or {}).get(start + offset)
            if remark:
                notes[(index, offset)] = remark
    where = {0: "the loader, read by INITIAL READ into 000-059"}
    for index, start in enumerate(LOAD_ORDER, start=1):
        where[index] = f"memory {start:03d}-{start + BLOCK_WORDS - 1:03d}"
    return format_reel(reel, header, notes, where)
