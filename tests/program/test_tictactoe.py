"""program/tictactoe.py is the one home of what Python knows about the shipped program;
each fact it holds must be true of the coding sheet."""

import re
from importlib import resources

from univac_ttt.desk import Desk
from univac_ttt.program import tictactoe as ttt
from univac_ttt.program.shipped import load_tictactoe

SHIPPED = load_tictactoe()
SHEET = resources.files("univac_ttt.program").joinpath("tictactoe.ucs").read_text("utf-8")


def sheet_messages() -> str:
    """The text the sheet's messages type, joined (the typed digit of MTAKEN as 'n')."""
    pieces = re.findall(r'"([^"]*)"', SHEET)
    text = "".join(pieces).replace("⏎", "\n").replace("Δ", " ")
    return re.sub(r"[ι]", "", text)


def test_every_phrase_is_typed_by_the_program():
    messages = sheet_messages()
    phrases = [*ttt.RESULT_PHRASES.values(), ttt.BAD_CODE_PHRASE, ttt.TAKEN_PHRASE,
               ttt.NEW_GAME_PHRASE, ttt.CONGRATULATIONS_PHRASE]
    for phrase in phrases:
        assert phrase in messages, phrase
    for phrase in ttt.RESULT_PHRASES.values():
        assert ttt.RESULT_PATTERN.search(phrase)


def test_captions_name_labels_of_the_sheet_and_the_board_label_exists():
    assert set(ttt.CAPTIONS) <= set(SHIPPED.program.symbols)
    assert ttt.BOARD_LABEL in SHIPPED.program.symbols


def test_the_board_read_from_memory_is_the_board_on_the_paper():
    from univac_ttt.program.board import last_printed_board

    desk = Desk(SHIPPED.image.words)
    desk.run()
    for move in "59":
        mark = desk.paper.end
        desk.release(move)
        desk.run()
        printed = last_printed_board(desk.paper.since(mark))
        assert ttt.board_in_memory(desk.machine.mem, SHIPPED.program) == printed
    lines = ttt.board_lines(desk.machine.mem, SHIPPED.program)
    assert len(lines) == 3 and "X" in "".join(lines) and "O" in "".join(lines)
