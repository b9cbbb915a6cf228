"""What every subcommand shares: exit statuses, the parser class, one-line refusals."""

from __future__ import annotations

import argparse
import sys

from ..textfile import TextFileError, check_write_target

EXIT_OK, EXIT_ERROR_STOP, EXIT_USAGE, EXIT_INTERNAL, EXIT_OUTPUT = 0, 1, 2, 70, 74
IDLE_LIMIT = 86_400  # --idle (kiosk, serve): one day


class Parser(argparse.ArgumentParser):
    """argparse that says what was wrong in one line and exits 2, never a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"univac-ttt: {message}\n")


def writable(what: str, path: str) -> bool:
    """False, after a message, if ``path`` exists and is not a regular file (a FIFO)."""
    try:
        check_write_target(path)
    except TextFileError as exc:
        sys.stderr.write(f"univac-ttt: {what} {path} {exc.reason}\n")
        return False
    return True
