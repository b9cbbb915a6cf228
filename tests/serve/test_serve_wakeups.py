"""A served terminal's keys start no timer unless they are held as a prefix, and its
redraws wake the loop through no self-pipe (serve/wakeups.py); a held key is still flushed
after the timeout and an invalidation from another thread still redraws. In-process, a real
prompt_toolkit output; every wait is on a condition and bounded."""

from __future__ import annotations

import asyncio
import threading

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.keys import Keys
from prompt_toolkit.output.vt100 import Vt100_Output

from tests.support.serving import TtySink, run, until
from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import make_app
from univac_ttt.serve.memory_input import create_memory_pipe_input


def _served_console(keys):  # type: ignore[no-untyped-def]
    """A served game console reading ``keys``, drawing to memory at 120x40."""
    output = Vt100_Output(TtySink(), lambda: Size(40, 120), term="xterm", enable_cpr=False)
    return make_app(served_apps()["play"], keys, output, authentic=False, transcript=None)


def test_keys_start_timers_only_when_held_and_redraws_use_no_self_pipe(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        woken: list[int] = []
        write_to_self = loop._write_to_self  # type: ignore[attr-defined]

        def counted() -> None:
            woken.append(1)
            write_to_self()

        monkeypatch.setattr(loop, "_write_to_self", counted)
        with create_pipe_input() as keys:
            served = _served_console(keys)
            app, console = served.application, served.console
            app.timeoutlen = app.ttimeoutlen = 0.05  # a held key's flush comes soon
            drawn: list[str] = []
            app.after_render += lambda _app: drawn.append(console.keyboard_buffer.text)
            processor = app.key_processor
            task = loop.create_task(served.run())
            await until(lambda: drawn and not console.typing)
            woken.clear()
            keys.send_text("5")
            await until(lambda: drawn[-1] == "5")
            assert processor._flush_wait_task is None  # "5" holds nothing: no timer
            assert woken == []  # the echo's redraw was scheduled on the loop itself

            keys.send_text("\x18")  # Ctrl-X: the prefix of Emacs bindings (Ctrl-X Ctrl-E ...)
            await until(lambda: [k.key for k in processor.key_buffer] == [Keys.ControlX])
            assert processor._flush_wait_task is not None  # held: prompt_toolkit's timer
            await until(lambda: not processor.key_buffer)  # and flushed when it ran out

            before = len(drawn)
            console.say("from another thread")
            await until(lambda: not app.invalidated)
            thread = threading.Thread(target=app.invalidate)
            thread.start()
            thread.join()
            await until(lambda: len(drawn) > before)  # the thread-safe path still redraws
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
    run(scenario(), 30)


def test_a_read_starts_no_flush_task_unless_an_escape_may_be_held() -> None:
    """prompt_toolkit's half-second flush task for every read of input: not started for a
    digit from a memory input (its parser can hold nothing), still started, and still
    flushing, after a lone Esc."""
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as keys:
            served = _served_console(keys)
            app, console = served.application, served.console
            app.timeoutlen = app.ttimeoutlen = 0.05  # the flush comes soon
            drawn: list[str] = []
            app.after_render += lambda _app: drawn.append(console.keyboard_buffer.text)
            task = loop.create_task(served.run())
            await until(lambda: drawn and not console.typing)

            def flushing() -> int:
                return sum(t.get_coro().__name__ == "auto_flush_input"  # type: ignore[union-attr]
                           for t in app._background_tasks)  # noqa: SLF001
            keys.send_text("5")
            await until(lambda: drawn[-1] == "5")
            assert flushing() == 0 and not keys.may_hold()

            keys.send_text("\x1b")  # a lone Esc: held by the parser until the flush
            await until(keys.may_hold)
            assert flushing() == 1
            await until(lambda: not keys.may_hold())  # the flush ran and took it
            # the finished task leaves the application's set in a done callback, a loop
            # turn after it took the key: wait for that, then see no new one is started
            await until(lambda: flushing() == 0)
            keys.send_text("\x7f")  # Backspace after it: the keys still arrive
            await until(lambda: drawn[-1] == "")
            assert flushing() == 0  # and a Backspace, like a digit, starts no flush task
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
    run(scenario(), 30)


def test_an_invalidation_fires_its_event_then_redraws_in_one_handle(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """prompt_toolkit queues the invalidation's event and the redraw as two callbacks;
    a served terminal's echo queues one, which fires the event first, then draws."""
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        with create_pipe_input() as keys:
            served = _served_console(keys)
            app, console = served.application, served.console
            seen: list[str] = []
            app.on_invalidate += lambda _app: seen.append("event")
            app.after_render += lambda _app: seen.append("drawn")
            task = loop.create_task(served.run())
            await until(lambda: "drawn" in seen and not console.typing)
            queued: list[object] = []
            call_soon = loop.call_soon

            def counted(callback, *args, **kwargs):  # type: ignore[no-untyped-def]
                queued.append(callback)
                return call_soon(callback, *args, **kwargs)

            monkeypatch.setattr(loop, "call_soon", counted)
            seen.clear()
            console.say("a new hint")
            app.invalidate()
            await until(lambda: "drawn" in seen)
            monkeypatch.setattr(loop, "call_soon", call_soon)
            assert seen == ["event", "drawn"]
            # the one redraw's handle (the test's own waits wake its task besides)
            assert len([c for c in queued
                        if not isinstance(getattr(c, "__self__", None), asyncio.Task)]) == 1
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
    run(scenario(), 30)


def test_a_key_is_drawn_in_the_turn_that_processed_it() -> None:
    """The keys' redraw is drawn as ``process_keys`` returns, not queued for the loop's
    next turn: one turn after the key is sent (its read), the echo is on the screen; and a
    reply's several invalidations while the keys are processed draw once."""
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as keys:
            served = _served_console(keys)
            app, console = served.application, served.console
            drawn: list[str] = []
            app.after_render += lambda _app: drawn.append(console.keyboard_buffer.text)
            task = loop.create_task(served.run())
            await until(lambda: drawn and not console.typing)
            before = len(drawn)
            keys.send_text("5")
            await asyncio.sleep(0)  # the loop's next turn runs the read, then this task
            assert drawn[before:] == ["5"]
            keys.send_text("\r")  # a reply: the keyboard line, the paper, the panel change
            await asyncio.sleep(0)
            assert drawn[before + 1:] == [""]
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
    run(scenario(), 30)
