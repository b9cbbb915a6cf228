"""What every xdist worker of a clean checkout made for itself, made once by the controller.

A clean checkout (as CI's) has no bytecode and no ``.hypothesis`` folder. Each of the four
workers then rewrote every test module's asserts (pytest's own pycs, ~3 s of CPU), compiled
univac_ttt (~0.5 s), and, at its first text strategy, had hypothesis work out which of
1.1 million characters UTF-8 encodes (~2 s) and read every local module's constants
(~1 s): three times the same work again. For the whole suite (no paths on the command line)
the controller does it once before it starts the workers, in two processes; the workers
and the commands the tests start read the caches. Where the caches are current this is a
few stat calls and reads. Anything unexpected (pytest's or hypothesis's private API changed,
a read-only tree) is left to the workers, which do it as they always did.
"""

from __future__ import annotations

import compileall
import contextlib
import hashlib
import importlib.util
import os
import sys
import types
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compile_before_workers(config: pytest.Config) -> None:
    """In the controller of a whole-suite run with workers, fill the caches."""
    if (hasattr(config, "workerinput") or sys.dont_write_bytecode
            or not config.getoption("numprocesses", None)
            or config.args_source != pytest.Config.ArgsSource.TESTPATHS):
        return
    try:
        stale = _stale_test_modules(config)
        with _quietly():
            missing = _hypothesis_missing()
    except Exception:  # noqa: BLE001 - pytest or hypothesis changed: the workers do it
        return
    child = os.fork() if (stale or missing) and (os.cpu_count() or 1) > 1 else None
    try:  # this process the asserts, the fork the rest (each ~4 s on a clean checkout)
        if child != 0:
            _rewrite(stale, config)
        if child in (None, 0):
            for folder in (ROOT / "univac_ttt", ROOT / "tests" / "support"):
                compileall.compile_dir(folder, quiet=2)
            with _quietly():
                _warm_hypothesis(missing)
    except Exception:  # noqa: BLE001 - a cache not filled is filled by the workers
        pass
    finally:
        if child == 0:
            os._exit(0)
    if child:
        os.waitpid(child, 0)


def _stale_test_modules(config: pytest.Config) -> list[tuple[Path, Path]]:
    """The test modules (and conftests) without a current rewritten pyc, with its path."""
    if config.getoption("assertmode") != "rewrite":
        return []
    from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

    tests = ROOT / "tests"
    sources = [*sorted(tests.rglob("test_*.py")), *sorted(tests.rglob("conftest.py"))]
    pycs = [(source, get_cache_dir(source) / (source.name[:-3] + PYC_TAIL))
            for source in sources]
    return [(source, pyc) for source, pyc in pycs if not _current(source, pyc)]


def _current(source: Path, pyc: Path) -> bool:
    """True if pytest's rewritten pyc matches the source's text (as pytest checks it)."""
    try:
        with open(pyc, "rb") as file:
            head = file.read(16)
        return head[8:16] == importlib.util.source_hash(source.read_bytes())[:8]
    except OSError:
        return False


def _rewrite(stale: list[tuple[Path, Path]], config: pytest.Config) -> None:
    from _pytest.assertion import rewrite

    for source, pyc in stale:
        if rewrite.try_makedirs(pyc.parent):
            source_hash, code = rewrite._rewrite_test(source, config)
            rewrite._write_pyc(config.stash[rewrite.assertstate_key], code, source_hash, pyc)


def _hypothesis_missing() -> list[Path]:
    """The sources whose constants hypothesis has not cached, and the Unicode tables
    (as the path of the table) if they are not there."""
    from hypothesis.configuration import storage_directory
    from hypothesis.internal.charmap import charmap_file

    tables = [path for path in (charmap_file(), charmap_file("codec-v2-utf-8"))
              if not path.exists()]
    constants = storage_directory("constants", intent_to_write=False).path
    sources = [source for folder in ("univac_ttt", "tests")
               for source in sorted((ROOT / folder).rglob("*.py"))]
    return tables + [source for source in sources if not (
        constants / hashlib.sha1(source.read_bytes()).hexdigest()[:16]).exists()]


@contextlib.contextmanager
def _quietly() -> Iterator[None]:
    """hypothesis warns when its storage is touched while plugins start (it is slow): here
    that is the point, done once instead of in every worker."""
    from hypothesis.errors import HypothesisSideeffectWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HypothesisSideeffectWarning)
        yield


def _warm_hypothesis(missing: list[Path]) -> None:
    """hypothesis's on-disk caches (``.hypothesis/unicode_data`` and ``constants``)."""
    from hypothesis.internal.charmap import charmap, intervals_from_codec
    from hypothesis.internal.constants_ast import constants_from_module

    for path in missing:
        if path.suffix != ".py":
            charmap()
            intervals_from_codec("utf-8")  # the codec of st.text() and st.characters()
            continue
        module = types.ModuleType(path.stem)
        module.__file__ = str(path)
        constants_from_module(module)
