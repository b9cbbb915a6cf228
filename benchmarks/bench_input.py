"""Memory and time of hostile standard input: endless and overlong lines.

Run: python3 benchmarks/bench_input.py

Each case runs the installed command in a child process and reports the child's peak
resident memory (ru_maxrss) and wall time. Before the bounded line reader, `play --plain
< /dev/zero` grew to 7.5 GB in 10 s and a 10 MB line cost 134 MB.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

CASES = (  # (name, arguments, a device or (piece, times))
    ("play --plain < /dev/zero", ["play", "--plain"], "/dev/zero"),
    ("monitor < /dev/zero", ["monitor"], "/dev/zero"),
    ("play --plain, one 10 MB line", ["play", "--plain"], (b"5" * 1_000_000, 10)),
    ("play --plain, 100,000 lines of 1 KB", ["play", "--plain"], (b"x" * 999 + b"\n", 100_000)),
    ("play --plain, a normal game", ["play", "--plain"], (b"5\n1\n9\n3\n7\n", 1)),
)


def measure(args: list[str], source: str | tuple[bytes, int]) -> tuple[float, int]:
    """Seconds and peak KiB of one child run (the input is spooled in pieces, so the
    parent stays small: a child's peak counts the parent's memory it started from)."""
    with tempfile.TemporaryFile() as spool:
        if isinstance(source, tuple):
            piece, times = source
            for _ in range(times):
                spool.write(piece)
            spool.write(b"\n5\n")
            spool.seek(0)
            stdin = spool
        else:
            stdin = open(source, "rb")  # noqa: SIM115 - closed below
        start = time.perf_counter()
        pid = subprocess.Popen([sys.executable, "-m", "univac_ttt", *args], stdin=stdin,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid
        _, _, usage = os.wait4(pid, 0)
        seconds = time.perf_counter() - start
        if stdin is not spool:
            stdin.close()
    return seconds, usage.ru_maxrss


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # a regression fails, not swaps
    print(f"{'case':<40} {'seconds':>8} {'peak MB':>8}")
    for name, args, source in CASES:
        seconds, kib = measure(args, source)
        print(f"{name:<40} {seconds:>8.2f} {kib / 1024:>8.1f}")


if __name__ == "__main__":
    main()
