"""Keyboard bytes that cannot end a session: a guarded VT100 parser and key processor.

prompt_toolkit turns every byte from the terminal into key presses, and some of them carry
data its own bindings parse without checking: a malformed mouse report (``Esc [ 1 m``,
``Esc [ M \\xff\\xff\\xff``) or a cursor-position report with thousands of digits raises in
its handler and ends the application. A typed ``Esc [ 2 0 0 ~`` starts a bracketed paste
that swallows every key until ``Esc [ 2 0 1 ~`` arrives, which locks staff out of the kiosk.

``guard_input`` gives an input a parser that passes on only well-formed reports (mouse
reports only while the application has mouse support on), ends a paste at the first pause
in the typing, after PASTE_SECONDS or at PASTE_LIMIT characters, and never holds an
unfinished escape sequence longer than SEQUENCE_LIMIT characters. ``guard_key_processor``
drops, and counts, whatever still fails inside prompt_toolkit's own key bindings; a failure
in the application's own bindings still ends it, to be reported.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.input import vt100_parser as _parser_module
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding.bindings.mouse import typical_mouse_events
from prompt_toolkit.key_binding.key_processor import KeyPress, KeyProcessor
from prompt_toolkit.keys import Keys

PASTE_LIMIT = 65_536  # characters of one paste kept; the rest of it is dropped
PASTE_SECONDS = 2.0  # a paste still open this long after it began is ended
PASTE_END = "\x1b[201~"
SEQUENCE_LIMIT = 40  # no terminal report is longer; a longer unfinished one is flushed
PREFIX_CACHE_LIMIT = 10_000  # prompt_toolkit caches every prefix it has seen

REPORT_START = "\x1b["  # where prompt_toolkit's report patterns are anchored
_SGR_MOUSE = re.compile(r"\x1b\[<\d{1,4};\d{1,4};\d{1,4}[mM]\Z")
_URXVT_MOUSE = re.compile(r"\x1b\[\d{1,4};\d{1,4};\d{1,4}M\Z")
_CPR = re.compile(r"\x1b\[\d{1,4};\d{1,4}R\Z")


def mouse_report_ok(data: str) -> bool:
    """True if prompt_toolkit's mouse handler can parse this report."""
    if data.startswith("\x1b[M"):
        return len(data) == 6 and ord(data[3]) in typical_mouse_events
    return bool(_SGR_MOUSE.match(data) or _URXVT_MOUSE.match(data))


