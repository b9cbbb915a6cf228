"""The side panel as screen rows, laid out as side_panel.py's rich rendering lays it out
(a test holds the two equal, cell by cell) for a fraction of its cost.

rich printing the whole panel (its card's box, then the lamp, the figures and the score)
and prompt_toolkit parsing the ANSI it printed cost about a millisecond each time the
figures change, which is every reply. Here the pack's card, the same for every terminal
and every game, is printed once and shared; the small texts under it are wrapped by rich
(``Text.wrap``, as ``print`` wraps them) and their segments' styles turned into
prompt_toolkit style strings through a cache, so no ANSI is printed or parsed again. A text
whose lines all fit the panel (the figures, new every reply; the lamp, the score) is not
given to rich's wrap at all: its rows are cut from its spans as rich would cut them (a test
holds the two equal for any such text).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from prompt_toolkit.formatted_text import ANSI, split_lines, to_formatted_text
from rich.console import Console
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text

from ..desk.session import GameSession
from ..program.pack import NO_PACK, Pack
from ..tui.row_renderer import Row, pad
from .side_panel import (
    FIGURES_HEADER,
    PANEL_WIDTH,
    Lamp,
    card,
    figure_parts,
    figures_text_of,
    game_label,
    lamp_for,
)

PANEL_COLUMNS = PANEL_WIDTH + 1  # the panel's window: rich's 30 columns and a gap


def _console(width: int) -> Console:
    return Console(file=io.StringIO(), width=width, force_terminal=True, color_system="256",
                   legacy_windows=False)


_WRAPPER = _console(PANEL_WIDTH)


def ansi_rows(ansi: str) -> list[Row]:
    """Rows of ANSI text as prompt_toolkit reads it (its zero-width escapes left out)."""
    fragments = [(style, text) for style, text, *_ in to_formatted_text(ANSI(ansi))
                 if "[ZeroWidthEscape]" not in style]
    return [pad(_joined(line), PANEL_COLUMNS) for line in split_lines(fragments)]


def _joined(line: Iterable[tuple[str, str]]) -> Row:
    """Neighbouring fragments of one style as one (prompt_toolkit reads ANSI a character
    a fragment)."""
    out: list[tuple[str, str]] = []
    for style, text in line:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return tuple(out)


@lru_cache(maxsize=32)
def card_rows(text: str, title: str, width: int = PANEL_WIDTH) -> tuple[Row, ...]:
    """The pack's card in its box, printed once for every terminal that shows it."""
    console = _console(width)
    console.print(Panel(card(text), title=title or None, border_style="cyan"))
    value = console.file.getvalue()  # type: ignore[attr-defined]
    return tuple(ansi_rows(value.removesuffix("\n")))


@lru_cache(maxsize=256)
def _style(style: Style) -> str:
    """prompt_toolkit's style string for a rich style, as it reads rich's escape codes."""
    fragments = to_formatted_text(ANSI(style.render("x", color_system=_WRAPPER._color_system)))
    return fragments[0][0] if fragments else ""


def text_rows(text: Text, width: int = PANEL_WIDTH) -> tuple[Row, ...]:
    """The text wrapped and styled as rich prints it at this width, as rows. The lamp,
    the score and the speed repeat from move to move and terminal to terminal: their rows
    are kept (only the figures are new each reply)."""
    return _text_rows(text.plain, tuple(text.spans), text.style, width)


@lru_cache(maxsize=512)
def _text_rows(plain: str, spans: tuple[Span, ...], style: str | Style,
               width: int) -> tuple[Row, ...]:
    """Rows of the text given by its parts (the lines joined first, as
    ``Text.__rich_console__`` joins them: a line's own style applies)."""
    if _fits(plain, width):
        return fitting_rows(plain, spans, style)
    return rich_rows(plain, spans, style, width)


def rich_rows(plain: str, spans: tuple[Span, ...], style: str | Style,
              width: int) -> tuple[Row, ...]:
    """The rows as rich wraps and renders the text."""
    text = Text(plain, style=style, spans=list(spans))
    joined = Text("\n").join(text.wrap(_WRAPPER, width))
    rows: list[Row] = []
    for line in Segment.split_lines(joined.render(_WRAPPER, end="\n")):
        rows.append(pad(tuple((_style(segment.style) if segment.style else "", segment.text)
                              for segment in line if segment.text and not segment.control),
                        PANEL_COLUMNS))
    return tuple(rows)


def _fits(plain: str, width: int) -> bool:
    """No line of the text is wider than ``width`` and every character is one printable
    ASCII column: rich's wrap then leaves each line whole, as it is."""
    return (plain.isascii() and all(len(line) <= width and line.isprintable()
                                    for line in plain.split("\n")))


def fitting_rows(plain: str, spans: tuple[Span, ...], style: str | Style) -> tuple[Row, ...]:
    """The rows rich prints for a text whose lines all fit (``_fits``), without rich's
    wrap and render (the figures are new every reply): as ``Text.wrap`` and ``join`` do,
    each line's characters take the text's style, then the spans over them in their
    order; a row is its line's runs of one style, padded."""
    rows: list[Row] = []
    start = 0
    for line in plain.split("\n"):
        end = start + len(line)
        cuts = {start, end}
        over = [span for span in spans if span.start < end and span.end > start]
        for span in over:
            cuts.update((max(span.start, start), min(span.end, end)))
        edges = sorted(cuts)
        fragments = []
        for left, right in zip(edges, edges[1:], strict=False):
            styles = (style, *(span.style for span in over
                               if span.start <= left and span.end >= right))
            fragments.append((_combined(styles), plain[left:right]))
        rows.append(pad(tuple(fragments), PANEL_COLUMNS))
        start = end + 1
    return tuple(rows)


