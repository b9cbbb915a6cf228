"""``univac-ttt programs``: the shipped packs; and the command line's pack helpers, which
play, run, monitor and serve share (``--program NAME|DIR``, docs/programs.md)."""

from __future__ import annotations

import argparse
import sys

from .commands import SUMMARIES

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from ..console.plain import PlainConsole, PlainResult
    from ..desk import Desk
    from ..desk.score import ScoreKeeper
    from ..program.pack import Pack

NAME = "programs"


def add_parser(sub: argparse._SubParsersAction) -> None:
    programs = sub.add_parser(NAME, help=SUMMARIES[NAME],
                              description="List the programs shipped with univac-ttt, each "
                                          "by the name --program takes and its title. A "
                                          "pack folder of your own runs with --program DIR "
                                          "(docs/programs.md).")
    programs.set_defaults(func=command, reads_stdin=False)


def command(args: argparse.Namespace) -> int:
    from ..packs.choose import list_programs

    return list_programs(sys.stdout)


def pack_from_args(args: argparse.Namespace, image: str | None,
                   default: str | None = "tictactoe") -> Pack | None:
    """The pack --program names (or the default, or none for an image); None after a
    message."""
    from ..packs.choose import chosen_pack
    from ..program.pack import PackError

    try:
        return chosen_pack(args, image, default)
    except PackError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return None


def score_keeper(desk: Desk, pack: Pack) -> ScoreKeeper | None:
    """For a pack with [results]: a keeper that counts them off the paper as it is typed
    (the plain console keeps no session)."""
    from ..desk.score import ScoreKeeper

    if not pack.scores:
        return None
    keeper = ScoreKeeper(pack.results_in, pack.result_names, pack.result_label)
    desk.paper.listeners.append(keeper.printed)
    return keeper


def run_plain(console: PlainConsole, keeper: ScoreKeeper | None) -> PlainResult | None:
    """Run a plain console; None after a Ctrl-C at the prompt, which ends the session as
    the end of input does, the score said (as after Ctrl-D), then the interruption."""
    try:
        return console.run()
    except KeyboardInterrupt:
        if keeper is not None:
            console.message(f"univac-ttt: {keeper.line()}")
        console.message("univac-ttt: interrupted")
        return None
