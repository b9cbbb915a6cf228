"""The benchmark's cheap screen (tests/support/screen_rows.py) against pyte: the same text
rows after every chunk of real server output, whole games at the class's three sizes."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.support.screen_rows import PyteRows, RowScreen
from tests.support.serving import key_in, run, serving
from tests.support.sizes import SCREEN_ROWS_GAMES, SCREEN_ROWS_LAST_GAME, size
from tests.support.telnet_client import TelnetClient
from univac_ttt.console import app as console_app

GRACE = 0.05  # the console's typeahead grace after a game, shortened


class Twin:
    """Both screens fed the same bytes; the client reads pyte's, every difference is kept."""

    def __init__(self, columns: int, rows: int) -> None:
        self.cheap, self.pyte = RowScreen(columns, rows), PyteRows(columns, rows)
        self.feeds = 0
        self.differences: list[str] = []

    @property
    def display(self) -> list[str]:
        return self.pyte.display

    @property
    def version(self) -> int:
        return self.pyte.version

    def feed(self, data: bytes) -> None:
        self.cheap.feed(data)
        self.pyte.feed(data)
        self.feeds += 1
        self._compare(f"feed {self.feeds}")

    def resize(self, columns: int, rows: int) -> None:
        self.cheap.resize(columns, rows)
        self.pyte.resize(columns, rows)
        self._compare(f"resize to {columns}x{rows}")

    def _compare(self, when: str) -> None:
        for y, (mine, theirs) in enumerate(zip(self.cheap.display, self.pyte.display,
                                               strict=True)):
            if mine != theirs:
                self.differences.append(f"{when}, row {y}: {mine!r} != {theirs!r}")
                return


def same_rows_fed_in_pieces(data: bytes, columns: int, rows: int, seed: int) -> None:
    """Feed ``data`` to both screens in random pieces (1 to 64 bytes: sequences and UTF-8
    characters cut anywhere) and compare after each."""
    cheap, reference = RowScreen(columns, rows), PyteRows(columns, rows)
    rng = random.Random(seed)
    at = 0
    while at < len(data):
        piece = data[at:at + rng.randint(1, 64)]
        at += len(piece)
        cheap.feed(piece)
        reference.feed(piece)
        assert cheap.display == reference.display, f"after byte {at}"
    assert not cheap.unknown
    assert reference.display == reference.screen.display  # the rows kept are pyte's own


async def play_out(client: TelnetClient, games: int) -> None:
    """Whole games: the first free square each time, with an illegal move and a key the
    UNIVAC keyboard lacks in each."""
    for _ in range(games):
        board = client.board()
        assert board is not None
        await key_in(client, "0")
        taken = next((i for i, cell in enumerate(board) if not cell.isdigit()), None)
        if taken is not None:
            await key_in(client, str(taken + 1))
        await client.send("~")
        await client.wait_for(lambda c: "has no '~' key" in c.text())
        while True:
            board = client.board()
            assert board is not None
            square = next(i for i, cell in enumerate(board) if cell.isdigit())
            await key_in(client, str(square + 1))
            await client.wait_for(lambda c, s=square: c.board() is not None and (
                c.board()[s] == "X" or all(cell.isdigit() for cell in c.board())))  # type: ignore[index]
            if all(cell.isdigit() for cell in client.board() or ""):
                await asyncio.sleep(GRACE + 0.05)  # keys this soon belong to the last game
                break  # the game ended; the next one is on the paper


@pytest.mark.parametrize("columns,rows", [(80, 24), (120, 40), (200, 60)])
def test_the_cheap_screen_shows_what_pyte_shows(columns: int, rows: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_app, "TYPEAHEAD_GRACE", GRACE)

    async def scenario() -> tuple[Twin, bytes]:
        async with serving() as server:
            twin: Twin | None = None

            def make(c: int, r: int) -> Twin:
                nonlocal twin
                twin = Twin(c, r)
                return twin
            client = TelnetClient(columns=columns, rows=rows, screen=make)
            assert server.telnet is not None
            await client.connect(server.telnet.bound_port)
            await client.wait_for(lambda c: c.keyboard_line() == "" and c.board() is not None)
            await play_out(client, size(*SCREEN_ROWS_GAMES))
            client.resize(columns - 17, rows - 5)  # a window made smaller, then larger
            await client.wait_for(lambda c: c.board() is not None and c.keyboard_line() == "")
            await play_out(client, 1)
            client.resize(columns, rows)
            await client.wait_for(lambda c: c.board() is not None and c.keyboard_line() == "")
            if size(*SCREEN_ROWS_LAST_GAME):
                await play_out(client, 1)
            assert client.last_result() in ("THE UNIVAC WINS", "IS A DRAW")
        await client.wait_for(lambda c: c.closed)  # the server's goodbye fed too
        assert twin is not None
        return twin, bytes(client.raw)

    twin, received = run(scenario(), 120)
    assert twin.feeds > 20  # the games' redraws, not one chunk
    assert twin.differences == []
    assert twin.pyte.display == twin.pyte.screen.display  # the rows kept are pyte's own
    assert not twin.cheap.unknown
    same_rows_fed_in_pieces(received[:20_000], columns, rows, seed=columns)


