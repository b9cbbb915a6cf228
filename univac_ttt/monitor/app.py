"""The full-screen lecture monitor: memory, registers, board and paper around a command line.

Everything it does goes through ``Monitor.execute``; this module only draws. When the
UNIVAC waits for its keyboard the command line is in keyboard mode (a yellow
``UNIVAC KEYBOARD ▸`` prompt): a line typed there goes to the UNIVAC and the machine runs on;
only a line starting with ':' is a monitor command. ':' is no key of the UNIVAC keyboard,
so the two can never be confused. The output pane keeps its scrollback (PageUp/PageDown,
the mouse wheel) and wraps long lines at spaces; panes are chosen with F2-F6 (panes.py).

The state (app_state.py), the layout (app_layout.py) and the key bindings (app_keys.py)
are apart, as in ptpython; this module joins them and runs the worker.

Commands run on a worker thread, one at a time in the order typed, so the screen stays
live: Ctrl-C during a run presses the desk's STOP key and the run ends within a fraction
of a second, leaving the machine where it was, ready for ``continue``.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import Output

from ..tui.guard import run_guarded, run_guarded_async
from ..tui.shared import built_with_shared_defaults
from .app_keys import monitor_bindings
from .app_layout import STYLE, CommandCompleter, MonitorLayout, memory_line
from .app_state import KEYBOARD_HINT, MonitorState
from .core import Monitor
from .panes import Plan

__all__ = ["KEYBOARD_HINT", "STYLE", "CommandCompleter", "MonitorApp", "memory_line"]


class MonitorApp:
    """The monitor on the full screen: state, layout and keys joined, and the worker that
    runs each typed line off the event loop."""

    def __init__(self, monitor: Monitor, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.monitor = monitor
        self.state = MonitorState(monitor)
        self.layout = MonitorLayout(self.state, lambda: self.app.output.get_size())
        self._wake = asyncio.Event()
        with built_with_shared_defaults():  # the process's one copy of the defaults
            self.app: Application[int] = Application(
                layout=Layout(self.layout.container, focused_element=self.layout.command_buffer),
                key_bindings=monitor_bindings(self), style=STYLE, full_screen=True,
                mouse_support=True, before_render=self.layout.before_render,
                input=input, output=output)
        self._freeze()
        self._sync_output()

    # The parts tests and the served monitor reach through the app.
    @property
    def lines(self):  # type: ignore[no-untyped-def]
        return self.state.lines

    @property
    def busy(self) -> bool:
        return self.state.busy

    @property
    def quit_armed(self) -> bool:
        return self.state.quit_armed

    @property
    def paper_buffer(self) -> Buffer:
        return self.layout.paper_buffer

    @property
    def output_buffer(self) -> Buffer:
        return self.layout.output_buffer

    @property
    def command_buffer(self) -> Buffer:
        return self.layout.command_buffer

    def plan(self) -> Plan:
        return self.layout.plan()

    def is_command(self, line: str) -> bool:
        return self.state.is_command(line)

    def interrupt(self) -> bool:
        return self.state.interrupt()

    def scroll(self, pages: int) -> None:
        self.layout.scroll(pages)

    def _output_width(self) -> int:
        return self.layout.output_width()

    def _sync_output(self) -> None:
        self.layout.sync_output()

    def _freeze(self) -> None:
        """Take what the panes show from the machine (never while the worker runs it)."""
        self.layout.sync_paper()
        self.state.freeze()

    # ---- the worker ------------------------------------------------------------------

    def enter(self, line: str | None) -> None:
        """Queue a typed line (None: a quit key) behind any command still running."""
        self.state.pending.append(line)
        self._wake.set()

    async def _worker(self) -> None:
        loop = asyncio.get_running_loop()
        state = self.state
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while state.pending:
                    line = state.pending.popleft()
                    if line is None:
                        self._quit_key()
                        continue
                    state.quit_armed = False
                    # While the worker runs the machine, the panes show it as it was.
                    state.busy = True
                    self.app.invalidate()
                    try:
                        await loop.run_in_executor(None, state.execute, line)
                    finally:
                        state.busy = False
                        state.stopped()
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

    def note(self, line: str) -> None:
        """A line in the output from a key (not a command); none while a command runs,
        whose worker is writing the output then."""
        if self.state.busy:
            return
        self.state.lines.append(line)
        self._sync_output()
        self.app.invalidate()

    def _quit_key(self) -> None:
        if self.state.quit_armed:
            self.app.exit(result=0)
        self.state.quit_armed = True
        self.app.invalidate()

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
