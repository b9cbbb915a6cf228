"""A Ctrl-C while the installed command is still starting (importing, building its parser)
ends it with one line, never a Python traceback (issue 16's rule: no traceback reaches a
user), whatever moment of the start it lands on.

The moments are counted from the one our code can first answer for: the entry point's
module (launch.py) imported, which the interpreter reports itself (``-X importtime``, set
by the environment so the installed command runs unchanged). Counting from the process's
start instead put a loaded machine's Ctrl-C inside the interpreter's own start or inside
the import of launch.py, before any of our code runs, where CPython reports it itself.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import time

import pytest

COMMAND = shutil.which("univac-ttt")
LAUNCH_IMPORTED = b"| univac_ttt.launch\n"  # -X importtime's line once launch.py is in


def _wait_for_launch(process: subprocess.Popen[bytes], timeout: float) -> bytes:
    """Read the command's stderr until launch.py is imported; what was read so far."""
    assert process.stderr is not None
    fd, seen, deadline = process.stderr.fileno(), b"", time.monotonic() + timeout
    while LAUNCH_IMPORTED not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"launch.py was not imported within {timeout} s: {seen[-500:]!r}"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 65536)
            assert chunk, f"the command ended before launch.py was imported: {seen!r}"
            seen += chunk
    return seen


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.02, 0.04, 0.07, 0.1, 0.2])
def test_ctrl_c_during_the_start_ends_politely(delay: float) -> None:
    assert COMMAND, "univac-ttt is not on PATH: install the project (pip install -e '.[test]')"
    process = subprocess.Popen([COMMAND, "play", "--plain"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    try:
        early = _wait_for_launch(process, 30)
        time.sleep(delay)  # the moment after launch.py is in that the Ctrl-C lands on
        process.send_signal(signal.SIGINT)
        _out, rest = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    err = "\n".join(line for line in (early + rest).decode(errors="replace").splitlines()
                    if not line.startswith("import time:"))
    assert "Traceback" not in err, err
    # Ended while starting or at the prompt (130: one line, after the score at the prompt),
    # or by the end of its input, which communicate() closes (0, the score).
    assert process.returncode in (0, 130), (process.returncode, err)
    assert ("univac-ttt: interrupted" in err) if process.returncode == 130 else ("score" in err)
