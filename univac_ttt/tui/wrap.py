"""Text wrapped at words for a window of a given width, so a narrow screen loses nothing.

prompt_toolkit's own ``wrap_lines`` breaks a line at the last column, in the middle of a
word ("earlier entri" / "es"); these helpers break at spaces and keep each line's indent on
its continuation lines, so a help box or a hint reads as written at any width.
"""

from __future__ import annotations

import textwrap


def wrap_words(text: str, width: int, reflow: bool = False) -> list[str]:
    """``text`` wrapped at spaces to ``width`` columns; blank lines and each line's leading
    indent are kept (continuation lines take the same indent). A word longer than the
    width (a long file name) is the only thing ever broken. With ``reflow`` (prose such as
    a help text, not the paper, whose lines are each what was typed), when some line is
    too wide the unindented lines of a paragraph are joined first, so a narrow screen gets
    even lines rather than each long line broken with a short stub after it; indented
    lines (a drawn board, aligned key columns) stay lines of their own."""
    width = max(8, width)
    source = text.split("\n")
    if reflow and any(len(line) > width for line in source):
        source = _paragraphs(source)
    lines: list[str] = []
    for line in source:
        if len(line) <= width or not line.strip():
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if len(indent) > width // 2:
            indent = ""
        lines += textwrap.wrap(line.strip(), width, initial_indent=indent,
                               subsequent_indent=indent, break_on_hyphens=False) or [""]
    return lines


def paragraphs_joined(text: str) -> str:
    """Prose whose paragraphs are each one line, for a page that wraps it at its own
    width (the browser's help: lines broken for 80 columns, then again by the dialog a
    little narrower, read "warns" / "you" / "politely"); indented lines stay as they are."""
    return "\n".join(_paragraphs(text.split("\n")))


def _paragraphs(lines: list[str]) -> list[str]:
    """Runs of unindented, non-blank lines joined into one line each."""
    joined: list[str] = []
    open_paragraph = False
    for line in lines:
        prose = bool(line.strip()) and not line[0].isspace()
        if prose and open_paragraph:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
        open_paragraph = prose
    return joined
