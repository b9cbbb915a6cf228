"""The full-screen lecture monitor: memory, registers, board and paper around a command line.

Everything it does goes through ``Monitor.execute``; this module only draws. When the
UNIVAC waits for its keyboard the command line is in keyboard mode (a yellow
``UNIVAC KEYBOARD ▸`` prompt): a line typed there goes to the UNIVAC and the machine runs on;
only a line starting with ':' is a monitor command. ':' is no key of the UNIVAC keyboard,
so the two can never be confused. The output pane keeps its scrollback (PageUp/PageDown,
the mouse wheel) and wraps long lines at spaces; panes are chosen with F2-F6 (panes.py).

Commands run on a worker thread, one at a time in the order typed, so the screen stays
live: Ctrl-C during a run presses the desk's STOP key and the run ends within a fraction
of a second, leaving the machine where it was, ready for ``continue``.
"""

from __future__ import annotations

import asyncio
import textwrap
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
from prompt_toolkit.output import Output

from ..desk.tapelamps import unit_lines
from ..machine import MEMORY_WORDS, StopKind
from ..machine.timing import format_time, pulses_to_us
from ..program.disassembler import view
from ..safetext import visible
from ..tui.guard import run_guarded, run_guarded_async
from ..tui.paper import sync_paper
from ..tui.theme import style
from .core import COMMANDS, Monitor, find_command
from .panes import REGISTERS_WIDTH, SIDE_WIDTH, Plan, fit, plan

STYLE = style({
    "current": "bg:#f0b040 #000000 bold",
    "changed": "#ff8080 bold",
    "heading": "#80c0ff bold",
    "prompt": "#80c0ff bold",
    "prompt.keyboard": "bg:#f0b040 #000000 bold",
    "state": "bg:#202830 #e0e0e0",
})
MEMORY_BEFORE, MEMORY_AFTER = 6, 30
OUTPUT_LINES = 5_000  # the output pane's scrollback, in lines as printed
COMMAND_PREFIX = ":"  # no key of the UNIVAC keyboard: a command is never a keyboard word
REMARK_MIN = 8  # fewer columns than this for a remark: none is shown
KEYBOARD_HINT = "type the keys and Enter; :command for the monitor"


def _wrap_at_spaces(text: str, width: int) -> str:
    """Lines longer than ``width`` broken at spaces (a word longer than that, anywhere)."""
    return "\n".join(line if len(line) <= width else "\n".join(
        textwrap.wrap(line, width, break_on_hyphens=False) or [""])
        for line in text.split("\n"))


def memory_line(head: str, fields: list[str], remark: str, width: int) -> str:
    """A memory line in ``width``: each field whole or not at all (a label is never cut
    to a letter), then as much of the remark as fits, cut with an ellipsis."""
    text = head[:width]
    for field in fields:
        if len((text + field).rstrip()) > width:
            return text.rstrip()
        text += field
    text = f"{text:<{len(head) + 40}}" if remark else text  # the remark column
    room = width - len(text)
    if remark and room >= REMARK_MIN:
        text += remark if len(remark) <= room else remark[:room - 1] + "…"
    return text.rstrip()


class CommandCompleter(Completer):
    """Command names first, then the coding sheet's labels."""

    def __init__(self, monitor: Monitor) -> None:
        self.labels = sorted(monitor.program.symbols) if monitor.program else []

    def get_completions(self, document, complete_event):  # type: ignore[no-untyped-def]
        text = document.text_before_cursor.lstrip().removeprefix(COMMAND_PREFIX)
        word = document.get_word_before_cursor(WORD=True).removeprefix(COMMAND_PREFIX)
        choices = [c.name for c in COMMANDS] if " " not in text else self.labels
        for choice in choices:
            if choice.lower().startswith(word.lower()):
                yield Completion(choice, start_position=-len(word))


