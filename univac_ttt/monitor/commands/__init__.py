"""The monitor's commands, one module a topic; importing this package fills the table.

Each command is ``def step(mon, rest) -> list[str]`` under ``@command(...)``; help lists
them in the order of the topics below, and within a topic in the module's order."""

from . import breaks, desk, files, memory, meta, running  # noqa: F401 - they register
from .registry import COMMAND_LINE_LIMIT, COMMANDS, Command, MonitorError, find_command

__all__ = ["COMMANDS", "COMMAND_LINE_LIMIT", "Command", "MonitorError", "find_command"]
