"""The shipped tic-tac-toe program as a person plays it, and its coding sheet."""

from univac_ttt.desk import Desk
from univac_ttt.machine import StopKind
from univac_ttt.machine.word import from_int, from_text, to_int
from univac_ttt.packs.tictactoe import IMAGE_NAME, load_tictactoe
from univac_ttt.packs.tictactoe.board import printed_board
from univac_ttt.packs.tictactoe.build import build_image_text
from univac_ttt.verify.solver import Oracle

X, O, B = 1, -1, 0


class Game:
    def __init__(self, patch=None):
        self.shipped = load_tictactoe()
        self.desk = Desk(self.shipped.image.words)
        self.machine = self.desk.machine
        if patch:
            self.machine.load(patch)
        self.opening = self._run()

    def _run(self):
        mark = self.desk.paper.end
        stop = self.desk.run(500_000)
        assert stop.kind is StopKind.KEYBOARD, stop
        return self.desk.paper.since(mark)

    def type(self, text):
        self.desk.release(text)
        return self._run()

    def board(self):
        base = self.shipped.program.address_of("BRD")
        return [to_int(self.machine.mem[base + k]) for k in range(1, 10)]


def test_committed_image_matches_the_coding_sheet():
    from importlib import resources
    committed = resources.files("univac_ttt.packs.tictactoe").joinpath(IMAGE_NAME).read_text(
        "utf-8")
    assert committed == build_image_text()


def test_program_fits_in_half_the_memory():
    program = load_tictactoe().program
    assert program.size <= 500
    assert max(program.image.words) < 1000


def test_new_game_greeting_and_empty_board():
    game = Game()
    assert "NEW GAME" in game.opening and "YOU ARE X" in game.opening
    assert printed_board(game.opening) == (B,) * 9
    assert game.opening == game.opening.upper()


def test_centre_is_answered_by_the_top_left_corner():
    paper = Game().type("5")
    assert printed_board(paper) == (O, B, B, B, X, B, B, B, B)


def test_other_openings_are_answered_by_the_centre():
    for square in (1, 2, 3, 4, 6, 7, 8, 9):
        board = printed_board(Game().type(str(square)))
        assert board[4] == O and board[square - 1] == X and board.count(B) == 7


def test_bad_codes_get_a_polite_warning_and_change_nothing():
    game = Game()
    game.type("5")
    before = game.board()
    for typed in ["", "0", "10", "A", "55", "5 5", "-5", " 5", "+", "123456789012345"]:
        paper = game.type(typed)
        assert "NOT A SQUARE CODE" in paper, typed
        assert "PLEASE" in paper
        assert game.board() == before
    assert printed_board(game.type("9")) is not None  # the game goes on


def test_taken_square_gets_a_polite_warning_naming_it():
    game = Game()
    game.type("5")
    before = game.board()
    paper = game.type("1")
    assert "SQUARE 1 IS ALREADY TAKEN" in paper and "PLEASE" in paper
    assert game.board() == before
    paper = game.type("5")
    assert "SQUARE 5 IS ALREADY TAKEN" in paper


def test_a_blunder_is_punished_with_a_win_and_a_new_game():
    game = Game()
    game.type("2")  # O centre
    game.type("8")  # X opposite edges: a blunder
    papers = []
    for square in "1234567":
        paper = game.type(square)
        if "ALREADY TAKEN" in paper:
            continue
        papers.append(paper)
        if "WIN" in paper:
            break
    final = papers[-1]
    assert "THE UNIVAC WINS" in final
    assert "NEW GAME" in final  # it starts the next game by itself
    assert game.board() == [0] * 9


def test_a_correct_game_is_a_draw_with_congratulations():
    # The test plays a careful opponent: always a square the solver scores as a draw.
    oracle = Oracle()
    game = Game()
    board = [B] * 9
    paper = ""
    for _ in range(5):
        square = next(s for s in range(9) if board[s] == B and
                      oracle.value(board[:s] + [X] + board[s + 1:]) == 0)
        paper = game.type(str(square + 1))
        if "DRAW" in paper:
            break
        board = list(printed_board(paper))
    assert "THE GAME IS A DRAW" in paper and "CONGRATULATIONS" in paper
    assert "WIN" not in paper.split("DRAW")[0]


def test_changing_one_word_in_memory_changes_the_game():
    program = load_tictactoe().program
    two = program.address_of("TWO")
    sqk = program.address_of("SQK")
    # OPEN1 answers a centre opening with square 1; patch it to answer with square 2.
    patched = Game({program.address_of("OPEN1"): from_text(f"B00{two:03d}H00{sqk:03d}")})
    assert printed_board(patched.type("5"))[:2] == (B, O)
    # The element table is data too: the number of the first square of row 1.
    elt = program.address_of("ELT")
    assert Game({elt: from_int(9)}).board() == [0] * 9
