"""Per-connection limits: how fast a client may type, and how long it may stay silent."""

from __future__ import annotations

import time
from collections.abc import Callable

# A person types about 10 characters a second; a terminal's escape sequences and a pasted
# line come in bursts. Past this the server stops reading the client (TCP holds the rest),
# so one pasted flood slows only its own terminal.
INPUT_BYTES_PER_SECOND = 300.0
INPUT_BURST_BYTES = 2048.0
OUTPUT_BACKLOG_BYTES = 1 << 20  # unsent screen output past this: the client is not reading
HANDSHAKE_SECONDS = 5.0  # a telnet client that never names its terminal gets a VT100


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
