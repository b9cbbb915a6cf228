"""prompt_toolkit's telnet server, hardened for a room full of clients.

Changes to ``prompt_toolkit.contrib.telnet``: the socket never blocks the event loop (unsent
output waits, and a client that stops reading is dropped), reading pauses when a client types
faster than the input cap, a client that never names its terminal gets a VT100 instead of
hanging (after half a second if it answers no telnet option, as nc does; after a few
seconds if it negotiates but never names it; at once if it refuses to), the one past
--max-clients is told so and let go, and telnet's CR LF end of line is one Enter, not two.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import errno
import select
import socket
from collections.abc import Callable, Coroutine
from typing import Any, TextIO, cast

from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.contrib.telnet.protocol import TTYPE
from prompt_toolkit.contrib.telnet.server import TelnetConnection, TelnetServer
from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.vt100 import Vt100_Output

from ..classroom.connection_limits import (
    DEFAULT_SIZE,
    HANDSHAKE_SECONDS,
    OUTPUT_BACKLOG_BYTES,
    RAW_CLIENT_SECONDS,
    SUBNEGOTIATION_BYTES,
    InputBucket,
    bounded_size,
    watch_for_vanished_peer,
)
from ..classroom.options import Endpoint
from ..classroom.seats import Hold
from .memory_input import create_memory_pipe_input

Interact = Callable[["ServedTelnetConnection"], Coroutine[Any, Any, None]]


# accept() failures that another try at once would repeat (asyncio's servers rest on them)
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_RETRY = 0.5  # seconds the listening socket rests after one of them


class _SocketWriter:
    """The connection's stdout: writes what the socket takes now, the rest when it can."""

    def __init__(self, conn: socket.socket, encoding: str, on_overflow: Callable[[], None]):
        self.conn, self._encoding, self.on_overflow = conn, encoding, on_overflow
        self.pending = bytearray()
        self.closed = False
        self._watching = False

    def write(self, data: str) -> None:
        if self.closed:
            return
        self.pending += data.replace("\n", "\r\n").encode(self._encoding, errors="replace")
        self.flush()

    def flush(self) -> None:
        if self.closed or not self.pending:
            return
        try:
            sent = self.conn.send(self.pending)
            del self.pending[:sent]
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self.pending.clear()
            self.on_overflow()
            return
        if len(self.pending) > OUTPUT_BACKLOG_BYTES:
            self.pending.clear()
            self.on_overflow()
        elif self.pending and not self._watching:
            asyncio.get_running_loop().add_writer(self.conn, self.flush)
            self._watching = True
        elif not self.pending and self._watching:
            asyncio.get_running_loop().remove_writer(self.conn)
            self._watching = False

    def isatty(self) -> bool:
        return True

    def close(self) -> None:
        if self._watching:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_writer(self.conn)
            self._watching = False
        self.closed = True

    @property
    def encoding(self) -> str:
        return self._encoding

    @property
    def errors(self) -> str:
        return "replace"


def _peer_gone(conn: socket.socket) -> bool:
    """The client reset or closed its side, even with unread bytes still queued before the
    end (a paced flood): its socket error, or POLLRDHUP where the system has it."""
    try:
        if conn.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            return True
        hangup = getattr(select, "POLLRDHUP", 0)
        if not hangup:
            return False
        poller = select.poll()
        poller.register(conn, hangup)
        return bool(poller.poll(0))
    except (OSError, ValueError):
        return True


class ServedOutput(Vt100_Output):
    """A connection's VT100 output: each flush is one write to the socket writer.
    prompt_toolkit's flush goes through ``flush_stdout``, which asks the writer for a file
    descriptor to make blocking (a socket writer has none: an exception raised and caught
    each redraw) and flushes it a second time; the writer never blocks and keeps its own
    errors, so neither is needed."""

    def flush(self) -> None:
        if not self._buffer:
            return
        data = "".join(self._buffer)
        self._buffer = []
        self.stdout.write(data)


class TelnetLineEnds:
    """Telnet's end of line as one Enter. A telnet client ends a line with CR LF (Windows
    telnet, PuTTY, most of them) or CR NUL (the parser drops the NUL); prompt_toolkit reads
    CR as Enter and LF as Ctrl-J, another Enter, so every move was followed by an empty
    entry. Here a LF right after a CR, in the same read or the next, is dropped; a lone LF
    (netcat, a raw socket) stays an Enter."""

    def __init__(self) -> None:
        self._after_cr = False

    def __call__(self, data: bytes) -> bytes:
        if self._after_cr and data[:1] == b"\n":
            data = data[1:]
        if b"\r\n" in data:
            data = data.replace(b"\r\n", b"\r")
        if data:
            self._after_cr = data[-1:] == b"\r"
        return data


