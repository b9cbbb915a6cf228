"""A served terminal's plain keys go straight to their handlers (serve/key_path.py), with
the effects prompt_toolkit's key state machine gives them: two served consoles, one with
the short path and one without, are given the same keys (digits, a refused key, editing
keys, history recall, Emacs's Ctrl-X prefix, F1, Esc, a bracketed paste, Enter) and end
in the same state; the short path's console calls prompt_toolkit's ``_call_handler``
only for what it leaves to the state machine."""

from __future__ import annotations

import asyncio
from typing import Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.vt100 import Vt100_Output

from tests.support.serving import TtySink, run, until
from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import make_app
from univac_ttt.serve.keys import serve_keys
from univac_ttt.serve.memory_input import MemoryPipeInput, create_memory_pipe_input
from univac_ttt.serve.wakeups import quiet_wakeups

KEYS = ["5", "x", "\x7f", "7", "\x1b[D", "\x1b[C", "\r",  # a move, a refusal, editing
        "\x1b[A", "\x1b[B", "3", "\x18", "1",  # history up and down, Ctrl-X then a digit
        "\x1bOP", "\x1bOP", "\x1b[200~9 2\x1b[201~", "\x7f\x7f", "\x1b", "4\r"]


def _console(keys: MemoryPipeInput, short_path: bool) -> Any:
    output = Vt100_Output(TtySink(), lambda: Size(40, 120), term="xterm", enable_cpr=False)
    factory = served_apps()["play"]
    if short_path:
        return make_app(factory, keys, output, authentic=False, transcript=None)
    served = factory(keys, output, authentic=False, transcript=None)  # make_app without it
    served.application.max_render_postpone_time = None
    serve_keys(served.application)
    quiet_wakeups(served.application)
    return served


def _state(served: Any) -> tuple[object, ...]:
    console, app = served.console, served.application
    buffer = console.keyboard_buffer
    processor = app.key_processor
    return (buffer.text, buffer.cursor_position, list(buffer._undo_stack),  # noqa: SLF001
            buffer.working_index, console.hint, console.hint_is_warning, console.show_help,
            console.paper.buffer.text, console.session.score.counts,
            [k.key for k in processor._previous_key_sequence],  # noqa: SLF001
            [k.key for k in processor.key_buffer], processor.arg)


def test_plain_keys_end_where_the_state_machine_ends() -> None:
    async def play(short_path: bool) -> tuple[list[tuple[object, ...]], list[object]]:
        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as keys:
            served = _console(keys, short_path)
            app, console = served.application, served.console
            app.timeoutlen = app.ttimeoutlen = 0.05  # Ctrl-X's and Esc's flush come soon
            processor = app.key_processor
            called: list[object] = []
            call_handler = processor._call_handler  # noqa: SLF001

            def counted(handler: Any, key_sequence: Any) -> None:
                called.append(key_sequence[0].key)
                call_handler(handler, key_sequence)

            processor._call_handler = counted  # noqa: SLF001
            drawn: list[int] = []
            app.after_render += lambda _app: drawn.append(1)
            task = loop.create_task(served.run())
            await until(lambda: drawn and not console.typing)
            states = []
            for key in KEYS:
                keys.send_text(key)
                await until(lambda: not keys._pending and not processor.input_queue  # noqa: SLF001
                            and not processor.key_buffer and not console.typing
                            and not keys.may_hold())
                states.append(_state(served))
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
        return states, called

    short, short_called = run(play(True), 60)
    machine, machine_called = run(play(False), 60)
    assert short == machine
    assert len(machine_called) >= len(KEYS)  # every key through _call_handler ...
    assert "5" not in short_called and "7" not in short_called  # ... digits not here
    assert len(short_called) < len(machine_called) // 2
