"""univac-ttt serve --workers: several processes on one port, one class. A real server
process and real telnet clients on 127.0.0.1; every wait bounded."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.command import read_line, univac_process
from tests.support.serving import key_in, run
from tests.support.telnet_client import TelnetClient
from univac_ttt.serve.server import FULL, SHUTDOWN


@contextmanager
def pool(tmp_path: Path, *args: str) -> Iterator[tuple[subprocess.Popen[str], int, list[int]]]:
    process = univac_process(
        "serve", "--telnet", "127.0.0.1:0", "--data", str(tmp_path), *args,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)  # its own group: a failed test ends the workers too
    try:
        assert process.stdout is not None
        port = int(re.search(r"telnet on 127\.0\.0\.1:(\d+)",  # type: ignore[union-attr]
                             read_line(process)).group(1))
        workers = [int(pid) for pid in re.findall(r"\d+", read_line(process)
                                                   .split("(")[1].split(")")[0])]
        yield process, port, workers
    finally:
        with contextlib.suppress(ProcessLookupError):  # the supervisor and any worker left
            os.killpg(process.pid, signal.SIGKILL)
        if process.poll() is None:
            process.wait(5)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(
        f"/proc/{pid}/status").read_text().lower()


async def _seated(port: int) -> TelnetClient:
    client = TelnetClient()
    await client.connect(port)
    await client.wait_for(lambda c: c.keyboard_line() == "" and c.board() is not None, 30)
    return client


def _holder(workers: list[int], client: TelnetClient) -> int:
    """The worker whose end of ``client``'s connection it is (the kernel hands each new
    connection to whichever worker accepts first, so two may well land on the same one):
    the socket's inode from /proc/net/tcp, then the worker with a descriptor on it."""
    assert client.writer is not None
    here = client.writer.get_extra_info("sockname")[1]
    there = client.writer.get_extra_info("peername")[1]
    inode = ""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = (int(a.rsplit(":", 1)[1], 16) for a in fields[1:3])
            if (local, remote) == (there, here):
                inode = fields[9]
    assert inode, "the server's end of the connection is not in /proc/net/tcp"
    for pid in workers:
        with contextlib.suppress(OSError):  # a descriptor closed while we look
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return pid
    raise AssertionError(f"no worker holds the connection from port {here}")


def test_a_pool_keeps_one_class_and_ends_politely(tmp_path: Path) -> None:
    with pool(tmp_path, "--workers", "2", "--max-clients", "3") as (process, port, workers):
        assert len(workers) == 2

        async def scenario() -> list[TelnetClient]:
            clients = [await _seated(port) for _ in range(3)]
            refused = TelnetClient()
            await refused.connect(port)
            await refused.wait_for(lambda c: c.closed, 10)  # max-clients over the pool
            assert FULL.format(n="3 terminals").encode() in bytes(refused.raw)
            for client in clients:
                await key_in(client, "5")
            process.send_signal(signal.SIGTERM)
            for client in clients:
                await client.wait_for(lambda c: c.closed, 15)
            return clients

        for client in run(scenario()):
            assert SHUTDOWN.encode() in bytes(client.raw)
        out, err = process.communicate(timeout=20)
        assert process.returncode == 0, err
        assert "Traceback" not in err
        # The table of both workers summed: three seated, none now, the refusal counted.
        assert "connections 0 now, 3 in all; games 0" in out
        # one series of numbers for the pool, in the order the three came (not each
        # worker's every other number)
        assert sorted(map(int, re.findall(r"#(\d+) telnet from", out))) == [1, 2, 3], out
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)


