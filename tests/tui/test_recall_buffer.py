"""RecallBuffer (tui/history.py): Up and Down recall what prompt_toolkit's own Buffer
recalls over the same history, with no task started to load it."""

from __future__ import annotations

import asyncio

from prompt_toolkit.buffer import Buffer

from univac_ttt.tui.history import BoundedHistory, RecallBuffer


def _recalls(buffer: Buffer, entered: list[str]) -> list[str]:
    """Enter each line as the Enter key does, then Up past the oldest and Down past the
    newest; the texts shown on the way."""
    shown = []
    for line in entered:
        buffer.load_history_if_not_yet_loaded()
        buffer.text = line
        buffer.append_to_history()
        buffer.reset()
    buffer.load_history_if_not_yet_loaded()
    buffer.insert_text("7")  # typed, then recalled over: Down comes back to it
    for _ in range(len(entered) + 2):
        buffer.history_backward()
        shown.append(buffer.text)
    for _ in range(len(entered) + 2):
        buffer.history_forward()
        shown.append(buffer.text)
    return shown


def test_recall_matches_prompt_toolkits_loading_task() -> None:
    entered = ["5", "3", "3", "9", "1", "2", "8"]

    async def theirs() -> list[str]:
        buffer = Buffer(multiline=False, history=BoundedHistory(5))
        shown = []
        for line in entered:
            buffer.load_history_if_not_yet_loaded()
            await asyncio.sleep(0)  # the task loads
            buffer.text = line
            buffer.append_to_history()
            buffer.reset()
        buffer.load_history_if_not_yet_loaded()
        await asyncio.sleep(0)
        buffer.insert_text("7")
        for _ in range(len(entered) + 2):
            buffer.history_backward()
            shown.append(buffer.text)
        for _ in range(len(entered) + 2):
            buffer.history_forward()
            shown.append(buffer.text)
        return shown

    expected = asyncio.run(theirs())
    assert expected[:4] == ["8", "2", "1", "9"]  # the newest first, the history's limit
    assert _recalls(RecallBuffer(multiline=False, history=BoundedHistory(5)),
                    entered) == expected


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
