"""A command line's recall (Up and Down) that keeps the newest lines only.

prompt_toolkit's ``InMemoryHistory`` keeps every line ever entered, and each Enter costs in
proportion to all of them (the buffer reloads the whole history into its working lines,
and ``append_to_history`` copies it to compare the last line): a monitor that runs all day
would grow and slow with every command. This one keeps the newest ``limit`` lines, in
memory only, so an Enter costs the same at the end of the day as at its start.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.history import History


class BoundedHistory(History):
    """The newest ``limit`` lines entered, newest first (as prompt_toolkit loads them)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self._loaded = True  # nothing to load: a first ``load`` must not drop what is kept

    def load_history_strings(self) -> Iterable[str]:
        return ()

    def store_string(self, string: str) -> None:
        """``append_string`` has put ``string`` first: the oldest beyond the limit go."""
        del self._loaded_strings[self.limit:]
