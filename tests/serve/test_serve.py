"""univac-ttt serve: real telnet (and SSH) clients on 127.0.0.1, every wait bounded."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.command import read_line, univac_process
from tests.support.serving import LOCAL, connected, key_in, run, serving
from tests.support.telnet_client import TelnetClient
from univac_ttt.classroom.connection_limits import (
    INPUT_BURST_BYTES,
    INPUT_BYTES_PER_SECOND,
    InputBucket,
)
from univac_ttt.classroom.options import Endpoint, ServeOptionError, parse_endpoint
from univac_ttt.cli import main
from univac_ttt.serve.server import IDLE, SHUTDOWN, ClassServer


def test_a_full_game_with_bad_input_over_telnet() -> None:
    async def scenario() -> None:
        async with serving() as server:
            client = await connected(server)
            await key_in(client, "5")
            assert client.board() == list("O234X6789")
            await key_in(client, "1")  # taken
            assert "SQUARE 1 IS ALREADY TAKEN." in client.text()
            await key_in(client, "0")  # not a square code
            assert "NOT A SQUARE CODE" in client.text()
            await client.send("~")  # a key the UNIVAC keyboard lacks: a hint, nothing typed
            await client.wait_for(lambda c: "has no '~' key" in c.text())
            assert client.keyboard_line() == ""
            for move in ("9", "7"):
                await key_in(client, move)
            assert client.last_result() == "THE UNIVAC WINS"
            assert client.board() == list("123456789")  # the next game is ready
            assert server.table.totals().univac_wins == 1
            await client.close()
    run(scenario())


def test_terminals_do_not_share_a_machine() -> None:
    async def scenario() -> None:
        async with serving() as server:
            first, second = await connected(server), await connected(server)
            await key_in(first, "5")
            await key_in(second, "1")
            assert first.board() == list("O234X6789")
            assert second.board() == list("X234O6789")
            assert len(server.table.seats) == 2
            await first.close()
            await second.close()
    run(scenario())


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


QUIET = 0.25  # seconds the emptied room must stay empty (a later leak is seen)


@pytest.mark.parametrize("left_typing", ["5", "\x1b[200~1\n2\n3", ""])
def test_abrupt_disconnect_leaves_nothing_behind(left_typing: str) -> None:
    async def gone(server: ClassServer, tasks: int, fds: int | None = None) -> None:
        """Until no seat, no application, the loop's tasks back to ``tasks`` (the server's
        own and this test's) and the descriptors to ``fds`` (without ``fds``, their count
        unchanged), all of it holding for QUIET seconds, at most 5 s: a wait on what is
        checked, and a window in which a task or descriptor a timer leaves behind shortly
        after the departure is seen."""
        deadline = time.monotonic() + 5
        since, last = None, -1
        while time.monotonic() < deadline:
            now = _open_fds()
            empty = not (server.table.seats or server.apps
                         or len(asyncio.all_tasks()) != tasks
                         or now != (fds if fds is not None else last))
            last = now
            if not empty:
                since = None
            elif since is None:
                since = time.monotonic()
            elif time.monotonic() - since >= QUIET:
                return
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        async with serving() as server:
            tasks = len(asyncio.all_tasks())  # before any terminal
            warm = await connected(server)
            await warm.close()
            await gone(server, tasks)
            fds = _open_fds()
            client = await connected(server)
            if left_typing:
                await client.send(left_typing)
            else:
                await client.send("5\r")  # mid-reply: Enter, then gone at once
            await client.close(abrupt=True)
            await gone(server, tasks, fds)
            assert not server.table.seats and not server.apps
            assert len(asyncio.all_tasks()) == tasks
            assert _open_fds() == fds
    run(scenario())


def test_the_client_past_max_clients_is_told_the_class_is_full() -> None:
    async def scenario() -> None:
        async with serving(max_clients=1) as server:
            first = await connected(server)
            refused = TelnetClient()
            assert server.telnet is not None
            await refused.connect(server.telnet.bound_port)
            await refused.wait_for(lambda c: c.closed)
            assert b"The class is full (1 terminal). Please try again" in bytes(refused.raw)
            assert server.table.refused == 1
            await key_in(first, "5")  # the seated one plays on
            await first.close()
    run(scenario())


def test_a_silent_terminal_is_closed_politely() -> None:
    async def scenario() -> None:
        async with serving(idle_seconds=1.0) as server:
            client = await connected(server)
            await client.wait_for(lambda c: c.closed, 6)
            assert IDLE.format(s=1.0).encode() in bytes(client.raw)
            assert not server.table.seats
    run(scenario())


def test_a_flood_from_one_terminal_does_not_starve_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The other terminal's move is answered while the flood goes on: at the answer the
    server has read only the part of the flood its input bucket lets through (the burst,
    then its rate), and the flooder is still seated with the rest of its flood unread."""
    flood = 200_000
    read: dict[int, int] = {}  # bytes each connection's bucket was asked for
    take = InputBucket.take

    def counted(bucket: InputBucket, count: int) -> float:
        read[id(bucket)] = read.get(id(bucket), 0) + count
        return take(bucket, count)
    monkeypatch.setattr(InputBucket, "take", counted)

    async def scenario() -> None:
        async with serving() as server:
            started = time.monotonic()  # before either bucket was made
            flooder, player = await connected(server), await connected(server)
            before = dict(read)  # the negotiation's bytes, and nothing else yet
            sending = asyncio.get_running_loop().create_task(flooder.send("1" * flood))
            await flooder.wait_for(lambda c: "1" in (c.keyboard_line() or ""))  # under way
            await key_in(player, "5")
            assert player.board() == list("O234X6789")
            elapsed = time.monotonic() - started
            flooded = max(read[b] - before.get(b, 0) for b in read)
            assert 0 < flooded < flood  # answered while the flood went on ...
            # ... because the flood is paced (one read of 1,024 bytes may overdraw it)
            assert flooded <= INPUT_BURST_BYTES + INPUT_BYTES_PER_SECOND * elapsed + 1024
            assert not flooder.closed and len(server.table.seats) == 2  # ... and not ended
            sending.cancel()
            await flooder.close(abrupt=True)
            await player.close()
    run(scenario())


