"""A row drawn from its parts (Frame.parts, tui/row_renderer.py) writes the very bytes the
whole row writes: escape codes carry no state from one fragment to the next, so a row's
codes are its parts' codes, the trailing blanks of the row (and only those) left to the
erase, whichever part they are in."""

from __future__ import annotations

import io
from itertools import chain
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.data_structures import Size
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import DummyStyleTransformation, Style

from univac_ttt.tui import row_renderer
from univac_ttt.tui.row_renderer import Frame, Row, RowRenderer

STYLE = Style.from_dict({"paper": "", "shaded": "bg:#303030", "word": "#ff0000",
                         "line": "underline", "strong": "bold"})
# styles whose blanks show (a background, an underline, a colour) and whose blanks do not
STYLES = ["", "class:paper", "class:shaded", "class:word", "class:line", "class:strong"]
fragments = st.tuples(st.sampled_from(STYLES), st.text(" ab│", max_size=6))
rows = st.lists(fragments, max_size=8).map(tuple)


def _draw(frame: Frame, depth: ColorDepth) -> str:
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=len(frame.rows), columns=60), term="xterm",
                          enable_cpr=False)
    renderer = RowRenderer(STYLE, output, lambda size: frame)
    renderer.render(SimpleNamespace(style_transformation=DummyStyleTransformation(),  # type: ignore[arg-type]
                                    color_depth=depth), None)  # type: ignore[arg-type]
    return sink.getvalue()


def _split(row: Row, cuts: list[int]) -> tuple[Row, ...]:
    edges = sorted({0, len(row), *(cut % (len(row) + 1) for cut in cuts)})
    return tuple(row[start:end] for start, end in zip(edges, edges[1:], strict=False)) or (row,)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(rows, st.lists(st.integers(0, 8), max_size=4)), min_size=1,
                max_size=4),
       st.sampled_from([ColorDepth.DEPTH_8_BIT, ColorDepth.DEPTH_24_BIT]))
def test_a_row_drawn_from_its_parts_writes_the_whole_row_s_bytes(
        drawn: list[tuple[Row, list[int]]], depth: ColorDepth) -> None:
    whole = [row for row, _ in drawn]
    parts = [_split(row, cuts) for row, cuts in drawn]
    assert [tuple(chain(*each)) for each in parts] == whole
    assert _draw(Frame(whole, parts=parts), depth) == _draw(Frame(whole), depth)


def test_the_parts_kept_for_every_terminal_stay_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A server runs for months: the shared table of parts' codes is emptied when full."""
    monkeypatch.setattr(row_renderer, "_KEPT_PARTS", 40)
    monkeypatch.setattr(row_renderer, "_tables", {})  # a table of its own, from empty
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=2, columns=60), term="xterm",
                          enable_cpr=False)
    shown = [0]

    def frame(size: Size) -> Frame:
        row = (("class:word", f"line {shown[0]}"),)
        return Frame([row + (("", " "),), row], parts=[(row, (("", " "),)), (row,)])

    renderer = RowRenderer(STYLE, output, frame)
    app = SimpleNamespace(style_transformation=DummyStyleTransformation(),
                          color_depth=ColorDepth.DEPTH_24_BIT)
    kept = []
    for count in range(500):
        shown[0] = count
        renderer.render(app, None)  # type: ignore[arg-type]
        kept.append(len(renderer._part_codes))
    assert max(kept) <= 41
    assert any(later < earlier for earlier, later in zip(kept, kept[1:], strict=False))  # emptied
    assert "line 499" in sink.getvalue()


def test_rows_past_the_parts_given_are_drawn_whole() -> None:
    """A composer that gives parts for some rows only: the others are drawn as one part."""
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=3, columns=60), term="xterm",
                          enable_cpr=False)
    top = (("class:word", "top"),)
    rows = [top, (("", "middle"),), (("", "bottom"),)]
    renderer = RowRenderer(STYLE, output, lambda size: Frame(rows, parts=[(top,)]))
    app = SimpleNamespace(style_transformation=DummyStyleTransformation(),
                          color_depth=ColorDepth.DEPTH_24_BIT)
    renderer.render(app, None)  # type: ignore[arg-type]
    assert all(word in sink.getvalue() for word in ("top", "middle", "bottom"))
