"""A served terminal's keyboard input, handed from the telnet parser to the application in
memory instead of through an operating system pipe.

prompt_toolkit's telnet server gives each connection a ``PosixPipeInput``: every read from
the socket is written into a pipe, the event loop wakes for the pipe's other end, and the
input checks it with ``select`` before it reads it back; four system calls and a turn of
the loop for each key, and two descriptors a terminal. ``MemoryPipeInput`` keeps the bytes
in a buffer and calls the application's reader on the loop's next turn, as the pipe's
readiness would: the same VT100 parser (the key guard replaces it as before), reads of at
most 1,024 bytes a turn (a long paste still lets the other terminals in between), the same
end of input when the connection closes (the application sees it closed once everything
sent before was read), attach and detach nested as prompt_toolkit nests them.

The telnet connection feeds its socket's bytes between ``hold_reads`` and ``read_held``:
the application's reader then runs at once, at the end of the socket's callback (after
the telnet parser is done with the bytes), instead of on the loop's next turn: one turn of
the loop a key fewer, each a ``select`` and the loop's bookkeeping. It runs as the loop
would run it (an ``asyncio.Handle`` in the reader's context, an error in it handed to the
loop's exception handler with that handle, so the server still ends only that terminal).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import contextvars
import itertools
from collections.abc import Callable, Iterator

from prompt_toolkit.input import PipeInput
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.utils import DummyContext

READ_BYTES = 1024  # what PosixStdinReader reads at a time
_numbers = itertools.count(1)


class MemoryPipeInput(PipeInput):
    """A PipeInput without a pipe (see the module's docstring)."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
        self._keys: list[KeyPress] = []
        self.vt100_parser = Vt100Parser(self._keys.append)
        # attach/detach, innermost last: the reader, and the context it was attached in
        self._readers: list[tuple[Callable[[], None], contextvars.Context] | None] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._write_closed = False
        self._closed = False  # everything was read after the writing end closed
        self._escape_read = False  # an ESC read since the last flush (see ``may_hold``)
        self._holding = False  # between hold_reads and read_held: the reader waits ...
        self._held = False  # ... and was to be called
        self._id = next(_numbers)

    # ---- the writing end (the telnet connection) -------------------------------------

    def send_bytes(self, data: bytes) -> None:
        if self._write_closed or not data:
            return
        self._pending += data
        self._wake()

    def send_text(self, data: str) -> None:
        self.send_bytes(data.encode("utf-8"))

    def close(self) -> None:
        """The writing end closes: the reader learns it once the bytes before are read."""
        if not self._write_closed:
            self._write_closed = True
            self._wake()

    # ---- the reading end (the application) -------------------------------------------

    def hold_reads(self) -> None:
        """Bytes sent from now until ``read_held`` are read when it is called."""
        self._holding = True

    def read_held(self) -> None:
        """Call the reader now if what was sent since ``hold_reads`` woke it."""
        self._holding = False
        if self._held:
            self._held = False
            self._wake(now=True)

    def _wake(self, now: bool = False) -> None:
        """Call the current reader on the loop's next turn (once, however many sends), if
        there is something for it to read: bytes, or the end; ``now``: at once."""
        if self._scheduled or not self._readers or self._readers[-1] is None:
            return
        if self._closed or not (self._pending or self._write_closed):
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if self._holding:
            self._held = True
            return
        self._scheduled = True
        # In the context the reader was attached in, as a loop's reader runs: the server's
        # exception handler finds the failing terminal's application there.
        context = self._readers[-1][1]
        if now:  # as the loop runs a callback (an error goes to its exception handler)
            asyncio.Handle(self._ready, (), loop, context=context)._run()  # noqa: SLF001
        else:
            loop.call_soon(self._ready, context=context)

    def _ready(self) -> None:
        self._scheduled = False
        reader = self._readers[-1] if self._readers else None
        if reader is not None and not self._closed and (self._pending or self._write_closed):
            reader[0]()

    def read_keys(self) -> list[KeyPress]:
        chunk = bytes(self._pending[:READ_BYTES])
        del self._pending[:READ_BYTES]
        if chunk:
            text = self._decoder.decode(chunk)
            self._escape_read = self._escape_read or "\x1b" in text
            self.vt100_parser.feed(text)
        elif self._write_closed:
            self._closed = True
        if self._pending or (self._write_closed and not self._closed):
            self._wake()  # as a pipe with more in it stays readable
        keys, self._keys[:] = list(self._keys), []
        return keys

    def may_hold(self) -> bool:
        """Whether a flush could give keys or end a paste: only once an ESC was read since
        the last flush (every longer VT100 sequence, a paste's start too, begins with one),
        so for a player's digits and Enter it is False."""
        return self._escape_read

    def flush_keys(self) -> list[KeyPress]:
        self._escape_read = False
        self.vt100_parser.flush()
        keys, self._keys[:] = list(self._keys), []
        return keys

    @property
    def closed(self) -> bool:
        return self._closed

    def fileno(self) -> int:
        raise NotImplementedError("a served terminal's input has no file descriptor")

    def typeahead_hash(self) -> str:
        return f"memory-pipe-input-{self._id}"

    def raw_mode(self) -> contextlib.AbstractContextManager[None]:
        return DummyContext()

    def cooked_mode(self) -> contextlib.AbstractContextManager[None]:
        return DummyContext()

    @contextlib.contextmanager
    def attach(self, input_ready_callback: Callable[[], None]) -> Iterator[None]:
        self._loop = asyncio.get_running_loop()
        self._readers.append((input_ready_callback, contextvars.copy_context()))
        try:
            self._wake()  # what was sent before the application began
            yield
        finally:
            self._readers.pop()
            self._wake()  # the reader underneath takes what is left

    @contextlib.contextmanager
    def detach(self) -> Iterator[None]:
        self._readers.append(None)
        try:
            yield
        finally:
            self._readers.pop()
            self._wake()


@contextlib.contextmanager
def create_memory_pipe_input() -> Iterator[MemoryPipeInput]:
    """As ``create_pipe_input``: the input, closed when the block ends."""
    keys = MemoryPipeInput()
    try:
        yield keys
    finally:
        keys.close()
