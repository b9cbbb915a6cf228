"""The referee's own correctness and the proof itself (the suite runs the whole proof)."""

import pytest

from tests.support.command import univac
from tests.support.once import run_once
from univac_ttt.machine import MachineOptions
from univac_ttt.machine.word import from_text
from univac_ttt.packs.tictactoe import load_tictactoe
from univac_ttt.packs.tictactoe.board import printed_board
from univac_ttt.verify.referee import Referee
from univac_ttt.verify.solver import (
    CENTRE_CORNERS_EDGES,
    O,
    Oracle,
    Solver,
    X,
    count_game,
    node_counts,
    winner,
)


def test_game_size():
    size = count_game()
    assert size.complete_games == 255_168
    assert len(size.positions) == 5_478
    assert len(size.finished_positions) == 958
    assert (size.x_wins, size.o_wins, size.draws) == (131_184, 77_904, 46_080)


def test_node_counts_from_the_empty_board():
    counts = node_counts()
    assert counts.value == 0
    assert counts.minimax == 549_946
    assert (counts.alphabeta, counts.ordered, counts.ordered_table) == (18_297, 7_275, 1_981)
    assert len(counts.iterative_per_depth) == 9


def test_oracle_values():
    oracle = Oracle()
    assert oracle.value([0] * 9) == 0
    # X on two opposite edges with O in the centre: O to move wins by force.
    assert oracle.value([0, X, 0, 0, O, 0, 0, X, 0]) == O
    # X on two opposite corners with O in the centre: a draw if O takes an edge.
    assert oracle.value([X, 0, 0, 0, O, 0, 0, 0, X]) == 0


def test_the_memoised_oracle_agrees_with_alphabeta_on_every_reachable_position():
    oracle = Oracle()
    for position in sorted(count_game().positions):
        if winner(position) or 0 not in position:
            expected = winner(position)
        else:
            solver = Solver()
            solver.board = list(position)
            player = X if position.count(X) == position.count(O) else O
            expected = player * solver.alphabeta(player, order=CENTRE_CORNERS_EDGES)
        assert oracle.value(position) == expected, position


def test_solver_finds_forced_wins():
    oracle = Oracle()
    # O to move with two O in a row and the third square open: O wins.
    assert oracle.value([X, X, 0, O, O, 0, X, 0, 0]) == O
    # An edge reply to a corner opening loses: X to move wins.
    assert oracle.value([X, O, 0, 0, 0, 0, 0, 0, 0]) == X


def test_alphabeta_agrees_with_minimax_on_positions():
    for board in ([X, 0, 0, 0, O, 0, 0, 0, 0], [X, O, 0, 0, X, 0, 0, 0, 0]):
        a, b = Solver(), Solver()
        a.board, b.board = list(board), list(board)
        assert a.minimax(X) == b.alphabeta(X, order=CENTRE_CORNERS_EDGES, use_table=True)


def test_printed_board_parser():
    paper = "\n   O   2   3\n   4   X   6\n   7   8   9\n"
    assert printed_board(paper) == (O, 0, 0, 0, X, 0, 0, 0, 0)
    assert printed_board("\n   O   5   3\n   4   X   6\n   7   8   9\n") is None
    assert winner((X, X, X, 0, 0, 0, 0, 0, 0)) == X


def test_the_shipped_program_plays_perfectly():
    report = Referee().run()
    assert report.ok, report.failures
    assert report.games == 457 and report.losses == 0 and report.missed_wins == 0
    assert report.univac_wins + report.draws == report.games
    assert report.warnings_checked > 200


def test_the_proof_holds_when_a_transfer_skips_the_right_half():
    assert Referee(MachineOptions(right_half_after_transfer=False)).run().ok


def test_the_referee_catches_a_weakened_program():
    program = load_tictactoe().program
    two, sqk = program.address_of("TWO"), program.address_of("SQK")
    patch = {program.address_of("OPEN1"): from_text(f"B00{two:03d}H00{sqk:03d}")}
    report = Referee(patch=patch).run()
    assert not report.ok and report.losses > 0


def test_the_referee_catches_a_missing_fork_test():
    program = load_tictactoe().program
    d3 = program.address_of("D3")
    force = program.address_of("FORCE")
    # Skip the second-move special pattern: go straight to the general rules.
    report = Referee(patch={d3: from_text(f"000000U00{force:03d}")}).run()
    assert not report.ok and report.losses == 2


@pytest.fixture(scope="module")
def verify_search(tmp_path_factory):
    """One run of ``univac-ttt verify --search`` for the module's checks of it (the proof
    and the search take some seconds of CPU: once a test run, not once a test or once a
    worker that is handed one of them)."""
    return run_once(tmp_path_factory, "verify-search",
                    lambda: univac("verify", "--search", timeout=120))


def test_verify_command_proves_perfect_play(verify_search):
    assert verify_search.returncode == 0
    assert "PERFECT PLAY PROVED" in verify_search.stdout and "losses" in verify_search.stdout


def test_verify_search_reports_the_game_and_the_node_counts(verify_search):
    result = verify_search
    assert result.returncode == 0
    for figure in ("255,168", "5,478", "549,946", "18,297", "7,275", "1,981"):
        assert figure in result.stdout
