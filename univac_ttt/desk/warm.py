"""The machine's compiled blocks made once, before a server's terminals need them.

A process running the UNIVAC compiles each superblock of the program the first times its
words run (machine/compiled.py keeps them in the process's block tables, shared by every
machine in it). A class server's worker started with empty tables, so each worker compiled
the same few hundred blocks during its first games (``compile_block`` was a tenth of a
worker's CPU in a short class). ``warm_blocks`` runs the pack's own demonstrations (the
kiosk's: entries a player types, each answered by the program in emulated memory) on a
throwaway session before the server listens, so its pool's workers inherit the tables
through the fork and a lone server starts with them filled. Nothing here chooses a move
or answers one: the entries are the pack's, the replies the program's, and a block is
still checked against memory's words at every pair whoever compiled it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .session import GameSession

if TYPE_CHECKING:
    from ..machine import MachineOptions
    from ..program.pack import Pack


def warm_blocks(pack: Pack, options: MachineOptions | None = None) -> int:
    """Play every demonstration of ``pack`` (each from a fresh boot, its first entry typed
    twice: the program's answer to a repeated entry too); return the entries typed. A pack
    without demonstrations is only booted."""
    session = GameSession.from_pack(pack, options)
    typed = 0
    for demonstration in pack.demonstrations:
        session.new_game()
        entries = demonstration.entries
        for entry in (entries[:1] + entries) if entries else ():
            if not session.waiting_for_keyboard:
                break  # the program stopped (an error, the desk's cap): enough warming
            session.submit(entry)
            typed += 1
    return typed