class ServedTelnetConnection(TelnetConnection):
    """One telnet terminal: prompt_toolkit's connection with paced, non-blocking I/O."""

    _size = DEFAULT_SIZE
    _in_subnegotiation = 0  # bytes since IAC SB, or 0 outside one
    _after_iac = False
    _negotiating = False  # the client has sent a telnet command (it takes part)

    @property  # type: ignore[override]
    def size(self) -> Size:
        return self._size

    @size.setter
    def size(self, size: Size) -> None:  # NAWS: absurd sizes are bounded here
        self._size = bounded_size(size.rows, size.columns)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # sends the options (the socket is non-blocking)
        self._size = DEFAULT_SIZE  # prompt_toolkit's guess (79x40) until NAWS says better:
        # a raw client (nc) never does, and a 40-row screen hid the key bar on an 80x24 one
        self.stdout = cast(TextIO, _SocketWriter(self.conn, self.encoding, self.close))
        self.parser.ttype_received_callback = self._ttype_received
        line_ends, to_input = TelnetLineEnds(), self.parser.data_received_callback
        self.parser.data_received_callback = lambda data: to_input(line_ends(data))
        refused = self.parser.wont_received

        def wont(option: bytes) -> None:  # a client that will not name its terminal
            refused(option)
            if option == TTYPE and not self._ready.is_set():
                self._ttype_received("vt100")  # says so: no need to wait the handshake out
        self.parser.wont_received = wont  # type: ignore[method-assign]
        self.bucket = InputBucket()
        self.on_input: Callable[[], None] = lambda: None
        self._resume: asyncio.TimerHandle | None = None

    def _ttype_received(self, ttype: str) -> None:
        """The client named its terminal: its output (prompt_toolkit's, but ServedOutput).
        A name that comes after the screen was drawn for a VT100 changes nothing."""
        if self._ready.is_set():
            return
        self.vt100_output = ServedOutput(self.stdout, lambda: self.size, term=ttype,
                                         enable_cpr=self.enable_cpr)
        self._ready.set()

    def _readable(self) -> None:
        try:
            data = self.conn.recv(1024)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self.on_input()
        if not self._negotiating and b"\xff" in data:
            self._negotiating = True
        if self._subnegotiation_too_long(data):
            self.close()  # an option that never ends: only a hostile client sends one
            return
        keys = self.vt100_input
        hold = getattr(keys, "hold_reads", None)  # a memory input: its keys read in this turn
        if hold is not None:
            hold()
        try:
            self.feed(data)
            pause = self.bucket.take(len(data))
            if pause and not self._closed:
                loop = asyncio.get_running_loop()
                loop.remove_reader(self.conn)
                self._resume = loop.call_later(pause, self._resume_reading)
        finally:
            if hold is not None:
                keys.read_held()  # type: ignore[attr-defined]

    def _subnegotiation_too_long(self, data: bytes) -> bool:
        """Follow IAC SB ... IAC SE across reads (prompt_toolkit's parser would keep every
        byte of a sub-negotiation that never ends)."""
        inside, after_iac = self._in_subnegotiation, self._after_iac
        for byte in data:
            if after_iac:
                after_iac = False
                if byte == 250:  # SB
                    inside = 1
                elif byte == 240:  # SE
                    inside = 0
                elif inside:
                    inside += 2
            elif byte == 255:  # IAC
                after_iac = True
            elif inside:
                inside += 1
                if inside > SUBNEGOTIATION_BYTES:
                    return True
        self._in_subnegotiation, self._after_iac = inside, after_iac
        return inside > SUBNEGOTIATION_BYTES

    def _resume_reading(self) -> None:
        self._resume = None
        if self._closed:
            return
        if _peer_gone(self.conn):  # while reading was paused; its flood is still queued
            self.close()
            return
        asyncio.get_running_loop().add_reader(self.conn, self._readable)

    def write_line(self, text: str) -> None:
        """A plain line after the application has left the screen (a goodbye)."""
        self.stdout.write(f"\n{text}\n")

    async def run_application(self) -> None:
        asyncio.get_running_loop().add_reader(self.conn, self._readable)
        try:
            try:  # until the client names its terminal, or leaves (close sets _ready too)
                first = min(RAW_CLIENT_SECONDS, HANDSHAKE_SECONDS)
                await asyncio.wait_for(self._ready.wait(), first)
            except TimeoutError:
                if self._negotiating:  # it answers telnet's options: its name is coming
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._ready.wait(), HANDSHAKE_SECONDS - first)
            if not self._ready.is_set():  # nc, or a client that never named its terminal
                self._ready.set()
                self.vt100_output = ServedOutput(self.stdout, lambda: self.size, term="vt100",
                                                 enable_cpr=False)
            if self._closed:
                return  # gone during the negotiation: no terminal to run
            with create_app_session(input=self.vt100_input, output=self.vt100_output):
                self.context = contextvars.copy_context()
                await self.interact(self)
        finally:
            self.close()

    def close(self) -> None:
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        was_closed = self._closed
        super().close()
        if not was_closed:
            self.stdout.close()
            self._ready.set()  # a negotiation still waited on is over


