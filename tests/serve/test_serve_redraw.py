"""What a served terminal's redraws cost: the side panel is laid out only when its figures
change, a move is two redraws (the echo and the reply, however many words the fast
typewriter typed), and a terminal with nothing new is not redrawn. In-process, a real
prompt_toolkit output on a pipe; every wait is on a condition and bounded."""

from __future__ import annotations

import asyncio

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

import univac_ttt.console.panel_rows as panels
from tests.support.serving import TtySink, run, until
from univac_ttt.cli.serve import served_apps


def test_a_move_is_two_redraws_and_the_panel_is_laid_out_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    layouts = []
    render = panels.panel_rows

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        layouts.append(1)
        return render(*args, **kwargs)

    monkeypatch.setattr(panels, "panel_rows", counted)

    async def scenario() -> None:
        with create_pipe_input() as keys:
            output = Vt100_Output(TtySink(), lambda: Size(40, 120), term="xterm",
                                  enable_cpr=False)
            served = served_apps()["play"](keys, output)  # tic-tac-toe, as serve gives it
            app, console = served.application, served.console
            drawn: list[tuple[str, int, int]] = []  # each redraw: keyboard, move, layouts

            def after(_app: object) -> None:
                drawn.append((console.keyboard_buffer.text,
                              console.session.last_move.instructions, len(layouts)))

            app.after_render += after
            task = asyncio.get_running_loop().create_task(served.run())
            await until(lambda: drawn and not console.typing)
            await asyncio.sleep(0.5)  # the ticker has looked several times: nothing new
            seen = len(drawn)
            await asyncio.sleep(0.5)
            assert len(drawn) == seen  # idle: no redraw at all
            keys.send_text("5")
            await until(lambda: any(text == "5" for text, _, _ in drawn[seen:]))
            echoed = len(drawn)
            assert drawn[-1][2] == drawn[seen - 1][2]  # the echo laid out no panel
            first_move = drawn[-1][1]
            keys.send_text("\r")
            await until(lambda: any(move != first_move for _, move, _ in drawn[echoed:]))
            await until(lambda: not console.typing)
            settled = len(drawn)
            await asyncio.sleep(0.3)
            assert len(drawn) == settled  # nothing more to draw after the reply
            replies = drawn[echoed:]
            assert len(replies) == 1  # the whole reply: one redraw
            assert replies[0][2] == drawn[echoed - 1][2] + 1  # new figures: laid out once
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
    run(scenario(), 30)


def test_a_seated_terminal_at_rest_in_fast_speed_does_no_work() -> None:
    async def scenario() -> None:
        with create_pipe_input() as keys:
            output = Vt100_Output(TtySink(), lambda: Size(24, 80), term="xterm",
                                  enable_cpr=False)
            served = served_apps()["play"](keys, output)
            app, console = served.application, served.console
            looks: list[int] = []
            advance = console.pacer.advance

            def counted() -> bool:
                looks.append(1)
                return advance()

            console.pacer.advance = counted  # type: ignore[method-assign]
            task = asyncio.get_running_loop().create_task(served.run())
            await until(lambda: len(looks) > 0 and console.session.waiting_for_keyboard)
            await asyncio.sleep(0.1)
            seen = len(looks)
            await asyncio.sleep(0.6)  # the ticker used to look five times a second
            assert len(looks) == seen
            assert app.terminal_size_polling_interval is None  # sizes come by notice
            keys.send_text("\x1bOR")  # F3: the typewriter's own speed wakes the ticker
            await until(lambda: len(looks) > seen and console.pacer.authentic)
            app.exit(result=0)
            await asyncio.wait_for(task, 5)
    run(scenario(), 30)
