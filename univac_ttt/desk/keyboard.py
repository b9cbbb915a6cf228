"""The SC keyboard at the desk: a queue of released words that can remember what was read.

The monitor's exact back-stepping replays the words the machine read, so its desk keeps
that log; the console and the kiosk do not (their sessions last for months).
"""

from __future__ import annotations

from ..machine.devices import QueueKeyboard


class DeskKeyboard(QueueKeyboard):
    """Words wait in order until the machine's 10 instruction reads them."""

    def __init__(self, record: bool = False) -> None:
        super().__init__()
        self.record = record
        self.log: list[str] = []  # words read so far, when recording

    def read_word(self) -> str | None:
        word = super().read_word()
        if word is not None and self.record:
            self.log.append(word)
        return word

    def replace_pending(self, words: list[str]) -> None:
        self._words.clear()
        self._words.extend(words)

    @property
    def pending_words(self) -> list[str]:
        return list(self._words)
