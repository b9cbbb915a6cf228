"""A clock a test moves by hand: passed where the code takes ``clock=`` (the typewriter's
pace, idle and lock timers, the heap's reclaims), so nothing waits on the wall."""

from __future__ import annotations


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
