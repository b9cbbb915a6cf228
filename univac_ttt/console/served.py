"""The full-screen console for a served terminal: F4 saves no file on the server.

``build_application`` is the console's public factory for ``univac-ttt serve``; the command
line (the composer) hands it to the server, which never imports the console itself.
"""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from ..desk.pacing import SERVED_SHOWN_LIMIT
from ..desk.session import GameSession
from ..machine import MachineOptions
from ..program.pack import NO_PACK, Pack
from .app import ConsoleApp, ConsoleSettings


class ServedConsole:
    """One terminal's console: the application, how to run it, and its score so far."""

    def __init__(self, input: Input, output: Output, authentic: bool,
                 transcript: Path | None, options: MachineOptions, pack: Pack) -> None:
        self.console = ConsoleApp(
            # Each game boots the pack's tape, as at `univac-ttt play`.
            lambda on_print: GameSession.from_pack(pack, options, on_print),
            ConsoleSettings(authentic=authentic, transcript=transcript, save_directory=None,
                            pack=pack),
            input, output)
        self.console.pacer.shown_limit = SERVED_SHOWN_LIMIT  # a class's memory (serve)
        self.application: Application[int] = self.console.app

    async def run(self) -> int:
        return await self.console.run_async()

    def results(self) -> tuple[int, int, int]:
        """UNIVAC wins, draws, opponent's wins so far on this terminal."""
        return self.console.session.score.game_results()


def build_application(input: Input, output: Output, *, authentic: bool = False,
                      transcript: Path | None = None,
                      options: MachineOptions | None = None,
                      pack: Pack = NO_PACK) -> ServedConsole:
    """A fresh console, with its own machine, for one served terminal, running the pack
    the composer names (``serve --program``)."""
    return ServedConsole(input, output, authentic, transcript, options or MachineOptions(),
                         pack)
