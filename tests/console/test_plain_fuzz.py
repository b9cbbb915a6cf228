"""The plain console under abuse: any flood of lines, and a soak of many games in one
process without growing (120 games, the last 60 measured after the paper of some forty
games has filled; 10,000 under `pytest --long`; sizes in tests/support/sizes.py).
"""

import io
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from tests.support.entries import entries
from tests.support.sizes import PLAIN_SOAK_GAMES, size
from univac_ttt.console.plain import PlainConsole
from univac_ttt.desk import Desk
from univac_ttt.machine import StopKind
from univac_ttt.packs.tictactoe import DEMO_GAMES, load_tictactoe

SHIPPED = load_tictactoe()




class CountingSink(io.TextIOBase):
    """A stdout that only counts, so the soak measures the emulator, not the paper."""

    def __init__(self):
        self.characters = 0
        self.results = 0
        self._tail = ""

    def write(self, text):
        self.characters += len(text)
        window = self._tail + text
        self.results += window.count("THE UNIVAC WINS") + window.count("IS A DRAW")
        self._tail = text[-20:]
        return len(text)


def soak_lines(games):
    for i in range(games):
        yield from DEMO_GAMES[i % len(DEMO_GAMES)][0]


class Feeder(io.TextIOBase):
    """stdin that hands the console one prepared line at a time."""

    def __init__(self, lines):
        self.lines = iter(lines)

    def readline(self, size=-1):
        line = next(self.lines, None)
        return "" if line is None else line + "\n"


@given(st.lists(entries, max_size=30))
def test_plain_console_takes_any_flood_of_lines(lines):
    stdin = io.StringIO("\n".join(line.replace("\n", " ") for line in lines))
    out, err = io.StringIO(), io.StringIO()
    result = PlainConsole(Desk(SHIPPED.image.words), stdin, out, err).run()
    assert result.exit_code == 0 and result.stop is None  # end of input, cleanly
    assert out.getvalue().count("> ") >= 1


def test_soak_many_games_in_one_process_without_growing(long_run):
    games = size(*PLAIN_SOAK_GAMES)
    warm_up = 60  # games played before measuring, so the decode and arithmetic memos fill
    lines = list(soak_lines(games))
    warm_lines = len(list(soak_lines(warm_up)))
    desk = Desk(SHIPPED.image.words)
    sink = CountingSink()
    console = PlainConsole(desk, Feeder(lines[warm_lines:]), sink, io.StringIO())
    for line in lines[:warm_lines]:
        assert desk.run().kind is StopKind.KEYBOARD
        desk.release(line)
    # Traced from here only (tracing makes Python ~10 times slower here): what the
    # measured games free of the warm-up's is not subtracted, what they make in its place
    # is added, so the figure can only be higher than with the warm-up traced too.
    tracemalloc.start()
    try:
        start_bytes = tracemalloc.get_traced_memory()[0]
        result = console.run()
        end_bytes = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0 and result.stop is None
    assert sink.results == games
    assert end_bytes - start_bytes < 2_000_000, (start_bytes, end_bytes)
