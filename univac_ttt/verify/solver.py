"""An exact tic-tac-toe solver: the referee that judges the UNIVAC program.

Negamax with alpha-beta pruning, make/unmake
on one board, move ordering (centre, corners, edges), a transposition table, and iterative
deepening. It also counts the game (complete games, reachable positions) and the nodes each
search visits from the empty board, for the teaching contrast with the UNIVAC's element scan.

The referee's ``Oracle`` is one exact negamax memoised by position, shared by every
question the proof asks (each reachable position is searched once in a run).

Squares are 0-8 here (square code minus one). Cells hold 1 for X, -1 for O, 0 for blank.
Values are from X's side: +1 X can force a win, 0 draw, -1 O can force a win.
"""

from __future__ import annotations

from ..machine.records import Record

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)
LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if square in line) for square in range(9))
CENTRE_CORNERS_EDGES = (4, 0, 2, 6, 8, 1, 3, 5, 7)
INFINITY = 2  # beyond any value: searches start with the open window (-inf, +inf)
X, O, BLANK = 1, -1, 0


def winner(board: list[int] | tuple[int, ...]) -> int:
    """1 if X has a line, -1 if O has, else 0."""
    for a, b, c in LINES:
        if board[a] != 0 and board[a] == board[b] == board[c]:
            return board[a]
    return 0


def completes_line(board: list[int], square: int) -> bool:
    """Did the stone just put on ``square`` complete a line? (Cheaper than winner().)"""
    player = board[square]
    for a, b, c in LINES_THROUGH[square]:  # a loop, not any(): the oracle's inner step
        if board[a] == player and board[b] == player and board[c] == player:
            return True
    return False


def side_to_move(board: list[int] | tuple[int, ...]) -> int:
    """X moves first, so X is to move when the counts are equal."""
    return X if sum(1 for c in board if c == X) == sum(1 for c in board if c == O) else O


class GameSize:
    """The game's size, counted by ``count_game``."""

    def __init__(self) -> None:
        self.complete_games = 0
        self.x_wins = 0
        self.o_wins = 0
        self.draws = 0
        self.positions: set[tuple[int, ...]] = set()
        self.finished_positions: set[tuple[int, ...]] = set()


def count_game() -> GameSize:
    """Every complete game and every reachable position, from the empty board."""
    size = GameSize()
    board = [0] * 9

    def walk(player: int, last: int) -> None:
        key = tuple(board)
        size.positions.add(key)
        if last >= 0 and completes_line(board, last):
            size.finished_positions.add(key)
            size.complete_games += 1
            if player == O:  # X just moved
                size.x_wins += 1
            else:
                size.o_wins += 1
            return
        if 0 not in board:
            size.finished_positions.add(key)
            size.complete_games += 1
            size.draws += 1
            return
        for square in range(9):
            if board[square] == 0:
                board[square] = player
                walk(-player, square)
                board[square] = 0

    walk(X, -1)
    return size


class Solver:
    """Negamax searches over one board with make/unmake; ``nodes`` counts visits."""

    def __init__(self) -> None:
        self.board = [0] * 9
        self.nodes = 0
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}

    # Each search returns the value for the side to move: +1 win, 0 draw, -1 loss.

    def minimax(self, player: int, last: int = -1) -> int:
        self.nodes += 1
        board = self.board
        if last >= 0 and completes_line(board, last):
            return -1  # the previous player just won
        best = -2
        moved = False
        for square in range(9):
            if board[square] == 0:
                moved = True
                board[square] = player
                value = -self.minimax(-player, square)
                board[square] = 0
                if value > best:
                    best = value
        return best if moved else 0

    def alphabeta(self, player: int, alpha: int = -INFINITY, beta: int = INFINITY,
                  last: int = -1,
                  order: tuple[int, ...] = tuple(range(9)), use_table: bool = False) -> int:
        self.nodes += 1
        board = self.board
        if last >= 0 and completes_line(board, last):
            return -1
        if 0 not in board:
            return 0
        key = (tuple(board), player)
        original_alpha = alpha
        if use_table:
            hit = self.table.get(key)
            if hit is not None:
                value, bound = hit
                if bound == 0:
                    return value
                if bound < 0:
                    beta = min(beta, value)
                else:
                    alpha = max(alpha, value)
                if alpha >= beta:
                    return value
        best = -2
        for square in order:
            if board[square] != 0:
                continue
            board[square] = player
            value = -self.alphabeta(-player, -beta, -alpha, square, order, use_table)
            board[square] = 0
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        if use_table:
            # bound: 0 exact, -1 upper bound (failed low), +1 lower bound (failed high)
            bound = -1 if best <= original_alpha else (1 if best >= beta else 0)
            self.table[key] = (best, bound)
        return best

    def depth_limited(self, player: int, depth: int, alpha: int, beta: int, last: int,
                      best_moves: dict[tuple[int, ...], int]) -> int:
        """Alpha-beta to a depth; an unfinished position at the horizon scores 0."""
        self.nodes += 1
        board = self.board
        if last >= 0 and completes_line(board, last):
            return -1
        if 0 not in board or depth == 0:
            return 0
        key = tuple(board)
        order = list(CENTRE_CORNERS_EDGES)
        first = best_moves.get(key)
        if first is not None:
            order.remove(first)
            order.insert(0, first)
        best, best_square = -2, -1
        for square in order:
            if board[square] != 0:
                continue
            board[square] = player
            value = -self.depth_limited(-player, depth - 1, -beta, -alpha, square, best_moves)
            board[square] = 0
            if value > best:
                best, best_square = value, square
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        best_moves[key] = best_square
        return best

    def iterative_deepening(self, player: int = X) -> tuple[int, list[int]]:
        """Depths 1 to 9, each ordered by the best moves of the last; (value, nodes per depth)."""
        best_moves: dict[tuple[int, ...], int] = {}
        per_depth = []
        value = 0
        for depth in range(1, 10):
            before = self.nodes
            value = self.depth_limited(player, depth, -INFINITY, INFINITY, -1, best_moves)
            per_depth.append(self.nodes - before)
        return value, per_depth


