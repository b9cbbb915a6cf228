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
FOLDED_PEER = 9  # the narrowest a folded address is left: "127.0.0." a line at least
# "idle" with its unit on each figure ("12s"): "idle" over "s" read as a stray letter.
HEADINGS = ("#", "from", "via", "games", "UNIVAC wins", "draws", "player wins", "idle")
# Where a heading may break to save width: two words stacked, each whole.
STACKED = {"UNIVAC wins": "UNIVAC\nwins", "player wins": "player\nwins"}


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
        """The table for a terminal ``width`` columns wide: the first layout that fits of
        ruled with one-line headings, ruled with two-word headings stacked, the same two
        without rules between columns, and last (a 60-column terminal with long
        addresses) without the games column (each row's three results and the caption's
        total say it), its address folded onto a second line where even that is too
        narrow, never cut; where a folded address leaves no room (40 columns), without the
        transport too. Headings are never cut or broken inside a word."""
        t = self.totals()
        now = time.monotonic()
        rows: list[dict[str, str]] = []
        for seat in list(self.seats.values())[:40]:
            won, drawn, lost = seat.results()
            rows.append(dict(zip(HEADINGS, (
                str(seat.number), seat.peer, seat.transport, str(won + drawn + lost),
                str(won), str(drawn), str(lost), f"{now - seat.last_input:.0f}s"),
                strict=True)))
        rows.append(dict(zip(HEADINGS, ("", "all", "", str(t.games), str(t.univac_wins),
                                        str(t.draws), str(t.opponent_wins), ""), strict=True)))
        cells = {name: max(len(row[name]) for row in rows) for name in HEADINGS}
        cells["from"] = min(cells["from"], MAX_PEER_SHOWN)
        every = list(HEADINGS)
        no_games = [name for name in HEADINGS if name != "games"]
        no_via = [name for name in no_games if name != "via"]
        layouts = [(ruled, stacked, every) for ruled in (True, False)
                   for stacked in (False, True)] + [(False, True, no_games)]
        for ruled, stacked, columns in layouts:
            wide = self._widths(cells, columns, stacked)
            spent = 3 * len(columns) + 1 if ruled else len(columns) + 1
            if sum(wide.values()) + spent <= width:
                break
        else:  # the address folded; without the transport where even that leaves no room
            for columns in (no_games, no_via):
                wide = self._widths(cells, columns, stacked)
                spent = len(columns) + 1
                if sum(wide.values()) - wide["from"] + spent + FOLDED_PEER <= width:
                    break
        caption = self._caption(width - 2)
        if ruled:
            table = Table(title="UNIVAC I class", caption=caption)
        else:
            table = Table(title="UNIVAC I class", caption=caption, box=box.SIMPLE_HEAD,
                          padding=(0, 0), pad_edge=False)
        others = sum(wide[name] + 1 for name in columns if name != "from")
        for name in columns:
            heading = self._heading(name, stacked)
            if name == "from":  # whole where it fits (an 80-column terminal cut it), or folded
                table.add_column(heading, overflow="fold",
                                 min_width=max(4, min(wide[name], width - others - 2)))
            else:
                table.add_column(heading, justify="left" if name == "via" else "right",
                                 no_wrap=True, min_width=wide[name])
        for row in rows:
            # the address and transport as text: rich read "[2001:db8::1234:5678]" as
            # markup and its ":1234:" as an emoji code
            table.add_row(*(Text(row[name]) if name in ("from", "via") else row[name]
                            for name in columns),
                          style="bold" if row is rows[-1] else None)
        return table

    def _caption(self, width: int) -> str:
        """The summary broken only between its parts ("draws" over "2" read as no figure)."""
        lines: list[str] = []
        for part in self.summary().split("; "):
            if lines and len(lines[-1]) + len(part) + 2 <= width:
                lines[-1] += f"; {part}"
            else:
                lines.append(part)
        return ";\n".join(lines)

    def _widths(self, cells: dict[str, int], columns: list[str],
                stacked: bool) -> dict[str, int]:
        return {name: max(cells[name], *map(len, self._heading(name, stacked).split("\n")))
                for name in columns}

    @staticmethod
    def _heading(name: str, stacked: bool) -> str:
        return STACKED.get(name, name) if stacked else name

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
