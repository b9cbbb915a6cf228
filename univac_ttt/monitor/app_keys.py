"""The full-screen monitor's key bindings: each key queues a line, scrolls, switches a
pane or presses STOP; none runs the machine itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .app_state import LATE_STOP

if TYPE_CHECKING:
    from .app import MonitorApp

NO_CTRL_Z = "(Ctrl-Z does not suspend the monitor and types nothing; Ctrl-Q quits.)"


def monitor_bindings(app: MonitorApp) -> KeyBindings:
    kb = KeyBindings()
    panes = app.monitor.panes
    layout = app.layout

    @kb.add("enter")
    def _(event: KeyPressEvent) -> None:
        app.state.quit_armed = False
        line = layout.command_buffer.text
        layout.command_buffer.append_to_history()
        layout.command_buffer.reset()
        app.enter(line)

    @kb.add("f10")
    def _(event: KeyPressEvent) -> None:
        app.enter(":step")

    @kb.add("f5")
    def _(event: KeyPressEvent) -> None:
        app.enter(":continue")

    @kb.add("pageup")
    def _(event: KeyPressEvent) -> None:
        layout.scroll(-1)

    @kb.add("pagedown")
    def _(event: KeyPressEvent) -> None:
        layout.scroll(+1)

    @kb.add("f2")
    def _(event: KeyPressEvent) -> None:
        panes.cycle_memory()

    @kb.add("f3")
    def _(event: KeyPressEvent) -> None:
        panes.registers = not panes.registers

    @kb.add("f4")
    def _(event: KeyPressEvent) -> None:
        panes.board = not panes.board

    @kb.add("f6")
    def _(event: KeyPressEvent) -> None:
        panes.paper = not panes.paper

    @kb.add("c-c")
    def _(event: KeyPressEvent) -> None:
        if app.state.interrupt():
            return
        if app.state.late_stop():  # STOP pressed twice, or as the run ended: no quit
            if not app.state.lines or app.state.lines[-1] != LATE_STOP:
                app.note(LATE_STOP)
            return
        app.state.quit_key = "Ctrl-C"
        app.enter(None)

    @kb.add("c-z")
    def _(event: KeyPressEvent) -> None:
        """prompt_toolkit's Emacs keys type a literal ^Z, so "go" ran as "\\x1ago" (no
        command): Ctrl-Z is no key here, and the output says so."""
        app.note(NO_CTRL_Z)

    for key, name in (("c-q", "Ctrl-Q"), ("c-d", "Ctrl-D")):
        @kb.add(key)
        def _(event: KeyPressEvent, name: str = name) -> None:
            app.state.quit_key = name
            app.enter(None)

    return kb
