"""The console's side panel (the pack's card, lamps, figures, score), rendered with rich.

rich lays out the little tables; the result is ANSI text that prompt_toolkit shows as is.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from prompt_toolkit.formatted_text import ANSI
from rich.align import Align
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from ..desk.session import GameSession
from ..machine.timing import format_time
from ..program.pack import NO_PACK, Pack

PANEL_WIDTH = 30


@dataclass(frozen=True)
class Lamp:
    label: str
    style: str
    detail: str = ""


def lamp_for(session: GameSession, typing: bool, key_hint: str = "") -> Lamp:
    """Which console lamp is lit."""
    error = session.error
    if error:
        neons = session.desk.neons.error
        return Lamp("ERROR STOP", "bold white on red",
                    f"neon: {', '.join(neons)}; {error}" if neons else error)
    if session.halted:
        return Lamp("STOPPED", "bold black on yellow", session.stop.describe() if session.stop
                    else "")
    if typing:
        return Lamp("RUNNING", "bold black on green3", "the typewriter is typing")
    if session.waiting_for_keyboard:
        return Lamp("INPUT READY", "bold black on orange1",
                    key_hint or "type a word, then Enter")
    return Lamp("RUNNING", "bold black on green3")


def card(text: str) -> Align:
    """The pack's reference card (tic-tac-toe's square codes), centred."""
    return Align.center(Text(text, style="bold"))


class Figures(Protocol):
    instructions: int
    time_us: float


def figures_text(session: GameSession, width: int = PANEL_WIDTH) -> Text:
    """The instructions and UNIVAC time of the last reply and of this game (or session), in
    columns; a figure too wide for its column moves the time to a line of its own, so two
    figures never run together. After a result, until the next game's first word, the
    game's row is the finished game's, labelled "last game"."""
    return figures_text_of(session.last_move, session.game, width, session.game_over)


FIGURES_LABEL_WIDTH = 10
FIGURES_HEADER = f"{'UNIVAC':<{FIGURES_LABEL_WIDTH}}{'instr.':>9} {'time':>9}\n"


def figure_parts(label: str, move: Figures, width: int) -> tuple[tuple[str, str | None], ...]:
    """One move's line of the figures (or two, when a figure is too wide for its column),
    as the (text, style) pieces ``figures_text_of`` appends."""
    count, time = f"{move.instructions:,}", format_time(move.time_us)
    label_width = FIGURES_LABEL_WIDTH
    if label_width + max(len(count), 9) + 1 + max(len(time), 9) <= width:
        numbers = f"{count:>9} {time:>9}\n"
    else:
        numbers = f"{count:>9}\n{'':<{label_width}}{time:>{width - label_width}}\n"
    return (f"{label:<{label_width}}", "bold"), (numbers, None)


def game_label(game_over: bool) -> str:
    """The game row's label: the finished game's until the next game's first word."""
    return "last game" if game_over else "this game"


def figures_text_of(last: Figures, game: Figures, width: int = PANEL_WIDTH,
                    game_over: bool = False) -> Text:
    """``figures_text`` for these two sets of figures."""
    figures = Text(FIGURES_HEADER, style="cyan")
    for label, move in (("last move", last), (game_label(game_over), game)):
        for text, style in figure_parts(label, move, width):
            figures.append(text, style=style)
    return figures


def render_panel(session: GameSession, typing: bool, authentic: bool,
                 width: int = PANEL_WIDTH, pack: Pack = NO_PACK,
                 uniservos: Sequence[str] = ()) -> str:
    """About fifteen lines: the pack's card, the lamp, the UNIVAC time, the score. A
    program without a card or results (any --image) has only the lamp, the figures and
    the speed; ``uniservos``, the lines for a program's own reels (tapelamps.unit_lines),
    go under the figures."""
    lamp = lamp_for(session, typing, pack.key_hint)
    lamp_text = Text()
    lamp_text.append(f" {lamp.label} ", style=lamp.style)
    if lamp.detail:
        lamp_text.append(f"\n{lamp.detail}", style="italic")
    figures = figures_text(session, width)
    score = session.score
    tally = Text()
    for index, name in enumerate(pack.result_names):
        tally.append(("  " if index else "") + pack.result_label(name) + " ", style="bold")
        tally.append(str(score.count(name)))
    speed = "authentic (10 char/s)" if authentic else "fast"
    parts = [Panel(card(pack.card), title=pack.card_title or None, border_style="cyan")] \
        if pack.card else []
    parts += [lamp_text, Text(""), figures]
    if uniservos:
        parts.append(Text("UNISERVOS", style="cyan"))
        parts.append(Text("\n".join(uniservos)))
    if pack.scores:
        parts.append(tally)
    parts.append(Text(f"typing: {speed}", style="dim"))
    group = Group(*parts)
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=True, color_system="256",
                      legacy_windows=False)
    console.print(group)
    return buffer.getvalue()


class PanelCache:
    """The side panel, laid out again only when what it shows has changed: rich's layout
    was most of a redraw's cost, and a redraw for a typed key changes none of it."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._panel = ANSI("")

    def panel(self, session: GameSession, typing: bool, authentic: bool,
              width: int = PANEL_WIDTH, pack: Pack = NO_PACK,
              uniservos: Sequence[str] = ()) -> ANSI:
        score, last, game = session.score, session.last_move, session.game
        key = (lamp_for(session, typing, pack.key_hint), last.instructions, last.pulses,
               game.instructions, game.pulses, session.game_over,
               tuple(sorted(score.counts.items())), authentic, width, id(pack),
               tuple(uniservos))
        if key != self._key:
            self._panel = ANSI(render_panel(session, typing, authentic, width, pack,
                                            uniservos))
            self._key = key
        return self._panel