class MonitorApp:
    def __init__(self, monitor: Monitor, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.monitor = monitor
        monitor.keyboard_hint = KEYBOARD_HINT  # here a line typed goes to the UNIVAC
        self.lines: deque[str] = deque(["UNIVAC I lecture monitor. Type help for commands; "
                                        "PageUp/PageDown scroll this output; Ctrl-Q quits."],
                                       maxlen=OUTPUT_LINES)
        self.output_buffer = Buffer(read_only=True)
        self.paper_buffer = Buffer(read_only=True)
        self.command_buffer = Buffer(multiline=False, history=InMemoryHistory(),
                                     completer=CommandCompleter(monitor),
                                     complete_while_typing=False)
        self.quit_armed = False
        self.pending: deque[str | None] = deque()  # typed lines; None: a quit key
        self.busy = False  # a command is running on the worker thread
        self._frozen: dict[str, object] = {}
        self._wrapped_width = 0
        self._paper_width = 0
        self._memory_shown: FormattedText | None = None
        self._wake = asyncio.Event()
        self.output_window = Window(BufferControl(self.output_buffer, focusable=False),
                                    wrap_lines=False)
        self.app = self._build(input, output)
        self._freeze()
        self._sync_output()

    # ---- actions ---------------------------------------------------------------------

    def is_command(self, line: str) -> bool:
        """In keyboard mode only ':anything' is a command; otherwise every line is."""
        return line.startswith(COMMAND_PREFIX) or not self.monitor.waiting_for_keyboard

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
                    self._freeze()
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
        if not self.is_command(line):
            self.lines.append(f"UNIVAC KEYBOARD ▸ {line}")
            typed = monitor.execute(f"type {line}")
            self.lines.extend(typed)
            if typed and not typed[0].startswith("??"):
                self.lines.extend(monitor.execute("continue"))
        else:
            command = line[len(COMMAND_PREFIX):] if line.startswith(COMMAND_PREFIX) else line
            self.lines.append(f"monitor> {command}")
            self.lines.extend(monitor.execute(command))

    # ---- the output pane: word-wrapped, with scrollback ----------------------------------

    def _output_width(self) -> int:
        return max(10, self.app.output.get_size().columns - 1)

    def _sync_output(self) -> None:
        """Wrap every line at spaces to the pane's width; show the newest. A file's escapes
        are shown as text (safetext.visible)."""
        width = self._output_width()
        self._wrapped_width = width
        shown = (visible(line) for line in self.lines)
        text = "\n".join(line if len(line) <= width else "\n".join(
            textwrap.wrap(line, width, subsequent_indent="    ", break_on_hyphens=False)
            or [""]) for line in shown)
        self.output_buffer.set_document(Document(text, len(text)), bypass_readonly=True)

    def scroll(self, pages: int) -> None:
        """PageUp (-1) / PageDown (+1): move the view a page, keeping a line of context."""
        info = self.output_window.render_info
        document = self.output_buffer.document
        if info is None:
            return
        step = max(1, info.window_height - 1)
        if pages < 0:
            row = max(0, info.first_visible_line() - step)
        else:
            row = min(document.line_count - 1, info.last_visible_line() + step)
        self.output_buffer.cursor_position = document.translate_row_col_to_index(row, 0)

    def _before_render(self, _app: object) -> None:
        if self._output_width() != self._wrapped_width:
            self._sync_output()  # the terminal was resized: wrap again
        if self.plan().side_width != self._paper_width and not self.busy:
            self._sync_paper()  # the paper's column changed width: wrap it again

    def _sync_paper(self) -> None:
        """The paper wrapped at the width its pane has (its lines whole when there is room)."""
        self._paper_width = self.plan().side_width
        sync_paper(self.paper_buffer,
                   _wrap_at_spaces(self.monitor.desk.paper.text, self._paper_width - 1))

    # ---- drawing ---------------------------------------------------------------------

    def plan(self) -> Plan:
        size = self.app.output.get_size()
        return plan(self.monitor.panes, size.columns, size.rows)

    def _freeze(self) -> None:
        """Take what the panes show from the machine (never while the worker runs it)."""
        self._sync_paper()
        self._frozen = {"registers": self._compact_registers(), "board": self._board(),
                        "state": self._state_parts(), "memory": self._memory_rows()}

    def _memory_rows(self) -> list[tuple[str, int, bool]]:
        """(style, address, changed) of the words around the control counter."""
        monitor = self.monitor
        current, _half = monitor.machine.next_instruction_address()
        return [(("class:current" if a == current else
                  "class:changed" if a in monitor.changed else ""), a, a in monitor.changed)
                for a in range(current - MEMORY_BEFORE, current + MEMORY_AFTER)
                if 0 <= a < MEMORY_WORDS]

    def _memory(self) -> FormattedText:
        if self.busy and self._memory_shown is not None:
            return self._memory_shown  # the worker is changing the machine: as it was
        self._memory_shown = self._draw_memory()
        return self._memory_shown

    def _draw_memory(self) -> FormattedText:
        monitor = self.monitor
        machine = monitor.machine
        layout = self.plan()
        width = layout.memory_width
        current, half = machine.next_instruction_address()
        rows = layout.top_rows - 2
        memory_rows = self._frozen["memory"]
        assert isinstance(memory_rows, list)
        before = max(1, min(MEMORY_BEFORE, rows // 3))  # keep the current line in view
        parts: list[tuple[str, str]] = [("class:heading", " MEMORY\n")]
        for style_name, address, changed in memory_rows:
            if address < current - before:
                continue
            v = view(machine.mem[address], address, monitor.program)
            mark = "▶" if address == current else ("*" if changed else " ")
            parts.append((style_name, memory_line(
                f"{mark}{address:03d} {v.glyphs}", [f" {v.left:<15}", f"{v.right:<15}",
                                                     f"{v.label}:" if v.label else ""],
                v.remark if layout.memory_wide else "", width) + "\n"))
        parts.append(("", f"  next: {half} half of {current:03d}\n"[:width]))
        return FormattedText(parts)

    def _registers(self) -> FormattedText:
        lines = self._frozen["registers"]
        assert isinstance(lines, list)
        parts: list[tuple[str, str]] = [("class:heading", " REGISTERS\n")]
        parts += [("", line[:REGISTERS_WIDTH] + "\n") for line in lines]
        return FormattedText(parts)

    def _board(self) -> list[str]:
        """The board from memory; for a program without one, its Uniservos if it has reels
        (the first line is the pane's heading)."""
        monitor = self.monitor
        if monitor.board_reader is not None:
            return [" BOARD (from memory)", *find_command("board").step(monitor, "")]
        desk = monitor.desk
        views = desk.tape_units()
        if not views:
            return [" BOARD (from memory)", "(this program has no board)"]
        return [" UNISERVOS", *unit_lines([(v.unit, v.reel, v.blocks) for v in views],
                                          desk.tape_moves, monitor.machine.pulses,
                                          SIDE_WIDTH - 2, one_line=True)]

    def _board_text(self) -> FormattedText:
        heading, *lines = self._frozen["board"]
        return FormattedText([("class:heading", f"{heading}\n")]
                             + [("", f" {line}\n") for line in lines])

    def _state_parts(self) -> list[str]:
        """The state line's parts, most important first (it is cut to the screen's width)."""
        machine = self.monitor.machine
        stop = machine.last_stop
        if stop is None:
            state = ("ready: nothing has run yet" if machine.instructions == 0
                     else "stopped by the operator")
        elif stop.kind is StopKind.STEP_LIMIT:
            state = "stopped (step done)"
        else:
            state = stop.kind.value
            if stop.reason and stop.kind is not StopKind.KEYBOARD:
                state += f": {stop.reason}"
        neons = self.monitor.desk.neons.lit()
        return [f"state: {state}",
                f"{machine.instructions:,} instr, "
                f"{format_time(pulses_to_us(machine.pulses))}",
                f"neons: {', '.join(neons) or 'none lit'}"]

    def _state_line(self) -> FormattedText:
        width = self.app.output.get_size().columns - 1
        parts = list(self._frozen["state"])  # type: ignore[call-overload]
        if self.busy:
            parts = ["state: running (Ctrl-C is STOP)"] + parts[1:]
        squeezed = self.plan().squeezed
        if squeezed:
            parts.insert(1, f"no room for {', '.join(squeezed)}: F2 hides memory")
        return FormattedText([("class:state", " " + fit(parts, width, "  ·  "))])

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
        width = self.app.output.get_size().columns - 1
        if self.busy:
            return FormattedText([("class:bar", " " + fit(
                ["the UNIVAC is running: Ctrl-C stops it (STOP at the desk)"], width))])
        quit_text = "Ctrl-Q again quits" if self.quit_armed else "Ctrl-Q quit"
        if self.monitor.waiting_for_keyboard:
            parts = ["KEYBOARD MODE: a line goes to the UNIVAC; :command for the monitor",
                     quit_text, "F10 step", "F5 continue", "PgUp/PgDn scroll"]
        else:
            parts = [quit_text, "F10 step", "F5 continue", "PgUp/PgDn scroll",
                     "F2 memory F3 regs F4 board F6 paper", "help"]
        return FormattedText([("class:bar", " " + fit(parts, width, "  "))])

    def _build(self, input: Input | None, output: Output | None) -> Application[int]:
        def shown(test):  # type: ignore[no-untyped-def]
            return Condition(lambda: bool(test(self.plan())))

        paper_side = Window(BufferControl(self.paper_buffer, focusable=False),
                            wrap_lines=False, style="class:paper")
        paper_stacked = Window(BufferControl(self.paper_buffer, focusable=False),
                               wrap_lines=False, style="class:paper")

        def paper_heading() -> Window:
            return Window(FormattedTextControl(FormattedText([("class:heading", " PAPER")])),
                          height=1)

        def board() -> Window:
            return Window(FormattedTextControl(self._board_text), height=5)

        rule = Window(width=1, char="│")
        registers_column = HSplit([
            Window(FormattedTextControl(self._registers), height=12),
            ConditionalContainer(board(), filter=shown(lambda p: p.stacked and p.board)),
            ConditionalContainer(HSplit([paper_heading(), paper_stacked]),
                                 filter=shown(lambda p: p.stacked and p.paper)),
        ], width=lambda: self.plan().side_width if self.plan().stacked else REGISTERS_WIDTH)
        side_column = HSplit([
            ConditionalContainer(board(), filter=shown(lambda p: p.board)),
            ConditionalContainer(HSplit([paper_heading(), paper_side]),
                                 filter=shown(lambda p: p.paper)),
        ], width=lambda: self.plan().side_width)
        top = VSplit([
            ConditionalContainer(Window(FormattedTextControl(self._memory), wrap_lines=False,
                                        width=lambda: self.plan().memory_width or 1),
                                 filter=shown(lambda p: p.memory_width)),
            ConditionalContainer(rule, filter=shown(lambda p: p.memory_width and
                                                    (p.registers or p.side))),
            ConditionalContainer(registers_column, filter=shown(lambda p: p.registers)),
            ConditionalContainer(Window(width=1, char="│"),
                                 filter=shown(lambda p: p.registers and p.side)),
            ConditionalContainer(side_column, filter=shown(lambda p: p.side)),
        ], height=lambda: self.plan().top_rows)
        body = HSplit([
            Window(FormattedTextControl(FormattedText([
                ("class:title", " UNIVAC I  ·  LECTURE MONITOR")])), height=1,
                style="class:title"),
            top,
            Window(FormattedTextControl(self._state_line), height=1, style="class:state"),
            Window(height=1, char="─"),
            self.output_window,
            VSplit([Window(FormattedTextControl(self._prompt), dont_extend_width=True),
                    Window(BufferControl(self.command_buffer))], height=1),
            Window(FormattedTextControl(self._bar), height=1, style="class:bar"),
        ])
        return Application(layout=Layout(body, focused_element=self.command_buffer),
                           key_bindings=self._bindings(), style=STYLE, full_screen=True,
                           mouse_support=True, before_render=self._before_render,
                           input=input, output=output)

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        panes = self.monitor.panes

        @kb.add("enter")
        def _(event: KeyPressEvent) -> None:
            self.quit_armed = False
            line = self.command_buffer.text
            self.command_buffer.append_to_history()
            self.command_buffer.reset()
            self.enter(line)

        @kb.add("f10")
        def _(event: KeyPressEvent) -> None:
            self.enter(":step")

        @kb.add("f5")
        def _(event: KeyPressEvent) -> None:
            self.enter(":continue")

        @kb.add("pageup")
        def _(event: KeyPressEvent) -> None:
            self.scroll(-1)

        @kb.add("pagedown")
        def _(event: KeyPressEvent) -> None:
            self.scroll(+1)

        @kb.add("f2")
        def _(event: KeyPressEvent) -> None:
            panes.cycle_memory()

        for key, name in (("f3", "registers"), ("f4", "board"), ("f6", "paper")):
            @kb.add(key)
            def _(event: KeyPressEvent, name: str = name) -> None:
                setattr(panes, name, not getattr(panes, name))

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
            result = await run_guarded_async(self.app, start)
        finally:
            self.monitor.desk.limits.stop()  # a run still going on the worker ends now
        return int(result or 0)
