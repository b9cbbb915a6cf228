"""The class table on the server's own terminal: who is connected and how the games went."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.table import Table
from rich.text import Text

from ..desk.score import Score

MAX_PEER_SHOWN = 47  # an IPv6 address and port: the longest "from" kept whole
HEADINGS = ("#", "from", "via", "games", "UNIVAC\nwins", "draws", "player\nwins", "idle\ns")


class ClassView:
    """The class table as a rich renderable: laid out for the width it is drawn at (the
    server's terminal, however wide)."""

    def __init__(self, table: ClassTable) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.table.render_for(options.max_width)


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

    def render(self) -> ClassView:
        """The table as rich draws it: laid out for the width it is drawn at."""
        return ClassView(self)

    def render_for(self, width: int) -> Table:
        """The table for a terminal ``width`` columns wide. Where the ruled table with its
        games column would not fit (a 60-column terminal cut every heading to "gam…",
        "UNI…"), a compact one: no rules between columns, no games column (each row's
        three results and the caption's total say it); an address too long even then is
        folded onto a second line, never cut."""
        t = self.totals()
        now = time.monotonic()
        rows: list[dict[str, str]] = []
        for seat in list(self.seats.values())[:40]:
            won, drawn, lost = seat.results()
            rows.append(dict(zip(HEADINGS, (
                str(seat.number), seat.peer, seat.transport, str(won + drawn + lost),
                str(won), str(drawn), str(lost), f"{now - seat.last_input:.0f}"),
                strict=True)))
        rows.append(dict(zip(HEADINGS, ("", "all", "", str(t.games), str(t.univac_wins),
                                        str(t.draws), str(t.opponent_wins), ""), strict=True)))
        heading = {name: max(map(len, name.split("\n"))) for name in HEADINGS}
        wide = {name: max(heading[name], *(len(row[name]) for row in rows))
                for name in HEADINGS}
        wide["from"] = min(wide["from"], MAX_PEER_SHOWN)
        columns = list(HEADINGS)
        if sum(wide.values()) + 3 * len(columns) + 1 <= width:
            table = Table(title="UNIVAC I class", caption=self.summary())
        else:
            columns.remove("games")
            table = Table(title="UNIVAC I class", caption=self.summary(), box=box.SIMPLE_HEAD,
                          padding=(0, 0), pad_edge=False)
        others = sum(wide[name] + 1 for name in columns if name != "from")
        for name in columns:
            if name == "from":  # whole where it fits (an 80-column terminal cut it), or folded
                table.add_column(name, overflow="fold",
                                 min_width=max(4, min(wide[name], width - others - 2)))
            else:
                table.add_column(name, justify="left" if name == "via" else "right",
                                 no_wrap=True, min_width=wide[name])
        for row in rows:
            # the address and transport as text: rich read "[2001:db8::1234:5678]" as
            # markup and its ":1234:" as an emoji code
            table.add_row(*(Text(row[name]) if name in ("from", "via") else row[name]
                            for name in columns),
                          style="bold" if row is rows[-1] else None)
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
