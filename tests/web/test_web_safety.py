"""The web listener against hostile or careless clients: a raw HTTP and WebSocket client.

Origin checked, messages capped, a bad message closes only its own socket with a reason,
no file reachable but the page's three, the class size and password kept.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess

import pytest
from support.web import web_server

from tests.support.command import read_line, univac, univac_process
from tests.support.lazy import LazyModule
from univac_ttt.web.protocol import CLOSE_BAD_MESSAGE, CLOSE_FULL, CLOSE_WRONG_PASSWORD

aiohttp = LazyModule("aiohttp")  # imported by the worker that runs these tests only


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def connect(session, running, origin=None, **kwargs):
    origin = origin if origin is not None else f"http://127.0.0.1:{running.listener.port}"
    headers = {"Origin": origin} if origin else {}
    return await session.ws_connect(f"ws://127.0.0.1:{running.listener.port}/ws",
                                    headers=headers, **kwargs)


async def until(ws, predicate):
    """Messages up to and including the first that ``predicate`` accepts."""
    seen = []
    async for message in ws:
        if message.type is not aiohttp.WSMsgType.TEXT:
            break
        data = json.loads(message.data)
        for item in data if isinstance(data, list) else [data]:
            seen.append(item)
            if predicate(item):
                return seen
    return seen


def ready(data):
    return data.get("t") == "state" and data["after"]["ready"]


def test_the_wrong_origin_or_none_is_refused_before_any_machine_is_built():
    with web_server() as running:
        async def go():
            async with aiohttp.ClientSession() as session:
                for origin in ("http://evil.example", "null", ""):
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await connect(session, running, origin=origin)
                    assert refused.value.status == 403
        run(go())
        assert not running.listener.tabs and "joined" not in running.out.getvalue()


def test_a_bad_message_closes_only_its_own_socket_with_a_reason():
    with web_server() as running:
        async def go():
            async with aiohttp.ClientSession() as session:
                good = await connect(session, running)
                await until(good, ready)
                cases = [("not json", "not JSON"), ("[1]", "one field"),
                         ('{"k": "5", "pin": "1"}', "one field"), ('{"x": "1"}', "unknown"),
                         ('{"k": 5}', "string"), ('{"k": "55"}', "printable character"),
                         ('{"k": "\\u0007"}', "printable character")]
                for text, reason in cases:
                    bad = await connect(session, running)
                    await until(bad, ready)
                    await bad.send_str(text)
                    seen = await until(bad, lambda d: d.get("t") == "bye")
                    assert reason in seen[-1]["text"], (text, seen[-1])
                    await bad.receive()
                    assert bad.closed and bad.close_code == CLOSE_BAD_MESSAGE, text
                big = await connect(session, running)
                await until(big, ready)
                await big.send_str(json.dumps({"pin": "1" * 5000}))
                await big.receive()
                assert big.closed and big.close_code == 1009  # message too big
                binary = await connect(session, running)
                await until(binary, ready)
                await binary.send_bytes(b"\x00\x01")
                await until(binary, lambda d: d.get("t") == "bye")
                await binary.receive()
                assert binary.close_code == CLOSE_BAD_MESSAGE
                await good.send_str(json.dumps({"k": "5"}))  # the good tab plays on
                await good.send_str(json.dumps({"k": "Enter"}))
                seen = await until(good, lambda d: d.get("t") == "state"
                                   and d["after"]["board"][4] == "X")
                assert any(d.get("t") == "paper" and d["keyed"] for d in seen)
                await good.close()
        run(go())


def test_no_file_is_reachable_but_the_page_and_its_two_assets():
    with web_server() as running:
        base = f"http://127.0.0.1:{running.listener.port}"

        async def go():
            async with aiohttp.ClientSession() as session:
                for path in ("/", "/univac.css", "/univac.js"):
                    async with session.get(base + path) as response:
                        assert response.status == 200
                        assert "script-src 'self'" in response.headers[
                            "Content-Security-Policy"]
                        assert response.headers["X-Content-Type-Options"] == "nosniff"
                for path in ("/../pyproject.toml", "/%2e%2e/pyproject.toml", "/static/index.html",
                             "/univac_ttt/web/server.py", "/index.html", "/web/static/univac.js",
                             "/..%2f..%2fetc%2fpasswd", "/univac.js/../../cli.py"):
                    async with session.get(base + path, allow_redirects=False) as response:
                        assert response.status == 404, path
                async with session.post(base + "/", data=b"x" * 4096) as response:
                    assert response.status in (405, 413)
        run(go())
        # a path with dots the client does not normalise, on a raw socket
        with socket.create_connection(("127.0.0.1", running.listener.port), 5) as raw:
            raw.sendall(b"GET /../../pyproject.toml HTTP/1.1\r\nHost: x\r\n"
                        b"Connection: close\r\n\r\n")
            answer = b""
            while chunk := raw.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 404") and b"[project]" not in answer


def test_the_class_size_and_the_class_password_hold_for_tabs():
    with web_server(max_clients=1, password="ENIAC") as running:
        async def go():
            async with aiohttp.ClientSession() as session:
                first = await connect(session, running)
                assert (await until(first, lambda d: True)) == [{"t": "password"}]
                await first.send_str(json.dumps({"password": "ENIAC"}))
                await until(first, ready)
                second = await connect(session, running)
                seen = await until(second, lambda d: d.get("t") == "bye")
                assert "class is full" in seen[-1]["text"]
                await second.receive()
                assert second.close_code == CLOSE_FULL
                await first.close()
                for _ in range(100):
                    if not running.listener.tabs:
                        break
                    await asyncio.sleep(0.02)
                wrong = await connect(session, running)
                await wrong.receive()
                await wrong.send_str(json.dumps({"password": "EDVAC"}))
                seen = await until(wrong, lambda d: d.get("t") == "bye")
                assert "not the class password" in seen[-1]["text"]
                await wrong.receive()
                assert wrong.close_code == CLOSE_WRONG_PASSWORD
        run(go())
        assert "refused web" in running.out.getvalue()


def test_a_tab_keeps_its_transcript(tmp_path):
    with web_server(transcripts=True, data=tmp_path) as running:
        async def go():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, running)
                await until(ws, ready)
                for key in ("5", "Enter"):
                    await ws.send_str(json.dumps({"k": key}))
                await until(ws, lambda d: ready(d) and d["after"]["board"][4] == "X")
                await ws.close()
        run(go())
    (transcript,) = (tmp_path / "transcripts").iterdir()
    text = transcript.read_text()
    assert "YOU MOVE FIRST" in text and "> 5" in text and "   4   X   6" in text


def test_an_idle_tab_is_closed_politely():
    with web_server(idle_seconds=0.5) as running:
        async def go():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, running)
                seen = await until(ws, lambda d: d.get("t") == "bye")
                assert seen[-1]["text"].startswith("No key")
                for _ in range(200):
                    if "left (idle)" in running.out.getvalue():
                        break
                    await asyncio.sleep(0.02)
        run(go())
        assert "left (idle)" in running.out.getvalue()


def test_serve_web_from_the_command_line(tmp_path):
    env = {**os.environ, "UNIVAC_TTT_DATA": str(tmp_path)}
    refused = univac("serve", "--kiosk", "--telnet", "0", env=env, timeout=30)
    assert refused.returncode == 2 and "--kiosk is the browser's museum mode" in refused.stderr
    refused = univac("serve", "--web", "0", "--kiosk", env={
        k: v for k, v in env.items() if k != "UNIVAC_TTT_STAFF_PIN"}, timeout=30)
    assert refused.returncode == 2 and "staff PIN" in refused.stderr
    refused = univac("serve", "--web", "nowhere", env=env, timeout=30)
    assert refused.returncode == 2 and "[HOST:]PORT" in refused.stderr
    server = univac_process("serve", "--web", "0", stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        line = ""
        while "web on" not in line:
            line = read_line(server)
            assert line, server.stderr.read()
        url = line.split("web on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")  # 127.0.0.1 unless a host is named

        async def go():
            async with aiohttp.ClientSession() as session, session.get(url) as response:
                assert response.status == 200 and "printer paper" in await response.text()
        run(go())
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0


def test_a_tab_that_leaves_is_handed_to_the_heap_to_be_watched_until_freed():
    """As a terminal's application is: the heap's settle reclaim retries while it lives."""
    with web_server() as running:
        heap = running.server.heap
        handed: list[object] = []
        terminal_left = heap.terminal_left

        def recording(graph: object = None) -> None:
            handed.append(graph)
            terminal_left(graph)

        heap.terminal_left = recording

        async def go():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, running)
                await until(ws, ready)
                await ws.close()
                for _ in range(500):
                    if handed:
                        break
                    await asyncio.sleep(0.01)
        run(go())
    assert len(handed) == 1 and type(handed[0]).__name__ == "GameTab"
