"""The disassembler shows a word three ways, with the coding sheet's label and remark."""

from univac_ttt.machine.word import from_int, from_text
from univac_ttt.packs.tictactoe import load_tictactoe
from univac_ttt.program.disassembler import instruction_text, symbol_for, view

PROGRAM = load_tictactoe().program


def test_a_word_as_characters_number_and_instructions():
    v = view(from_text("B00400A00401"), None, None)
    assert v.glyphs == "B00400A00401" and v.number is None
    assert (v.left, v.right) == ("B0 400", "A0 401")
    n = view(from_int(-42))
    assert n.number == -42 and n.glyphs == "-00000000042"


def test_labels_and_remarks_from_the_coding_sheet():
    ask = PROGRAM.address_of("ASK")
    v = view(PROGRAM.image.words[ask], ask, PROGRAM)
    assert v.label == "ASK" and "input-ready" in v.remark
    assert v.left == "10 340 KEY" and v.section.startswith("The opponent's move")
    assert "ASK:" in v.line() and v.line().startswith("007 ")


def test_symbols_name_nearby_words():
    brd = PROGRAM.address_of("BRD")
    assert symbol_for(brd, PROGRAM) == "BRD" and symbol_for(brd + 5, PROGRAM) == "BRD+5"
    assert symbol_for(brd, None) == ""


def test_shifts_invalid_and_bad_addresses():
    assert instruction_text(from_text("-30000000000")[:6]) == "-3 (shift 3)"
    assert instruction_text(from_text("I00123000000")[:6]).endswith("?")
    assert instruction_text(from_text("B00Δ12000000")[:6]).endswith("?addr")
