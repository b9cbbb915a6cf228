"""A served terminal's application attaches no SIGWINCH handler (serve/winch.py): its size
comes from its connection, and the server's own window changes redraw no student's screen;
an application that is not served still attaches prompt_toolkit's."""

from __future__ import annotations

import asyncio
import signal

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from tests.support.serving import TtySink, run, until
from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import make_app
from univac_ttt.serve.memory_input import create_memory_pipe_input


def _winch(loop: asyncio.AbstractEventLoop) -> object:
    handle = loop._signal_handlers.get(signal.SIGWINCH)  # type: ignore[attr-defined]
    return None if handle is None else getattr(handle._callback, "__self__", None)


def test_a_served_terminal_attaches_no_sigwinch_handler_and_still_resizes() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        size = [Size(40, 120)]
        with create_memory_pipe_input() as keys:
            output = Vt100_Output(TtySink(), lambda: size[0], term="xterm", enable_cpr=False)
            served = make_app(served_apps()["play"], keys, output, authentic=False,
                              transcript=None)
            app, console = served.application, served.console
            drawn: list[int] = []
            app.after_render += lambda _app: drawn.append(1)
            task = loop.create_task(served.run())
            await until(lambda: drawn and not console.typing)
            assert app.is_running
            assert _winch(loop) is None  # prompt_toolkit's run_async would attach app's

            with create_pipe_input() as other_keys:
                other = Application(input=other_keys, output=DummyOutput())
                other_task = loop.create_task(other.run_async(handle_sigint=False))
                await until(lambda: other.is_running)
                assert _winch(loop) is other  # not served: prompt_toolkit's own attach
                other.exit()
                await asyncio.wait_for(other_task, 5)
            assert _winch(loop) is None

            before = len(drawn)
            size[0] = Size(30, 100)
            app._on_resize()  # as the telnet connection does at NAWS
            await until(lambda: len(drawn) > before)
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
        assert _winch(loop) is None
    run(scenario(), 30)
