"""Shared helpers: build small machines from glyph text, as a programmer would write them."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import signal
import sys
import tempfile

import pytest

# The tests type Ctrl-C as a terminal does, to commands they start. A shell starts a
# background job (`python3 -m pytest &`, some CI runners) with SIGINT ignored, which every
# child inherits, and a command that finds it ignored rightly keeps ignoring it: the Ctrl-C
# tests then failed only there. This run and its workers take it back, so their children
# start with it as a terminal's foreground job has it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Let Python cache compiled modules (its default) in this run, its xdist workers and the
# commands the tests start, even where the environment says not to: otherwise each worker
# rewrites every test module's asserts and each started command compiles the package anew.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# The compiled blocks that play and verify keep between runs (hostio/block_cache.py) go to a
# folder of this run's own, never the user's cache, and every command started inherits it.
# It goes when the process that made it ends (not a fork of it: forked commands share it).
_CACHE_HOME = os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="univac-ttt-test-cache-")
_MADE_BY = os.getpid()


@atexit.register
def _remove_the_cache_home() -> None:
    if os.getpid() == _MADE_BY:
        shutil.rmtree(_CACHE_HOME, ignore_errors=True)


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

    from tests.support import sizes
    from tests.support.precompile import compile_before_workers

    compile_before_workers(config)  # a clean checkout's bytecode made once, not per worker
    if config.getoption("--long"):  # full sizes here, in the workers and in the commands
        os.environ[sizes.LONG_VARIABLE] = "1"
        os.environ["UNIVAC_TTT_TEST_FRESH"] = "1"  # every command a fresh interpreter
    default, long = sizes.EXAMPLES
    settings.register_profile("default", max_examples=default, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("long", max_examples=long, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("long" if sizes.long_run() else "default")


@pytest.fixture
def long_run():
    from tests.support import sizes

    return sizes.long_run()


@pytest.fixture
def fifo(tmp_path):
    """A named pipe: a file name that would block a reader or writer forever."""
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


# The areas whose tests take longest, in the order they are handed out: first, so that
# xdist's worksteal has the short tests left to balance the workers' ends with (collected
# last, the browser and server tests made a tail of ~5 s with one worker busy). The
# longest single tests lead; the browser tests stay together, so one worker's one
# browser serves most of them.
SLOW_FIRST = (
    "tests/kiosk/test_kiosk_soak.py",
    "tests/serve/test_serve_cycles.py",
    "tests/console/test_plain_fuzz.py",
    "tests/web/test_web.py",  # the two modules that drive Chromium, one after the other:
    "tests/web/test_layout.py",  # a worker's one browser serves both (tests/web/conftest.py)
    "tests/web/",
    "tests/serve/",
    "tests/tui/",
    "tests/e2e/",
    "tests/machine/test_differential.py",
    "tests/verify/",
)


def _slowness_rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::")[0]
    return next((rank for rank, area in enumerate(SLOW_FIRST) if path.startswith(area)),
                len(SLOW_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_slowness_rank)  # stable: each area keeps its own order


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (every test module, the packages they import, the programs
    they load at import) lives as long as the worker: frozen, so the collector's full
    rounds stop walking it after every few thousand allocations (a fifth to a half of the
    time those rounds took). Garbage is collected first, so none is kept. A class server
    run in the worker unfreezes everything when it stops (serve/heap.py), as it would in a
    process of its own; from then on that worker's rounds walk it again."""
    gc.collect()
    gc.freeze()
