"""The eleventh round's user trial of serve: the class table's numbers across workers and
its width, and a raw client's first screen."""

from __future__ import annotations

import io
import multiprocessing

import pytest
from rich.console import Console

from univac_ttt.classroom.table import ClassTable, Seat
from univac_ttt.serve.workers import SharedSeats


def _draw(seats: SharedSeats, count: int, pipe) -> None:
    numbers = seats.numbers()
    pipe.send([next(numbers) for _ in range(count)])
    pipe.close()


def test_connection_numbers_are_one_series_across_workers_and_restarts():
    """Each worker numbered every Nth connection from its own slot (#1, #3, ... and #2,
    #4, ...), so the table's numbers said nothing of the order connections came in, and a
    worker started again after a crash began at its first number again: two terminals
    with one number in the table and the log."""
    context = multiprocessing.get_context("fork")
    seats = SharedSeats(10, 2, context)
    drawn: list[int] = []
    for _ in range(3):  # two workers, then one of them started again
        readers = []
        processes = []
        for _ in range(2):
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_draw, args=(seats, 5, writer))
            process.start()
            writer.close()
            readers.append(reader)
            processes.append(process)
        for reader, process in zip(readers, processes, strict=True):
            drawn += reader.recv()
            process.join(10)
    assert sorted(drawn) == list(range(1, 31))  # each once, none skipped
    seats.close()


@pytest.mark.parametrize("width", [60, 66, 72, 80, 100])
def test_the_class_table_is_readable_at_60_columns(width):
    """At 60 columns every heading was cut ("gam…", "UNI…", "pla…", "id…"), the
    transport too ("tel…"), and an IPv6 address's ":1234:" was drawn as an emoji."""
    table = ClassTable(io.StringIO(), live=False)
    table.seat(Seat(1, "192.168.100.200:54321", "telnet", lambda: (3, 1, 0)))
    table.seat(Seat(12, "[2001:db8::1234:5678]:60000", "ssh", lambda: (0, 0, 0)))
    table.seat(Seat(103, "127.0.0.1:40000", "web", lambda: (1, 0, 0)))
    drawn = Console(file=io.StringIO(), width=width)
    drawn.print(table.render())
    text = drawn.file.getvalue()
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines)
    assert "…" not in text and "🔢" not in text
    for heading in ("#", "from", "via", "UNIVAC", "draws", "player", "wins", "idle"):
        assert heading in text
    assert "telnet" in text and "192.168.100.200:54321" in text
    folded = "".join(line[line.find("[2001"):].split()[0] if "[2001" in line else
                     "" for line in lines)
    assert folded.startswith("[2001:db8::1234:5678]:")
    assert "[2001:db8::1234:5678]:60000" in text or any(
        line.split()[0] == "60000" for line in lines if line.strip())  # whole, or folded
    row = next(line for line in lines if "192.168.100.200:54321" in line)
    assert row.replace("│", " ").split()[-4:] == ["3", "1", "0", "0"]  # UNIVAC ... idle
