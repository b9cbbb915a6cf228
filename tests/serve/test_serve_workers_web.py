"""univac-ttt serve --web --workers 2: the browser page served by the pool's workers, one
class: the seats counted over the pool, every tab its own machine, SIGTERM ending all.
A real server process and real WebSocket clients on 127.0.0.1; every wait bounded."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
from pathlib import Path

from tests.support.command import read_line, univac_process
from tests.support.lazy import LazyModule
from tests.support.serving import run
from univac_ttt.web.protocol import CLOSE_FULL

aiohttp = LazyModule("aiohttp")  # imported by the worker that runs this test only


async def _until(ws: aiohttp.ClientWebSocketResponse, predicate) -> dict:  # type: ignore[no-untyped-def]
    while True:
        message = await ws.receive(timeout=30)
        assert message.type is aiohttp.WSMsgType.TEXT, (message.type, ws.close_code)
        data = json.loads(message.data)
        for item in data if isinstance(data, list) else [data]:
            if predicate(item):
                return item


def _ready(item: dict) -> bool:
    return item.get("t") == "state" and item["after"]["ready"]


def test_the_workers_serve_the_web_page_as_one_class(tmp_path: Path) -> None:
    process = univac_process(
        "serve", "--web", "127.0.0.1:0", "--workers", "2", "--max-clients", "4", "--speed",
        "fast", "--data", str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)  # its own group: a failed test ends the workers too
    try:
        assert process.stdout is not None
        web_line = read_line(process)
        port = int(re.search(r"web on http://127\.0\.0\.1:(\d+)/", web_line).group(1))  # type: ignore[union-attr]
        assert "2 worker processes" in read_line(process)
        url, origin = f"ws://127.0.0.1:{port}/ws", {"Origin": f"http://127.0.0.1:{port}"}

        async def scenario() -> None:
            async with aiohttp.ClientSession() as session:
                tabs = [await session.ws_connect(url, headers=origin) for _ in range(4)]
                for tab in tabs:
                    await _until(tab, _ready)
                full = await session.ws_connect(url, headers=origin)  # a fifth: the pool's
                while not full.closed:  # seats are four, whichever worker took it
                    await full.receive(timeout=30)
                assert full.close_code == CLOSE_FULL
                for square, tab in zip("1379", tabs, strict=True):
                    await tab.send_str(json.dumps({"k": square}))
                    await tab.send_str(json.dumps({"k": "Enter"}))
                for square, tab in zip("1379", tabs, strict=True):  # each its own machine
                    after = (await _until(tab, lambda i: _ready(i) and any(
                        i["after"]["board"])))["after"]
                    marks = [i + 1 for i, mark in enumerate(after["board"]) if mark]
                    assert len(marks) == 2 and int(square) in marks
                process.send_signal(signal.SIGTERM)
                for tab in tabs:
                    while not tab.closed:
                        await tab.receive(timeout=15)
        run(scenario(), 90)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert "Traceback" not in err
        joined = [int(n) for n in re.findall(r"#(\d+) web from", out)]
        assert len(joined) == 4  # numbered by the workers: odd from one, even from the other
        assert "connections 0 now, 4 in all" in out
    finally:
        with contextlib.suppress(ProcessLookupError):  # the supervisor and any worker left
            os.killpg(process.pid, signal.SIGKILL)
        if process.poll() is None:
            process.wait(5)
