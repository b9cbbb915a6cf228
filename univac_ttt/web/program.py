"""What the browser page needs to know of the program it plays: its pack, through one door.

Name, title, help, the line over the keyboard, the phrases that announce results, the board
read from memory, the captions: what a program pack offers (docs/programs.md). The
composer (cli/serve.py) hands the pack in; web/ never opens one itself. Nothing here
chooses a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..machine.tape import Reel
from ..program.assembler import Program
from ..program.pack import Pack
from ..tui.wrap import paragraphs_joined

Cell = str  # "X", "O" or "" (a blank square)
DEFAULT_KEY_HINT = "Type a square code, 1 to 9, then WORD RELEASE."


@dataclass(frozen=True)
class WebProgram:
    pack: Pack

    @property
    def name(self) -> str:
        return self.pack.name

    @property
    def title(self) -> str:
        return self.pack.title

    @property
    def help(self) -> str:
        """The pack's help, each paragraph one line: the page wraps it to the dialog."""
        return paragraphs_joined(self.pack.help)

    @property
    def key_hint(self) -> str:
        hint = self.pack.key_hint
        return f"{hint[:1].upper()}{hint[1:]} (Enter is WORD RELEASE)." if hint \
            else DEFAULT_KEY_HINT

    @property
    def words(self) -> dict[int, str]:
        return self.pack.words

    @property
    def program(self) -> Program | None:
        return self.pack.program

    def boot_tape(self) -> Reel:
        """A fresh program tape for Uniservo 1 (each game boots it by INITIAL READ)."""
        return self.pack.boot_tape()

    def caption_addresses(self) -> dict[int, str]:
        return self.pack.caption_addresses()

    def board(self, memory: Sequence[str]) -> list[Cell] | None:
        """The nine squares for the page's board, read from the pack's board reader's lines
        (each square is X, O, its own code when blank, or ? for a word that holds no mark);
        None when the program keeps no board of nine squares."""
        if self.pack.board is None:
            return None
        marks = [token for line in self.pack.board(memory) for token in line.split()]
        if len(marks) != 9:
            return None
        return [mark if mark in ("X", "O") else "" for mark in marks]
