"""The lecture monitor for a served terminal: no files, each command's run capped.

``build_application`` is the monitor's public factory for ``univac-ttt serve``; the command
line (the composer) hands it to the server, which never imports the monitor itself.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from ..desk import Limits
from ..desk.score import Score
from ..desk.transcript import Transcript
from ..machine import MachineOptions
from ..program.pack import NO_PACK, Pack
from .app import MonitorApp
from .core import Monitor

SERVED_CAP = 200_000  # instructions one served command may run (~0.1 s of this machine)


class ServedMonitor(Monitor):
    """The monitor without files; a run never goes past the desk's cap, counted or not,
    so one student's loop cannot hold up the room (``continue`` goes on)."""

    files_allowed = False  # save, restore, do, attach, detach, log: the host's files

    def __init__(self, pack: Pack, options: MachineOptions, limits: Limits) -> None:
        # As `univac-ttt monitor --program`: the pack's tape on Uniservo 1, for `boot`.
        super().__init__(pack.words, pack.program, options, limits, pack.mounts())
        self.board_reader = pack.board
        self.results = pack.results_in
        self.score = Score()
        self._scored = self.desk.paper.end

    def execute(self, line: str) -> list[str]:
        out = super().execute(line)
        if self.desk.waiting_for_keyboard:  # a reply has been typed whole: score it
            for result in self.results(self.desk.paper.typed_since(self._scored)):
                self.score.record(result)
            self._scored = self.desk.paper.end
        return out

    def run(self, count: int | None, until: Callable[[], bool] | None = None) -> list[str]:
        cap = self.desk.limits.cap
        if count is None or count <= cap:
            return super().run(count, until)
        before = self.machine.instructions
        out = super().run(cap, until)
        if self.machine.instructions - before >= cap:
            out.append(f"(a served terminal runs at most {cap:,} instructions a command; "
                       "continue to go on)")
        return out


class ServedMonitorApp:
    """One terminal's monitor: the application, how to run it, and its results so far."""

    def __init__(self, input: Input, output: Output, options: MachineOptions,
                 transcript: Path | None, pack: Pack) -> None:
        self.monitor = ServedMonitor(pack, options, Limits(cap=SERVED_CAP))
        self.transcript = Transcript(transcript) if transcript is not None else None
        if self.transcript is not None:
            write = self.transcript.write
            self.monitor.desk.paper.listeners.append(lambda chunk: write(chunk.text))
        self.view = MonitorApp(self.monitor, input, output)
        self.application: Application[int] = self.view.app

    async def run(self) -> int:
        try:
            return await self.view.run_async()
        finally:
            if self.transcript is not None:
                self.transcript.close()

    def results(self) -> tuple[int, int, int]:
        """UNIVAC wins, draws, opponent's wins so far on this terminal."""
        return self.monitor.score.game_results()


def build_application(input: Input, output: Output, *, authentic: bool = False,
                      transcript: Path | None = None,
                      options: MachineOptions | None = None,
                      pack: Pack = NO_PACK) -> ServedMonitorApp:
    """A fresh monitor, with its own machine, for one served terminal, on the pack the
    composer names (``authentic`` has no meaning here: the monitor shows the paper as it
    is typed)."""
    return ServedMonitorApp(input, output, options or MachineOptions(), transcript, pack)