class ServedTelnetServer(TelnetServer):
    """Listens on one address; ``admit`` gives a new client a seat or the line refusing it.

    The seat is released when the connection's task is done, by a done callback: that runs
    however the task ends (the client reset or closed before, during or after the
    negotiation, the application failed, the server cancelled the task before it began).
    """

    def __init__(self, host: str, port: int, interact: Interact,
                 admit: Callable[[str], Hold | str],
                 listener: socket.socket | None = None) -> None:
        super().__init__(host=host, port=port, interact=interact,  # type: ignore[arg-type]
                         enable_cpr=False)
        self.admit = admit  # peer -> a seat, or the refusal to send
        self.bound_port = port
        self.listener = listener  # a pool's socket, bound already; None: bind one
        self.resting = False  # out of descriptors: the socket unwatched a while (_rest)

    def _create_socket(self, host: str, port: int) -> socket.socket:  # type: ignore[override]
        if self.listener is not None:
            self.bound_port = self.listener.getsockname()[1]
            return self.listener
        listener = Endpoint(host, port).listen()  # a refusal names host:port
        self.bound_port = listener.getsockname()[1]
        return listener

    def _accept(self, listen_socket: socket.socket) -> None:
        self._accept_one(listen_socket)

    def closing_down(self) -> None:
        """The class server is closing (a pool's listener steps aside: serve/pack.py)."""

    def _rest(self, listen_socket: socket.socket) -> None:
        """Out of descriptors (or memory): the socket stays readable and every wake-up
        would fail again, at 100 % of a core; stop watching it for ACCEPT_RETRY, as
        asyncio's own servers do, and meanwhile the connection waits in the backlog."""
        loop = asyncio.get_running_loop()
        loop.remove_reader(listen_socket)
        self.resting = True

        def again() -> None:
            self.resting = False
            if listen_socket.fileno() >= 0:
                loop.add_reader(listen_socket, self._accept, listen_socket)
        loop.call_later(ACCEPT_RETRY, again)

    def _accept_one(self, listen_socket: socket.socket) -> bool:
        """Accept one connection and seat it or refuse it; False if none was accepted."""
        try:
            conn, addr = listen_socket.accept()
        except OSError as error:
            if error.errno in OUT_OF_RESOURCES:
                self._rest(listen_socket)
            return False
        try:
            conn.setblocking(False)
            # Keystrokes and screen updates are small writes: without this, Nagle's
            # algorithm and the client's delayed ACK hold a second write back by 200 ms.
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            watch_for_vanished_peer(conn)
        except OSError:
            conn.close()
            return True
        peer = f"{addr[0]}:{addr[1]}"
        hold = self.admit(peer)
        if isinstance(hold, str):
            with contextlib.suppress(OSError):
                conn.send(f"\r\n{hold}\r\n".encode())
            conn.close()
            return True

        async def run() -> None:
            with create_memory_pipe_input() as vt100_input:  # no OS pipe between the two
                connection = ServedTelnetConnection(
                    conn, addr, self.interact, self, encoding=self.encoding,
                    style=self.style, vt100_input=vt100_input, enable_cpr=False)
                self.connections.add(connection)
                try:
                    await connection.run_application()
                finally:
                    self.connections.discard(connection)

        def ended(task: asyncio.Task[None]) -> None:
            hold.release()
            conn.close()
            with contextlib.suppress(ValueError):
                self._application_tasks.remove(task)
            if not task.cancelled():
                error = task.exception()  # retrieved: an ended connection is no error
                if error is not None and not isinstance(error, EOFError | KeyboardInterrupt
                                                        | OSError):
                    loop.call_exception_handler({"message": f"telnet {peer} failed",
                                                 "exception": error, "task": task})

        loop = asyncio.get_running_loop()
        task = loop.create_task(run())
        task.add_done_callback(ended)
        self._application_tasks.append(task)
        return True
