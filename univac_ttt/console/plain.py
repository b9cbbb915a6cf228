"""The plain console: printer output on stdout, one line of stdin per keyboard word.

For pipes, scripts, screen readers and logs; its output is byte-stable. At each keyboard
wait it shows the input-ready lamp as the prompt ``> ``; the line the operator keys follows
it, echoed when the input is not a terminal, so piped output reads as the session did. The
machine runs at a desk, under the desk's limits, so a runaway program ends with a message
instead of running forever. With ``authentic`` the paper is typed at the SC typewriter's
pace (a teletype, or a screen reader that reads as it prints).
"""

from __future__ import annotations

import _signal  # signal without its enums: the module's import costs a start 4 M instructions
import os
import time
from collections.abc import Callable
from types import FrameType

from ..desk import Desk, PrintedChunk
from ..hostio.stdin_lines import KEYBOARD_LINE, Refused, line_reader
from ..hostio.terminal_text import visible
from ..hostio.wording import count
from ..machine import KeyboardEntryError, Stop, StopKind
from ..machine.devices import TYPEWRITER_CHARACTER_SECONDS, TYPEWRITER_RETURN_SECONDS
from ..machine.records import Record
from ..machine.timing import format_time, pulses_to_us

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import TextIO


PROMPT = "> "
# Ctrl-C, and the terminal's quit key Ctrl-\\ (SIGQUIT) beside it: a player who presses
# either wants the game to end as Ctrl-C ends it (the score said, status 130), not with
# SIGQUIT's status 131 and a core dump.
INTERRUPT_SIGNALS = tuple(getattr(_signal, name) for name in ("SIGINT", "SIGQUIT")
                          if hasattr(_signal, name))


class PlainResult(Record):
    """How a plain session ended (a NamedTuple: cheaper to define than a dataclass)."""

    exit_code: int
    stop: Stop | None  # None when the input ended while the machine waited for a word
    summary: str


def summarize(desk: Desk, stop: Stop | None, note: str = "", limit: str = "") -> str:
    """One line on how the run ended, each figure said once. ``limit`` says which step
    limit a STEP_LIMIT stop reached (the run's own count, not the machine's total)."""
    machine = desk.machine
    time = f"{format_time(machine.time_us)} UNIVAC time"
    if stop is not None and stop.kind is StopKind.STEP_LIMIT:
        text = (f"step limit reached at {stop.address:03d} ({stop.half}): "
                f"{limit or stop.reason}; {time}")
    else:
        where = ("end of input while waiting for the keyboard" if stop is None
                 else stop.describe())
        text = f"{where}; {count(machine.instructions, 'instruction')}, {time}"
    return f"{text} ({note})" if note else text


