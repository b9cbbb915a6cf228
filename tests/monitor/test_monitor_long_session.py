"""A lecturer's monitor (or a served one) runs all day: thousands of commands leave what it
keeps for them at its bound, and what it keeps still does its job exactly."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.monitors import game_monitor
from univac_ttt.monitor.app import MonitorApp
from univac_ttt.monitor.app_layout import COMMAND_HISTORY
from univac_ttt.monitor.timeline import MAX_CHECKPOINTS

MOVES = 3 * MAX_CHECKPOINTS  # keyboard words read: each a type and a continue, 2,400 commands


def test_the_key_log_keeps_only_the_words_back_can_still_replay() -> None:
    """The desk's key log (the words the machine read, for exact back-stepping) grew by a
    word a move for ever; the words before the earliest checkpoint can never be replayed."""
    m = game_monitor()
    m.execute("go")
    for move in range(MOVES):
        if move == MOVES - 3:
            then = (m.machine.instructions, m.machine.snapshot(), m.keyboard.pending_words)
        m.execute(f"type {1 + move % 9}")
        m.execute("continue")
    keyboard, checkpoints = m.keyboard, m.timeline.checkpoints
    assert len(checkpoints) == MAX_CHECKPOINTS
    assert len(keyboard.log) <= MAX_CHECKPOINTS  # a word a move here, MOVES before
    assert keyboard.read == MOVES  # every word counted, those since the earliest kept
    assert len(keyboard.log) == MOVES - checkpoints[0].keyboard_read
    # What is kept replays exactly: back over three moves' keyboard reads.
    instructions, snapshot, _pending = then
    m.execute(f"back {m.machine.instructions - instructions}")
    assert m.machine.snapshot() == snapshot
    assert keyboard.read == MOVES - 3 and len(keyboard.pending_words) == 3
    assert not m.execute("history 2000")[0].startswith("??")  # replays and agrees


def test_the_command_line_recalls_a_bounded_history() -> None:
    """prompt_toolkit's InMemoryHistory kept every line typed, and each Enter reloads all
    of it into the buffer (and copies it to compare the last): a cost growing all day."""
    with create_pipe_input() as pipe:
        app = MonitorApp(game_monitor(), input=pipe, output=DummyOutput())
    buffer = app.command_buffer
    for number in range(3 * COMMAND_HISTORY):  # as the Enter key does
        buffer.text = f"examine {number % 1000:03d}"
        buffer.append_to_history()
        buffer.reset()
    strings = buffer.history.get_strings()
    assert len(strings) == COMMAND_HISTORY
    assert strings[-1] == f"examine {(3 * COMMAND_HISTORY - 1) % 1000:03d}"  # the newest

    async def loaded() -> list[str]:
        return [line async for line in buffer.history.load()]

    assert len(asyncio.run(loaded())) == COMMAND_HISTORY  # what Up can reach after Enter
