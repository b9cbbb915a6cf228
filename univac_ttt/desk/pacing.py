"""Typewriter pacing: printed text appears at once (fast) or at the SC typewriter's pace.

In authentic mode each character takes about a tenth of a second and a carriage return
longer (docs/fidelity.md, U12); a reply starts only after the UNIVAC time the program spent
deciding. The pacer is driven by a clock it is given, so tests need no real waiting.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from ..machine.devices import TYPEWRITER_CHARACTER_SECONDS, TYPEWRITER_RETURN_SECONDS
from ..machine.timing import pulses_to_us
from .paper import PrintedChunk, _new_chunk

TYPE_CHECKING = False  # typing's flag without importing typing
if TYPE_CHECKING:
    from .paper import _Piece

SHOWN_LIMIT = 16_000  # characters of typed paper a screen can scroll back through
# A served terminal's share: its screen's text costs about a hundred bytes a character in
# prompt_toolkit's document caches (1.6 MiB at 16,000), times every terminal of a class.
SERVED_SHOWN_LIMIT = 4_000  # some ten games back
SHOWN_PIECES = 64  # pieces kept apart in ``text`` before they are joined and cut


class TypewriterPacer:
    def __init__(self, authentic: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 shown_limit: int = SHOWN_LIMIT) -> None:
        self.authentic = authentic
        self.shown_limit = shown_limit  # characters ``text`` keeps (SHOWN_LIMIT or a share)
        self.clock = clock
        self._shown: list[str] = []
        self._queue: deque[tuple[str, float]] = deque()
        self._offset = 0
        self._head = 0.0  # when the next character will be typed
        self._reply_started = clock()  # wall time of the last word release
        # Wall time the typewriter last fell silent (its last character typed): where a
        # kiosk's idle time starts, however seldom the screen looks at the clock.
        self.finished_at = clock()

    def start_reply(self) -> None:
        """A word was released (or the program started) now, by the wall clock."""
        self._reply_started = self.clock()

    def add_printed(self, chunk: PrintedChunk) -> None:
        """A piece of paper: in authentic mode it is typed once the UNIVAC time the program
        spent since the word release (stamped on the paper) has passed. The operator's
        keyed entry is not the typewriter's: it shows at once. In fast mode (nothing ever
        queued) every piece shows at once: as ``add`` shows it, without the delay's sum
        (every word the UNIVAC types, in every served terminal)."""
        if not self.authentic and not self._queue:
            shown = self._shown  # _show, written out: every word of every served reply
            shown.append(chunk.text)
            if len(shown) > SHOWN_PIECES:
                shown[:] = ["".join(shown)[-self.shown_limit:]]
            if not chunk.keyed:
                self.finished_at = self.clock()
            return
        if chunk.keyed and not self._queue:
            self._show(chunk.text)
            return
        delay = max(0.0, pulses_to_us(chunk.since_release) / 1_000_000)
        self.add(chunk.text, self._reply_started + delay)

    def add_pieces(self, pieces: list[_Piece]) -> None:
        """A run's typed pieces (``PrintedChunk``s' fields) in one call, as the paper tells
        them (``Paper.tell``): the same as ``add_printed`` for each in turn, without a
        call a word in fast mode (what a served terminal's every reply comes through)."""
        if self.authentic or self._queue:
            for piece in pieces:
                self.add_printed(_new_chunk(PrintedChunk, piece))
            return
        shown = self._shown
        limit = self.shown_limit
        typed = False
        for text, _pulses, _since, keyed in pieces:
            shown.append(text)
            if len(shown) > SHOWN_PIECES:
                shown[:] = ["".join(shown)[-limit:]]
            if not keyed:
                typed = True
        if typed:
            self.finished_at = self.clock()

    @property
    def text(self) -> str:
        """What has been typed so far, the last ``shown_limit`` characters of it."""
        return "".join(self._shown)

    def _show(self, text: str) -> None:  # (add_printed has it written out)
        self._shown.append(text)
        if len(self._shown) > SHOWN_PIECES:
            self._shown[:] = ["".join(self._shown)[-self.shown_limit:]]

    @property
    def busy(self) -> bool:
        return bool(self._queue)

    def add(self, text: str, not_before: float | None = None) -> None:
        """Text from the typewriter; in authentic mode it starts no earlier than not_before."""
        if not self.authentic:
            self._show(text)
            self.finished_at = self.clock()
            return
        now = self.clock()
        if not self._queue:
            self._head = max(self._head, now)
        self._queue.append((text, now if not_before is None else not_before))

    def advance(self) -> bool:
        """Type what is due by now; True if anything new appeared."""
        now = self.clock()
        changed = False
        while self._queue:
            text, not_before = self._queue[0]
            self._head = max(self._head, not_before)
            start = self._offset
            while self._offset < len(text) and self._head <= now:
                ch = text[self._offset]
                self._offset += 1
                self._head += (TYPEWRITER_RETURN_SECONDS if ch == "\n"
                               else TYPEWRITER_CHARACTER_SECONDS)
            if self._offset > start:
                self._show(text[start:self._offset])
                changed = True
            if self._offset < len(text):
                break
            self._queue.popleft()
            self._offset = 0
            if not self._queue:
                self.finished_at = self._head  # when the last character was done
        return changed

    def finish(self) -> None:
        """Type everything still waiting, at once."""
        while self._queue:
            text, _ = self._queue.popleft()
            self._show(text[self._offset:])
            self._offset = 0
        self._head = self.clock()
        self.finished_at = self._head

    def set_authentic(self, authentic: bool) -> None:
        if not authentic:
            self.finish()
        self.authentic = authentic
