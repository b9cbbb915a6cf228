"""The paper's rows follow the paper however it changes: typed on (the new lines split
alone, the lines before kept) or cut at the front, the rows shown are those of a paper
made afresh from the same text, newest lines or scrolled back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.console.paper_rows import PaperRows

PIECES = st.text(alphabet="AB 12\n", max_size=30)
STEPS = st.lists(st.tuples(st.sampled_from(["type", "cut", "scroll"]), PIECES,
                           st.integers(0, 60)), max_size=25)


def _fresh(text: str, top: int | None, width: int, height: int) -> list[object]:
    paper = PaperRows()
    paper.sync(text)
    paper.top = top
    return paper.rows(width, height)


@given(STEPS, st.integers(1, 12), st.integers(1, 8))
def test_the_rows_are_a_fresh_paper_s_however_the_text_changed(
        steps: list[tuple[str, str, int]], width: int, height: int) -> None:
    paper = PaperRows()
    text = ""
    for kind, piece, number in steps:
        if kind == "type":
            text += piece
        elif kind == "cut":  # the pacer keeps the last characters, a line cut anywhere
            text = text[-number:] if number else ""
        else:
            paper.scroll(number - 30)
        paper.sync(text)
        assert paper._lines == text.split("\n")  # noqa: SLF001 - what every row is made of
        assert paper.rows(width, height) == _fresh(text, paper.top, width, height)


def test_typing_on_keeps_the_lines_before_as_they_were() -> None:
    """Typed on, the lines before are the very strings they were (their hashes known to
    the wrapped lines' tables); cut at the front, the paper is split afresh."""
    paper = PaperRows()
    paper.sync("ONE\nTWO\nTH")
    first = paper._lines[0]  # noqa: SLF001
    paper.sync("ONE\nTWO\nTHREE\nFOUR")
    assert paper._lines == ["ONE", "TWO", "THREE", "FOUR"]  # noqa: SLF001
    assert paper._lines[0] is first  # noqa: SLF001
    paper.sync("NE\nTWO\nTHREE\nFOUR")
    assert paper._lines == ["NE", "TWO", "THREE", "FOUR"]  # noqa: SLF001
