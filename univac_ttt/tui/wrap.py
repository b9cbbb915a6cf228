"""Text wrapped at words for a window of a given width, so a narrow screen loses nothing.

prompt_toolkit's own ``wrap_lines`` breaks a line at the last column, in the middle of a
word ("earlier entri" / "es"); these helpers break at spaces and keep each line's indent on
its continuation lines, so a help box or a hint reads as written at any width.
"""

from __future__ import annotations

import textwrap


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` wrapped at spaces to ``width`` columns; blank lines and each line's leading
    indent are kept (continuation lines take the same indent). A word longer than the
    width (a long file name) is the only thing ever broken."""
    width = max(8, width)
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width or not line.strip():
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if len(indent) > width // 2:
            indent = ""
        lines += textwrap.wrap(line.strip(), width, initial_indent=indent,
                               subsequent_indent=indent, break_on_hyphens=False) or [""]
    return lines
