"""Both cores: a pre-forked pool of class servers on one port (``serve --workers N``).

The first process binds the listening sockets, then forks N workers that inherit them; each
worker is a whole ``ClassServer`` on its own event loop, accepting from the shared sockets
(the kernel wakes them all for each new connection). So every core draws screens, and each
worker's garbage collections walk only its own terminals.

Across the pool:
- telnet connections are packed, not spread (serve/pack.py): the first worker takes them
  until it holds ``PACK_SEATS`` (100) seats, then the next, and past every worker's share
  the one holding fewest; a worker's loop costs less a move the busier it is, so a class
  that fits one worker is served by one warm loop. A worker next in line that takes
  nothing for ``PACK_WAIT`` (dead, restarting, stalled) leaves its turn to the others;
- seats are counted in shared memory (``SharedSeats``: one slot per worker, one lock), so
  ``--max-clients`` holds for the whole class; a worker that dies has its slot cleared,
  and the lock is one the kernel releases when its holder dies, so a worker killed even
  inside it leaves the class open;
- each worker sends its part of the class table up a pipe once a second and at every
  join and departure (``WorkerTable``); the first process draws the table of them all;
- the composer's other listeners (the browser page's) are bound here too, before the fork,
  and every worker's aiohttp serves the same socket (``Listener.bind``); museum mode, one
  exhibit, stays in one process;
- SIGINT and SIGTERM reach the first process (and, from a terminal's Ctrl-C, the workers
  too): it passes SIGTERM to every worker, each says goodbye on its own terminals, and it
  waits for them all before printing the class's summary.

A worker that ends unexpectedly is noted and started again while the server runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import gc
import io
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from ..classroom.options import ServeOptions
from ..classroom.room import Listener
from ..classroom.seats import Hold
from ..classroom.table import ClassTable, Seat
from ..desk.score import Score
from .apps import AppFactories
from .pack import PACK_SEATS, PackedTelnetServer, Turns
from .server import SHUTDOWN_GRACE, ClassServer

WORKERS_LIMIT = 64
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
STATE_SECONDS = 1.0  # how often the first process redraws the table


def default_workers() -> int:
    """One worker a core, at most four (the cores are shared with the clients' own work)."""
    return max(1, min(4, os.cpu_count() or 1))


class SharedSeats:
    """``capacity`` seats over several processes: the same interface as ``Seats``.

    Each worker writes only its own slot; the lock makes a look at the sum and a seat taken
    one step across the pool. It is a POSIX record lock (``fcntl.lockf``) on an unlinked
    file every worker inherits: such a lock belongs to a process, and the kernel releases
    it when the process dies, however. A ``multiprocessing.Lock`` (a semaphore) would stay
    held for good by a worker killed inside it, and every other worker and the first
    process would wait on it for ever."""

    def __init__(self, capacity: int, workers: int,
                 context: Any = None) -> None:
        context = context or multiprocessing.get_context("fork")
        self.capacity = capacity
        self._counts = context.Array("i", workers, lock=False)
        self._numbered = context.Value("q", 0, lock=False)  # connections numbered so far
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 - the pool's life (close)
        self._threads = threading.Lock()  # a process's record lock does not exclude its threads
        self.index = 0  # this process's slot; each worker sets its own

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """The pool's seat lock, held (by this process) for the block."""
        with self._threads:
            fcntl.lockf(self._file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self._file, fcntl.LOCK_UN)

    @property
    def taken(self) -> int:
        return sum(self._counts)

    @property
    def counts(self) -> Any:
        """Each worker's seats (shared memory, read without the lock: a glance)."""
        return self._counts

    def take(self) -> Hold | None:
        with self.locked():
            if sum(self._counts) >= self.capacity:
                return None
            self._counts[self.index] += 1
        return Hold(self)

    def numbers(self) -> Iterator[int]:
        """The class table's connection numbers, one series for the whole pool: in the
        order connections came, whichever worker took them, and never reused (a worker's
        own series of every Nth number interleaved with the others', and a worker started
        again began its series afresh, giving a second terminal a number in use)."""
        while True:
            with self.locked():
                self._numbered.value += 1
                number = self._numbered.value
            yield number

    def give_back(self) -> None:
        with self.locked():
            self._counts[self.index] -= 1

    def forget(self, index: int) -> None:
        """Worker ``index`` has ended: whatever it held is free (its lock, if it died
        holding it, the kernel has released)."""
        with self.locked():
            self._counts[index] = 0

    def close(self) -> None:
        self._file.close()


class WorkerTable(ClassTable):
    """A worker's part of the class table, sent to the first process instead of drawn."""

    def __init__(self, pipe: multiprocessing.connection.Connection) -> None:
        super().__init__(io.StringIO(), live=False)
        self.pipe = pipe

    def _send(self, message: tuple[str, Any]) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.pipe.send(message)

    def note(self, text: str) -> None:
        self._send(("note", text))

    def state(self) -> dict[str, Any]:
        return {"seats": [(s.number, s.peer, s.transport, s.results(), s.started,
                           s.last_input) for s in self.seats.values()],
                "finished": (self.finished.univac_wins, self.finished.draws,
                             self.finished.opponent_wins),
                "total": self.connections_total, "refused": self.refused}

    def seat(self, seat: Seat) -> None:
        super().seat(seat)
        self.refresh()

    def unseat(self, number: int, why: str) -> None:
        super().unseat(number, why)
        self.refresh()

    def start(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        self._send(("state", self.state()))

    def stop(self) -> None:
        self.refresh()


class PoolTable:
    """The first process's view: the workers' parts summed into one ``ClassTable``."""

    def __init__(self, table: ClassTable) -> None:
        self.table = table
        self.parts: dict[int, dict[str, Any]] = {}

    def update(self, worker: int, state: dict[str, Any]) -> None:
        self.parts[worker] = state
        self._rebuild()

    def forget(self, worker: int) -> None:
        part = self.parts.get(worker)
        if part is not None:  # its seated terminals' games so far still count
            won, drawn, lost = part["finished"]
            for seat in part["seats"]:
                won, drawn, lost = (won + seat[3][0], drawn + seat[3][1], lost + seat[3][2])
            part["finished"], part["seats"] = (won, drawn, lost), []
            self._rebuild()

    def _rebuild(self) -> None:
        table = self.table
        table.seats = {}
        finished = Score()
        table.connections_total = table.refused = 0
        for part in self.parts.values():
            finished.add(tuple(part["finished"]))
            table.connections_total += part["total"]
            table.refused += part["refused"]
            for number, peer, transport, results, started, last_input in part["seats"]:
                table.seats[number] = Seat(number, peer, transport,
                                           lambda r=tuple(results): r, started, last_input)
        table.finished = finished


def _worker(index: int, options: ServeOptions, factories: AppFactories,
            seats: SharedSeats, turns: Turns, pipe: multiprocessing.connection.Connection,
            listeners: dict[str, socket.socket], others: Sequence[Listener]) -> None:
    """One worker process: a whole class server on the inherited sockets (``others``, the
    composer's listeners, bound before the fork: the browser's)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # held since the fork
    seats.index = turns.index = index
    turns.closing[index] = 0  # a worker started again is open, whatever its last one was
    server = ClassServer(options, factories, table=WorkerTable(pipe), seats=seats,
                         numbers=seats.numbers(), sockets=listeners,
                         listeners=others,
                         telnet_server=functools.partial(PackedTelnetServer, turns=turns))
    try:
        asyncio.run(server.run())
    finally:
        with contextlib.suppress(OSError):
            pipe.close()


class Pool:
    """The first process: binds, forks the workers, draws the table, ends them politely."""

    def __init__(self, options: ServeOptions, factories: AppFactories, workers: int,
                 out: TextIO | None = None, live: bool | None = None,
                 others: Sequence[Listener] = (), announcements: Sequence[str] = (),
                 pack: int = PACK_SEATS) -> None:
        """``others`` are the composer's listeners, already bound (``Listener.bind``), and
        ``announcements`` the lines bind gave: every worker serves them too. ``pack``: the
        seats a worker fills before the next takes a telnet connection (serve/pack.py)."""
        self.options, self.factories, self.workers = options, factories, workers
        self.others, self.announcements = tuple(others), tuple(announcements)
        self.out = out or sys.stdout
        self.table = ClassTable(self.out, live)
        self.pool_table = PoolTable(self.table)
        self.context = multiprocessing.get_context("fork")
        self.seats = SharedSeats(options.max_clients, workers, self.context)
        self.turns = Turns(self.seats.counts, self.context.Array("q", workers, lock=False),
                           pack, closing=self.context.Array("b", workers, lock=False))
        self.listeners: dict[str, socket.socket] = {}
        self.processes: dict[int, Any] = {}
        self.pipes: dict[int, multiprocessing.connection.Connection] = {}
        self.stopping = False
        self.wake: tuple[int, int] | None = None  # a signal's byte ends _read's wait

    def _open_wake(self) -> None:
        """A pipe the stop signal writes to: a signal does not end ``_read``'s wait (Python
        retries it), so SIGTERM or Ctrl-C waited for the table's next redraw, a second."""
        self.wake = os.pipe()
        os.set_blocking(self.wake[1], False)

    def _start(self, index: int) -> None:
        reader, writer = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=_worker, name=f"univac-ttt serve worker {index + 1}", daemon=False,
            args=(index, self.options, self.factories, self.seats, self.turns, writer,
                  self.listeners, self.others))
        # held until the worker has its own handlers: a stop signal in between met the
        # first process's handler in the fork, was lost, and the pool waited 10 s to end
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        writer.close()
        self.processes[index], self.pipes[index] = process, reader

    def _announce(self) -> None:
        for name, listener in self.listeners.items():
            host, port = listener.getsockname()[:2]
            plain = " (plain text on the wire)" if name == "telnet" else ""
            self.out.write(f"univac-ttt: {name} on {host}:{port}{plain}\n")
        for line in self.announcements:
            self.out.write(line + "\n")
        pids = ", ".join(str(p.pid) for p in self.processes.values())
        self.out.write(f"univac-ttt: {self.workers} worker processes ({pids}), "
                       f"{self.options.max_clients} seats in all\n")
        self.out.flush()

    def _stop(self, *_: object) -> None:
        self.stopping = True
        if self.wake is not None:
            with contextlib.suppress(OSError):  # full: a wake is already waiting
                os.write(self.wake[1], b"\0")

    def run(self) -> int:
        options = self.options
        if options.telnet is not None:
            self.listeners["telnet"] = options.telnet.listen()
        if options.ssh is not None:
            from .ssh import host_key

            host_key(options.data)  # made once here, not raced by the workers
            self.listeners["ssh"] = options.ssh.listen()
        self._open_wake()
        previous = {sig: signal.signal(sig, self._stop) for sig in (signal.SIGINT,
                                                                     signal.SIGTERM)}
        try:
            # What is alive now (modules, the options) is shared with every worker: frozen
            # first, so that no collection in a worker touches (and so copies) its pages.
            gc.collect()
            gc.freeze()
            for index in range(self.workers):
                self._start(index)
            self._announce()
            self.table.start()
            self._serve()
        finally:
            self._end_all()
            gc.unfreeze()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for listener in self.listeners.values():
                listener.close()
            self.seats.close()
            for fd in self.wake or ():
                os.close(fd)
            self.wake = None
            self.table.stop()
        return 0

    def _serve(self) -> None:
        next_draw = time.monotonic()
        while not self.stopping:
            self._read(timeout=max(0.0, next_draw - time.monotonic()))
            for index, process in list(self.processes.items()):
                if not process.is_alive() and not self.stopping:
                    self._ended(index, process.exitcode)
                    self._start(index)
            if time.monotonic() >= next_draw:
                self.table.refresh()
                next_draw = time.monotonic() + STATE_SECONDS

    def _read(self, timeout: float) -> None:
        readers = {pipe: index for index, pipe in self.pipes.items()}
        wake = [] if self.wake is None else [self.wake[0]]
        for ready in multiprocessing.connection.wait([*readers, *wake], timeout):
            if ready in wake:
                os.read(ready, 512)  # type: ignore[arg-type]
                continue
            index = readers[ready]  # type: ignore[index]
            try:
                while ready.poll():  # type: ignore[union-attr]
                    self._message(index, ready.recv())  # type: ignore[union-attr]
            except (EOFError, OSError):
                self.pipes.pop(index, None)

    def _message(self, index: int, message: tuple[str, Any]) -> None:
        kind, body = message
        if kind == "note":
            self.table.note(body)
        elif kind == "state":
            self.pool_table.update(index, body)

    def _ended(self, index: int, code: int | None) -> None:
        self.seats.forget(index)
        self.pool_table.forget(index)
        self.pipes.pop(index, None)
        self.table.note(f"worker {index + 1} ended (exit {code}); starting it again")

    def _end_all(self) -> None:
        for process in self.processes.values():
            if process.is_alive():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + SHUTDOWN_GRACE + 5
        while any(p.is_alive() for p in self.processes.values()) \
                and time.monotonic() < deadline:
            self._read(timeout=0.05)
        for process in self.processes.values():
            if process.is_alive():
                process.kill()
            process.join(5)
        self._read(timeout=0)  # the last states: the summary counts every game
