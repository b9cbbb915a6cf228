"""The monitor as `univac-ttt monitor` starts it, for tests that drive it without a screen."""

from __future__ import annotations

from univac_ttt.monitor.core import Monitor
from univac_ttt.packs import shipped_pack


def game_monitor() -> Monitor:
    """The monitor as `univac-ttt monitor` starts it: the tic-tac-toe pack's program, its
    board, its tape on Uniservo 1."""
    return Monitor.for_pack(shipped_pack("tictactoe"))
