"""The one table of monitor commands, built by the ``command`` decorator (as py65 registers
its instructions): help, completion and the served monitor's refusals all read it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core import Monitor

Step = Callable[["Monitor", str], list[str]]
COMMAND_LINE_LIMIT = 1_000  # characters of a line in a do file or a breakpoint action


class MonitorError(Exception):
    """A command that cannot be done: one line for the operator, nothing changed."""


@dataclass(frozen=True)
class Command:
    name: str
    aliases: tuple[str, ...]
    usage: str
    summary: str
    step: Step  # (monitor, the words after the name) -> the lines it prints
    topic: str  # the module that holds it, one of TOPICS
    files: bool = False  # reads or writes files on the host: refused where files are off


TOPICS = ("running", "breaks", "memory", "desk", "files", "meta")  # help's order
COMMANDS: list[Command] = []  # by topic, then in each module's order: help's order
_BY_NAME: dict[str, Command] = {}


def command(name: str, *aliases: str, usage: str, summary: str,
            files: bool = False) -> Callable[[Step], Step]:
    """Register ``def step(mon, rest) -> list[str]`` as the monitor command ``name``."""
    def register(step: Step) -> Step:
        entry = Command(name, aliases, usage, summary, step,
                        step.__module__.rpartition(".")[2], files)
        for spelling in (name, *aliases):
            if spelling in _BY_NAME:
                raise ValueError(f"monitor command {spelling!r} registered twice")
            _BY_NAME[spelling] = entry
        COMMANDS.append(entry)
        COMMANDS.sort(key=lambda c: TOPICS.index(c.topic))  # stable: a module's order stays
        return step
    return register


def find_command(word: str) -> Command:
    """A command by name, alias, or unique prefix (SIMH style)."""
    word = word.lower()
    if word in _BY_NAME:
        return _BY_NAME[word]
    matches = {c.name for c in COMMANDS if c.name.startswith(word)}
    if len(matches) == 1:
        return _BY_NAME[matches.pop()]
    if matches:
        raise MonitorError(f"'{word}' could be {', '.join(sorted(matches))}")
    raise MonitorError(f"no command '{word}'; type help for the list")


def count_word(rest: str, default: int = 1) -> int:
    """A command's count argument: 1 to 999999999, ``default`` when none is given."""
    import re

    if not rest:
        return default
    if not re.fullmatch(r"\d{1,9}", rest) or int(rest) < 1:
        shown = rest if len(rest) <= 20 else rest[:20] + "..."
        raise MonitorError(f"'{shown}' is not a count (1 to 999999999)")
    return int(rest)