@lru_cache(maxsize=256)
def _combined(styles: tuple[str | Style, ...]) -> str:
    """prompt_toolkit's style string for rich's styles laid one over the other."""
    combined = Style.combine(_WRAPPER.get_style(each, default=Style.null())
                             if isinstance(each, str) else each for each in styles)
    return _style(combined) if combined else ""


class _Figures(NamedTuple):
    instructions: int
    time_us: float


@lru_cache(maxsize=1024)
def _figures_rows(last: _Figures, game: _Figures, width: int,
                  game_over: bool = False) -> tuple[Row, ...]:
    """The figures' rows (the same replies give the same figures, terminal after terminal),
    put together from each line's rows: the header's never change and a last move's are
    every terminal's that got that reply, so a reply builds the rows of the one or two
    lines it has not shown before, with no rich Text made. Cut as the whole text would be
    (``fitting_rows`` cuts line by line); a line that does not fit is left to the whole."""
    rows: list[Row] = []
    for pieces in (((FIGURES_HEADER, None),), figure_parts("last move", last, width),
                   figure_parts(game_label(game_over), game, width)):
        line = _figure_line_rows(pieces, width)
        if not line:
            return text_rows(figures_text_of(last, game, width, game_over), width)
        rows += line
    return (*rows, *_figure_line_rows((("", None),), width))  # after the last newline


@lru_cache(maxsize=2048)
def _figure_line_rows(pieces: tuple[tuple[str, str | None], ...],
                      width: int) -> tuple[Row, ...]:
    """The rows of one line (or two) of the figures: its pieces in the figures' cyan, each
    piece's own style over it, its last newline the next line's start; () if it does not
    fit."""
    plain, spans = "", []
    for text, style in pieces:
        if style:
            spans.append(Span(len(plain), len(plain) + len(text), style))
        plain += text
    plain = plain.removesuffix("\n")
    if not _fits(plain, width):
        return ()
    texts = [text for text, _ in pieces[:-1]] + [pieces[-1][0].removesuffix("\n")]
    if "\n" not in plain and all(texts):  # one line: fitting_rows' runs, a run a piece,
        return (pad(tuple((_combined(("cyan", style) if style else ("cyan",)), text)  # uncut
                          for text, (_, style) in zip(texts, pieces, strict=True)),
                    PANEL_COLUMNS),)
    return fitting_rows(plain, tuple(spans), "cyan")


@lru_cache(maxsize=64)
def _lamp_rows(lamp: Lamp, width: int) -> tuple[Row, ...]:
    text = Text()
    text.append(f" {lamp.label} ", style=lamp.style)
    if lamp.detail:
        text.append(f"\n{lamp.detail}", style="italic")
    return text_rows(text, width) + text_rows(Text(""), width)  # and the blank line under it


@lru_cache(maxsize=256)
def _tally_rows(tally: tuple[tuple[str, int], ...], width: int) -> tuple[Row, ...]:
    """The score: each result's label and count."""
    text = Text()
    for index, (label, count) in enumerate(tally):
        text.append(("  " if index else "") + label + " ", style="bold")
        text.append(str(count))
    return text_rows(text, width)


@lru_cache(maxsize=64)
def _uniservo_rows(uniservos: tuple[str, ...], width: int) -> tuple[Row, ...]:
    return (text_rows(Text("UNISERVOS", style="cyan"), width)
            + text_rows(Text("\n".join(uniservos)), width))


@lru_cache(maxsize=8)
def _speed_rows(authentic: bool, width: int) -> tuple[Row, ...]:
    speed = "authentic (10 char/s)" if authentic else "fast"
    return text_rows(Text(f"typing: {speed}", style="dim"), width)


def panel_rows(session: GameSession, typing: bool, authentic: bool,
               width: int = PANEL_WIDTH, pack: Pack = NO_PACK,
               uniservos: Sequence[str] = (), lamp: Lamp | None = None) -> list[Row]:
    """side_panel.render_panel's panel, as rows: the card, the lamp, the figures, the
    Uniservos, the score and the speed. Each part's rows are kept by what it shows (the
    figures by their numbers): a reply builds none it has shown before, on any terminal.
    ``lamp``: the lamp, when the caller has worked it out already (lamp_for's)."""
    rows = list(card_rows(pack.card, pack.card_title, width)) if pack.card else []
    if lamp is None:
        lamp = lamp_for(session, typing, pack.key_hint)
    rows += _lamp_rows(lamp, width)
    last, game = session.last_move, session.game
    rows += _figures_rows(_Figures(last.instructions, last.time_us),
                          _Figures(game.instructions, game.time_us), width,
                          session.game_over)
    if uniservos:
        rows += _uniservo_rows(tuple(uniservos), width)
    if pack.scores:
        score = session.score
        rows += _tally_rows(tuple((pack.result_label(name), score.count(name))
                                  for name in pack.result_names), width)
    rows += _speed_rows(authentic, width)
    return rows
