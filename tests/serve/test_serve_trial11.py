"""The eleventh round's user trial of serve: the class table's numbers across workers and
its width, and a raw client's first screen."""

from __future__ import annotations

import multiprocessing

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
