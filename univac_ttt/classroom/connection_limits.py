"""Per-connection limits: how fast a client may type, and how long it may stay silent."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable

from prompt_toolkit.data_structures import Size

# A person types about 10 characters a second; a terminal's escape sequences and a pasted
# line come in bursts. Past this the server stops reading the client (TCP holds the rest),
# so one pasted flood slows only its own terminal.
INPUT_BYTES_PER_SECOND = 300.0
INPUT_BURST_BYTES = 2048.0
OUTPUT_BACKLOG_BYTES = 1 << 20  # unsent screen output past this: the client is not reading
HANDSHAKE_SECONDS = 5.0  # a telnet client that never names its terminal gets a VT100
# A client that has answered none of telnet's options by then (nc, a raw socket) is taking
# no part in the negotiation: it gets its VT100 screen then, not after HANDSHAKE_SECONDS.
# One that answers (a telnet client: IAC WILL TTYPE) is waited for up to HANDSHAKE_SECONDS.
RAW_CLIENT_SECONDS = 0.5
# A redraw costs in proportion to the screen's area: a window size past these is taken as
# these (a client asking for 65535 x 65535 would otherwise cost the server minutes a key).
MAX_COLUMNS, MAX_ROWS = 300, 120
DEFAULT_SIZE = Size(rows=24, columns=80)  # for a size of zero: the client did not say
SUBNEGOTIATION_BYTES = 1024  # a telnet option's sub-negotiation past this: the client goes
# A peer that vanished without a word (a pulled cable, a sleeping laptop): keepalive probes
# after a minute of silence find it; data unacknowledged for USER_TIMEOUT ends it.
KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 60, 10, 3
USER_TIMEOUT_MS = 60_000


def bounded_size(rows: int, columns: int) -> Size:
    """The window size a client asked for, within what the server will draw."""
    if rows <= 0 or columns <= 0:
        return DEFAULT_SIZE
    return Size(rows=min(rows, MAX_ROWS), columns=min(columns, MAX_COLUMNS))


def watch_for_vanished_peer(conn: socket.socket) -> None:
    """TCP keepalive and a user timeout on a client's socket (where the system has them)."""
    options = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    for name, value in (("TCP_KEEPIDLE", KEEPALIVE_IDLE), ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL),
                        ("TCP_KEEPCNT", KEEPALIVE_COUNT), ("TCP_USER_TIMEOUT", USER_TIMEOUT_MS)):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    for level, option, value in options:
        with contextlib.suppress(OSError):
            conn.setsockopt(level, option, value)


class InputBucket:
    """Token bucket over input bytes; ``take`` says how long to pause reading (0: none)."""

    def __init__(self, rate: float = INPUT_BYTES_PER_SECOND, burst: float = INPUT_BURST_BYTES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level = burst
        self.stamp = clock()

    def take(self, count: int) -> float:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        self.level -= count
        return 0.0 if self.level >= 0 else -self.level / self.rate
