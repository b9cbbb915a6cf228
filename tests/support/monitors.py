"""The monitor as `univac-ttt monitor` starts it, for tests that drive it without a screen."""

from __future__ import annotations

from univac_ttt.monitor.core import Monitor
from univac_ttt.program.boottape import fresh_tictactoe_tape
from univac_ttt.program.shipped import load_tictactoe


def game_monitor() -> Monitor:
    """The monitor as `univac-ttt monitor` starts it: the program, its tape on Uniservo 1."""
    shipped = load_tictactoe()
    return Monitor(shipped.image.words, shipped.program, tapes={1: fresh_tictactoe_tape()})
