"""What a benchmark client's screen costs: RowScreen against pyte on the server's own output.

Run: python3 benchmarks/bench_screens.py [--rounds 7] [--games 3]

A class server in this process plays --games whole games with one telnet client at each
of 80x24, 120x40 and 200x60, recording every chunk of screen data as it arrived. Then each
screen is fed those chunks again, and after each chunk its rows read as the client reads
them (``TelnetClient.lines``: once a feed), CPU time, the two screens interleaved for
--rounds rounds; the table gives the medians and pyte's over RowScreen's.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.screen_rows import PyteRows, RowScreen  # noqa: E402
from tests.support.serving import key_in, run, serving  # noqa: E402
from tests.support.telnet_client import TelnetClient  # noqa: E402
from univac_ttt.console import app as console_app  # noqa: E402

SIZES = ((80, 24), (120, 40), (200, 60))


class Recorder(RowScreen):
    """A RowScreen that keeps every chunk it is fed."""

    def __init__(self, columns: int, rows: int) -> None:
        super().__init__(columns, rows)
        self.chunks: list[bytes] = []

    def feed(self, data: bytes) -> None:
        self.chunks.append(data)
        super().feed(data)


async def record(columns: int, rows: int, games: int) -> list[bytes]:
    async with serving() as server:
        screens: list[Recorder] = []

        def make(c: int, r: int) -> Recorder:
            screens.append(Recorder(c, r))
            return screens[-1]
        client = TelnetClient(columns, rows, screen=make, keep_raw=False)
        assert server.telnet is not None
        await client.connect(server.telnet.bound_port)
        await client.wait_for(lambda c: c.keyboard_line() == "" and c.board() is not None)
        for _ in range(games):
            while True:
                board = client.board()
                assert board is not None
                square = next(i for i, cell in enumerate(board) if cell.isdigit())
                await key_in(client, "0")  # an illegal move in every one
                await key_in(client, str(square + 1))
                await client.wait_for(lambda c, s=square: (b := c.board()) is not None and (
                    b[s] == "X" or all(cell.isdigit() for cell in b)))
                if all(cell.isdigit() for cell in client.board() or ""):
                    await asyncio.sleep(console_app.TYPEAHEAD_GRACE + 0.1)
                    break
        await client.close()
        return screens[0].chunks


def cost(kind: type, chunks: list[bytes], columns: int, rows: int) -> float:
    """CPU seconds to feed every chunk and read the rows after each."""
    started = time.process_time()
    screen = kind(columns, rows)
    for chunk in chunks:
        screen.feed(chunk)
        [line.rstrip() for line in screen.display]
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print("| terminal | chunks | KiB | RowScreen ms | pyte ms | pyte / RowScreen (min-max) |")
    print("|---|---|---|---|---|---|")
    for columns, rows in SIZES:
        chunks = run(record(columns, rows, args.games), 300)
        times: dict[type, list[float]] = {RowScreen: [], PyteRows: []}
        for _ in range(args.rounds):
            for kind in (RowScreen, PyteRows):
                times[kind].append(cost(kind, chunks, columns, rows))
        ratios = [p / r for p, r in zip(times[PyteRows], times[RowScreen], strict=True)]
        print(f"| {columns}x{rows} | {len(chunks)} | {sum(map(len, chunks)) / 1024:.0f} | "
              f"{statistics.median(times[RowScreen]) * 1000:.1f} | "
              f"{statistics.median(times[PyteRows]) * 1000:.1f} | "
              f"{statistics.median(ratios):.1f} ({min(ratios):.1f}-{max(ratios):.1f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
