"""The README's picture of the console, taken from the console itself so it cannot drift.

    python3 -m univac_ttt.packs.tictactoe.picture docs/console.svg [moves...]

The full-screen console runs headless at a fixed size; the moves are keyed into it as a
player would; what it draws is read back by a terminal emulator (pyte) and saved as SVG by
rich. Every reply on the paper comes from the program running in the emulator, as always.
A test regenerates the picture and compares it with docs/console.svg.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.console import Console
from rich.style import Style
from rich.text import Text

from ..desk.session import GameSession
from ..program.pack import Pack
from .app import ConsoleApp, ConsoleSettings

DEFAULT_MOVES = ("2", "8", "0", "5", "1", "3", "4")
COLUMNS, ROWS = 100, 40


def screen_bytes(pack: Pack, moves: tuple[str, ...], columns: int = COLUMNS,
                 rows: int = ROWS) -> str:
    """What the console running the pack writes to a terminal of this size while the
    moves are keyed."""
    written = io.StringIO()
    output = Vt100_Output(written, lambda: Size(rows=rows, columns=columns),
                          term="xterm-256color", default_color_depth=ColorDepth.TRUE_COLOR)

    async def play() -> None:
        with create_pipe_input() as keys:
            console = ConsoleApp(lambda on_print: GameSession.from_pack(pack, on_print=on_print),
                                 ConsoleSettings(pack=pack), input=keys, output=output)
            running = asyncio.ensure_future(console.app.run_async())
            for move in moves:
                while console.holding():  # a game just ended: keys wait for the next
                    await asyncio.sleep(0.05)
                typed = console.session.words_typed + console.session.refusals
                keys.send_text(f"{move}\r")
                for _ in range(200):  # until the console has taken the entry
                    await asyncio.sleep(0.01)
                    if console.session.words_typed + console.session.refusals > typed:
                        break
            await asyncio.sleep(0.2)
            console.app.invalidate()
            await asyncio.sleep(0.2)
            drawn.append(written.getvalue())  # before the exit moves the cursor on
            console.app.exit(result=0)
            await running

    drawn: list[str] = []
    asyncio.run(play())
    return drawn[0]


def _colour(name: str, default: str) -> str:
    if name == "default":
        return default
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):
        return f"#{name}"
    return {"brown": "yellow"}.get(name, name)


def screen_text(data: str, columns: int = COLUMNS, rows: int = ROWS) -> Text:
    """The screen the bytes draw, as rich text with the colours the console chose."""
    import pyte  # a documentation and test tool (pip install '.[docs]')

    screen = pyte.Screen(columns, rows)
    pyte.Stream(screen).feed(data)
    text = Text()
    for y in range(rows):
        line = screen.buffer[y]
        for x in range(columns):
            char = line[x]
            fg, bg = _colour(char.fg, "#e0e0e0"), _colour(char.bg, "#101010")
            if char.reverse:
                fg, bg = bg, fg
            text.append(char.data or " ", Style(color=fg, bgcolor=bg, bold=char.bold,
                                                italic=char.italics))
        if y < rows - 1:
            text.append("\n")
    return text


def picture(text: Text, html: bool = False) -> str:
    """The screen as an SVG (or HTML) document."""
    console = Console(record=True, width=COLUMNS, force_terminal=True, color_system="truecolor",
                      file=io.StringIO())
    console.print(text, no_wrap=True, overflow="crop")
    return console.export_html() if html else console.export_svg(title="univac-ttt")


def capture(pack: Pack, path: Path, moves: tuple[str, ...] = DEFAULT_MOVES) -> None:
    text = screen_text(screen_bytes(pack, moves))
    path.write_text(picture(text, html=path.suffix == ".html"), encoding="utf-8")
