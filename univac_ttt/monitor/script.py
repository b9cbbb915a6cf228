"""Scripted lectures: monitor commands from a file or a pipe, printed with their output.

Each command is echoed as ``monitor> COMMAND`` and followed by what it printed, so a
lecture can be rehearsed, tested against a saved transcript, and handed out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from ..hostio.stdin_lines import COMMAND_LINE, Refused
from ..hostio.terminal_text import visible
from .core import Monitor

PROMPT = "monitor> "


def run_script(monitor: Monitor, lines: Iterable[str | Refused], out: TextIO) -> int:
    """Run commands until the end or ``quit``; 0 if every command worked, else 1.

    Everything written goes through ``visible``: a script or a saved paper cannot send
    escape sequences to the terminal.
    """
    failures = 0
    for raw in lines:
        if isinstance(raw, Refused):
            failures += 1
            out.write(f"?? {raw}; the line was not run\n")
            continue
        line = raw.rstrip("\r\n")
        if len(line) > COMMAND_LINE:
            failures += 1
            out.write(f"?? the line is longer than {COMMAND_LINE:,} characters; "
                      "it was not run\n")
            continue
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            out.write(visible(line) + "\n")
            continue
        out.write(f"{PROMPT}{visible(line.strip())}\n")
        for text in monitor.execute(line):
            if text.startswith("??"):
                failures += 1
            out.write(visible(text) + "\n")
        out.flush()
        if monitor.finished:
            break
    return 1 if failures else 0
