"""RecallBuffer (tui/history.py): Up and Down recall what prompt_toolkit's own Buffer
recalls over the same history, with no task started to load it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from prompt_toolkit.buffer import Buffer

from univac_ttt.tui.history import BoundedHistory, RecallBuffer


def _recalling(buffer: Buffer, entered: list[str], shown: list[str]) -> Iterator[None]:
    """Enter each line as the Enter key does, then Up past the oldest and Down past the
    newest, appending the texts shown on the way; it pauses (yields) after each history
    load, where prompt_toolkit's own Buffer needs its loading task to run."""
    for line in entered:
        buffer.load_history_if_not_yet_loaded()
        yield
        buffer.text = line
        buffer.append_to_history()
        buffer.reset()
    buffer.load_history_if_not_yet_loaded()
    yield
    buffer.insert_text("7")  # typed, then recalled over: Down comes back to it
    for _ in range(len(entered) + 2):
        buffer.history_backward()
        shown.append(buffer.text)
    for _ in range(len(entered) + 2):
        buffer.history_forward()
        shown.append(buffer.text)


def test_recall_matches_prompt_toolkits_loading_task() -> None:
    entered = ["5", "3", "3", "9", "1", "2", "8"]

    async def theirs() -> list[str]:
        shown: list[str] = []
        for _ in _recalling(Buffer(multiline=False, history=BoundedHistory(5)), entered, shown):
            await asyncio.sleep(0)  # the task loads
        return shown

    expected = asyncio.run(theirs())
    assert expected[:4] == ["8", "2", "1", "9"]  # the newest first, the history's limit
    ours: list[str] = []
    for _ in _recalling(RecallBuffer(multiline=False, history=BoundedHistory(5)), entered,
                        ours):
        pass  # no event loop at all: nothing to wait for
    assert ours == expected


def test_no_task_loads_the_history() -> None:
    async def tasks_after_enter() -> int:
        buffer = RecallBuffer(multiline=False, history=BoundedHistory(5))
        before = len(asyncio.all_tasks())
        buffer.text = "5"
        buffer.append_to_history()
        buffer.reset()
        buffer.load_history_if_not_yet_loaded()
        started = len(asyncio.all_tasks()) - before
        buffer.history_backward()
        assert buffer.text == "5"
        return started

    assert asyncio.run(tasks_after_enter()) == 0
