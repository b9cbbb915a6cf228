"""The Supervisory Control keyboard and typewriter as small device interfaces.

The CPU calls ``keyboard.read_word()`` on 10m and ``printer.print_word(word)`` on 50m and
knows nothing else about them; front ends supply the objects. The helpers here turn typed
keys into a word (U11) and words into typewriter text (U2, U12) the same way for all of them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from .charset import (
    CARRIAGE_RETURN,
    IGNORE,
    KEYBOARD_KEYS,
    LOWER_SHIFT,
    ON_READING,
    TYPED,
    UPPER_SHIFT,
    ZERO_DIGIT,
)
from .word import WORD_LENGTH

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import Literal, Protocol

    Justify = Literal["right", "left"]

# The SC typewriter's pace (U12): about ten characters a second; a carriage return takes
# three character times. Front ends use these for the "authentic" speed.
TYPEWRITER_CHARACTER_SECONDS = 0.1
TYPEWRITER_RETURN_SECONDS = 0.3


if TYPE_CHECKING:  # what the CPU asks of its devices, for the type checker
    class Keyboard(Protocol):
        def read_word(self) -> str | None:
            """The next word released by the operator, or None while none is ready."""

    class Printer(Protocol):
        def print_word(self, word: str) -> None:
            """Type one word on the paper."""


class KeyboardEntryError(ValueError):
    """A typed line holds a character the UNIVAC keyboard has no key for."""




def keys_to_word(text: str, justify: Justify = "right") -> str:
    """The word a line of keystrokes makes when the word-release key is pressed.

    Right justification (the default, U11): each key shifts the partial word one place
    left and enters at the right of a word cleared to zeros, so "5" gives 000000000005
    and only the last twelve keys of a longer entry remain. Left justification fills a
    cleared word from the left and ignores keys past the twelfth.
    """
    codes = []
    for ch in text:
        internal = KEYBOARD_KEYS.get(ch)
        if internal is None:
            shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
            raise KeyboardEntryError(f"the UNIVAC keyboard has no key for {shown!r}")
        codes.append(internal)
    keys = "".join(codes)
    if justify == "left":
        return (keys + ZERO_DIGIT * WORD_LENGTH)[:WORD_LENGTH]
    return (ZERO_DIGIT * WORD_LENGTH + keys)[-WORD_LENGTH:]


class QueueKeyboard:
    """A keyboard fed with lines by a front end; words wait in order until read."""

    def __init__(self, justify: Justify = "right") -> None:
        self.justify: Justify = justify
        self._words: deque[str] = deque()

    def type_line(self, text: str) -> str:
        """Queue the word for a typed line; KeyboardEntryError leaves the queue unchanged."""
        word = keys_to_word(text, self.justify)
        self._words.append(word)
        return word

    def read_word(self) -> str | None:
        return self._words.popleft() if self._words else None

    @property
    def pending(self) -> int:
        return len(self._words)

    def clear(self) -> None:
        self._words.clear()


_TYPED = TYPED  # by code (charset.TYPED, refilled by charset.use_reading)
_TYPED_LIMIT = 4096  # words remembered with their text before the table is emptied
_TYPED_WORDS: dict[tuple[str, bool], tuple[str, bool]] = {}
ON_READING.append(_TYPED_WORDS.clear)  # another reading of the codes types other text


def _typed_text(word: str, upper: bool) -> tuple[str, bool]:
    """What the typewriter types for ``word`` starting in capitals (``upper``) or not, and
    whether it is in capitals after it."""
    out = []
    for ch in word:
        if ch == IGNORE:
            continue
        if ch == UPPER_SHIFT:
            upper = True
        elif ch == LOWER_SHIFT:
            upper = False
        typed = _TYPED[ord(ch)]
        if not typed:
            continue
        if ch != CARRIAGE_RETURN and not upper:
            typed = typed.lower()
        out.append(typed)
    return "".join(out), upper


class Typewriter:
    """The SC printer: types words as text and hands it to a sink.

    ignore (and the printer control codes) type nothing; the carriage-return code starts
    a new line; there is no automatic return after a word (U12). The case shift codes
    switch between capitals and small letters; a desk sets the case a run starts in
    (MachineOptions.typewriter_case).
    """

    def __init__(self, sink: Callable[[str], None] | None = None) -> None:
        self.sink = sink
        self.upper = False  # at rest it types small letters (S-PV): a program shifts up

    def text_of(self, word: str) -> str:
        """The text ``word`` types; the typewriter keeps the case the word leaves it in.
        Remembered by word and case: a program types the same few words again and again."""
        known = _TYPED_WORDS.get((word, self.upper))
        if known is None:
            known = _typed_text(word, self.upper)
            if len(_TYPED_WORDS) >= _TYPED_LIMIT:
                _TYPED_WORDS.clear()
            _TYPED_WORDS[word, self.upper] = known
        text, self.upper = known
        return text

    def print_word(self, word: str) -> None:
        text = self.text_of(word)
        if text and self.sink is not None:
            self.sink(text)


class PaperPrinter(Typewriter):
    """A typewriter that also keeps the whole paper (for tests, transcripts, the referee)."""

    def __init__(self, sink: Callable[[str], None] | None = None) -> None:
        super().__init__(sink)
        self.pieces: list[str] = []

    def print_word(self, word: str) -> None:
        known = _TYPED_WORDS.get((word, self.upper))  # text_of, written out: the hot path
        if known is None:
            text = self.text_of(word)
        else:
            text, self.upper = known
        if text:
            self.pieces.append(text)
            if self.sink is not None:
                self.sink(text)

    @property
    def paper(self) -> str:
        return "".join(self.pieces)

    def take(self) -> str:
        """The text typed since the last take."""
        text = "".join(self.pieces)
        self.pieces.clear()
        return text