def test_a_worker_that_dies_gives_back_its_seats_and_is_started_again(tmp_path: Path) -> None:
    with pool(tmp_path, "--workers", "2", "--max-clients", "2") as (process, port, workers):
        async def scenario() -> None:
            first, second = await _seated(port), await _seated(port)
            # a crash (no goodbye, no release) of a worker that holds a seat: both seats
            # may be on one worker, and the other's death would free none
            os.kill(_holder(workers, first), signal.SIGKILL)
            await asyncio.sleep(0)
            # Bounds for a loaded machine (the supervisor notices the death, a new worker
            # starts and imports): the wait ends as soon as a seat is given back.
            deadline = time.monotonic() + 60
            seated: list[TelnetClient] = []
            while len(seated) < 1 and time.monotonic() < deadline:
                client = TelnetClient()
                try:
                    await client.connect(port)
                except ConnectionError:  # a connection caught by the dying worker's socket
                    await asyncio.sleep(0.1)
                    continue
                await client.wait_for(lambda c: c.closed or (c.keyboard_line() == ""
                                                             and c.board() is not None), 30)
                if client.closed:  # still full: the dead worker's seats not yet cleared
                    await asyncio.sleep(0.1)
                else:
                    seated.append(client)
            assert seated, "the dead worker's seat was never given back"
            for client in (first, second, *seated):
                await client.close()
        run(scenario(), 150)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert re.search(r"worker [12] ended", out) and "starting it again" in out


def test_a_stop_signal_ends_the_first_process_s_wait_at_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """SIGTERM or Ctrl-C set the pool's ``stopping``, but its wait for the workers'
    messages went on to its timeout (Python retries a wait a signal interrupts): a stop
    waited for the table's next redraw, a second. The signal now wakes the wait. Here the
    redraw is a minute away, and a watchdog alarm fails the test after ten seconds."""
    import io

    from univac_ttt.classroom.options import Endpoint, ServeOptions
    from univac_ttt.cli.serve import served_apps
    from univac_ttt.serve import workers

    class Late(Exception):
        pass

    def late(*_: object) -> None:
        raise Late

    options = ServeOptions(telnet=Endpoint("127.0.0.1", 0))
    first = workers.Pool(options, served_apps(), 1, io.StringIO(), live=False)
    first._open_wake()
    previous = signal.signal(signal.SIGTERM, first._stop), signal.signal(signal.SIGALRM, late)
    try:
        signal.setitimer(signal.ITIMER_REAL, 10)
        signal.raise_signal(signal.SIGTERM)  # arrives before the wait starts, as it may
        first._read(timeout=60)
        assert first.stopping
        first.stopping = False
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGTERM)).start()
        first._read(timeout=60)  # ... or while it waits
        assert first.stopping
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
        for fd in first.wake or ():
            os.close(fd)
        first.seats.close()


def test_a_stop_signal_while_a_worker_starts_is_not_lost(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A worker forked just before SIGTERM ran the first process's handler until it set its
    own, so a stop sent to a pool as it announced itself was lost there: the pool waited
    its ten seconds of grace, then killed the worker (3 stops in 12 on a pool right after its
    announcement, 2026-12-06). The signals are held across the fork now. Here each worker
    takes half a second to begin and the stop comes as the pool announces itself (a forked
    command: the delay is this test's, the pool the command's own)."""
    from tests.support.command import FRESH_VARIABLE, univac_bytes
    from univac_ttt.serve import workers

    real_worker, real_announce = workers._worker, workers.Pool._announce

    def slow_to_begin(*args: object) -> None:
        time.sleep(0.5)
        real_worker(*args)  # type: ignore[arg-type]

    def announce_then_stop(pool: workers.Pool) -> None:
        real_announce(pool)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(workers, "_worker", slow_to_begin)
    monkeypatch.setattr(workers.Pool, "_announce", announce_then_stop)
    monkeypatch.setenv(FRESH_VARIABLE, "")  # the delay lives in this interpreter
    ended = univac_bytes("serve", "--telnet", "127.0.0.1:0", "--workers", "2", "--data",
                         str(tmp_path), timeout=8)
    assert ended.returncode == 0, ended.stderr
    assert b"2 worker processes" in ended.stdout
