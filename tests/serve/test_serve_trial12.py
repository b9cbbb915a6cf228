"""The twelfth round's user trial of serve's own class table: its width and headings."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from univac_ttt.classroom.table import ClassTable, Seat

LOOPBACK = ["127.0.0.1:54321", "127.0.0.1:54322"]
LONG = ["192.168.100.200:54321", "[2001:db8::1234:5678]:60000", "127.0.0.1:40000"]


def drawn(peers: list[str], width: int) -> list[str]:
    table = ClassTable(io.StringIO(), live=False)
    for number, peer in enumerate(peers, 1):
        table.seat(Seat(number, peer, "telnet", lambda: (3, 1, 0)))
    console = Console(file=io.StringIO(), width=width)
    console.print(table.render())
    return console.file.getvalue().splitlines()


def test_at_60_columns_the_compact_table_uses_the_width_for_the_games_column():
    """At 60 columns the compact table was 51 wide: 9 columns unused, and no games
    column, which fits in them."""
    lines = drawn(LOOPBACK, 60)
    heading = next(line for line in lines if "from" in line)
    assert heading.split() == ["#", "from", "via", "games", "wins", "draws", "wins", "idle"]
    assert 55 <= max(map(len, lines)) <= 60  # every column, in what was 51
    row = next(line for line in lines if "127.0.0.1:54321" in line)
    assert row.split()[-5:] == ["4", "3", "1", "0", "0s"]  # games, UNIVAC, draws, player, idle


@pytest.mark.parametrize("peers", [LOOPBACK, LONG])
@pytest.mark.parametrize("width", [60, 66, 72, 80, 100, 120])
def test_headings_are_whole_at_every_width(peers, width):
    """ "idle s" was split over two lines ("idle" over "s", read as a stray letter): the
    unit is on each figure now ("12s"); a two-word heading is stacked only where one line
    is too wide, and never cut; the caption breaks only between its parts ("draws" over
    "2" read as no figure)."""
    lines = drawn(peers, width)
    text = "\n".join(lines)
    assert all(len(line) <= width for line in lines)
    assert "…" not in text and not any(line.rstrip().endswith(" s") for line in lines)
    row = next(line for line in lines if peers[0] in line or "telnet" in line)
    assert row.replace("│", " ").split()[-1] == "0s"
    for words in ("UNIVAC wins", "player wins"):
        first, second = words.split()
        stacked = any(line.find(first) >= 0 and below[line.find(first) + len(first)
                                                     - len(second):].startswith(second)
                      for line, below in zip(lines, lines[1:], strict=False))
        assert words in text or stacked, words
    caption = lines[next(i for i, line in enumerate(lines) if "connections" in line):]
    assert all(line.rstrip().endswith((";", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"))
               for line in caption if line.strip()), caption


def test_at_40_columns_no_figure_is_cut():
    """At 40 columns seat 10 (two digits) idle for 3,000 s overflowed the narrowest layout
    and rich cut the idle column ("idl" over "3000", the "s" lost): the transport goes too
    there, and every figure stays whole."""
    table = ClassTable(io.StringIO(), live=False)
    seat = Seat(10, "127.0.0.1:54321", "telnet", lambda: (3, 1, 0))
    seat.last_input -= 3000
    table.seat(seat)
    console = Console(file=io.StringIO(), width=40)
    console.print(table.render())
    lines = console.file.getvalue().splitlines()
    assert all(len(line) <= 40 for line in lines)
    text = "\n".join(lines)
    assert "…" not in text and "idle" in text
    row = next(line for line in lines if line.split() and line.split()[0] == "10")
    assert row.split()[-1] == "3000s"
