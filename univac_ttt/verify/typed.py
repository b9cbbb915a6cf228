"""What the referee reads of the typewriter: the text typed since the last release.

The desk's paper stamps every piece with the clock and keeps the last 16,000 characters for
a person to scroll; the proof's 20,000 prints would each make a stamped piece and, once the
paper is full, tear off an old one, for a reader that only ever asks what one reply typed
and when its first character came. This typewriter types the same text (the same words,
the same case shifts, which stay with the typewriter across restores as on the desk) into
a list the referee empties before each release, and notes the clock at its first piece.
"""

from __future__ import annotations

from ..machine.devices import _TYPED_WORDS, Typewriter

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from ..machine import Machine


class TypedSinceRelease(Typewriter):
    """The SC typewriter of a judged machine: ``pieces`` typed since ``clear``, and
    ``first_pulses``, the machine's clock when the first of them was typed (None: none)."""

    def __init__(self, machine: Machine) -> None:
        super().__init__()
        self.machine = machine
        self.pieces: list[str] = []
        self.first_pulses: int | None = None

    def clear(self) -> None:
        self.pieces.clear()
        self.first_pulses = None

    def print_word(self, word: str) -> None:
        known = _TYPED_WORDS.get((word, self.upper))  # text_of, written out: the hot path
        if known is None:
            text = self.text_of(word)
        else:
            text, self.upper = known
        if text:
            if not self.pieces:
                self.first_pulses = self.machine.pulses
            self.pieces.append(text)

    @property
    def text(self) -> str:
        return "".join(self.pieces)
