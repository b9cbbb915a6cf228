"""The one seam between the server and the front ends: build a console or a monitor.

Nothing else in serve/ imports console/ or monitor/. After the desk package lands, each front
end's public ``build_application(...)`` can replace the two builders here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from ..console.app import ConsoleApp, ConsoleSettings
from ..console.score import results_in
from ..console.session import GameSession
from ..machine import MachineOptions
from ..monitor.app import MonitorApp
from ..monitor.core import Monitor, MonitorError
from ..program.shipped import ShippedProgram, load_tictactoe

APP_KINDS = ("play", "monitor")
MONITOR_STEP_LIMIT = 200_000  # instructions a served monitor command may run (~0.1 s)


@dataclass
class AppSettings:
    """What one connection's front end is built with; nothing in it is shared."""

    authentic: bool = False
    transcript: Path | None = None
    options: MachineOptions = field(default_factory=MachineOptions)


class ServedApp(Protocol):
    application: Application[int]

    async def run(self) -> int: ...

    def results(self) -> tuple[int, int, int]:
        """UNIVAC wins, draws, opponent's wins so far on this terminal."""
        ...


@cache
def _shipped() -> ShippedProgram:
    return load_tictactoe()


class _ServedConsole:
    def __init__(self, settings: AppSettings, input: Input, output: Output) -> None:
        words, options = _shipped().image.words, settings.options
        self.console = ConsoleApp(
            lambda on_print: GameSession(words, options, on_print),
            ConsoleSettings(authentic=settings.authentic, transcript=settings.transcript,
                            save_directory=None),
            input, output)
        self.application = self.console.app

    async def run(self) -> int:
        return await self.console.run_async()

    def results(self) -> tuple[int, int, int]:
        score = self.console.session.score
        return score.univac_wins, score.draws, score.opponent_wins


class ServedMonitor(Monitor):
    """The lecture monitor without files, and with each command's run capped."""

    def do_save(self, rest: str) -> list[str]:
        raise MonitorError("a served terminal cannot write files")

    def do_restore(self, rest: str) -> list[str]:
        raise MonitorError("a served terminal cannot read files")

    def do_do(self, rest: str) -> list[str]:
        raise MonitorError("a served terminal cannot read files")

    def _run(self, count, until=None):  # type: ignore[no-untyped-def]
        capped = count is None or count > MONITOR_STEP_LIMIT
        before = self.machine.instructions
        out = super()._run(MONITOR_STEP_LIMIT if capped else count, until)
        if capped and self.machine.instructions - before >= MONITOR_STEP_LIMIT:
            out.append(f"(a served terminal runs at most {MONITOR_STEP_LIMIT:,} instructions "
                       "a command; continue to go on)")
        return out


class _ServedMonitorApp:
    def __init__(self, settings: AppSettings, input: Input, output: Output) -> None:
        shipped = _shipped()
        self.monitor = ServedMonitor(shipped.image.words, shipped.program, settings.options)
        self.view = MonitorApp(self.monitor, input, output)
        self.application = self.view.app

    async def run(self) -> int:
        return await self.view.run_async()

    def results(self) -> tuple[int, int, int]:
        found = results_in(self.monitor.printer.paper)
        return found.count("univac"), found.count("draw"), found.count("opponent")


def make_app(kind: str, settings: AppSettings, input: Input, output: Output) -> ServedApp:
    """A fresh front end, with its own machine, for one terminal."""
    served: ServedApp = (_ServedMonitorApp(settings, input, output) if kind == "monitor"
                         else _ServedConsole(settings, input, output))
    # prompt_toolkit postpones a redraw while the loop has other work, up to 10 ms, by
    # rescheduling it; with many applications on one loop they keep each other waiting.
    served.application.max_render_postpone_time = None
    return served
