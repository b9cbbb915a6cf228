"""serve --workers packs telnet connections (serve/pack.py): the first worker takes them up
to --pack seats, then the next; past every worker's share the one with fewest; a worker
next in line that takes nothing (stopped, dead) leaves its turn to the others. A real pool
(a forked command, so that the wait set here is the pool's) and real telnet clients."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path

import pytest

from tests.serve.test_serve_workers import _holder, _seated, pool
from tests.support.command import FRESH_VARIABLE
from tests.support.serving import run
from tests.support.telnet_client import TelnetClient
from univac_ttt.serve import pack
from univac_ttt.serve.pack import next_in_line
from univac_ttt.serve.server import FULL


def test_next_in_line_fills_each_worker_to_its_share_then_the_emptiest() -> None:
    assert next_in_line([0, 0], 100) == 0
    assert next_in_line([99, 0], 100) == 0
    assert next_in_line([100, 0], 100) == 1
    assert next_in_line([100, 37, 0], 100) == 1
    assert next_in_line([3, 100, 0], 100) == 0  # a departure puts the first back in line
    assert next_in_line([100, 100], 100) == 0  # all full: the fewest, the first on a tie
    assert next_in_line([101, 100], 100) == 1
    assert next_in_line([120, 140, 110], 100) == 2
    assert next_in_line([2, 0], 1) == 1  # --pack 1: spread from the first seat


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second's wait before a worker takes another's turn: on a loaded machine a worker
    next in line may well be slow to run for 20 ms, and would lose connections this test
    expects it to take. The pool is a fork of this interpreter, so it waits as set here."""
    monkeypatch.setattr(pack, "PACK_WAIT", 1.0)
    monkeypatch.setenv(FRESH_VARIABLE, "")


def test_the_first_worker_fills_to_its_share_then_the_next(tmp_path: Path,
                                                           patient: None) -> None:
    with pool(tmp_path, "--workers", "2", "--pack", "2", "--max-clients", "5") as (
            process, port, workers):
        async def scenario() -> list[int]:
            clients = [await _seated(port) for _ in range(5)]
            holders = [_holder(workers, client) for client in clients]
            refused = TelnetClient()  # --max-clients still holds over the pool
            await refused.connect(port)
            await refused.wait_for(lambda c: c.closed, 10)
            assert FULL.format(n="5 terminals").encode() in bytes(refused.raw)
            for client in clients:
                await client.close()
            return holders

        first, second = workers
        # two on the first, two on the second, then the fewest (a tie: the first)
        assert run(scenario(), 90) == [first, first, second, second, first]


def _children(pid: int) -> set[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return {int(child) for child in text.split()}


def test_a_stopped_or_dead_worker_leaves_its_turn_to_the_others(tmp_path: Path,
                                                                patient: None) -> None:
    with pool(tmp_path, "--workers", "2", "--pack", "5", "--max-clients", "10") as (
            process, port, workers):
        first, second = workers

        async def scenario() -> None:
            seated = [await _seated(port)]
            assert _holder(workers, seated[0]) == first
            os.kill(first, signal.SIGSTOP)  # alive, next in line, and taking nothing
            try:
                started = time.monotonic()
                seated.append(await _seated(port))
                assert _holder(workers, seated[-1]) == second
                assert time.monotonic() - started < 20
            finally:
                os.kill(first, signal.SIGCONT)
            seated.append(await _seated(port))  # running again: its turn again
            assert _holder(workers, seated[-1]) == first
            os.kill(first, signal.SIGKILL)  # dead: its seats cleared, started again
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                again = _children(process.pid) - {first, second}
                if again:
                    break
                await asyncio.sleep(0.05)
            assert again, "the dead worker was not started again"
            # every connection meanwhile is taken (by the second, or the new first), and
            # the new first worker, holding nothing, takes its turn once it listens
            holders = []
            while time.monotonic() < deadline and again.isdisjoint(holders):
                seated.append(await _seated(port))
                holders.append(_holder([*again, second], seated[-1]))
            assert not again.isdisjoint(holders), holders
            for client in seated:
                with contextlib.suppress(Exception):
                    await client.close()

        run(scenario(), 120)


def test_pack_without_a_pool_says_it_is_not_used(tmp_path: Path) -> None:
    """--pack packs a pool's workers: with --workers 1 it is said to be unused, not
    silently ignored (as --workers is in museum mode)."""
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-m", "univac_ttt", "serve", "--telnet", "127.0.0.1:0",
         "--data", str(tmp_path), "--workers", "1", "--pack", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        while "telnet on" not in (line := server.stdout.readline()):
            assert line, "the server ended before it listened"
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=30)
    assert "--pack is not used" in errors
    assert "Traceback" not in errors
