"""A Ctrl-C while the installed command is still starting (importing, building its parser)
ends it with one line, never a Python traceback (issue 16's rule: no traceback reaches a
user), whatever moment of the start it lands on. (Earlier than these delays is the
interpreter's own start, before any of our code: CPython reports a Ctrl-C there itself.)"""

from __future__ import annotations

import shutil
import signal
import subprocess
import time

import pytest

COMMAND = shutil.which("univac-ttt")


@pytest.mark.parametrize("delay", [0.04, 0.06, 0.08, 0.1, 0.13, 0.2, 0.4])
def test_ctrl_c_during_the_start_ends_politely(delay: float) -> None:
    assert COMMAND, "univac-ttt is not on PATH: install the project (pip install -e '.[test]')"
    process = subprocess.Popen([COMMAND, "play", "--plain"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)  # the moment of the start the Ctrl-C lands on, not a wait for a state
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=20)
    if err.startswith("Fatal Python error: init_import_site"):
        return  # a loaded machine let the Ctrl-C land in the interpreter's own start
    assert "Traceback" not in err, err
    # Ended while starting (130, one line), or at the prompt, where plain play takes Ctrl-C
    # as the end of the session and types the score (0).
    assert process.returncode in (0, 130), (process.returncode, err)
    assert ("univac-ttt: interrupted" in err) if process.returncode == 130 else ("score" in err)
