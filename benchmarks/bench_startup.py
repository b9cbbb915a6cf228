"""Whole-process start-up of the installed command (issue 23): run by hand, never by tests.

    python3 benchmarks/bench_startup.py [--runs N] [--markdown] [--command PATH]
                                        [--baseline PATH]

Times, as separate processes started the way a user starts them (the ``univac-ttt`` on
PATH, which must be this checkout's install):

* ``univac-ttt play --plain`` from its start to its first prompt (``> `` after the empty
  board), wall time; then stdin is closed and the process's own CPU time (user + sys, from
  the kernel's accounting of the finished child, exit included) is read;
* ``univac-ttt verify`` as a whole process, wall and CPU, with the block cache the
  warm-up left (hostio/block_cache.py; each command its own, in a temporary folder), and
  again as a first run with an empty one;
* ``python -c pass`` with the same interpreter and environment: the floor that no change
  to univac-ttt can go below (the interpreter and site; an editable install made before
  pyproject.toml named ``package-dir`` ran setuptools' import finder there too, about 50
  million instructions: reinstall with ``pip install -e .`` to drop it).

``--baseline`` names a second install's ``univac-ttt`` (another checkout's venv) whose
play and verify are timed in the same rounds, for a before/after comparison.

The runs are interleaved (play, verify, floor, play, ...) so a change in the machine's load
touches all three alike; each figure is given as median and min. Python's bytecode cache is
allowed (PYTHONDONTWRITEBYTECODE is taken out of the children's environment, and one
warm-up run of each writes it), as it is for an installed wheel, whose .pyc files pip writes
at install time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

PROMPT = b"> "


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    env["TERM"] = "dumb"
    return env


def _cpu_of(pid: int) -> tuple[int, float]:
    """Wait for a child; its exit status and its CPU seconds (user + sys)."""
    _, status, usage = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def time_to_prompt(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds from starting ``command`` to the prompt it prints, and the CPU
    seconds of the whole process once its stdin is closed."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env)
    assert process.stdout is not None and process.stdin is not None
    seen = b""
    while not seen.endswith(PROMPT):
        chunk = process.stdout.read1(4096)
        if not chunk:
            raise SystemExit(f"{' '.join(command)} ended before its prompt: {seen!r}")
        seen += chunk
    wall = time.perf_counter() - start
    process.stdin.close()
    process.stdout.read()
    code, cpu = _cpu_of(process.pid)
    process.returncode = code
    if code != 0:
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return wall, cpu


def time_whole(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` run to its end (output thrown away)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env)
    code, cpu = _cpu_of(process.pid)
    wall = time.perf_counter() - start
    process.returncode = code
    if code != 0:
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return wall, cpu


def time_first_run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """``time_whole`` with an empty block cache (a fresh $XDG_CACHE_HOME, removed after):
    a user's first run, which compiles every block and writes the cache."""
    with tempfile.TemporaryDirectory(prefix="univac-ttt-cache-") as folder:
        return time_whole(command, {**env, "XDG_CACHE_HOME": folder})


def kept_cache(folder: str) -> Callable[[list[str], dict[str, str]], tuple[float, float]]:
    """``time_whole`` with a block cache of its own in ``folder``, kept from run to run
    (the warm-up fills it): two installs given one cache would each find the other's file
    (stamped by another build of the machine), ignore it and write their own, so that
    neither run would be warm."""
    def measure(command: list[str], env: dict[str, str]) -> tuple[float, float]:
        return time_whole(command, {**env, "XDG_CACHE_HOME": folder})
    return measure


def install_kind(command: str) -> str:
    """'editable' when the command's environment imports the package through an editable
    install's finder (which site runs in every process, the floor's too)."""
    prefix = Path(command).parent.parent  # venv/bin/univac-ttt -> venv
    finders = list(prefix.glob("lib/python*/site-packages/__editable__*univac_ttt*"))
    return f"editable ({command})" if finders else f"installed ({command})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="counted runs of each (15)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--command", help="the univac-ttt to time (default: the one on PATH)")
    parser.add_argument("--baseline", help="a second univac-ttt to time in the same rounds")
    args = parser.parse_args()
    command = args.command or shutil.which("univac-ttt")
    if command is None:
        raise SystemExit("no univac-ttt on PATH: pip install . first")
    env = _environment()
    kept = tempfile.TemporaryDirectory(prefix="univac-ttt-kept-")  # removed at exit
    command_cache, baseline_cache = (os.path.join(kept.name, n) for n in ("command", "base"))
    cases: dict[str, tuple[Callable[[list[str], dict[str, str]], tuple[float, float]],
                           list[str]]] = {
        "play --plain, start to first prompt": (time_to_prompt, [command, "play", "--plain"]),
        "verify, whole process": (kept_cache(command_cache), [command, "verify"]),
        "verify, first run (empty block cache)": (time_first_run, [command, "verify"]),
        "python -c pass (the floor)": (time_whole, [sys.executable, "-c", "pass"]),
    }
    if args.baseline:
        cases["baseline: play --plain, to first prompt"] = (
            time_to_prompt, [args.baseline, "play", "--plain"])
        cases["baseline: verify, whole process"] = (kept_cache(baseline_cache),
                                                    [args.baseline, "verify"])
        cases["baseline: verify, first run"] = (time_first_run, [args.baseline, "verify"])
    for measure, words in cases.values():  # the warm-up writes the bytecode cache
        measure(words, env)
    walls: dict[str, list[float]] = {name: [] for name in cases}
    cpus: dict[str, list[float]] = {name: [] for name in cases}
    load_before = os.getloadavg()
    for _ in range(args.runs):
        for name, (measure, words) in cases.items():
            wall, cpu = measure(words, env)
            walls[name].append(wall * 1000)
            cpus[name].append(cpu * 1000)
    load_after = os.getloadavg()
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    loads = f"{load_before[0]:.2f} before, {load_after[0]:.2f} after"
    header = ("figure (ms)", "wall median", "wall min", "CPU median", "CPU min")
    rows = [(name, f"{statistics.median(walls[name]):.1f}", f"{min(walls[name]):.1f}",
             f"{statistics.median(cpus[name]):.1f}", f"{min(cpus[name]):.1f}")
            for name in cases]
    about = (f"{when}; load average {loads}; {args.runs} interleaved runs each; "
             f"Python {sys.version.split()[0]}; {install_kind(command)}"
             + (f"; baseline {args.baseline}" if args.baseline else ""))
    if args.markdown:
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        print(f"\n{about}.")
        return
    width = max(len(row[0]) for row in rows)
    print(f"{header[0]:<{width}}" + "".join(f"  {h:>11}" for h in header[1:]))
    for row in rows:
        print(f"{row[0]:<{width}}" + "".join(f"  {v:>11}" for v in row[1:]))
    print(about)


if __name__ == "__main__":
    main()
