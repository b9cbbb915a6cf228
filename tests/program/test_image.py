"""Memory images: every malformed line is refused with its number; nothing half-loads."""

import pytest

from univac_ttt.machine.word import from_text
from univac_ttt.program.image import ImageError, format_image, parse_image, read_image


def test_parses_words_remarks_comments_and_blank_lines():
    image = parse_image("# a comment\n\n000 B00100900000  bring\n100 00000000004Δ\n")
    assert image.words[0] == from_text("B00100900000")
    assert image.remarks[0] == "bring"
    assert image.words[100] == from_text("00000000004Δ")
    assert set(image.words) == {0, 100}  # the rest of memory is not listed


def test_a_real_space_inside_the_word_is_a_space():
    image = parse_image("005 HELLO WORLDΔ\n")
    assert image.words[5] == from_text("HELLOΔWORLDΔ")


@pytest.mark.parametrize("line,reason", [
    ("00 B00100900000", "three-digit address"),
    ("abc B00100900000", "three-digit address"),
    ("000B00100900000", "one space"),
    ("000 B0010090000", "exactly 12"),
    ("000 B00100900000X", "longer than 12"),
    ("000 B00100!00000", "not a UNIVAC character"),
    ("-01 B00100900000", "three-digit address"),
])
def test_malformed_lines_name_the_line_and_the_reason(line, reason):
    with pytest.raises(ImageError) as err:
        parse_image(f"# ok\n000 000000000000\n{line}\n", "test.img")
    assert err.value.line == 3 and reason in str(err.value)
    assert "test.img, line 3" in str(err.value)


def test_duplicate_address_is_refused():
    with pytest.raises(ImageError, match="given twice"):
        parse_image("001 000000000000\n001 000000000001\n")


def test_file_errors_are_clear(tmp_path):
    with pytest.raises(ImageError, match="does not exist"):
        read_image(tmp_path / "missing.img")
    binary = tmp_path / "b.img"
    binary.write_bytes(b"\x00\x01\x02")
    with pytest.raises(ImageError, match="binary"):
        read_image(binary)
    latin = tmp_path / "l.img"
    latin.write_bytes(b"000 \xff\n")
    with pytest.raises(ImageError, match="UTF-8"):
        read_image(latin)
    with pytest.raises(ImageError, match="directory"):
        read_image(tmp_path)
    huge = tmp_path / "h.img"
    huge.write_text("#" * 1_000_001)
    with pytest.raises(ImageError, match="larger than"):
        read_image(huge)


def test_format_round_trips():
    text = "# header\n000 B00100900000  bring\n100 ΔΔΔXιιιιιιιι\n"
    image = parse_image(text)
    again = parse_image(format_image(image, "header"))
    assert again.words == image.words and again.remarks == image.remarks
