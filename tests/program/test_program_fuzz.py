"""Any text is a memory image or a clear error; any coding sheet assembles or names its
line. `pytest --long` runs 2,000 examples a property.
"""


from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.program.assembler import AssemblyError, assemble
from univac_ttt.program.image import ImageError, parse_image

sheet_lines = st.lists(st.one_of(
    st.text(max_size=60),
    st.sampled_from(["000 B0 010  90 000", "L: = 5", "MSG \"HI\"", "RESERVE 3", "## S",
                     "B0 L  A0 L+1", "X: \"ΔΔΔXιιιιιιιι\"", "= -12", "999 = 1", "U0 X 00 0"])),
    max_size=12)


@given(st.text(max_size=400))
def test_any_text_is_an_image_or_a_clear_error(text):
    try:
        image = parse_image(text, "fuzz.img")
    except ImageError as exc:
        assert exc.line is None or exc.line >= 1
        assert "fuzz.img" in str(exc)
    else:
        assert all(0 <= a <= 999 and len(w) == 12 for a, w in image.words.items())


@given(sheet_lines)
def test_any_coding_sheet_assembles_or_names_its_line(lines):
    try:
        program = assemble("\n".join(lines), "fuzz.ucs")
    except AssemblyError as exc:
        text_lines = "\n".join(lines).split("\n")
        assert exc.line in range(1, len(text_lines) + 1) and "fuzz.ucs" in str(exc)
    else:
        assert all(len(w) == 12 for w in program.image.words.values())
