"""Shared helpers: build small machines from glyph text, as a programmer would write them."""

from __future__ import annotations

import os
import sys
import tempfile

import pytest

# Let Python cache compiled modules (its default) in this run, its xdist workers and the
# commands the tests start, even where the environment says not to: otherwise each worker
# rewrites every test module's asserts and each started command compiles the package anew.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# The compiled blocks that play and verify keep between runs (hostio/block_cache.py) go to a
# folder of this run's own, never the user's cache, and every command started inherits it.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="univac-ttt-test-cache-")

from univac_ttt.machine import Machine, MachineOptions, PaperPrinter, QueueKeyboard  # noqa: E402
from univac_ttt.machine.word import from_int, from_text  # noqa: E402


def w(text: str) -> str:
    """A word from 12 glyphs (spaces allowed for readability are NOT allowed: exact)."""
    return from_text(text)


def n(value: int) -> str:
    return from_int(value)


def machine_with(words: dict[int, str], options: MachineOptions | None = None) -> Machine:
    m = Machine(options, QueueKeyboard(), PaperPrinter())
    m.load(words)
    return m


@pytest.fixture
def make_machine():
    return machine_with


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true",
                     help="run the long fuzz and soak runs (10,000 games, many more "
                          "examples) and start every command as a fresh interpreter")


def pytest_configure(config):
    from hypothesis import HealthCheck, settings

    settings.register_profile("default", max_examples=60, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("long", max_examples=2_000, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("long" if config.getoption("--long") else "default")
    if config.getoption("--long"):  # every command a fresh interpreter (support/command.py)
        os.environ["UNIVAC_TTT_TEST_FRESH"] = "1"


@pytest.fixture
def long_run(request):
    return request.config.getoption("--long")


@pytest.fixture
def fifo(tmp_path):
    """A named pipe: a file name that would block a reader or writer forever."""
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path
