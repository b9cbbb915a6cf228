"""A full-screen transcript that fills the disk is reported at exit (issue 16, part A).
"""

import sys


def test_a_full_screen_transcript_that_fills_the_disk_is_reported_at_exit(tmp_path):
    from support.terminal import Terminal

    transcript = tmp_path / "paper.txt"
    shell = (f"trap '' XFSZ; ulimit -f 1; exec {sys.executable} -m univac_ttt "
             f"play --transcript {transcript}")
    terminal = Terminal(["/bin/bash", "-c", shell])
    terminal.wait_for("INPUT READY")
    for _ in range(40):  # each refused code prints a warning on the paper
        terminal.send("0\r")
        terminal.pump(0.05)
    terminal.send("\x11")
    terminal.wait_for("again to quit")
    terminal.send("\x11")
    terminal.pump(1.0)
    code = terminal.close()
    assert code == 74
    assert b"the transcript stopped" in terminal.raw
    assert 0 < transcript.stat().st_size <= 1024
