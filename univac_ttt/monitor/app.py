"""The full-screen lecture monitor: memory, registers, board and paper around a command line.

Everything it does goes through ``Monitor.execute``; this module only draws. When the
UNIVAC waits for its keyboard, the command line says so and a line typed there goes to the
UNIVAC (then the machine runs on); a line starting with ':' or with a full command name
(``step``, ``examine`` ...) is still a monitor command.

Commands run on a worker thread, one at a time in the order typed, so the screen stays
live: Ctrl-C during a run presses the desk's STOP key and the run ends within a fraction
of a second, leaving the machine where it was, ready for ``continue``.
"""

from __future__ import annotations

import asyncio
from collections import deque

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output

from ..machine import MEMORY_WORDS, StopKind
from ..machine.timing import format_time, pulses_to_us
from ..program.disassembler import view
from ..tui.guard import run_guarded
from ..tui.theme import style
from .core import COMMANDS, Monitor

STYLE = style({
    "current": "bg:#f0b040 #000000 bold",
    "changed": "#ff8080 bold",
    "heading": "#80c0ff bold",
    "prompt": "#80c0ff bold",
    "prompt.keyboard": "bg:#f0b040 #000000 bold",
})
MEMORY_BEFORE, MEMORY_AFTER = 6, 14
REGISTER_WIDTH = 44
COMMAND_NAMES = frozenset(c.name for c in COMMANDS)
OUTPUT_LINES = 400


class CommandCompleter(Completer):
    """Command names first, then the coding sheet's labels."""

    def __init__(self, monitor: Monitor) -> None:
        self.labels = sorted(monitor.program.symbols) if monitor.program else []

    def get_completions(self, document, complete_event):  # type: ignore[no-untyped-def]
        text = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        choices = [c.name for c in COMMANDS] if " " not in text.lstrip() else self.labels
        for choice in choices:
            if choice.lower().startswith(word.lower()):
                yield Completion(choice, start_position=-len(word))


