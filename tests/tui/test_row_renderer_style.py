"""The row renderer finds a fixed style's hash once, not at every redraw, and still
follows a style that can change (tui/row_renderer.py): a DynamicStyle switched between
redraws redraws the screen in the new colours, as prompt_toolkit's renderer does."""

from __future__ import annotations

import io
from types import SimpleNamespace

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import DummyStyleTransformation, DynamicStyle, Style, merge_styles
from prompt_toolkit.styles.style import _MergedStyle

from univac_ttt.tui.row_renderer import Frame, RowRenderer

RED = Style.from_dict({"word": "#ff0000"})
BLUE = Style.from_dict({"word": "#0000ff"})


def _drawing(style):  # type: ignore[no-untyped-def]
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=3, columns=20), term="xterm",
                          enable_cpr=False)
    renderer = RowRenderer(style, output, lambda size: Frame([(("class:word", "hello"),)]))
    app = SimpleNamespace(style_transformation=DummyStyleTransformation(),
                          color_depth=ColorDepth.DEPTH_24_BIT)

    def draw() -> str:
        sink.seek(0)
        sink.truncate()
        renderer.render(app, None)  # type: ignore[arg-type]
        return sink.getvalue()
    return draw


def test_a_style_that_changes_is_followed() -> None:
    chosen = [RED]
    draw = _drawing(DynamicStyle(lambda: chosen[0]))
    red = draw()
    assert "255;0;0" in red and draw() == ""  # nothing new: nothing written
    chosen[0] = BLUE
    blue = draw()
    assert "0;0;255" in blue and "hello" in blue


def test_a_fixed_style_is_hashed_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    hashed: list[int] = []
    merged_hash = _MergedStyle.invalidation_hash

    def counted(self):  # type: ignore[no-untyped-def]
        hashed.append(1)
        return merged_hash(self)

    monkeypatch.setattr(_MergedStyle, "invalidation_hash", counted)
    draw = _drawing(merge_styles([RED, Style.from_dict({"other": "bold"})]))
    assert "255;0;0" in draw()  # hashed, and hashed again to resolve its first colours
    hashed.clear()
    draw()
    draw()
    assert hashed == []  # not at every redraw


def test_a_row_s_trailing_blanks_are_left_to_the_erase_unless_they_show() -> None:
    """As prompt_toolkit's renderer: blanks at a row's end with no colour are not written
    (the line's erase shows them), whole padding fragments and a fragment's own trailing
    spaces alike; blanks in a colour are written; blanks before text are kept."""
    shaded = Style.from_dict({"shade": "bg:#0000ff"})
    rows = [(("", "hi  "), ("", "      ")), (("", "  a  "),), (("", "b"), ("class:shade", "   ")),
            (("", "    "),)]
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=4, columns=20), term="xterm",
                          enable_cpr=False)
    renderer = RowRenderer(shaded, output, lambda size: Frame(rows))
    app = SimpleNamespace(style_transformation=DummyStyleTransformation(),
                          color_depth=ColorDepth.DEPTH_24_BIT)
    renderer.render(app, None)  # type: ignore[arg-type]
    written = sink.getvalue()
    assert "hi\x1b[0m" in written and "hi " not in written
    assert "  a\x1b[0m" in written and "a " not in written
    assert "b" in written and "0;0;255" in written and "   \x1b[0m" in written
    assert "\x1b[4;1H\x1b[0m\x1b[K\x1b[0m" in written  # the blank row: its erase alone
