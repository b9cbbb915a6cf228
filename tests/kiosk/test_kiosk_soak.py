"""A kiosk left on for weeks: thousands of games through the kiosk's own engine, fake clock.

Demonstrations in attract mode and visitor games alternate. Memory, the paper kept, the
text a redraw shows and the characters a redraw parses for the big board must all stay
flat: bounded by constants, not by how long the kiosk has been on. By default 340 games:
the paper (some forty games) and the typed text a redraw shows are full several times over
before tracing starts, refilled under tracing, and memory is measured over the last 50;
`pytest --long` plays 20,000 (about two weeks of a busy museum day after day).
"""

import gc
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

from tests.support.fake_clock import FakeClock
from tests.support.sizes import KIOSK_SOAK_GAMES, size
from univac_ttt.desk.pacing import SHOWN_LIMIT
from univac_ttt.desk.paper import PAPER_LIMIT
from univac_ttt.museum import controller, stats
from univac_ttt.museum.controller import BOARD_TAIL, Kiosk, KioskSettings, Mode
from univac_ttt.packs.tictactoe import DEMO_GAMES, load_tictactoe

SHIPPED = load_tictactoe()
MEMORY_GROWTH_BOUND = 200_000  # bytes kept by the last 15 % of the games
STEP = 2.0  # seconds of fake time a tick
ROOT = Path(__file__).resolve().parents[2]


def play(kiosk, clock, games, parsed):
    """Alternate demonstrations and visitor games until ``games`` have ended."""
    today = kiosk.tally.today
    visitor = 0
    while today().demonstrations + today().games < games:
        ended = today().demonstrations + today().games
        if ended % 2:  # a visitor walks up and plays a script to the end
            kiosk.activity()
            moves = DEMO_GAMES[visitor % len(DEMO_GAMES)][0]
            visitor += 1
            for move in moves:
                while kiosk.pacer.busy:
                    clock.now += STEP
                    kiosk.tick()
                assert kiosk.submit(move), kiosk.hint
            assert today().demonstrations + today().games == ended + 1
            clock.now += kiosk.settings.idle_seconds + STEP  # and walks away
            kiosk.tick()
        else:
            while today().demonstrations + today().games == ended:
                clock.now += STEP
                kiosk.tick()
        assert kiosk.mode in (Mode.ATTRACT, Mode.PLAYING)
        assert kiosk.board is None or len(kiosk.board) == 9  # one redraw's big board
        parsed.append(len(kiosk.pacer.text))


def soak(games: int, long_run: bool, folder: Path) -> dict[str, int]:
    """Play ``games`` through a kiosk in this process; what the test judges, as figures."""
    # tracing starts after the warm-up and runs long enough before the first measure for
    # every bounded buffer (the paper: some forty games) to be refilled under tracing
    # (by default 340 games: 240 to warm up, 50 traced to refill, 50 measured)
    warm, traced = (games * 8 // 10, games * 85 // 100) if long_run else (
        games - 100, games - 50)
    clock = FakeClock()
    settings = KioskSettings(pin="1", printouts=folder / "printouts",
                             stats=folder / "tally.json", idle_seconds=60,
                             authentic=True, first_demo=0, clock=clock)
    # The disk is not what is measured here: skip the flush to the platter.
    stats.os.fsync = lambda fd: None  # (this process is the soak's own)
    board_reads = []
    real = controller.last_printed_board
    controller.last_printed_board = lambda text: board_reads.append(len(text)) or real(text)
    kiosk = Kiosk(SHIPPED.image.words, SHIPPED.program, settings)
    for _ in range(60):  # idle counts from when the greeting was typed out
        clock.now += STEP
        kiosk.tick()
    assert kiosk.mode is Mode.ATTRACT
    shown: list[int] = []
    play(kiosk, clock, warm, shown)  # memos filled, paper full
    tracemalloc.start()  # tracing slows Python threefold, so only near the end, and first
    try:  # long enough for every bounded buffer to be refilled under tracing
        play(kiosk, clock, traced, shown)
        gc.collect()  # what is kept, not cyclic garbage that a later collection frees
        start_bytes = tracemalloc.get_traced_memory()[0]
        play(kiosk, clock, games, shown)
        gc.collect()
        end_bytes = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    today = kiosk.tally.today()
    return {"ended": today.demonstrations + today.games, "games": today.games,
            "univac_wins": today.univac_wins, "draws": today.draws,
            "opponent_wins": today.opponent_wins, "growth": end_bytes - start_bytes,
            "start_bytes": start_bytes, "paper": kiosk.session.desk.paper.characters,
            "shown": max(shown), "board_read": max(board_reads),
            "game_paper": len(kiosk.game_paper)}


SOAK = """\
import json, sys
from pathlib import Path
from tests.kiosk.test_kiosk_soak import soak
print(json.dumps(soak(int(sys.argv[1]), sys.argv[2] == "long", Path(sys.argv[3]))))
"""


def test_thousands_of_games_through_the_kiosk_stay_flat(tmp_path, long_run):
    """In an interpreter of its own, as a museum's kiosk runs: the machine's process-wide
    tables (compiled blocks, memos), which a worker's earlier tests fill and empty, made
    the measured window step by a megabyte now and then when the soak ran after them."""
    games = size(*KIOSK_SOAK_GAMES)
    result = subprocess.run(
        [sys.executable, "-c", SOAK, str(games), "long" if long_run else "default",
         str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
        timeout=None if long_run else 600)
    assert result.returncode == 0, result.stderr[-4000:]
    figures = json.loads(result.stdout.splitlines()[-1])
    assert figures["ended"] >= games and figures["games"] >= games // 2 - 1
    assert figures["univac_wins"] + figures["draws"] == figures["games"]
    assert figures["opponent_wins"] == 0
    assert figures["growth"] < MEMORY_GROWTH_BOUND, figures
    assert figures["paper"] <= PAPER_LIMIT
    assert figures["shown"] <= SHOWN_LIMIT + 64 * 12  # what a redraw puts on the screen
    assert figures["board_read"] <= BOARD_TAIL  # what a redraw parses for the big board
    assert figures["game_paper"] < 2_000  # one game's printout, not the day's paper
