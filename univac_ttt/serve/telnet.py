"""prompt_toolkit's telnet server, hardened for a room full of clients.

Changes to ``prompt_toolkit.contrib.telnet``: the socket never blocks the event loop (unsent
output waits, and a client that stops reading is dropped), reading pauses when a client types
faster than the input cap, a client that never names its terminal gets a VT100 after a few
seconds instead of hanging, and the one past --max-clients is told so and let go.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import socket
from collections.abc import Callable, Coroutine
from typing import Any, TextIO, cast

from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.contrib.telnet.server import TelnetConnection, TelnetServer
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from .limits import HANDSHAKE_SECONDS, OUTPUT_BACKLOG_BYTES, InputBucket
from .seats import Hold

Interact = Callable[["ServedTelnetConnection"], Coroutine[Any, Any, None]]


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


class ServedTelnetConnection(TelnetConnection):
    """One telnet terminal: prompt_toolkit's connection with paced, non-blocking I/O."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # sends the options (the socket is non-blocking)
        self.stdout = cast(TextIO, _SocketWriter(self.conn, self.encoding, self.close))
        self.bucket = InputBucket()
        self.on_input: Callable[[], None] = lambda: None
        self._resume: asyncio.TimerHandle | None = None

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
        self.feed(data)
        pause = self.bucket.take(len(data))
        if pause and not self._closed:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.conn)
            self._resume = loop.call_later(pause, self._resume_reading)

    def _resume_reading(self) -> None:
        self._resume = None
        if not self._closed:
            asyncio.get_running_loop().add_reader(self.conn, self._readable)

    def write_line(self, text: str) -> None:
        """A plain line after the application has left the screen (a goodbye)."""
        self.stdout.write(f"\n{text}\n")

    async def run_application(self) -> None:
        asyncio.get_running_loop().add_reader(self.conn, self._readable)
        try:
            try:  # until the client names its terminal, or leaves (close sets _ready too)
                await asyncio.wait_for(self._ready.wait(), HANDSHAKE_SECONDS)
            except TimeoutError:
                self.vt100_output = Vt100_Output(self.stdout, lambda: self.size, term="vt100",
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
                 admit: Callable[[str], Hold | str]) -> None:
        super().__init__(host=host, port=port, interact=interact,  # type: ignore[arg-type]
                         enable_cpr=False)
        self.admit = admit  # peer -> a seat, or the refusal to send
        self.bound_port = port

    def _create_socket(self, host: str, port: int) -> socket.socket:  # type: ignore[override]
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
        listener.setblocking(False)
        self.bound_port = listener.getsockname()[1]
        return listener

    def _accept(self, listen_socket: socket.socket) -> None:
        try:
            conn, addr = listen_socket.accept()
            conn.setblocking(False)
            # Keystrokes and screen updates are small writes: without this, Nagle's
            # algorithm and the client's delayed ACK hold a second write back by 200 ms.
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            return
        peer = f"{addr[0]}:{addr[1]}"
        hold = self.admit(peer)
        if isinstance(hold, str):
            with contextlib.suppress(OSError):
                conn.send(f"\r\n{hold}\r\n".encode())
            conn.close()
            return

        async def run() -> None:
            with create_pipe_input() as vt100_input:
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
