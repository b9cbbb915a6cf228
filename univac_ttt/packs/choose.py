"""The command line's side of packs: ``--program NAME|DIR`` and ``univac-ttt programs``.

Kept apart from cli so the composer's pack handling is one small module: an option to
add, a function that turns the arguments into a pack, and the listing.
"""

from __future__ import annotations

import argparse

from ..program.pack import NO_PACK, Pack, PackError
from . import DEFAULT, open_pack, shipped_names, shipped_pack

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import TextIO

PROGRAM_HELP = ("the program to run: a shipped one by name (univac-ttt programs lists "
                "them) or a pack folder (a pack.toml and its sheet, docs/programs.md)")


def add_program_option(parser: argparse.ArgumentParser, default: str | None = DEFAULT) -> None:
    more = f" (default {default})" if default else ""
    parser.add_argument("--program", metavar="NAME|DIR", help=PROGRAM_HELP + more)


def chosen_pack(args: argparse.Namespace, image: str | None,
                default: str | None = DEFAULT) -> Pack:
    """The pack ``--program`` names; NO_PACK for an image (it scores nothing, claims no
    board); else the default program (None: no program at all). PackError says why not."""
    program = getattr(args, "program", None)
    if program is not None and image is not None:
        raise PackError("give --program or an image, not both")
    if program is not None:
        return open_pack(program)
    if image is not None or default is None:
        return NO_PACK
    return shipped_pack(default)


def list_programs(out: TextIO) -> int:
    """One line a shipped pack: its name and title; 2 if one cannot be read."""
    names = shipped_names()
    width = max((len(name) for name in names), default=0)
    broken = 0
    for name in names:
        try:
            out.write(f"{name:<{width}}  {shipped_pack(name).title}\n")
        except PackError as exc:
            out.write(f"{name:<{width}}  (cannot be read: {exc})\n")
            broken += 1
    return 2 if broken else 0
