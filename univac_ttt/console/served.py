"""The full-screen console for a served terminal: F4 saves no file on the server.

``build_application`` is the console's public factory for ``univac-ttt serve``; the command
line (the composer) hands it to the server, which never imports the console itself.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from ..desk.session import GameSession
from ..machine import MachineOptions
from ..program.boottape import fresh_tictactoe_tape
from ..program.shipped import ShippedProgram, load_tictactoe
from .app import ConsoleApp, ConsoleSettings


@cache
def _shipped() -> ShippedProgram:
    return load_tictactoe()


class ServedConsole:
    """One terminal's console: the application, how to run it, and its score so far."""

    def __init__(self, input: Input, output: Output, authentic: bool,
                 transcript: Path | None, options: MachineOptions) -> None:
        words = _shipped().image.words
        self.console = ConsoleApp(
            # Each game boots the shipped tape, as at `univac-ttt play`.
            lambda on_print: GameSession(words, options, on_print, tape=fresh_tictactoe_tape()),
            ConsoleSettings(authentic=authentic, transcript=transcript, save_directory=None),
            input, output)
        self.application: Application[int] = self.console.app

    async def run(self) -> int:
        return await self.console.run_async()

    def results(self) -> tuple[int, int, int]:
        """UNIVAC wins, draws, opponent's wins so far on this terminal."""
        score = self.console.session.score
        return score.univac_wins, score.draws, score.opponent_wins


def build_application(input: Input, output: Output, *, authentic: bool = False,
                      transcript: Path | None = None,
                      options: MachineOptions | None = None) -> ServedConsole:
    """A fresh console, with its own machine, for one served terminal."""
    return ServedConsole(input, output, authentic, transcript, options or MachineOptions())
