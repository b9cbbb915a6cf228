"""A command line's recall (Up and Down) that keeps the newest lines only, loaded at once.

prompt_toolkit's ``InMemoryHistory`` keeps every line ever entered, and each Enter costs in
proportion to all of them (the buffer reloads the whole history into its working lines,
and ``append_to_history`` copies it to compare the last line): a monitor that runs all day
would grow and slow with every command. This one keeps the newest ``limit`` lines, in
memory only, so an Enter costs the same at the end of the day as at its start.

And after every Enter (``Buffer.reset``) prompt_toolkit reloads the history into the
buffer's working lines in a background task: a task, its step on the loop and two done
callbacks a line entered, for every terminal of a server. A ``RecallBuffer`` over a
``BoundedHistory`` (in memory, nothing to wait for) loads it where it is asked for, in the
same order and to the same working lines the task would have: the task's body never waits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.clipboard import ClipboardData
from prompt_toolkit.history import History
from prompt_toolkit.selection import PasteMode


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


class _Loaded:
    """Stands where prompt_toolkit keeps its load task: a load that is already done
    (``Buffer.reset`` only ever cancels it)."""

    def cancel(self) -> bool:
        return False

    def done(self) -> bool:
        return True


_LOADED = _Loaded()


class RecallBuffer(Buffer):
    """A Buffer that loads a BoundedHistory into its working lines at once (any other
    history as prompt_toolkit does, in a task), and holds at most ``max_length``
    characters: a paste sent as keys (tmux paste-buffer, a terminal without bracketed
    paste) made each key copy and index the whole line, and 30,000 keys took the monitor
    to 480 MB. What does not fit is dropped, and ``on_full`` is told."""

    def __init__(self, *args: Any, max_length: int | None = None,
                 on_full: Callable[[], None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_length = max_length
        self.on_full = on_full

    def insert_text(self, data: str, overwrite: bool = False, move_cursor: bool = True,
                    fire_event: bool = True) -> None:
        if self.max_length is not None:
            room = max(0, self.max_length - len(self.text))
            if len(data) > room:
                data = data[:room]
                if self.on_full is not None:
                    self.on_full()
                if not data:
                    return
        super().insert_text(data, overwrite, move_cursor, fire_event)

    def paste_clipboard_data(self, data: ClipboardData, paste_mode: PasteMode = PasteMode.EMACS,
                             count: int = 1) -> None:
        """A yank (Ctrl-Y, after Esc and a count up to 999,999) is cut to the room left too:
        prompt_toolkit sets the document whole, past ``insert_text``."""
        if self.max_length is not None and len(data.text) * count > (
                room := max(0, self.max_length - len(self.text))):
            if self.on_full is not None:
                self.on_full()
            text = (data.text * min(count, room // len(data.text) + 1))[:room]
            if not text:
                return
            data, count = ClipboardData(text, data.type), 1
        super().paste_clipboard_data(data, paste_mode, count)

    def load_history_if_not_yet_loaded(self) -> None:
        if self._load_history_task is not None:
            return
        history = self.history
        if not isinstance(history, BoundedHistory):
            super().load_history_if_not_yet_loaded()
            return
        strings = history._loaded_strings  # noqa: SLF001 - what History.load yields, newest first
        self._working_lines.extendleft(strings)  # as the task's appendleft of each
        self._Buffer__working_index += len(strings)  # type: ignore[attr-defined]
        self._load_history_task = _LOADED  # type: ignore[assignment]
