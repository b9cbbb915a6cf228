"""packs/tictactoe (pack.toml and its Python extras) is the one home of what Python knows
about the shipped program; each fact it holds must be true of the coding sheet."""

import re
from importlib import resources

from univac_ttt.desk import Desk
from univac_ttt.packs import shipped_pack
from univac_ttt.packs import tictactoe as ttt
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()
PACK = shipped_pack("tictactoe")
SHEET = resources.files("univac_ttt.packs.tictactoe").joinpath("tictactoe.ucs").read_text("utf-8")


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
    for result, phrase in ttt.RESULT_PHRASES.items():
        assert ttt.RESULT_PATTERN.search(phrase)
        assert ttt.results_in(f"123\n{phrase}.\n") == [result]
    # pack.toml's [results] are the same phrases, announcing the same results
    assert PACK.results == {phrase: result for result, phrase in ttt.RESULT_PHRASES.items()}


def test_results_in_reads_every_result_in_order_and_only_whole_phrases():
    text = ("SQUARE 5 IS ALREADY TAKEN\nTHE UNIVAC WINS.\nYOU WINS NOTHING\nIS A DRAW.\n"
            "THE UNIVAC WIN\nYOU WIN.\n")
    assert ttt.results_in(text) == ["univac", "draw", "opponent"]
    assert ttt.results_in("NEW GAME\n123\n456\n789\n") == []


def test_captions_name_labels_of_the_sheet_and_the_board_label_exists():
    assert PACK.captions and set(PACK.captions) <= set(SHIPPED.program.symbols)
    assert ttt.BOARD_LABEL in SHIPPED.program.symbols


def test_the_board_read_from_memory_is_the_board_on_the_paper():
    from univac_ttt.packs.tictactoe.board import last_printed_board

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
    assert PACK.board is not None and PACK.board(desk.machine.mem) == lines


def test_the_pack_boots_the_committed_tape_and_runs_the_committed_image():
    assert PACK.words == SHIPPED.image.words
    assert PACK.boot_tape().blocks == ttt.load_tictactoe_tape().blocks
    assert PACK.boot_tape().name == ttt.TAPE_NAME
    assert [d.entries for d in PACK.demonstrations] == [tuple(m) for m, _ in ttt.DEMO_GAMES]
