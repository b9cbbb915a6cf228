"""Ways a full-screen session ends that are not faults: a signal, or a terminal gone.

They live apart from prompt_toolkit so that the CLI and the kiosk's supervisor can catch
them without importing a screen library.
"""

from __future__ import annotations


class SessionEnded(Exception):
    """The session ended from outside; the screen has been restored. ``exit_code`` for the
    shell, ``reason`` for a person."""

    exit_code = 74
    reason = "the session ended"

    def __str__(self) -> str:
        return self.reason


class SignalEnded(SessionEnded):
    """SIGTERM or SIGHUP arrived while the screen was up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.exit_code = 128 + signum
        import signal  # only here: plain play imports this module but never its enums

        self.reason = f"stopped by {signal.Signals(signum).name}"


class InputEnded(SessionEnded):
    """Standard input reached its end (the terminal closed) while the screen was up."""

    reason = "the terminal closed (standard input ended)"


class TerminalLost(SessionEnded):
    """Reading or writing the terminal failed with EIO: it has hung up, for good."""

    reason = "the terminal went away (input/output error)"