def shares_destination(first: TextIO, second: TextIO) -> bool:
    """True when two streams write to one place (a terminal, or ``2>&1`` into a pipe or
    file), so a message on one must start on a line of its own on the other."""
    try:
        one, two = os.fstat(first.fileno()), os.fstat(second.fileno())
    except (AttributeError, ValueError, OSError):
        return False
    return (one.st_dev, one.st_ino) == (two.st_dev, two.st_ino)


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
        self._line_open = False  # stdout's last line is not yet ended (the column is not 0)
        self._limit = ""  # which step limit the last run had, in words
        desk.paper.listeners.append(self._type)

    def _write(self, text: str) -> None:
        """Paper or prompt on stdout, keeping track of whether its line is ended."""
        if text:
            self.stdout.write(text)
            self._line_open = not text.endswith("\n")

    def message(self, text: str) -> None:
        """A line on stderr; when stdout goes to the same place, the paper's line is ended
        first, so the message never runs into what the UNIVAC typed."""
        if self._line_open and shares_destination(self.stdout, self.stderr):
            self._write("\n")
        try:  # noqa: SIM105 - contextlib is not imported at start-up
            self.stdout.flush()
        except (OSError, ValueError):
            pass
        self.stderr.write(text if text.endswith("\n") else text + "\n")
        self.stderr.flush()

    def _type(self, chunk: PrintedChunk) -> None:
        for sink in self._sinks:
            sink(chunk.text)
        if chunk.keyed:
            self._paced = 0.0  # a word release: the UNIVAC's time starts again
            return  # on stdout the prompt and the echoed line already show it
        if not self.authentic or self._hurry:
            self._write(chunk.text)
            return
        # the piece is typed once the UNIVAC time since the release has passed (typing
        # the earlier pieces counts towards it), then a character at a time
        self._pause(pulses_to_us(chunk.since_release) / 1_000_000 - self._paced)
        for ch in chunk.text:
            self._write(ch)
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
        """Run to the end of input or a stop. Ctrl-C (or Ctrl-\\) while the UNIVAC runs
        presses the desk's STOP (the run ends with a message); at the prompt it interrupts
        as usual."""
        taken: list[tuple[int, object]] = []
        try:
            for number in INTERRUPT_SIGNALS:
                taken.append((number, _signal.signal(number, self._interrupt)))
        except ValueError:  # not the main thread: Ctrl-C is not this session's to take
            pass
        try:
            return self._run()
        finally:
            self._echo_control(True)
            for number, previous in taken:
                _signal.signal(number, previous)

    def _echo_control(self, on: bool) -> None:
        """While the typewriter types at its pace on a terminal, the terminal must not echo
        Ctrl-C as ``^C`` in the middle of the paper's line (Ctrl-C is STOP then, and says
        so on a line of its own); at the prompt the terminal echoes as usual. termios (a
        module of its own to load) is imported only then: not every start needs it."""
        if not self.authentic:
            return
        try:
            import termios
        except ImportError:  # not on every platform: the ^C echo is then left as it is
            return
        try:
            fd = self.stdin.fileno()
            if not os.isatty(fd):
                return
            attributes = termios.tcgetattr(fd)
            flag = getattr(termios, "ECHOCTL", 0)
            lflag = attributes[3] | flag if on else attributes[3] & ~flag
            if lflag != attributes[3]:
                attributes[3] = lflag
                termios.tcsetattr(fd, termios.TCSANOW, attributes)
        except (AttributeError, ValueError, OSError, termios.error):
            pass

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
            self._limit = (f"the program ran {count(cap, 'instruction')} without waiting "
                           "for the keyboard or stopping, and may be in an endless loop")
            if self.max_steps is not None:
                left = self.max_steps - (desk.machine.instructions - start)
                if left <= cap:
                    cap = left
                    self._limit = (f"the program ran the {count(self.max_steps, 'instruction')}"
                                   " that --max-steps allows")
            self._running, self._hurry = True, False
            self._echo_control(False)
            try:
                stop = desk.run(max(cap, 0))
            finally:
                self._running = False
                self._echo_control(True)
            if stop.kind is not StopKind.INTERRUPT:
                # a Ctrl-C that only hurried the typing ended nothing: no STOP is left
                # pending to end the next word's run at once
                desk.limits.interrupt.clear()
            if stop.kind is StopKind.KEYBOARD:
                if not self._read_word():
                    return self._finish(0, None)
                continue
            normal = stop.kind in (StopKind.HALT, StopKind.BREAKPOINT)
            if self.start_after_stop and normal and not self.desk.at_final_stop():
                self.message(f"univac-ttt: {stop.describe()}; START pressed")
                continue
            return self._finish(0 if normal else 1, stop)

    def _read_word(self) -> bool:
        """Prompt until a typable line arrives; False at end of input."""
        while True:
            self._write(PROMPT)
            self.stdout.flush()
            text = self._lines.read_line()
            if text is None:
                self._write("\n")  # end the prompt's line: the message has its own
                return False
            if not self._terminal_echoes():
                shown = "(refused)" if isinstance(text, Refused) else visible(text)
                self._write(f"{shown}\n")
            else:
                self._line_open = False  # the terminal echoed the line and its Enter
            if isinstance(text, Refused):
                self.message(f"refused: {text}; nothing was sent to the UNIVAC")
                continue
            try:
                self.desk.release_line(text)
                return True
            except KeyboardEntryError as exc:
                reason = str(exc)
                if "\x1b" in text:  # a terminal's arrow or function key in a typed line
                    reason = ("arrow and function keys are not keys of the UNIVAC keyboard "
                              "(the line held an escape code)")
                self.message(f"refused: {reason}; nothing was sent to the UNIVAC")

    def _terminal_echoes(self) -> bool:
        """True when stdin is a terminal, which has shown the keyed line already."""
        try:
            return self.stdin.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def _finish(self, code: int, stop: Stop | None) -> PlainResult:
        self.stdout.flush()
        return PlainResult(code, stop, summarize(self.desk, stop, limit=self._limit))
