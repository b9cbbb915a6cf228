"""Compile the package and rewrite the test modules once, in xdist's controller.

A clean checkout has no bytecode: each of the four workers compiled univac_ttt's modules
and rewrote every test module's asserts (pytest's own pycs) for itself, ~3.7 s of CPU a
worker, three of them the same work again. The controller does it once before it starts
the workers, split between two processes; the workers and the commands the tests start then
read the caches. Where the caches are current (a second run) this is a few stat calls.
Anything unexpected (pytest's private rewriting API changed, a read-only tree) is left to
the workers, which rewrite as they always did.
"""

from __future__ import annotations

import compileall
import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compile_before_workers(config: pytest.Config) -> None:
    """In the controller of a run with workers (and bytecode allowed), fill the caches."""
    if hasattr(config, "workerinput") or sys.dont_write_bytecode:
        return
    if not config.getoption("numprocesses", None) or config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite
    except ImportError:  # pragma: no cover - pytest moved it: the workers rewrite
        return
    tests = ROOT / "tests"
    sources = [*sorted(tests.rglob("test_*.py")), *sorted(tests.rglob("conftest.py"))]
    stale = [path for path in sources if not _current(path, rewrite)]
    child = os.fork() if len(stale) > 8 and (os.cpu_count() or 1) > 1 else None
    mine = stale if child is None else stale[child == 0::2]  # the fork every second file
    try:
        for path in mine:
            _rewrite(path, config, rewrite)
        if child in (None, 0):  # and the package (~0.5 s), while this process rewrites
            for folder in (ROOT / "univac_ttt", tests / "support"):
                compileall.compile_dir(folder, quiet=2)
    except Exception:  # noqa: BLE001 - a cache not filled is filled by the workers
        pass
    finally:
        if child == 0:
            os._exit(0)
    if child:
        os.waitpid(child, 0)


def _current(source: Path, rewrite) -> bool:
    """True if pytest's rewritten pyc beside ``source`` matches its text (as it checks)."""
    pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
    try:
        with open(pyc, "rb") as file:
            head = file.read(16)
        return head[8:16] == importlib.util.source_hash(source.read_bytes())[:8]
    except OSError:
        return False


def _rewrite(source: Path, config: pytest.Config, rewrite) -> None:
    cache = rewrite.get_cache_dir(source)
    if rewrite.try_makedirs(cache):
        source_hash, code = rewrite._rewrite_test(source, config)
        state = config.stash[rewrite.assertstate_key]
        rewrite._write_pyc(state, code, source_hash, cache / (source.name[:-3] + rewrite.PYC_TAIL))
