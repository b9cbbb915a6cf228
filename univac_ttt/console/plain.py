"""The plain console: printer output on stdout, one line of stdin per keyboard word.

For pipes, scripts, screen readers and logs; its output is byte-stable. At each keyboard
wait it shows the input-ready lamp as the prompt ``> ``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ..lineinput import KEYBOARD_LINE, Refused, line_reader
from ..machine import KeyboardEntryError, Machine, QueueKeyboard, Stop, StopKind, Typewriter
from ..machine.timing import format_time

PROMPT = "> "
CHUNK = 1_000_000  # instructions run between checks of the step budget


@dataclass
class PlainResult:
    exit_code: int
    stop: Stop | None  # None when the input ended while the machine waited for a word
    summary: str


def summarize(machine: Machine, stop: Stop | None, note: str = "") -> str:
    if stop is None:
        where = "end of input while waiting for the keyboard"
    elif stop.kind is StopKind.STEP_LIMIT:
        where = f"step limit reached at {stop.address:03d} ({stop.half})"
    else:
        where = stop.describe()
    text = (f"{where}; {machine.instructions:,} instructions, "
            f"{format_time(machine.time_us)} UNIVAC time")
    return f"{text} ({note})" if note else text


class PlainConsole:
    """Runs a machine against text streams."""

    def __init__(self, machine: Machine, stdin: TextIO, stdout: TextIO, stderr: TextIO,
                 max_steps: int | None = None, start_after_stop: bool = False) -> None:
        self.machine = machine
        # The operator presses START at a normal or breakpoint stop (run --start-after-stop).
        self.start_after_stop = start_after_stop
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self._lines = line_reader(stdin, KEYBOARD_LINE)
        self.max_steps = max_steps
        self.keyboard = QueueKeyboard()
        machine.keyboard = self.keyboard
        self._sinks = [self.stdout.write]
        machine.printer = Typewriter(self._type)

    def _type(self, text: str) -> None:
        for sink in self._sinks:
            sink(text)

    def also_print_to(self, sink: Callable[[str], None]) -> None:
        """Send the paper to another sink as well (a transcript file)."""
        self._sinks.append(sink)

    def run(self) -> PlainResult:
        machine = self.machine
        start = machine.instructions
        while True:
            budget = CHUNK
            if self.max_steps is not None:
                left = self.max_steps - (machine.instructions - start)
                if left <= 0:
                    stop = machine.last_stop
                    return self._finish(1, stop)
                budget = min(budget, left)
            stop = machine.run(budget)
            if stop.kind is StopKind.STEP_LIMIT:
                continue
            if stop.kind is StopKind.KEYBOARD:
                if not self._read_word():
                    return self._finish(0, None)
                continue
            if self.start_after_stop and stop.kind in (StopKind.HALT, StopKind.BREAKPOINT):
                self.stdout.flush()
                self.stderr.write(f"univac-ttt: {stop.describe()}; START pressed\n")
                self.stderr.flush()
                continue
            return self._finish(1 if stop.is_error else 0, stop)

    def _read_word(self) -> bool:
        """Prompt until a typable line arrives; False at end of input."""
        while True:
            self.stdout.write(PROMPT)
            self.stdout.flush()
            text = self._lines.read_line()
            if text is None:
                return False
            if isinstance(text, Refused):
                self.stderr.write(f"refused: {text}; nothing was sent to the UNIVAC\n")
                self.stderr.flush()
                continue
            try:
                self.keyboard.type_line(text)
                return True
            except KeyboardEntryError as exc:
                self.stderr.write(f"refused: {exc}; nothing was sent to the UNIVAC\n")
                self.stderr.flush()

    def _finish(self, code: int, stop: Stop | None) -> PlainResult:
        self.stdout.flush()
        return PlainResult(code, stop, summarize(self.machine, stop))
