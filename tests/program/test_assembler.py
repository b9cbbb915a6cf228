"""The coding-sheet assembler: what it builds, and every mistake it refuses."""

import pytest

from univac_ttt.machine.word import from_int, from_text
from univac_ttt.program.assembler import AssemblyError, assemble

SHEET = """\
## Main
000 START:  B0 NUM     A0 NUM+1    add two numbers
            H0 SUM     90 000      and stop
010 NUM:    = 40
            = -2
SUM:        = 0
MSG1:       MSG "HI THERE, UNIVAC⏎"
WORD:       "ΔΔΔXιιιιιιιι"         a text word
ADDR:       = MSG1
BUF:        RESERVE 3
"""


def test_assembles_instructions_constants_text_and_symbols():
    program = assemble(SHEET)
    words = program.image.words
    assert words[0] == from_text("B00010A00011")
    assert words[1] == from_text("H00012900000")
    assert words[10] == from_int(40) and words[11] == from_int(-2)
    assert program.symbols["MSG1"] == 13
    assert words[13] == from_text("HIΔTHERE,ΔUN")
    assert words[14] == from_text("IVAC⏎ιιιιιιι")
    assert words[15] == from_text("ΔΔΔXιιιιιιιι")
    assert words[16] == from_int(13)
    assert [words[17 + i] for i in range(3)] == [from_int(0)] * 3
    assert program.labels[0] == "START" and program.remarks[0] == "add two numbers"
    assert program.sections[1] == "Main"
    assert program.image.remarks[0] == "START: add two numbers"


def test_shift_and_two_character_operations():
    program = assemble("000 .3 000  -2 000\n001 ;1 000  05 000\n002 ,0 000  10 100\n")
    assert program.image.words[0] == from_text(".30000-20000")
    assert program.image.words[1] == from_text(";1000005000Δ".replace("Δ", "0"))
    assert program.image.words[2] == from_text(",00000100100")


@pytest.mark.parametrize("sheet,reason", [
    ("000 I0 000  00 000", "unknown operation"),
    ("000 B0 1000  00 000", "outside 000-999"),
    ("000 B0 NOWHERE  00 000", "not defined"),
    ("000 A: = 1\n001 A: = 2", "already defined"),
    ("000 = 100000000000", "does not fit"),
    ('000 "TOO SHORT"', "exactly 12"),
    ("999 MSG \"TWO WORDS OF TEXT HERE\"", "past address 999"),
    ("005 = 1\n003 = 2", "overlaps"),
    ("000 B0 100", "two instructions"),
    ('000 "UNCLOSED', "closing quote"),
    ('000 "ABC!EFGHIJKL"', "not a UNIVAC character"),
    ("000 lower: = 1", "not a label"),
    ("000 B0 A+B  00 000", "not an address"),
])
def test_mistakes_are_refused_with_the_line(sheet, reason):
    with pytest.raises(AssemblyError) as err:
        assemble("# first line is a comment\n" + sheet)
    assert reason in str(err.value)
    assert err.value.line >= 2
