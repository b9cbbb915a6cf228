"""The class server: telnet and SSH listeners, one UNIVAC per terminal, the class table.

Each connection gets its own front end from the factory named by ``--app`` (its own machine,
paper and score); the server only counts, times out, and says goodbye.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any, Protocol, TextIO

from prompt_toolkit.application.current import get_app_session

from ..classroom.options import ServeOptions
from ..classroom.room import Listener
from ..classroom.seats import Hold, SeatCounter, Seats
from ..classroom.table import ClassTable, Seat
from ..hostio.wording import count
from .apps import AppFactories, ServedApp, make_app, warm_terminal
from .heap import Heap
from .private import app_of_failed_callback, forget_terminal
from .telnet import ServedTelnetConnection, ServedTelnetServer

FULL = "The class is full ({n}). Please try again in a little while. Goodbye."
IDLE = "No key for {s:.0f} seconds: this terminal is closing. Connect again to play. Goodbye."
SHUTDOWN = "The UNIVAC is being switched off for today. Thank you for playing. Goodbye."
GOODBYE = "Goodbye from the UNIVAC."
SHUTDOWN_GRACE = 5.0  # seconds for every terminal to hear its goodbye
GOODBYE_DRAIN = 0.1  # seconds for the goodbye lines to leave, when any were said


class Terminal(Protocol):
    on_input: Callable[[], None]

    def write_line(self, text: str) -> None: ...


class ClassServer:
    def __init__(self, options: ServeOptions, factories: AppFactories,
                 out: TextIO | None = None, live: bool | None = None, *,
                 table: ClassTable | None = None, seats: SeatCounter | None = None,
                 numbers: Iterator[int] | None = None,
                 sockets: dict[str, socket.socket] | None = None,
                 listeners: Sequence[Listener] = (), heap: Heap | None = None,
                 telnet_server: Callable[..., ServedTelnetServer] = ServedTelnetServer,
                 ) -> None:
        """``table``, ``seats``, ``numbers``, ``sockets`` and ``telnet_server`` are a pool
        worker's (shared seats, a table sent to the first process, bound sockets, a
        listener that takes its turn: serve/pack.py); by default its own.
        ``listeners`` are the composer's other kinds of connection (the browser's).
        ``heap`` is the collector's policy (serve/heap.py), the whole process's: a server
        that shares its process (a test's) may bring one that leaves the collector alone."""
        self.options = options
        self.listeners = tuple(listeners)
        self._announcements: list[str] = []
        self.factory = factories[options.app]
        self.table = table or ClassTable(out or sys.stdout, live)
        self.apps: dict[int, ServedApp] = {}
        self.goodbyes: dict[int, str] = {}
        self.closing = False
        self._numbers = numbers or itertools.count(1)
        # A seat is held from accept to the connection's end.
        self.seats = seats or Seats(options.max_clients)
        self.sockets = sockets or {}
        self.telnet: ServedTelnetServer | None = None
        self.ssh: Any = None
        self.ready = asyncio.Event()
        self.heap = heap if heap is not None else Heap()
        self.telnet_server = telnet_server

    # ---- admission -------------------------------------------------------------------

    def admit(self, peer: str, transport: str = "telnet") -> Hold | str:
        """A seat for a new connection, or the line that refuses it. The caller releases
        the seat when the connection ends, however it ends."""
        if self.closing:
            return SHUTDOWN
        hold = self.seats.take()
        if hold is None:
            self.table.refuse(peer, transport)
            return FULL.format(n=count(self.options.max_clients, "terminal"))
        return hold

    # ---- one terminal ----------------------------------------------------------------

    def next_number(self) -> int:
        """The next connection's number in the class table."""
        return next(self._numbers)

    async def _telnet_interact(self, connection: ServedTelnetConnection) -> None:
        # The seat was taken at accept; the telnet server releases it when the task ends.
        peer = f"{connection.addr[0]}:{connection.addr[1]}"
        await self._serve(connection, peer, "telnet")

    async def _ssh_interact(self, session: Any) -> None:
        hold = self.admit(session.peer, "ssh")
        if isinstance(hold, str):
            session.write_line(hold)
            return
        with hold:
            await self._serve(session, session.peer, "ssh")

    async def _serve(self, terminal: Terminal, peer: str, transport: str) -> None:
        number = next(self._numbers)
        session = get_app_session()  # the connection's own input and output (telnet or SSH)
        try:
            served = make_app(self.factory, session.input, session.output,
                              authentic=self.options.authentic,
                              transcript=self.transcript_path(number))
        except Exception as exc:  # noqa: BLE001 - e.g. the transcript folder is not writable
            self.table.note(f"#{number} from {peer} could not start: {exc}")
            with contextlib.suppress(Exception):
                terminal.write_line("This terminal could not start a UNIVAC; please tell "
                                    "the lecturer. Goodbye.")
            return
        seat = Seat(number, peer, transport, served.results)
        terminal.on_input = lambda: setattr(seat, "last_input", time.monotonic())
        self.apps[number] = served
        self.table.seat(seat)
        self.heap.settle()
        why = "left"
        try:
            if not self.closing:
                await served.run()
        except EOFError:
            why = "disconnected"
        except Exception as exc:  # noqa: BLE001 - one terminal's failure ends only that one
            why = f"error: {type(exc).__name__}: {exc}"
        finally:
            self.apps.pop(number, None)
            goodbye = self.goodbyes.pop(number, None)
            if goodbye is not None:
                why = "idle" if goodbye.startswith("No key") else "server stopping"
            self.table.unseat(number, why)
            forget_terminal(session.input, asyncio.get_running_loop())
            self.heap.terminal_left(served.application)  # watched until freed
        with contextlib.suppress(Exception):
            terminal.write_line(goodbye or GOODBYE)

    def transcript_path(self, number: int) -> Any:
        if not self.options.transcripts:
            return None
        folder = self.options.data / "transcripts"
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return folder / f"{stamp}-terminal-{number}.txt"

    def end(self, number: int, goodbye: str) -> None:
        """End one terminal's application politely (from outside its key bindings)."""
        served = self.apps.get(number)
        if served is None:
            for listener in self.listeners:
                listener.end(number, goodbye)
            return
        self.goodbyes.setdefault(number, goodbye)
        app = served.application
        if app.future is not None and not app.future.done():
            app.exit(result=0)

    # ---- the loop --------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Close idle terminals; redraw the class table."""
        idle = self.options.idle_seconds
        while True:
            self._end_idle(idle)
            self.heap.tick(len(self.table.seats))  # terminals and tabs alike
            self.table.refresh()
            await asyncio.sleep(min(1.0, idle / 4))

    def _end_idle(self, idle: float) -> None:
        """Its own frame: a loop variable left in ``_sweep``'s would keep the last seat (and
        so its terminal's whole application) alive after it left."""
        now = time.monotonic()
        for number, seat in list(self.table.seats.items()):
            if now - seat.last_input > idle:
                self.end(number, IDLE.format(s=idle))

    def _exception_handler(self, loop: asyncio.AbstractEventLoop,
                           context: dict[str, Any]) -> None:
        """An error in one terminal's key handling ends that terminal, never the server."""
        error = context.get("exception") or RuntimeError(context.get("message", "error"))
        app = app_of_failed_callback(context)
        if app is not None and app.future is not None and not app.future.done():
            app.exit(exception=error)
        else:
            self.table.note(f"error: {context.get('message', '')} {error!r}")

    async def run(self, stop: asyncio.Event | None = None) -> int:
        """Listen until ``stop`` is set (or SIGINT/SIGTERM), then say goodbye to everyone."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._exception_handler)
        stop = stop or asyncio.Event()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
        tasks: list[asyncio.Task[Any]] = []
        options = self.options
        try:
            if options.telnet is not None:
                self.telnet = self.telnet_server(options.telnet.host, options.telnet.port,
                                                 self._telnet_interact, self.admit,
                                                 self.sockets.get("telnet"))
                started = asyncio.Event()
                tasks.append(loop.create_task(self.telnet.run(ready_cb=started.set)))
                await asyncio.wait([tasks[-1], loop.create_task(started.wait())],
                                   return_when=asyncio.FIRST_COMPLETED)
                if tasks[-1].done():
                    tasks[-1].result()  # the bind failed: raise it
            if options.ssh is not None:
                from .ssh import listen

                self.ssh = await listen(options.ssh.host, options.ssh.port,
                                        self._ssh_interact, options.password, options.data,
                                        self.sockets.get("ssh"))
            for listener in self.listeners:
                self._announcements.append(await listener.start(self, stop))
            self._announce()
            self.heap.start(warm=lambda: warm_terminal(self.factory))
            self.table.start()
            tasks.append(loop.create_task(self._sweep()))
            self.ready.set()
            await stop.wait()
        finally:
            try:
                await self.shutdown(tasks)
            finally:
                self.heap.release()  # the collector as it was, whatever shutdown met
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(Exception):
                    loop.remove_signal_handler(sig)
        return 0

    def _announce(self) -> None:
        out = self.table.out
        if self.telnet is not None:
            out.write(f"univac-ttt: telnet on {self.telnet.host}:{self.telnet.bound_port} "
                      "(plain text on the wire)\n")
        if self.ssh is not None:
            port = self.ssh.get_port()
            out.write(f"univac-ttt: ssh on {self.options.ssh.host}:{port}\n")
        for line in self._announcements:
            out.write(line + "\n")
        out.flush()

    async def shutdown(self, tasks: list[asyncio.Task[Any]]) -> None:
        self.closing = True
        if self.telnet is not None:
            self.telnet.closing_down()
        if self.ssh is not None:
            self.ssh.close()
        farewells = bool(self.apps)  # terminals to say goodbye to (tabs: their listener)
        for number in list(self.apps):
            self.end(number, SHUTDOWN)
        for listener in self.listeners:
            with contextlib.suppress(Exception):
                await listener.close(SHUTDOWN)
        deadline = time.monotonic() + SHUTDOWN_GRACE
        while self.apps and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if farewells:  # nobody to say goodbye to: no wait for their lines
            await asyncio.sleep(GOODBYE_DRAIN)  # let the goodbye lines reach the sockets
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.ssh is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ssh.wait_closed(), 2)
        self.table.stop()