class GuardedParser(Vt100Parser):
    """A Vt100Parser whose pastes end, whose reports are checked, whose prefixes are short."""

    def __init__(self, feed_key_callback: Callable[[KeyPress], None],
                 mouse: Callable[[], bool] = lambda: False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.mouse = mouse
        self.clock = clock
        self.dropped = 0  # reports and paste characters thrown away
        self._pending = 0  # characters fed since the parser last produced a key
        self._paste_started = 0.0
        super().__init__(self._checked(feed_key_callback))

    def _checked(self, deliver: Callable[[KeyPress], None]) -> Callable[[KeyPress], None]:
        def callback(key_press: KeyPress) -> None:
            self._pending = 0
            if key_press.key == Keys.Vt100MouseEvent and not (
                    self.mouse() and mouse_report_ok(key_press.data)):
                self.dropped += 1
                return
            if key_press.key == Keys.CPRResponse and not _CPR.match(key_press.data):
                self.dropped += 1
                return
            deliver(key_press)

        return callback

    def reset(self, request: bool = False) -> None:
        self._paste_buffer, self._paste_tail, self._paste_overflow = "", "", False
        super().reset(request)

    def _call_handler(self, key: str | Keys | tuple[Keys, ...], insert_text: str) -> None:
        self._pending = 0
        super()._call_handler(key, insert_text)
        if key == Keys.BracketedPaste:
            self._paste_started = self.clock()
            self._paste_buffer, self._paste_tail, self._paste_overflow = "", "", False

    def _get_match(self, prefix: str) -> None | Keys | tuple[Keys, ...]:
        """prompt_toolkit's, without its two reports' patterns (a cursor-position and a mouse
        report) for a prefix they cannot match: both are anchored at ``Esc [``. It is asked
        at every character typed (a digit and Enter: four pattern calls a move)."""
        if prefix.startswith(REPORT_START):
            return super()._get_match(prefix)
        return ANSI_SEQUENCES.get(prefix)

    @property
    def in_paste(self) -> bool:
        return self._in_bracketed_paste

    def feed(self, data: str) -> None:
        if len(_parser_module._IS_PREFIX_OF_LONGER_MATCH_CACHE) > PREFIX_CACHE_LIMIT:
            _parser_module._IS_PREFIX_OF_LONGER_MATCH_CACHE.clear()
        while data:
            if self._in_bracketed_paste:
                data = self._feed_paste(data)
                continue
            for i, c in enumerate(data):
                self._input_parser.send(c)
                self._pending += 1
                if self._pending > SEQUENCE_LIMIT:
                    super().flush()
                    self._pending = 0
                if self._in_bracketed_paste:
                    data = data[i + 1:]
                    break
            else:
                data = ""

    def _feed_paste(self, data: str) -> str:
        """Take paste text; return what follows the paste's end (or "" while it lasts)."""
        tail = self._paste_tail
        joined = tail + data
        end = joined.find(PASTE_END)
        if end >= 0:
            if end >= len(tail):
                self._keep(joined[len(tail):end])
                text = self._paste_buffer
            else:  # the end mark began in text already kept: take it back off
                cut = len(tail) - end
                text = self._paste_buffer if self._paste_overflow else self._paste_buffer[:-cut]
            self._end_paste(text)
            return joined[end + len(PASTE_END):]
        self._keep(data)
        self._paste_tail = joined[-(len(PASTE_END) - 1):]
        if self.clock() - self._paste_started > PASTE_SECONDS:
            self._end_paste(self._paste_buffer)
        return ""

    def _keep(self, text: str) -> None:
        room = max(PASTE_LIMIT - len(self._paste_buffer), 0)
        if len(text) > room:
            self._paste_overflow = True
            self.dropped += len(text) - room
        self._paste_buffer += text[:room]

    def _end_paste(self, text: str) -> None:
        self._in_bracketed_paste = False
        self._paste_buffer, self._paste_tail, self._paste_overflow = "", "", False
        self.feed_key_callback(KeyPress(Keys.BracketedPaste, text))

    def flush(self) -> None:
        """A pause in the input: a paste still open was typed, not pasted; end it."""
        if self._in_bracketed_paste:
            self._end_paste(self._paste_buffer)
        self._pending = 0
        super().flush()


def guard_input(input: Input, mouse: Callable[[], bool] = lambda: False) -> Input:
    """Give a VT100 input (a terminal or a pipe) the guarded parser; others are returned
    as they are. ``mouse`` says whether mouse reports are wanted at this moment."""
    parser = getattr(input, "vt100_parser", None)
    if isinstance(parser, Vt100Parser) and not isinstance(parser, GuardedParser):
        input.vt100_parser = GuardedParser(parser.feed_key_callback, mouse)  # type: ignore[attr-defined]
    return input


def guard_key_processor(app: Application[Any]) -> None:
    """Exceptions in prompt_toolkit's own key bindings drop the key instead of ending the
    application (counted in ``app.key_processor.dropped_keys``)."""
    processor: KeyProcessor = app.key_processor
    if getattr(processor, "dropped_keys", None) is not None:
        return
    original = processor._call_handler
    processor.dropped_keys = 0  # type: ignore[attr-defined]

    def call_handler(handler: Any, key_sequence: list[KeyPress]) -> None:
        module = getattr(getattr(handler, "handler", None), "__module__", "") or ""
        if not module.startswith("prompt_toolkit."):
            original(handler, key_sequence)
            return
        try:
            original(handler, key_sequence)
        except Exception:  # noqa: BLE001 - a key prompt_toolkit cannot handle is dropped
            processor.dropped_keys += 1  # type: ignore[attr-defined]

    processor._call_handler = call_handler  # type: ignore[method-assign]


def guard_application(app: Application[Any]) -> None:
    """Both guards, with mouse reports passed on only while the app's mouse support is on."""
    guard_input(app.input, lambda: bool(app.mouse_support()))
    guard_key_processor(app)
