"""A served terminal's plain keys go straight to their handlers (serve/key_path.py), with
the effects prompt_toolkit's key state machine gives them: two served consoles, one with
the short path and one without, are given the same keys (digits, a refused key, editing
keys, history recall, Emacs's Ctrl-X prefix, F1, Esc, a bracketed paste, Enter) and end
in the same state; the short path's console calls prompt_toolkit's ``_call_handler``
only for what it leaves to the state machine."""

from __future__ import annotations

import asyncio
from typing import Any

from prompt_toolkit.application.current import create_app_session
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


def test_terminals_share_the_consoles_bindings_and_each_key_acts_on_its_own() -> None:
    """The console's 37 bindings are one table for the process (console/app_keys.py),
    not built again at every connection; a key acts on the console it came to."""
    async def terminal(keys: MemoryPipeInput, served: list[Any], drawn: list[int]) -> None:
        with create_app_session(input=keys):  # each its own session, as served
            console = _console(keys, True)
            app = console.application
            app.timeoutlen = app.ttimeoutlen = 0.05
            app.after_render += lambda _app: drawn.append(1)
            served.append(console)
            await console.run()

    async def scenario() -> tuple[str, str, bool]:
        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as one_keys, create_memory_pipe_input() as two_keys:
            served: list[Any] = []
            drawn: list[int] = []
            tasks = [loop.create_task(terminal(keys, served, drawn))
                     for keys in (one_keys, two_keys)]
            await until(lambda: len(served) == 2 and len(drawn) >= 2
                        and not any(s.console.typing for s in served), 20)
            one, two = served
            ones = one.application.key_bindings.registries  # [basic, the console's]
            twos = two.application.key_bindings.registries
            shared = ones[1] is twos[1] and len(ones[1].bindings) > 30
            one_keys.send_text("3")
            two_keys.send_text("\x1bOP")  # F1: help on the second terminal only
            await until(lambda: one.console.keyboard_buffer.text == "3"
                        and two.console.show_help, 20)
            texts = (one.console.keyboard_buffer.text, two.console.keyboard_buffer.text)
            helps = one.console.show_help
            for console in served:
                console.application.exit(result=0)
            await asyncio.wait_for(asyncio.gather(*tasks), 5)
        return (*texts, shared and not helps)

    assert run(scenario(), 30) == ("3", "", True)


def test_a_prompt_toolkit_binding_that_fails_on_the_short_path_is_dropped_by_the_guard(
        monkeypatch) -> None:
    """The key guard (tui/keyguard.py) wraps the processor's ``_call_handler`` when the
    terminal starts running, after make_app gave it the short path: a prompt_toolkit
    binding the short path takes (Left) still goes through the guard, so its failure drops
    the key and the terminal goes on (the short path once kept the unguarded method)."""
    from prompt_toolkit.key_binding.key_processor import KeyPress
    from prompt_toolkit.keys import Keys

    async def scenario() -> tuple[int, str, bool]:
        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as keys:
            served = _console(keys, True)
            app, console = served.application, served.console
            processor = app.key_processor
            left = processor._get_matches([KeyPress(Keys.Left)])[-1]  # noqa: SLF001
            assert left.handler.__module__.startswith("prompt_toolkit.")

            def fails(event: Any) -> None:
                raise RuntimeError("a prompt_toolkit binding failed")

            fails.__module__ = left.handler.__module__
            monkeypatch.setattr(left, "handler", fails)
            drawn: list[int] = []
            app.after_render += lambda _app: drawn.append(1)
            task = loop.create_task(served.run())
            await until(lambda: drawn and not console.typing)
            keys.send_text("\x1b[D")
            await until(lambda: getattr(processor, "dropped_keys", 0) == 1 or task.done())
            keys.send_text("5")
            await until(lambda: console.keyboard_buffer.text == "5" or task.done())
            alive = not task.done()
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
        return processor.dropped_keys, console.keyboard_buffer.text, alive

    assert run(scenario(), 30) == (1, "5", True)
