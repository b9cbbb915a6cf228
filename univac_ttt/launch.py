"""The command's entry point: the guard around ``cli.main`` while it is still loading.

``cli.main`` turns a Ctrl-C into "interrupted" and exit status 130 once a subcommand runs,
but a Ctrl-C that arrives earlier (while the command imports its modules, builds its
parser or reads its options: the first tenth of a second or so) would reach the user as a
Python traceback. This module imports nothing of its own, so that window shrinks to the
interpreter's own start.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the command; a Ctrl-C at any moment ends it with one line and status 130."""
    try:
        from .cli.main import main as run_command

        return run_command()
    except KeyboardInterrupt:
        sys.stderr.write("\nunivac-ttt: interrupted\n")
        return 130