class MonitorApp:
    def __init__(self, monitor: Monitor, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.monitor = monitor
        self.lines: deque[str] = deque(["UNIVAC I lecture monitor. Type help for commands; "
                                        "Ctrl-Q quits."], maxlen=OUTPUT_LINES)
        self.output_buffer = Buffer(read_only=True)
        self.command_buffer = Buffer(multiline=False, history=InMemoryHistory(),
                                     completer=CommandCompleter(monitor),
                                     complete_while_typing=False)
        self.quit_armed = False
        self.pending: deque[str | None] = deque()  # typed lines; None: a quit key
        self.busy = False  # a command is running on the worker thread
        self._frozen = (FormattedText([]), FormattedText([]))
        self._wake = asyncio.Event()
        self.app = self._build(input, output)
        self._sync_output()

    # ---- actions ---------------------------------------------------------------------

    @staticmethod
    def is_command(line: str) -> bool:
        """In keyboard mode: ':anything', or a line starting with a full command name."""
        first = line.strip().split(" ", 1)[0].lower()
        return line.startswith(":") or first in COMMAND_NAMES

    def enter(self, line: str | None) -> None:
        """Queue a typed line (None: a quit key) behind any command still running."""
        self.pending.append(line)
        self._wake.set()

    def interrupt(self) -> bool:
        """Ctrl-C: press STOP if a command is running (True), else do nothing (False)."""
        if not self.busy:
            return False
        self.monitor.desk.limits.stop()
        self.pending.clear()  # what was typed ahead is dropped with the run
        return True

    async def _worker(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self.pending:
                    line = self.pending.popleft()
                    if line is None:
                        self._quit_key()
                        continue
                    self.quit_armed = False
                    # While the worker runs the machine, the panes show it as it was.
                    self._frozen = (self._memory(), self._registers())
                    self.busy = True
                    self.app.invalidate()
                    try:
                        await loop.run_in_executor(None, self._execute, line)
                    finally:
                        self.busy = False
                        self.monitor.desk.limits.interrupt.clear()  # a late Ctrl-C
                    if self.monitor.finished:
                        self.app.exit(result=0)
                        return
                    self._sync_output()
                    self.app.invalidate()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - end the app cleanly, never a traceback
            self.app.exit(exception=exc)

    def _quit_key(self) -> None:
        if self.quit_armed:
            self.app.exit(result=0)
        self.quit_armed = True
        self.app.invalidate()

    def _execute(self, line: str) -> None:
        """Run one typed line (on the worker thread)."""
        monitor = self.monitor
        if monitor.waiting_for_keyboard and not self.is_command(line):
            self.lines.append(f"UNIVAC KEYBOARD ▸ {line}")
            typed = monitor.execute(f"type {line}")
            self.lines.extend(typed)
            if typed and not typed[0].startswith("??"):
                self.lines.extend(monitor.execute("continue"))
        else:
            command = line[1:] if line.startswith(":") else line
            self.lines.append(f"monitor> {command}")
            self.lines.extend(monitor.execute(command))

    def _sync_output(self) -> None:
        text = "\n".join(self.lines)
        self.output_buffer.set_document(Document(text, len(text)), bypass_readonly=True)

    # ---- drawing ---------------------------------------------------------------------

    def _memory(self) -> FormattedText:
        if self.busy:
            return self._frozen[0]
        monitor = self.monitor
        machine = monitor.machine
        current, half = machine.next_instruction_address()
        rows = self.app.output.get_size().rows
        before = max(1, min(MEMORY_BEFORE, (rows - 12) // 3))  # keep the current line in view
        parts: list[tuple[str, str]] = [("class:heading", " MEMORY\n")]
        for address in range(current - before, current + MEMORY_AFTER):
            if not 0 <= address < MEMORY_WORDS:
                continue
            v = view(machine.mem[address], address, monitor.program)
            mark = "▶" if address == current else ("*" if address in monitor.changed else " ")
            label = f"{v.label}:" if v.label else ""
            text = (f"{mark}{address:03d} {v.glyphs} {v.left:<15}{v.right:<15}"
                    f"{label:<9}{v.remark}")
            style = ("class:current" if address == current else
                     "class:changed" if address in monitor.changed else "")
            parts.append((style, text[:120] + "\n"))
        parts.append(("", f"  next: {half} half of {current:03d}\n"))
        return FormattedText(parts)

    def _registers(self) -> FormattedText:
        if self.busy:
            return self._frozen[1]
        monitor = self.monitor
        machine = monitor.machine
        lines = self._compact_registers()
        stop = machine.last_stop
        state = "running" if stop is None else stop.kind.value
        if stop is not None and stop.reason and stop.kind is not StopKind.STEP_LIMIT:
            state += f": {stop.reason}"
        parts: list[tuple[str, str]] = [("class:heading", " REGISTERS\n")]
        parts += [("", line[:REGISTER_WIDTH] + "\n") for line in lines]
        parts.append(("", f"state: {state}\n"))
        neons = monitor.desk.neons.lit()
        parts.append(("class:changed" if neons and neons != ["INPUT READY"] else "",
                      f"neons: {', '.join(neons) or 'none lit'}\n"))
        parts.append(("", f"{machine.instructions:,} instructions, "
                          f"{format_time(pulses_to_us(machine.pulses))} UNIVAC time\n"))
        if monitor.program is not None and "BRD" in monitor.program.symbols:
            parts.append(("class:heading", "\n BOARD (from memory)\n"))
            parts += [("", line + "\n") for line in monitor.do_board("")]
        parts.append(("class:heading", "\n PAPER\n"))
        paper = monitor.desk.paper.text.split("\n")[-7:]
        parts += [("class:paper", f" {line:<40}\n") for line in paper]
        return FormattedText(parts)

    def _compact_registers(self) -> list[str]:
        """One short line a register, to fit beside the memory window."""
        machine = self.monitor.machine
        program = self.monitor.program
        lines = []
        words = [("rA", machine.a), ("rX", machine.x), ("rL", machine.l), ("rF", machine.f),
                 ("rV0", machine.v[0]), ("rV1", machine.v[1])]
        for name, word in words:
            v = view(word, None, program)
            number = f"{v.number:+,d}" if v.number is not None else "text"
            lines.append(f"{name:<4} {v.glyphs}  {number:>18}")
        cr = view(machine.cr, None, program)
        lines.append(f"CC   {machine.cc:03d}")
        lines.append(f"CR   {cr.glyphs}  {cr.left} | {cr.right}")
        lines.append(f"SR   {view(machine.sr + machine.sr, None, program).left}")
        lines.append("rY, rI, rO: examine rY, rI, rO")
        return lines

    def _prompt(self) -> FormattedText:
        if self.busy:
            return FormattedText([("class:prompt.keyboard", " RUNNING ▸ "), ("", " ")])
        if self.monitor.waiting_for_keyboard:
            return FormattedText([("class:prompt.keyboard", " UNIVAC KEYBOARD ▸ "),
                                  ("", " ")])
        return FormattedText([("class:prompt", " monitor> ")])

    def _bar(self) -> FormattedText:
        hint = ("type a word for the UNIVAC, or :command" if self.monitor.waiting_for_keyboard
                else "help  step  next  go  break  examine  back  where")
        quit_text = "press Ctrl-Q again to quit" if self.quit_armed else "Ctrl-Q quit"
        if self.busy:
            return FormattedText([("class:bar", " the UNIVAC is running: Ctrl-C stops it "
                                                "(STOP at the desk)")])
        return FormattedText([("class:bar", f" F10 step  F5 continue  {quit_text}   |  {hint}")])

    def _build(self, input: Input | None, output: Output | None) -> Application[int]:
        wide = Condition(lambda: self.app.output.get_size().columns >= 100)
        top = VSplit([
            Window(FormattedTextControl(self._memory), wrap_lines=False),
            ConditionalContainer(VSplit([Window(width=1, char="│"),
                                         Window(FormattedTextControl(self._registers),
                                                width=REGISTER_WIDTH)]), filter=wide),
        ], height=Dimension(min=4, max=22, preferred=22, weight=3))
        body = HSplit([
            Window(FormattedTextControl(FormattedText([
                ("class:title", " UNIVAC I  ·  LECTURE MONITOR")])), height=1,
                style="class:title"),
            top,
            Window(height=1, char="─"),
            Window(BufferControl(self.output_buffer, focusable=False), wrap_lines=True,
                   height=Dimension(min=3, weight=1)),
            VSplit([Window(FormattedTextControl(self._prompt), dont_extend_width=True),
                    Window(BufferControl(self.command_buffer))], height=1),
            Window(FormattedTextControl(self._bar), height=1, style="class:bar"),
        ])
        return Application(layout=Layout(body, focused_element=self.command_buffer),
                           key_bindings=self._bindings(), style=STYLE, full_screen=True,
                           input=input, output=output)

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add("enter")
        def _(event: KeyPressEvent) -> None:
            self.quit_armed = False
            line = self.command_buffer.text
            self.command_buffer.append_to_history()
            self.command_buffer.reset()
            self.enter(line)

        @kb.add("f10")
        def _(event: KeyPressEvent) -> None:
            self.enter(":step" if self.monitor.waiting_for_keyboard else "step")

        @kb.add("f5")
        def _(event: KeyPressEvent) -> None:
            self.enter(":continue" if self.monitor.waiting_for_keyboard else "continue")

        @kb.add("c-c")
        def _(event: KeyPressEvent) -> None:
            if not self.interrupt():
                self.enter(None)

        for key in ("c-q", "c-d"):
            @kb.add(key)
            def _(event: KeyPressEvent) -> None:
                self.enter(None)

        return kb

    def run(self) -> int:
        def start() -> None:
            self.app.create_background_task(self._worker())

        try:
            return int(run_guarded(self.app, start) or 0)
        finally:
            self.monitor.desk.limits.stop()  # a run still going on the worker ends now

    async def run_async(self) -> int:
        """Run on the caller's event loop (a server's connection): no signal or loop handlers."""
        def start() -> None:
            self.app.create_background_task(self._worker())

        try:
            result = await self.app.run_async(pre_run=start, handle_sigint=False,
                                              set_exception_handler=False)
        finally:
            self.monitor.desk.limits.stop()  # a run still going on the worker ends now
        return int(result or 0)
