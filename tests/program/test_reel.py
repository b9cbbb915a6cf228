"""Reel files: parsing with line-numbered errors, padding, atomic save, mount specs."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.machine.tape import Reel
from univac_ttt.machine.word import ZERO, from_text
from univac_ttt.program.reel import (
    ReelError,
    TapeSpec,
    format_reel,
    parse_reel,
    read_reel,
    save_reel,
)

HAND = """\
# a reel written by hand
B00010500010  remarks follow a space

HELLO WORLD   a real space is the blank, as Δ
   # an indented comment
ΔΔΔΔΔΔΔΔΔΔΔΔ
"""


def test_words_remarks_blanks_and_padding():
    reel = parse_reel(HAND, "hand")
    assert reel.block_count == 1 and len(reel.blocks[0]) == 60
    assert reel.blocks[0][:3] == (from_text("B00010500010"), from_text("HELLOΔWORLDΔ"),
                                  from_text("ΔΔΔΔΔΔΔΔΔΔΔΔ"))
    assert reel.blocks[0][3:] == (ZERO,) * 57
    assert not reel.writable and reel.name == "hand"


def test_a_word_may_begin_with_the_hash_character():
    reel = parse_reel("#\n# comment\n  #comment\n#ABCDEFGHIJK\n#ΔBCDEFGHIJK  remark\n")
    assert reel.blocks[0][:2] == (from_text("#ABCDEFGHIJK"), from_text("#ΔBCDEFGHIJK"))
    assert reel.blocks[0][2] == ZERO


def test_every_sixty_words_make_a_block():
    text = "".join(f"{i:012d}\n" for i in range(121))
    reel = parse_reel(text)
    assert reel.block_count == 3
    assert reel.blocks[1][0] == from_text("000000000060")
    assert reel.blocks[2][1:] == (ZERO,) * 59


def test_empty_reel_has_no_blocks():
    assert parse_reel("# nothing written\n\n").block_count == 0


@pytest.mark.parametrize("text, line, reason", [
    ("000000000000\nB0001050001\n", 2, "the word has 11 characters"),
    ("B000105000100\n", 1, "longer than 12 characters"),
    ("#\nB0001050001x\n", 2, "character 12 of the word, 'x', is not a UNIVAC character"),
    (" B00010500010\n", 1, "starts in the first column"),
])
def test_mistakes_name_the_line(text, line, reason):
    with pytest.raises(ReelError) as info:
        parse_reel(text, "bad.tape")
    assert info.value.line == line and reason in str(info.value)
    assert str(info.value).startswith(f"bad.tape, line {line}: ")


def test_files_are_read_bounded_and_checked(tmp_path):
    with pytest.raises(ReelError, match="does not exist"):
        read_reel(tmp_path / "missing.tape")
    binary = tmp_path / "b.tape"
    binary.write_bytes(b"\0\1")
    with pytest.raises(ReelError, match="binary"):
        read_reel(binary)
    with pytest.raises(ReelError, match="is a directory"):
        read_reel(tmp_path)


def test_save_round_trip_keeps_every_word(tmp_path):
    words = [from_text(f"{i:03d}HELLOΔ{i:03d}") for i in range(90)]
    reel = Reel([tuple(words[:60]), tuple(words[60:] + [ZERO] * 30)], writable=True)
    path = tmp_path / "out.tape"
    save_reel(reel, path, "test")
    again = read_reel(path, writable=True)
    assert again.blocks == reel.blocks and again.writable
    assert "# block 2" in path.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["out.tape"]  # no temporary left


def test_a_failed_save_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.tape"
    path.write_text("000000000001\n", encoding="utf-8")

    def broken(*args):
        raise OSError("disk full")

    monkeypatch.setattr("univac_ttt.hostio.atomic_files.os.replace", broken)
    with pytest.raises(OSError):
        save_reel(Reel([(ZERO,) * 60]), path)
    assert path.read_text(encoding="utf-8") == "000000000001\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.tape"]


def test_format_writes_remarks_and_block_notes():
    text = format_reel(Reel([(ZERO,) * 60]), "head", {(0, 1): "second"}, {0: "the loader"})
    lines = text.splitlines()
    assert lines[:3] == ["# head", "# block 1: the loader", "000000000000"]
    assert lines[3] == "000000000000  second"


@pytest.mark.parametrize("text, unit, path, writable", [
    ("1=prog.tape", 1, "prog.tape", False), ("2=out.tape:rw", 2, "out.tape", True),
    ("-=ten.tape:ro", 10, "ten.tape", False), ("10=ten.tape", 10, "ten.tape", False),
])
def test_mount_specs(text, unit, path, writable):
    spec = TapeSpec(text)
    assert (spec.unit, str(spec.path), spec.writable) == (unit, path, writable)


@pytest.mark.parametrize("text", ["prog.tape", "0=a", "11=a", "1=", "1=:rw", "x=a"])
def test_bad_mount_specs_say_why(text):
    with pytest.raises(ValueError):
        TapeSpec(text)


ALPHABET = [chr(code) for code in range(64) if code != 0o77]


@given(st.lists(st.text(alphabet=ALPHABET, min_size=12, max_size=12), max_size=200))
def test_any_words_survive_format_and_parse(words):
    blocks = [tuple(words[i:i + 60]) for i in range(0, len(words), 60)]
    if blocks and len(blocks[-1]) < 60:
        blocks[-1] = blocks[-1] + (ZERO,) * (60 - len(blocks[-1]))
    assert parse_reel(format_reel(Reel(list(blocks)))).blocks == blocks
