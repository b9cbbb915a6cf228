"""The class table on the server's own terminal: who is connected and how the games went."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Console
from rich.live import Live
from rich.table import Table

from ..desk.score import Score

MAX_PEER_SHOWN = 47  # an IPv6 address and port: the longest "from" kept whole


@dataclass
class Seat:
    """One connection as the table sees it."""

    number: int
    peer: str
    transport: str
    results: Callable[[], tuple[int, int, int]] = lambda: (0, 0, 0)
    started: float = field(default_factory=time.monotonic)
    last_input: float = field(default_factory=time.monotonic)


class ClassTable:
    """Keeps the seats and the finished games; draws them live (rich) or as plain lines."""

    def __init__(self, out: TextIO, live: bool | None = None) -> None:
        self.out = out
        self.seats: dict[int, Seat] = {}
        self.finished = Score()  # games of connections that have closed
        self.connections_total = 0
        self.refused = 0
        self.live_mode = out.isatty() if live is None else live
        self._live: Live | None = None
        self._started = False  # a summary at stop only for a class that opened

    def totals(self) -> Score:
        tally = Score(self.finished.univac_wins, self.finished.draws,
                      self.finished.opponent_wins)
        for seat in self.seats.values():
            tally.add(seat.results())
        return tally

    # ---- events ----------------------------------------------------------------------

    def seat(self, seat: Seat) -> None:
        self.seats[seat.number] = seat
        self.connections_total += 1
        self.note(f"#{seat.number} {seat.transport} from {seat.peer} joined "
                  f"({len(self.seats)} connected)")

    def unseat(self, number: int, why: str) -> None:
        seat = self.seats.pop(number, None)
        if seat is None:
            return
        results = seat.results()
        self.finished.add(results)
        self.note(f"#{number} left ({why}): {sum(results)} games, UNIVAC {results[0]}, "
                  f"draws {results[1]}, opponent {results[2]}")

    def refuse(self, peer: str, transport: str) -> None:
        self.refused += 1
        self.note(f"refused {transport} from {peer}: the class is full")

    def note(self, text: str) -> None:
        if not self.live_mode:
            stamp = time.strftime("%H:%M:%S")
            self.out.write(f"{stamp} {text}\n")
            self.out.flush()

    # ---- drawing ---------------------------------------------------------------------

    def summary(self) -> str:
        t = self.totals()
        return (f"connections {len(self.seats)} now, {self.connections_total} in all; "
                f"games {t.games}; UNIVAC wins {t.univac_wins}; draws {t.draws}; "
                f"opponents' wins {t.opponent_wins}")

    def render(self) -> Table:
        t = self.totals()
        table = Table(title="UNIVAC I class", caption=self.summary())
        shown = list(self.seats.values())[:40]
        # The address whole (an 80-column terminal cut "192.168.1.23:5" to "192.…"): the
        # figures' headings take two lines instead.
        widest = max((len(seat.peer) for seat in shown), default=4)
        for name in ("#", "from", "via", "games", "UNIVAC\nwins", "draws", "player\nwins",
                     "idle\ns"):
            if name == "from":
                table.add_column(name, no_wrap=True, min_width=min(widest, MAX_PEER_SHOWN))
            else:
                table.add_column(name, justify="left" if name == "via" else "right")
        now = time.monotonic()
        for seat in shown:
            won, drawn, lost = seat.results()
            table.add_row(str(seat.number), seat.peer, seat.transport, str(won + drawn + lost),
                          str(won), str(drawn), str(lost), f"{now - seat.last_input:.0f}")
        table.add_row("", "all", "", str(t.games), str(t.univac_wins), str(t.draws),
                      str(t.opponent_wins), "", style="bold")
        return table

    def start(self) -> None:
        self._started = True
        if self.live_mode:
            self._live = Live(self.render(), console=Console(file=self.out),
                              auto_refresh=False, transient=False)
            self._live.start()

    def refresh(self) -> None:
        if self._live is not None:
            self._live.update(self.render(), refresh=True)

    def stop(self) -> None:
        if self._live is not None:
            self._live.update(self.render(), refresh=True)
            self._live.stop()
            self._live = None
        if self._started:  # a class that never opened (its port in use) has no summary
            self.out.write(self.summary() + "\n")
            self.out.flush()
