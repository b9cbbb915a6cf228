"""The full-screen monitor's layout: its windows and buffers, and how each pane is drawn
from the state (memory, registers, board, paper, the state line, the output with its
scrollback, the prompt and the key bar). It reads the state; it never runs a command."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.layout import ConditionalContainer, HSplit, VSplit, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension

from ..hostio.terminal_text import visible
from ..program.disassembler import view
from ..tui.history import BoundedHistory, RecallBuffer
from ..tui.paper_view import sync_paper
from ..tui.theme import style
from .app_state import COMMAND_PREFIX, MEMORY_BEFORE, MonitorState
from .commands.registry import COMMAND_LINE_LIMIT
from .core import COMMANDS, Monitor
from .panes import REGISTERS_WIDTH, Plan, fit, plan

STYLE = style({
    "current": "bg:#f0b040 #000000 bold",
    "changed": "#ff8080 bold",
    "heading": "#80c0ff bold",
    "prompt": "#80c0ff bold",
    "prompt.keyboard": "bg:#f0b040 #000000 bold",
    "state": "bg:#202830 #e0e0e0",
})
REMARK_MIN = 8  # fewer columns than this for a remark: none is shown
LINE_FULL = (f"(the command line holds {COMMAND_LINE_LIMIT:,} characters, as a do file's "
             "line does: the rest were not typed)")
COMMAND_HISTORY = 1_000  # command lines Up and Down recall (an Enter's cost grows with it)


def wrap_at_spaces(text: str, width: int) -> str:
    """Lines longer than ``width`` broken at spaces (a word longer than that, anywhere)."""
    return "\n".join(line if len(line) <= width else "\n".join(
        textwrap.wrap(line, width, break_on_hyphens=False) or [""])
        for line in text.split("\n"))


def memory_line(head: str, fields: list[str], remark: str, width: int) -> str:
    """A memory line in ``width``: each field whole or not at all (a label is never cut
    to a letter), then as much of the remark as fits, cut after a whole word with an
    ellipsis ("input-rea…" read as a word of its own)."""
    text = head[:width]
    for field in fields:
        if len((text + field).rstrip()) > width:
            return text.rstrip()
        text += field
    text = f"{text:<{len(head) + 40}}" if remark else text  # the remark column
    room = width - len(text)
    if remark and room >= REMARK_MIN:
        if len(remark) <= room:
            text += remark
        else:
            cut = remark[:room - 1]
            if remark[room - 1] != " " and " " in cut:  # back to the last whole word
                cut = cut[:cut.rindex(" ")]
            text += cut.rstrip(" ,;:") + "…"
    return text.rstrip()


class CommandCompleter(Completer):
    """Command names first, then the coding sheet's labels. In keyboard mode a line goes
    to the UNIVAC unless it starts with ':', so only such a line is completed (Tab made
    "ex" "examine", which Enter then sent to the UNIVAC as a keyboard word)."""

    def __init__(self, monitor: Monitor) -> None:
        self.monitor = monitor
        self.labels = sorted(monitor.program.symbols) if monitor.program else []

    def get_completions(self, document, complete_event):  # type: ignore[no-untyped-def]
        text = document.text_before_cursor.lstrip()
        if self.monitor.waiting_for_keyboard and not text.startswith(COMMAND_PREFIX):
            return
        text = text.removeprefix(COMMAND_PREFIX)
        word = document.get_word_before_cursor(WORD=True).removeprefix(COMMAND_PREFIX)
        naming = " " not in text  # the command's name (a space follows it), or a label
        choices = [c.name for c in COMMANDS] if naming else self.labels
        for choice in choices:
            if choice.lower().startswith(word.lower()):
                yield Completion(choice + " " if naming else choice, start_position=-len(word),
                                 display=choice)


class MonitorLayout:
    """The windows of the full screen, drawn from ``state`` at the size ``size()`` says."""

    def __init__(self, state: MonitorState, size: Callable[[], Size]) -> None:
        self.state = state
        self.size = size
        monitor = state.monitor
        self.output_buffer = Buffer(read_only=True)
        self.paper_buffer = Buffer(read_only=True)
        self.command_buffer = RecallBuffer(multiline=False,
                                           history=BoundedHistory(COMMAND_HISTORY),
                                           completer=CommandCompleter(monitor),
                                           complete_while_typing=False,
                                           max_length=COMMAND_LINE_LIMIT,
                                           on_full=self._line_full)
        self.output_window = Window(BufferControl(self.output_buffer, focusable=False),
                                    wrap_lines=False)
        self._wrapped_width = 0
        self._paper_width = 0
        self._memory_shown: FormattedText | None = None
        self.container = self._build()

    def _line_full(self) -> None:
        """Said once in the output (not once a key) while keys are dropped; none while a
        command runs, whose worker writes the output then."""
        if self.state.busy or (self.state.lines and self.state.lines[-1] == LINE_FULL):
            return
        self.state.lines.append(LINE_FULL)
        self.sync_output()

    def plan(self) -> Plan:
        size = self.size()
        return plan(self.state.monitor.panes, size.columns, size.rows)

    # ---- the output pane: word-wrapped, with scrollback ----------------------------------

    def output_width(self) -> int:
        return max(10, self.size().columns - 1)

    def sync_output(self) -> None:
        """Wrap every line at spaces to the pane's width; show the newest, or the start of
        a command's answer too tall for the pane (``state.answer``). A file's escapes are
        shown as text (terminal_text.visible)."""
        width = self.output_width()
        self._wrapped_width = width
        shown = [line if len(line) <= width else "\n".join(
            textwrap.wrap(line, width, subsequent_indent="    ", break_on_hyphens=False)
            or [""]) for line in map(visible, self.state.lines)]
        text = "\n".join(shown)
        document = Document(text, len(text))
        answer, self.state.answer = self.state.answer, 0
        if answer:
            rows = sum(line.count("\n") + 1 for line in shown[-answer:])
            height = self.output_rows()
            if rows > height:  # the cursor on the pane's last row, the echo on its first
                first = document.line_count - rows
                document = Document(text, document.translate_row_col_to_index(
                    first + height - 1, 0))
        self.output_buffer.set_document(document, bypass_readonly=True)

    def output_rows(self) -> int:
        """The output pane's rows: what the title, the panes, the state line, its rule, the
        prompt and the key bar leave."""
        return max(1, self.size().rows - 5 - self.plan().top_rows)

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

    def before_render(self, _app: object) -> None:
        if self.output_width() != self._wrapped_width:
            self.sync_output()  # the terminal was resized: wrap again
        if self.plan().side_width != self._paper_width and not self.state.busy:
            self.sync_paper()  # the paper's column changed width: wrap it again

    def sync_paper(self) -> None:
        """The paper wrapped at the width its pane has (its lines whole when there is room)."""
        self._paper_width = self.plan().side_width
        sync_paper(self.paper_buffer,
                   wrap_at_spaces(self.state.monitor.desk.paper.text, self._paper_width - 1))

    # ---- the panes -------------------------------------------------------------------

    def _memory(self) -> FormattedText:
        if self.state.busy and self._memory_shown is not None:
            return self._memory_shown  # the worker is changing the machine: as it was
        self._memory_shown = self._draw_memory()
        return self._memory_shown

    def _draw_memory(self) -> FormattedText:
        monitor = self.state.monitor
        machine = monitor.machine
        layout = self.plan()
        width = layout.memory_width
        current, half = machine.next_instruction_address()
        rows = layout.top_rows - 2
        before = max(1, min(MEMORY_BEFORE, rows // 3))  # keep the current line in view
        parts: list[tuple[str, str]] = [("class:heading", " MEMORY\n")]
        shown = 0
        for style_name, address, changed in self.state.frozen.memory:
            if address < current - before:
                continue
            if shown == max(1, rows):
                break  # the pane holds no more: never a word drawn to be clipped
            shown += 1
            v = view(machine.word_at(address), address, monitor.program)
            mark = "▶" if address == current else ("*" if changed else " ")
            parts.append((style_name, memory_line(
                f"{mark}{address:03d} {v.glyphs}", [f" {v.left:<15}", f"{v.right:<15}",
                                                     f"{v.label}:" if v.label else ""],
                v.remark if layout.memory_wide else "", width) + "\n"))
        parts.append(("", f"  next: {half} half of {current:03d}\n"[:width]))
        return FormattedText(parts)

    def _registers(self) -> FormattedText:
        parts: list[tuple[str, str]] = [("class:heading", " REGISTERS\n")]
        parts += [("", line[:REGISTERS_WIDTH] + "\n") for line in self.state.frozen.registers]
        return FormattedText(parts)

    def board_text(self) -> FormattedText:
        heading, *lines = self.state.frozen.board
        return FormattedText([("class:heading", f"{heading}\n")]
                             + [("", f" {line}\n") for line in lines])

    def _state_line(self) -> FormattedText:
        width = self.size().columns - 1
        parts = list(self.state.frozen.state)
        if self.state.busy:
            parts = ["state: running (Ctrl-C is STOP)"] + parts[1:]
        squeezed = self.plan().squeezed
        if squeezed:
            way = ("F2 hides memory" if self.state.monitor.panes.memory != "off"
                   else "a wider window shows them")
            parts.insert(1, f"no room for {', '.join(squeezed)}: {way}")
        return FormattedText([("class:state", " " + fit(parts, width, "  ·  "))])

    def _prompt(self) -> FormattedText:
        if self.state.busy:
            return FormattedText([("class:prompt.keyboard", " RUNNING ▸ "), ("", " ")])
        if self.state.monitor.waiting_for_keyboard:
            return FormattedText([("class:prompt.keyboard", " UNIVAC KEYBOARD ▸ "),
                                  ("", " ")])
        return FormattedText([("class:prompt", " monitor> ")])

    def _bar(self) -> FormattedText:
        width = self.size().columns - 1
        if self.state.busy:
            return FormattedText([("class:bar", " " + fit(
                ["the UNIVAC is running: Ctrl-C stops it (STOP at the desk)"], width))])
        quit_text = (f"{self.state.quit_key} again quits" if self.state.quit_armed
                     else "Ctrl-Q quit")
        if self.state.monitor.waiting_for_keyboard:
            parts = ["KEYBOARD MODE: a line goes to the UNIVAC; :command for the monitor",
                     quit_text, "F10 step", "F5 continue", "PgUp/PgDn scroll"]
        else:
            parts = [quit_text, "F10 step", "F5 continue", "PgUp/PgDn scroll",
                     "F2 memory F3 regs F4 board F6 paper", "help"]
        return FormattedText([("class:bar", " " + fit(parts, width, "  "))])

    def _build(self) -> Container:
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
            return Window(FormattedTextControl(self.board_text), height=5)

        rule = Window(width=1, char="│")
        registers_column = HSplit([
            # 12 rows when there is room; a short screen shows the first lines it can hold
            Window(FormattedTextControl(self._registers),
                   height=Dimension(min=1, preferred=12, max=12)),
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
        return HSplit([
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