# Sequences the server does not send today but a neighbour of what it sends might, each
# given pyte's meaning: wrapping at the last column (on and off), scrolling at the bottom,
# tabs, backspace, every erase, relative and clamped moves, saved cursor, UTF-8 split.
CASES = [
    b"abc\r\ndef\r\n\x1b[2;2Hx",
    b"\x1b[1;75H0123456789wrapped",
    b"\x1b[?7l\x1b[1;75H0123456789no wrap\x1b[K",
    b"\x1b[?7l\x1b[3;80Hz\x1b[D\x1b[Dy\x08w",
    b"\x1b[24;1Hbottom\nscrolled\r\nagain\x1bDindex\x1bMup",
    b"\x1bMtop line pushed down\x1b[1;1H\x1bM",
    b"a\tb\tc\x1b[1;79H\td",
    b"0123456789" * 9 + b"\x1b[1;5H\x1b[1K\x1b[2;5H\x1b[2K\x1b[1;8H\x1b[0K",
    b"row1\r\nrow2\r\nrow3\x1b[2;3H\x1b[1J",
    b"row1\r\nrow2\r\nrow3\x1b[2;3H\x1b[J\x1b[3;1Hx\x1b[2J",
    b"\x1b[99;999Hcorner\x1b[0;0Hhome\x1b[5A\x1b[3Bdown\x1b[4Cright\x1b[9D",
    b"\x1b[10G\x1b[5dat\x1b[Gx\x1b7\x1b[3;3Hsaved\x1b8restored",
    "\u2500\u2502\u256d\u25b8\u00b7 box".encode()[:5],
    "\u2500\u2502\u256d\u25b8\u00b7 box".encode(),
    b"\x1b]2;a title\x07\x1b[?25l\x1b[?1049h\x1b[0 q\x1b[1;31;42mcolour\x1b[0m\x1b=\x1b(B",
    b"\x1b[5;5Hx\x1bcafter a reset",
]


@pytest.mark.parametrize("data", CASES)
def test_each_sequence_means_what_it_means_to_pyte(data: bytes) -> None:
    cheap, reference = RowScreen(80, 24), PyteRows(80, 24)
    for piece in (data[:len(data) // 2], data[len(data) // 2:]):  # cut anywhere
        cheap.feed(piece)
        reference.feed(piece)
    assert cheap.display == reference.display
    assert not cheap.unknown


# Every operation that changes pyte's rows, for the rows kept between reads (PyteDisplay):
# inserted and deleted lines and characters, scrolling regions, insert mode, the alignment
# test, wide and combining characters (one at column 0 joins the row above), a reset.
CHANGES = [*CASES, b"\x1b[2L", b"\x1b[3;20r\x1b[20;1H\n\n\x1bM", b"\x1b[4hinserted",
           b"\x1b#8", b"abcdef\x1b[1;2H\x1b[2P\x1b[2@\x1b[2X", "\u4e2d\u6587 wide".encode(),
           b"\x1b[1;80Hx" + "e\u0301".encode() + b"\x1b[2;1H" + "\u0301".encode(),
           b"\x1b[?5h\x1b[?6h\x1b[2;1Hx\x1b[?6l\x1b[2M\x1b[3S\x1b[2T", b"\x1bc"]


def test_the_rows_kept_between_reads_are_what_pyte_displays() -> None:
    screen = PyteRows(80, 24)
    rng = random.Random(7)
    for data in CHANGES * 3:
        at = 0
        while at < len(data):
            piece = data[at:at + rng.randint(1, 8)]
            at += len(piece)
            screen.feed(piece)
            if rng.random() < 0.7:
                assert screen.display == screen.screen.display, (data, at)
        if rng.random() < 0.2:
            screen.resize(rng.choice((40, 80, 100)), rng.choice((10, 24, 30)))
            assert screen.display == screen.screen.display
        assert screen.display == screen.screen.display, data


@pytest.mark.parametrize("data", [b"\x1b[2L", b"\x1b[3;20r", b"\x1b[4h", b"\x1b#8",
                                  b"\x1b[5P", "\u4e2d".encode(), b"\x01", b"\x1b[?6h"])
def test_what_it_does_not_understand_is_counted_not_guessed(data: bytes) -> None:
    cheap = RowScreen(80, 24)
    cheap.feed(b"before " + data + b" after")
    assert cheap.unknown
