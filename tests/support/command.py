"""The command as a user runs it: a real process, pipes, an exit status, a time limit."""

from __future__ import annotations

import subprocess
import sys


def univac(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "univac_ttt", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)
