"""The assembler's listing: one line a word, with each section's title above its words.

``univac-ttt assemble`` prints it so that a student can check an exercise's sheet word by
word against what the monitor's ``examine`` will show.
"""

from __future__ import annotations

from ..hostio.wording import count
from .assembler import Program
from .disassembler import view


def listing_lines(program: Program) -> list[str]:
    """address, characters, number, the two instructions, label and remark."""
    lines: list[str] = []
    section = None
    for address in sorted(program.image.words):
        title = program.sections.get(address, "")
        if title and title != section:
            lines += ([""] if lines else []) + [f"# {title}"]
            section = title
        lines.append(view(program.image.words[address], address, program).line())
    lines.append(f"# {count(len(program.image.words), 'word')}, "
                 f"{count(len(program.symbols), 'label')}")
    return lines
