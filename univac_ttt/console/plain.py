"""The plain console: printer output on stdout, one line of stdin per keyboard word.

For pipes, scripts, screen readers and logs; its output is byte-stable. At each keyboard
wait it shows the input-ready lamp as the prompt ``> ``; the line the operator keys follows
it, echoed when the input is not a terminal, so piped output reads as the session did. The
machine runs at a desk, under the desk's limits, so a runaway program ends with a message
instead of running forever. With ``authentic`` the paper is typed at the SC typewriter's
pace (a teletype, or a screen reader that reads as it prints).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import TextIO

from ..desk import Desk, PrintedChunk
from ..lineinput import KEYBOARD_LINE, Refused, line_reader
from ..machine import KeyboardEntryError, Stop, StopKind
from ..machine.devices import TYPEWRITER_CHARACTER_SECONDS, TYPEWRITER_RETURN_SECONDS
from ..machine.timing import format_time, pulses_to_us
from ..safetext import visible

PROMPT = "> "


@dataclass
class PlainResult:
    exit_code: int
    stop: Stop | None  # None when the input ended while the machine waited for a word
    summary: str


def summarize(desk: Desk, stop: Stop | None, note: str = "") -> str:
    machine = desk.machine
    if stop is None:
        where = "end of input while waiting for the keyboard"
    elif stop.kind is StopKind.STEP_LIMIT:
        where = (f"step limit reached at {stop.address:03d} ({stop.half}): {stop.reason}; "
                 "the program may be in an endless loop")
    else:
        where = stop.describe()
    text = (f"{where}; {machine.instructions:,} instructions, "
            f"{format_time(machine.time_us)} UNIVAC time")
    return f"{text} ({note})" if note else text


class PlainConsole:
    """Runs a desk's machine against text streams.

    ``max_steps`` caps the whole session; without it each run between keyboard words is
    capped by the desk's limits."""

    def __init__(self, desk: Desk, stdin: TextIO, stdout: TextIO, stderr: TextIO,
                 max_steps: int | None = None, start_after_stop: bool = False,
                 authentic: bool = False, sleep: Callable[[float], None] = time.sleep) -> None:
        self.desk = desk
        desk.echo_keys = True  # the operator's entries go on the paper (and the transcript)
        self.authentic = authentic
        self.sleep = sleep
        self._hurry = False  # Ctrl-C while typing at the typewriter's pace: the rest at once
        self._paced = 0.0  # seconds of pacing since the last word release
        # The operator presses START at a normal or breakpoint stop (run --start-after-stop).
        self.start_after_stop = start_after_stop
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self._lines = line_reader(stdin, KEYBOARD_LINE)
        self.max_steps = max_steps
        self._sinks: list[Callable[[str], None]] = []
        self._running = False  # the desk is running the machine (Ctrl-C is STOP then)
        desk.paper.listeners.append(self._type)

    def _type(self, chunk: PrintedChunk) -> None:
        for sink in self._sinks:
            sink(chunk.text)
        if chunk.keyed:
            self._paced = 0.0  # a word release: the UNIVAC's time starts again
            return  # on stdout the prompt and the echoed line already show it
        if not self.authentic or self._hurry:
            self.stdout.write(chunk.text)
            return
        # the piece is typed once the UNIVAC time since the release has passed (typing
        # the earlier pieces counts towards it), then a character at a time
        self._pause(pulses_to_us(chunk.since_release) / 1_000_000 - self._paced)
        for ch in chunk.text:
            self.stdout.write(ch)
            self.stdout.flush()
            self._pause(TYPEWRITER_RETURN_SECONDS if ch == "\n"
                        else TYPEWRITER_CHARACTER_SECONDS)

    def _pause(self, seconds: float) -> None:
        if seconds > 0:
            self._paced += seconds
            if not self._hurry:
                self.sleep(seconds)

    def also_print_to(self, sink: Callable[[str], None]) -> None:
        """Send the paper to another sink as well (a transcript file)."""
        self._sinks.append(sink)

    def run(self) -> PlainResult:
        """Run to the end of input or a stop. Ctrl-C while the UNIVAC runs presses the
        desk's STOP (the run ends with a message); at the prompt it interrupts as usual."""
        on_main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, self._interrupt) if on_main else None
        try:
            return self._run()
        finally:
            if on_main:
                signal.signal(signal.SIGINT, previous)

    def _interrupt(self, signum: int, frame: FrameType | None) -> None:
        if not self._running:
            raise KeyboardInterrupt
        self._hurry = True
        self.desk.stop_key()

    def _run(self) -> PlainResult:
        desk = self.desk
        start = desk.machine.instructions
        while True:
            cap = desk.limits.cap
            if self.max_steps is not None:
                cap = min(cap, self.max_steps - (desk.machine.instructions - start))
            self._running, self._hurry = True, False
            try:
                stop = desk.run(max(cap, 0))
            finally:
                self._running = False
            if stop.kind is StopKind.KEYBOARD:
                if not self._read_word():
                    return self._finish(0, None)
                continue
            normal = stop.kind in (StopKind.HALT, StopKind.BREAKPOINT)
            if self.start_after_stop and normal:
                self.stdout.flush()
                self.stderr.write(f"univac-ttt: {stop.describe()}; START pressed\n")
                self.stderr.flush()
                continue
            return self._finish(0 if normal else 1, stop)

    def _read_word(self) -> bool:
        """Prompt until a typable line arrives; False at end of input."""
        while True:
            self.stdout.write(PROMPT)
            self.stdout.flush()
            text = self._lines.read_line()
            if text is None:
                self.stdout.write("\n")  # end the prompt's line: the message has its own
                return False
            if not self._terminal_echoes():
                shown = "(refused)" if isinstance(text, Refused) else visible(text)
                self.stdout.write(f"{shown}\n")
            if isinstance(text, Refused):
                self.stderr.write(f"refused: {text}; nothing was sent to the UNIVAC\n")
                self.stderr.flush()
                continue
            try:
                self.desk.release(text)
                return True
            except KeyboardEntryError as exc:
                self.stderr.write(f"refused: {exc}; nothing was sent to the UNIVAC\n")
                self.stderr.flush()

    def _terminal_echoes(self) -> bool:
        """True when stdin is a terminal, which has shown the keyed line already."""
        try:
            return self.stdin.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def _finish(self, code: int, stop: Stop | None) -> PlainResult:
        self.stdout.flush()
        return PlainResult(code, stop, summarize(self.desk, stop))
