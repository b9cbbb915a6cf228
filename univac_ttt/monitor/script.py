"""Scripted lectures: monitor commands from a file or a pipe, printed with their output.

Each command is echoed as ``monitor> COMMAND`` and followed by what it printed, so a
lecture can be rehearsed, tested against a saved transcript, and handed out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from .core import Monitor

PROMPT = "monitor> "


def run_script(monitor: Monitor, lines: Iterable[str], out: TextIO) -> int:
    """Run commands until the end or ``quit``; 0 if every command worked, else 1."""
    failures = 0
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            out.write(line + "\n")
            continue
        out.write(f"{PROMPT}{line.strip()}\n")
        for text in monitor.execute(line):
            if text.startswith("??"):
                failures += 1
            out.write(text + "\n")
        out.flush()
        if monitor.finished:
            break
    return 1 if failures else 0
