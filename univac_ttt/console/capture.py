"""A picture of the console for the docs: a short game, drawn by rich as SVG or HTML.

    python3 -m univac_ttt.console.capture docs/console.svg [moves...]

The opponent's moves are given (default: a blunder that the UNIVAC punishes); every reply
on the paper comes from the program running in the emulator, as always.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..desk.session import GameSession
from ..program.shipped import load_tictactoe
from .panels import PANEL_WIDTH, render_panel

DEFAULT_MOVES = ("2", "8", "0", "5", "1", "3", "4")


def capture(path: Path, moves: tuple[str, ...] = DEFAULT_MOVES, width: int = 100) -> None:
    session = GameSession(load_tictactoe().image.words)
    typed = []
    for move in moves:
        session.submit(move)
        typed.append(move)
    paper = Text(session.paper.strip("\n"), style="#202020 on #f4efe1", no_wrap=True)
    layout = Table.grid(padding=(0, 1))
    layout.add_column(width=width - PANEL_WIDTH - 3)
    layout.add_column(width=PANEL_WIDTH)
    layout.add_row(Panel(paper, title="printer paper", style="on #f4efe1",
                         border_style="#1c3a5e"),
                   Text.from_ansi(render_panel(session, typing=False, authentic=False)))
    console = Console(record=True, width=width, force_terminal=True, color_system="truecolor",
                      file=open("/dev/null", "w"))  # noqa: SIM115 - recorded, not shown
    console.print(Text(" UNIVAC I  ·  SUPERVISORY CONTROL  ·  TIC-TAC-TOE ",
                       style="bold #f0e6c8 on #1c3a5e"))
    console.print(layout)
    console.print(Text(f" INPUT READY ▸  (typed so far: {' '.join(typed)})",
                       style="bold #f0b040"))
    if path.suffix == ".html":
        console.save_html(str(path))
    else:
        console.save_svg(str(path), title="univac-ttt")


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("console.svg")
    capture(target, tuple(sys.argv[2:]) or DEFAULT_MOVES)
    print(f"wrote {target}")
