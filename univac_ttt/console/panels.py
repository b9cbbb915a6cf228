"""The console's side panel (square-code card, lamps, figures, score), rendered with rich.

rich lays out the little tables; the result is ANSI text that prompt_toolkit shows as is.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from rich.align import Align
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from ..desk.session import GameSession
from ..machine.timing import format_time

PANEL_WIDTH = 30


@dataclass(frozen=True)
class Lamp:
    label: str
    style: str
    detail: str = ""


def lamp_for(session: GameSession, typing: bool) -> Lamp:
    """Which console lamp is lit."""
    error = session.error
    if error:
        neons = [n for n in session.desk.neons.lit() if n != "INPUT READY"]
        return Lamp("ERROR STOP", "bold white on red",
                    f"neon: {', '.join(neons)}; {error}" if neons else error)
    if session.halted:
        return Lamp("STOPPED", "bold black on yellow", session.stop.describe() if session.stop
                    else "")
    if typing:
        return Lamp("RUNNING", "bold black on green3", "the typewriter is typing")
    if session.waiting_for_keyboard:
        return Lamp("INPUT READY", "bold black on orange1", "type a square code, then Enter")
    return Lamp("RUNNING", "bold black on green3")


def square_card() -> Align:
    rule = "───┼───┼───"
    rows = [" │ ".join(row) for row in ("123", "456", "789")]
    card = Text(f" {rows[0]}\n{rule}\n {rows[1]}\n{rule}\n {rows[2]}", style="bold")
    return Align.center(card)


def render_panel(session: GameSession, typing: bool, authentic: bool,
                 width: int = PANEL_WIDTH) -> str:
    """About fifteen lines: the square codes, the lamp, the UNIVAC time, the score."""
    lamp = lamp_for(session, typing)
    lamp_text = Text()
    lamp_text.append(f" {lamp.label} ", style=lamp.style)
    if lamp.detail:
        lamp_text.append(f"\n{lamp.detail}", style="italic")
    last, game = session.last_move, session.game
    figures = Text(f"{'UNIVAC':<9}{'instr.':>10}{'time':>10}\n", style="cyan")
    for label, move in (("last move", last), ("this game", game)):
        figures.append(f"{label:<9}", style="bold")
        figures.append(f"{move.instructions:>10,}{format_time(move.time_us):>10}\n")
    score = session.score
    tally = Text()
    for label, value in (("UNIVAC ", score.univac_wins), ("  draws ", score.draws),
                         ("  you ", score.opponent_wins)):
        tally.append(label, style="bold")
        tally.append(str(value))
    speed = "authentic (10 char/s)" if authentic else "fast"
    group = Group(
        Panel(square_card(), title="square codes", border_style="cyan"),
        lamp_text,
        Text(""),
        figures,
        tally,
        Text(f"typing: {speed}", style="dim"),
    )
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=True, color_system="256",
                      legacy_windows=False)
    console.print(group)
    return buffer.getvalue()
