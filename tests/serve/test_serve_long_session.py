"""A served terminal left playing all day keeps bounded state: the paper it keeps, the text
its screen can scroll through and its memory stop growing once full.

In-process: the console serve hands a terminal, on a pipe input and a VT100 output at
120x40 with shared key bindings (``serve.apps.make_app``, as the server builds it), plays
games by typing 1 to 9 in turn (taken squares are refused, as a student's are). The paper's
cap and the text a served screen keeps (SERVED_SHOWN_LIMIT, about ten games) are lowered
for the test so that both are full after a few games; memory (tracemalloc) is compared between
the middle and the end of the run, both past those caps. (At the console's own 16,000
characters memory grew 36 KiB a game for 45 games: the screen's text in prompt_toolkit's
document caches.) `pytest --long` plays 60 games.
"""

from __future__ import annotations

import asyncio
import gc
import io
import time
import tracemalloc

from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

import univac_ttt.console.app as console_app
import univac_ttt.console.served as served_console
from tests.support.serving import run
from tests.support.sizes import SERVED_SESSION_GAMES, size
from univac_ttt.cli.serve import served_apps
from univac_ttt.desk import desk, paper
from univac_ttt.desk.warm import warm_blocks
from univac_ttt.packs import shipped_pack
from univac_ttt.serve.apps import make_app

SMALL_PAPER = 1_500  # characters: about three games' paper
GRACE = 0.05  # seconds in which a new game drops older keys (the console's is 0.5)
GROWTH_BOUND = 150_000  # bytes the second half of the games may add (caches settling)


class _Sink(io.StringIO):
    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


async def _until(condition, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.005)


def test_a_long_session_keeps_bounded_paper_text_and_memory(monkeypatch, long_run) -> None:  # type: ignore[no-untyped-def]
    games = size(*SERVED_SESSION_GAMES)
    monkeypatch.setattr(paper.Paper.__init__, "__defaults__", (SMALL_PAPER,))
    monkeypatch.setattr(served_console, "SERVED_SHOWN_LIMIT", SMALL_PAPER)
    monkeypatch.setattr(console_app, "TYPEAHEAD_GRACE", GRACE)
    defaults = desk.Desk.__init__.__defaults__
    assert defaults is not None and defaults[-1] == paper.PAPER_LIMIT  # paper_limit's
    monkeypatch.setattr(desk.Desk.__init__, "__defaults__", (*defaults[:-1], SMALL_PAPER))

    # As `serve` does before it listens: the program's blocks compiled first, so what the
    # games add is the terminal's, whatever the tests before this one in the process
    # compiled (a worker that had compiled little grew 566 kB here, compiling)
    warm_blocks(shipped_pack("tictactoe"))

    async def scenario() -> tuple[int, int]:
        with create_pipe_input() as keys:
            output = Vt100_Output(_Sink(), lambda: Size(40, 120), term="xterm",
                                  enable_cpr=False)
            with create_app_session(input=keys, output=output):
                served = make_app(served_apps()["play"], keys, output, authentic=False,
                                  transcript=None)
                console = served.console  # type: ignore[attr-defined]
                task = asyncio.get_running_loop().create_task(served.run())
                await _until(lambda: not console.typing and console.session.desk.paper.text)
                traced: list[int] = []
                square = 0
                while sum(served.results()) < games:
                    ended = sum(served.results())
                    square = square % 9 + 1
                    typed = console.session.desk.paper.end
                    keys.send_text(f"{square}\r")
                    await _until(lambda m=typed: console.keyboard_buffer.text == ""
                                 and not console.typing
                                 and console.session.desk.paper.end > m)
                    if sum(served.results()) > ended:  # a game ended; the next is ready
                        square = 0
                        await _until(lambda: not console.holding())  # keys count again
                        kept = console.session.desk.paper.characters
                        assert kept <= SMALL_PAPER, kept
                        assert len(console.pacer.text) <= SMALL_PAPER + 64 * 12  # as the kiosk's
                        if sum(served.results()) in (games // 2, games):
                            gc.collect()
                            traced.append(tracemalloc.get_traced_memory()[0])
                served.application.exit(result=0)
                await asyncio.wait_for(task, 5)
                return traced[0], traced[-1]

    tracemalloc.start()
    try:
        middle, end = run(scenario(), 300 if long_run else 120)
    finally:
        tracemalloc.stop()
    assert end - middle < GROWTH_BOUND, (middle, end)