class NodeCounts(Record):
    minimax: int
    alphabeta: int
    ordered: int
    ordered_table: int
    iterative_per_depth: tuple[int, ...]
    value: int


def node_counts() -> NodeCounts:
    """The nodes each search visits from the empty board (all agree the value is a draw)."""
    values = []
    counts = []
    for run in ("minimax", "alphabeta", "ordered", "table"):
        solver = Solver()
        if run == "minimax":
            values.append(solver.minimax(X))
        elif run == "alphabeta":
            values.append(solver.alphabeta(X))
        elif run == "ordered":
            values.append(solver.alphabeta(X, order=CENTRE_CORNERS_EDGES))
        else:
            values.append(solver.alphabeta(X, order=CENTRE_CORNERS_EDGES, use_table=True))
        counts.append(solver.nodes)
    deepening = Solver()
    value, per_depth = deepening.iterative_deepening()
    values.append(value)
    if len(set(values)) != 1:
        raise AssertionError(f"the searches disagree about the empty board: {values}")
    return NodeCounts(*counts, tuple(per_depth), values[0])


def search_report() -> str:
    """The game's size and each search's node count, as a table for `verify --search`."""
    size = count_game()
    counts = node_counts()
    rows = [
        ("complete games", f"{size.complete_games:,}"),
        ("  won by X / won by O / drawn",
         f"{size.x_wins:,} / {size.o_wins:,} / {size.draws:,}"),
        ("reachable positions (finished)",
         f"{len(size.positions):,} ({len(size.finished_positions):,})"),
        ("nodes: plain minimax", f"{counts.minimax:,}"),
        ("nodes: alpha-beta, squares in order", f"{counts.alphabeta:,}"),
        ("nodes: alpha-beta, centre-corner-edge", f"{counts.ordered:,}"),
        ("nodes: the same with a transposition table", f"{counts.ordered_table:,}"),
        ("nodes: iterative deepening, depth 1-9",
         ", ".join(f"{n:,}" for n in counts.iterative_per_depth)),
        ("value of the empty board", {1: "X wins", 0: "draw", -1: "O wins"}[counts.value]),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


class Oracle:
    """Exact values of positions, memoised: the referee's judge."""

    def __init__(self) -> None:
        self._values: dict[tuple[int, ...], int] = {}
        # Position (game not over) -> its exact value for the side to move.
        self._negamax: dict[tuple[int, ...], int] = {}

    def value(self, board: tuple[int, ...] | list[int]) -> int:
        """+1 X can force a win, 0 draw, -1 O can force a win (game over positions too)."""
        key = tuple(board)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        won = winner(key)
        if won or 0 not in key:
            result = won
        else:
            player = side_to_move(key)
            result = player * self._search(list(key), player)
        self._values[key] = result
        return result

    def _search(self, board: list[int], player: int) -> int:
        """The exact value for ``player``, to move on ``board`` (a game not over), each
        position searched once: a won reply ends the search, as nothing beats a win."""
        key = tuple(board)
        known = self._negamax.get(key)
        if known is not None:
            return known
        best = -2
        for square in CENTRE_CORNERS_EDGES:
            if board[square] != 0:
                continue
            board[square] = player
            if completes_line(board, square):
                value = 1
            elif 0 not in board:
                value = 0
            else:
                value = -self._search(board, -player)
            board[square] = 0
            if value > best:
                best = value
                if best == 1:
                    break
        self._negamax[key] = best
        return best
