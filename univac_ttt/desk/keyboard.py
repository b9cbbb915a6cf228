"""The SC keyboard at the desk: a queue of released words that can remember what was read.

The monitor's exact back-stepping replays the words the machine read, so its desk keeps
that log, from the earliest word a kept checkpoint may replay (the timeline forgets the
words before it: a monitor runs all day); the console and the kiosk keep none.
"""

from __future__ import annotations

from ..machine.devices import QueueKeyboard


class DeskKeyboard(QueueKeyboard):
    """Words wait in order until the machine's 10 instruction reads them."""

    def __init__(self, record: bool = False) -> None:
        super().__init__()
        self.record = record
        self.log: list[str] = []  # words read since the ``forgotten`` first, when recording
        self.forgotten = 0

    def read_word(self) -> str | None:
        word = super().read_word()
        if word is not None and self.record:
            self.log.append(word)
        return word

    @property
    def read(self) -> int:
        """Words read so far while recording (kept or forgotten): a position in the log."""
        return self.forgotten + len(self.log)

    def read_since(self, position: int) -> list[str]:
        """The words read after ``position`` (one not forgotten)."""
        return self.log[max(0, position - self.forgotten):]

    def unread(self, position: int) -> None:
        """Forget that the words after ``position`` were read (going back before them)."""
        del self.log[max(0, position - self.forgotten):]

    def forget_before(self, position: int) -> None:
        """The words before ``position`` will never be replayed: drop them."""
        drop = position - self.forgotten
        if drop > 0:
            del self.log[:drop]
            self.forgotten = position

    def replace_pending(self, words: list[str]) -> None:
        self._words.clear()
        self._words.extend(words)

    @property
    def pending_words(self) -> list[str]:
        return list(self._words)