def test_the_board_follows_a_resize() -> None:
    async def scenario() -> None:
        async with serving() as server:
            client = await connected(server, columns=60)
            assert "───┼───┼───" not in client.text()  # no room for the side panel
            client.resize(100, 30)
            await client.wait_for(lambda c: "───┼───┼───" in c.text(), 5)
            await client.close()
    run(scenario())


def test_transcripts_go_into_the_data_folder(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(transcripts=True, data=tmp_path) as server:
            client = await connected(server)
            await key_in(client, "5")
            await client.close()
    run(scenario())
    files = list((tmp_path / "transcripts").iterdir())
    assert len(files) == 1 and "   O   2   3" in files[0].read_text(encoding="utf-8")


def test_the_served_monitor_has_no_files_and_a_run_cap() -> None:
    async def scenario() -> None:
        async with serving(app="monitor") as server:
            client = TelnetClient(columns=100, rows=40)
            assert server.telnet is not None
            await client.connect(server.telnet.bound_port)
            await client.wait_for(lambda c: "LECTURE MONITOR" in c.text())
            await client.send(":save /tmp/univac-serve-test.json\r")
            await client.wait_for(lambda c: "save: this terminal cannot read" in c.text())
            await client.send(":do /etc/passwd\r")
            await client.wait_for(lambda c: "do: this terminal cannot read" in c.text())
            await client.send(":attach 2 /tmp/univac-serve-test.reel:rw\r")
            await client.wait_for(lambda c: "attach: this terminal cannot read" in c.text())
            await client.send(":log /tmp/univac-serve-test.log\r")
            await client.wait_for(lambda c: "log: this terminal cannot read" in c.text())
            assert not Path("/tmp/univac-serve-test.json").exists()
            assert not Path("/tmp/univac-serve-test.reel").exists()
            assert not Path("/tmp/univac-serve-test.log").exists()
            await client.close()
    run(scenario())


def test_input_bucket_pauses_a_flood_and_refills() -> None:
    now = [0.0]
    bucket = InputBucket(rate=100.0, burst=200.0, clock=lambda: now[0])
    assert bucket.take(150) == 0.0
    assert bucket.take(100) == pytest.approx(0.5)
    now[0] += 10
    assert bucket.take(200) == 0.0


@pytest.mark.parametrize(("text", "expected"), [
    ("2323", Endpoint("127.0.0.1", 2323)), ("localhost:23", Endpoint("localhost", 23)),
    ("[::1]:2222", Endpoint("::1", 2222))])
def test_endpoints(text: str, expected: Endpoint) -> None:
    assert parse_endpoint(text) == expected


@pytest.mark.parametrize("text", ["", "x", "host:", "70000", "h:-1"])
def test_bad_endpoints_are_refused(text: str) -> None:
    with pytest.raises(ServeOptionError):
        parse_endpoint(text)


@pytest.mark.parametrize(("args", "message"), [
    (["serve"], "say where to listen"),
    (["serve", "--telnet", "nope"], "is not [HOST:]PORT"),
    (["serve", "--telnet", "0", "--password-file", "x"], "--password-file is for --ssh"),
    (["serve", "--ssh", "0", "--password-file", "/nonexistent/pw"],
     "cannot read the password file")])
def test_bad_serve_options_get_one_line(args: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    assert main([*args, "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_serve_help_warns_about_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "plain text on the wire" in capsys.readouterr().out.replace("\n", " ")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_says_goodbye_on_every_terminal_and_exits_0(sig: signal.Signals,
                                                             tmp_path: Path) -> None:
    process = univac_process("serve", "--telnet", "127.0.0.1:0", "--data", str(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None
        line = read_line(process)
        port = int(re.search(r"telnet on 127\.0\.0\.1:(\d+)", line).group(1))  # type: ignore[union-attr]

        async def scenario() -> list[TelnetClient]:
            clients = []
            for _ in range(2):
                client = TelnetClient()
                await client.connect(port)
                await client.wait_for(lambda c: c.keyboard_line() == "")
                clients.append(client)
            process.send_signal(sig)
            for client in clients:
                await client.wait_for(lambda c: c.closed, 10)
            return clients

        for client in run(scenario()):
            assert SHUTDOWN.encode() in bytes(client.raw)
        out, err = process.communicate(timeout=15)
        assert process.returncode == 0, err
        assert "Traceback" not in err
        assert "connections 0 now, 2 in all" in out
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


def test_a_server_waits_for_goodbye_lines_only_when_it_said_goodbye(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause that lets goodbye lines leave is for terminals still seated at the stop:
    a server that everyone has left stops without it (a drain of a minute would time this
    out), and one with a terminal still seated says goodbye on it before closing."""
    from tests.support.serving import until
    from univac_ttt.serve import server as server_module

    monkeypatch.setattr(server_module, "GOODBYE_DRAIN", 60.0)

    async def everyone_left() -> None:
        async with serving() as server:
            client = await connected(server)
            await client.close()
            await until(lambda: not server.apps and not server.table.seats)

    run(everyone_left(), timeout=10)
    monkeypatch.setattr(server_module, "GOODBYE_DRAIN", 0.1)

    async def one_seated() -> TelnetClient:
        async with serving() as server:
            client = await connected(server)
        await client.wait_for(lambda c: c.closed, 10)
        return client

    assert SHUTDOWN.encode() in bytes(run(one_seated()).raw)


def test_the_class_table_counts_live_and_finished_terminals() -> None:
    from rich.console import Console

    from univac_ttt.classroom.table import ClassTable, Seat

    out = io.StringIO()
    table = ClassTable(out, live=False)
    table.seat(Seat(1, "127.0.0.1:5000", "telnet", lambda: (2, 1, 0)))
    table.seat(Seat(2, "127.0.0.1:5001", "ssh", lambda: (1, 0, 0)))
    table.unseat(1, "left")
    totals = table.totals()
    assert (totals.games, totals.univac_wins, totals.draws, totals.opponent_wins) == (4, 3, 1, 0)
    assert "connections 1 now, 2 in all; games 4; UNIVAC wins 3" in table.summary()
    assert "#1 left (left): 3 games, UNIVAC 2, draws 1, opponent 0" in out.getvalue()
    drawn = Console(file=io.StringIO(), width=100)
    drawn.print(table.render())
    text = drawn.file.getvalue()  # type: ignore[attr-defined]
    assert "127.0.0.1:5001" in text and "player" in text and "wins" in text
    table.seat(Seat(3, "192.168.100.200:54321", "telnet"))
    for width in (80, 60):  # a lecturer's terminal: every address whole, nothing wider
        drawn = Console(file=io.StringIO(), width=width)
        drawn.print(table.render())
        lines = drawn.file.getvalue().splitlines()  # type: ignore[attr-defined]
        assert any("192.168.100.200:54321" in line for line in lines), lines
        assert all(len(line) <= width for line in lines)


def test_a_terminal_that_cannot_start_is_told_so(tmp_path: Path) -> None:
    blocked = tmp_path / "data"
    blocked.write_text("a file where the data folder should be", encoding="utf-8")

    async def scenario() -> None:
        async with serving(transcripts=True, data=blocked) as server:
            client = TelnetClient()
            assert server.telnet is not None
            await client.connect(server.telnet.bound_port)
            await client.wait_for(lambda c: c.closed)
            assert b"could not start a UNIVAC" in bytes(client.raw)
            assert not server.table.seats
    run(scenario())


def test_the_heap_freezes_terminals_and_reclaims_the_ones_that_left() -> None:
    import gc

    from univac_ttt.serve import heap as heap_module
    from univac_ttt.serve.heap import RECLAIM_AFTER_LEFT, RECLAIM_MIN_LEFT, Heap

    heap = Heap()
    thresholds = gc.get_threshold()
    try:
        heap.start()
        assert gc.get_threshold()[:2] == thresholds[:2]  # CPython's own young collections
        heap.settle()
        assert gc.get_freeze_count() > 0
        assert not heap.tick(active=3)  # nobody has left: nothing to collect
        heap.terminal_left()
        assert not heap.tick(active=3)  # one left while others play: wait
        for _ in range(RECLAIM_MIN_LEFT):
            heap.terminal_left()
        assert heap.tick(active=3) and heap.left == 0
        for _ in range(RECLAIM_MIN_LEFT):  # a big class waits for a quarter of it ...
            heap.terminal_left()
        assert not heap.tick(active=100)
        for _ in range(25 - RECLAIM_MIN_LEFT):
            heap.terminal_left()
        assert heap.tick(active=100)
        for _ in range(RECLAIM_AFTER_LEFT):  # ... and never for more than the cap
            heap.terminal_left()
        assert heap.tick(active=1000)
        heap.terminal_left()
        assert heap.tick(active=0)  # the room is empty: reclaim at once ...
        assert not heap.tick(active=0)  # ... and once more when it has settled
        heap.settle_at = 0.0
        assert heap.tick(active=0) and heap.settle_at is None
        assert not heap.tick(active=0)
        assert heap_module.reclaim_due_after(0) == RECLAIM_MIN_LEFT
    finally:
        heap.release()
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


def test_the_served_monitor_caps_every_run_at_the_desks_limit(tmp_path: Path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from univac_ttt.monitor.served import SERVED_CAP, build_application
    from univac_ttt.packs import shipped_pack

    with create_pipe_input() as pipe:
        served = build_application(pipe, DummyOutput(), transcript=tmp_path / "t.txt",
                                   pack=shipped_pack("tictactoe"))
        monitor = served.monitor
        assert monitor.desk.limits.cap == SERVED_CAP
        out = monitor.execute(f"step {SERVED_CAP * 50}")  # stops at the keyboard
        assert not any("at most" in line for line in out)
        monitor.execute("deposit 900 U0 900 U0 900")  # a loop: go runs to the desk's limit
        before = monitor.machine.instructions
        out = monitor.execute("go 900")
        assert monitor.machine.instructions - before == SERVED_CAP
        assert any("desk's limit" in line for line in out)
        before = monitor.machine.instructions
        out = monitor.execute(f"step {SERVED_CAP * 50}")  # a count past the cap: capped
        assert monitor.machine.instructions - before == SERVED_CAP
        assert "at most 200,000 instructions a command" in out[-1]


def test_the_served_monitor_keeps_score_and_a_transcript(tmp_path: Path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from univac_ttt.monitor.served import build_application
    from univac_ttt.packs import shipped_pack

    transcript = tmp_path / "t.txt"
    with create_pipe_input() as pipe:
        served = build_application(pipe, DummyOutput(), transcript=transcript,
                                   pack=shipped_pack("tictactoe"))
        monitor = served.monitor
        monitor.execute("go")
        for move in ("1", "2", "7", "8"):  # X leaves 6 open: O wins on 4-5-6
            monitor.execute(f"type {move}")
            monitor.execute("continue")
        assert served.results() == (1, 0, 0)
        assert served.transcript is not None
        served.transcript.close()
    assert "UNIVAC WINS" in transcript.read_text(encoding="utf-8")


def test_the_prompt_toolkit_internals_serve_relies_on_still_exist() -> None:
    """An upgrade of prompt_toolkit that renames one fails here, by name."""
    import importlib
    import inspect

    from univac_ttt.serve.private import PROMPT_TOOLKIT_INTERNALS

    for module, name, members in PROMPT_TOOLKIT_INTERNALS:
        found = importlib.import_module(module)
        cls = found if name is None else getattr(found, name)
        source = inspect.getsource(cls)
        for member in members:
            assert hasattr(cls, member) or f"self.{member}" in source, (name, member)


def test_a_client_that_never_negotiates_gets_a_vt100_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import univac_ttt.serve.telnet as telnet

    monkeypatch.setattr(telnet, "HANDSHAKE_SECONDS", 0.3)

    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            reader, writer = await asyncio.open_connection(LOCAL, server.telnet.bound_port)
            seen = b""
            while b"TIC-TAC-TOE" not in seen:
                chunk = await asyncio.wait_for(reader.read(65536), 5)
                assert chunk, "closed before drawing the console"
                seen += chunk
            assert len(server.table.seats) == 1
            writer.close()
    run(scenario())


@pytest.mark.parametrize("enter", ["\r\n", "\r\0", "\n"])
def test_telnet_s_end_of_line_is_one_enter(enter: str) -> None:
    """CR LF (Windows telnet, PuTTY), CR NUL and a lone LF each end one entry: no empty
    entry after a move, in the same read or split across two."""
    async def scenario() -> None:
        async with serving() as server:
            client = await connected(server)
            await client.send("5")
            await client.wait_for(lambda c: c.keyboard_line() == "5")
            await client.send(enter)
            await client.wait_for(lambda c: c.board() == list("O234X6789"))
            await client.send("9" + enter[:1])  # the line end in two writes
            await asyncio.sleep(0)
            await client.send(enter[1:])
            await client.wait_for(lambda c: c.board() is not None and c.board()[8] == "X"
                                  and c.keyboard_line() == "")
            await key_in(client, "7")  # a last entry: its reply is typed after any other
            assert "NOT A SQUARE CODE" not in client.text()
            await client.close()
    run(scenario())


def test_a_client_that_refuses_to_name_its_terminal_is_served_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """IAC WONT TTYPE: a VT100 screen straight away, not after the handshake's wait (set
    longer than the test waits, so a wait for it fails)."""
    import univac_ttt.serve.telnet as telnet

    monkeypatch.setattr(telnet, "HANDSHAKE_SECONDS", 60)
    iac, wont, ttype = b"\xff", b"\xfc", b"\x18"

    async def scenario() -> None:
        async with serving() as server:
            assert server.telnet is not None
            reader, writer = await asyncio.open_connection(LOCAL, server.telnet.bound_port)
            writer.write(iac + wont + ttype)
            seen = b""
            while b"TIC-TAC-TOE" not in seen:
                chunk = await asyncio.wait_for(reader.read(65536), 10)
                assert chunk, "closed before drawing the console"
                seen += chunk
            writer.close()
    run(scenario())
