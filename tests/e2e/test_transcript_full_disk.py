"""A full-screen transcript that fills the disk is reported at exit (issue 16, part A).

Waits on the transcript's size and on the terminal's output, never on fixed pauses.
"""

import sys
import time

FULL = 1024  # bytes: ``ulimit -f 1``


def test_a_full_screen_transcript_that_fills_the_disk_is_reported_at_exit(tmp_path):
    from support.terminal import Terminal

    transcript = tmp_path / "paper.txt"
    # no compiled modules written under the limit: a cut-short .pyc would stay in the tree
    shell = (f"trap '' XFSZ; ulimit -f 1; export PYTHONDONTWRITEBYTECODE=1; "
             f"exec {sys.executable} -m univac_ttt play --transcript {transcript}")
    terminal = Terminal(["/bin/bash", "-c", shell])
    terminal.wait_for("INPUT READY")

    def size() -> int:
        return transcript.stat().st_size if transcript.exists() else 0

    def until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
        end = time.monotonic() + 30
        while not condition():
            assert time.monotonic() < end, f"{what} never happened:\n{terminal.text()}"
            terminal.pump(0.02)

    for _ in range(40):  # each refused code prints a warning on the paper, ~70 bytes
        before = size()
        terminal.send("0\r")
        until(lambda b=before: size() > b or size() >= FULL, "the warning on the paper")
        if size() >= FULL:
            break
    assert size() == FULL  # the last warning did not fit: the disk is full
    terminal.send("0\r")  # and one more after it, written to a full disk
    terminal.settle()
    terminal.send("\x11")
    terminal.wait_for("again to quit")
    terminal.send("\x11")
    until(lambda: b"the transcript stopped" in terminal.raw, "the report at exit")
    code = terminal.close()
    assert code == 74
    assert b"the transcript stopped" in terminal.raw
    assert 0 < transcript.stat().st_size <= 1024
