"""The browser's listener: the page over HTTP and one UNIVAC per tab over a WebSocket.

It runs inside the class server (serve/server.py) beside telnet and SSH, on the same event
loop: the same class table, max clients, idle close, input rate cap, transcripts and class
password. aiohttp does the HTTP and the WebSocket framing (docs/architecture.md says why).

Safety: only the page's own three files are served, from memory (no path is ever mapped to
a file); a WebSocket must come from the page's own origin; a message is at most
MESSAGE_BYTES and of the protocol's shape, and a bad one closes that socket alone with a
reason; typing faster than the input cap pauses reading that socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

from aiohttp import WSMsgType, web

from ..classroom.connection_limits import OUTPUT_BACKLOG_BYTES, InputBucket
from ..classroom.options import Endpoint
from ..classroom.room import Room
from ..classroom.table import Seat
from ..museum.controller import KioskSettings
from .program import WebProgram
from .protocol import (
    CLOSE_BAD_MESSAGE,
    CLOSE_FULL,
    CLOSE_GOODBYE,
    CLOSE_WRONG_PASSWORD,
    MESSAGE_BYTES,
    BadMessage,
    parse,
)
from .tab import GameTab, Message, MuseumTab

ASSETS = {  # URL path -> (file in web/static, content type)
    "/": ("index.html", "text/html; charset=utf-8"),
    "/univac.css": ("univac.css", "text/css; charset=utf-8"),
    "/univac.js": ("univac.js", "text/javascript; charset=utf-8"),
    # the page's icon: without one a browser asks for /favicon.ico, and the 404 was an
    # error in the console of every page
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
PASSWORD_SECONDS = 120.0  # a tab that never gives the class password is let go
MUSEUM_TICK = 0.25  # seconds between the exhibit's looks at the clock (0.03 while typing)
STAFF_EXIT = "Staff exit: the exhibit has stopped. Goodbye."


def _load_assets() -> dict[str, tuple[bytes, str]]:
    folder = resources.files(__package__).joinpath("static")
    return {path: (folder.joinpath(name).read_bytes(), kind)
            for path, (name, kind) in ASSETS.items()}


@dataclass
class WebSettings:
    endpoint: Endpoint
    program: WebProgram
    authentic: bool = True
    museum: KioskSettings | None = None  # museum mode: the exhibit's controller settings
    museum_tick: float = MUSEUM_TICK


@dataclass
class _Socket:
    ws: web.WebSocketResponse
    number: int = 0
    outgoing: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    backlog: int = 0
    goodbye: str | None = None


class WebListener:
    """The browser's listener, started and stopped by the class server."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.assets = _load_assets()
        self.server: Room | None = None
        self.stop: asyncio.Event | None = None
        self.sockets: dict[int, _Socket] = {}
        self.runner: web.AppRunner | None = None
        self.port = settings.endpoint.port
        self.tabs: dict[int, GameTab] = {}  # for tests and the benchmark: each tab's desk
        self.listening: socket.socket | None = None  # bound before a pool forks (``bind``)

    # ---- the class server's side -----------------------------------------------------

    def bind(self) -> str | None:
        """Bind before ``serve --workers`` forks: every worker's aiohttp serves the same
        socket (the kernel hands each new connection to one of them). Museum mode keeps one
        process: its exhibit (attract mode, the day's tally) is one, not one a worker."""
        if self.settings.museum is not None:
            return None
        listening = self.settings.endpoint.listen()
        self.listening, self.port = listening, listening.getsockname()[1]
        return self._announcement()

    def _announcement(self) -> str:
        mode = " museum mode" if self.settings.museum is not None else ""
        return (f"univac-ttt: web{mode} on http://{self.settings.endpoint.host}:{self.port}/ "
                "(plain HTTP: for a network you trust)")

    async def start(self, server: Room, stop: asyncio.Event) -> str:
        self.server, self.stop = server, stop
        if self.listening is None:  # one process (museum mode, --workers 1): bind it here
            self.listening = self.settings.endpoint.listen()  # a refusal names host:port
        app = web.Application(client_max_size=1024)
        app.router.add_get("/ws", self._websocket)
        for path in ASSETS:
            app.router.add_get(path, self._asset)
        app.on_response_prepare.append(self._headers)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        await web.SockSite(self.runner, self.listening).start()
        self.port = self.runner.addresses[0][1]
        return self._announcement()

    def end(self, number: int, goodbye: str) -> None:
        socket = self.sockets.get(number)
        if socket is not None and socket.goodbye is None:
            socket.goodbye = goodbye
            socket.outgoing.put_nowait(None)

    async def close(self, goodbye: str) -> None:
        for number in list(self.sockets):
            self.end(number, goodbye)
        for _ in range(40):
            if not self.sockets:
                break
            await asyncio.sleep(0.05)
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # ---- HTTP ------------------------------------------------------------------------

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)

    async def _asset(self, request: web.Request) -> web.Response:
        body, kind = self.assets[request.path]
        return web.Response(body=body, headers={"Content-Type": kind})

    def _same_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin", "")
        host = request.headers.get("Host", "")
        return bool(host) and origin in (f"http://{host}", f"https://{host}")

    # ---- one tab ---------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        assert self.server is not None
        if not self._same_origin(request):
            return web.Response(status=403, text="This UNIVAC talks only to its own page.\n")
        ws = web.WebSocketResponse(max_msg_size=MESSAGE_BYTES, heartbeat=30.0)
        await ws.prepare(request)
        peer = request.remote or "?"
        hold = self.server.admit(peer, "web")  # a seat, held until this tab ends
        if isinstance(hold, str):
            await self._bye(ws, hold, CLOSE_FULL)
            return ws
        with hold:
            await self._seated(ws, peer)
        return ws

    async def _seated(self, ws: web.WebSocketResponse, peer: str) -> None:
        server = self.server
        assert server is not None
        if server.options.password is not None and not await self._password(ws):
            return
        socket = _Socket(ws)
        socket.number = server.next_number()
        number = socket.number
        settings = self.settings
        send = self._sender(socket)
        transcript = server.transcript_path(number)
        try:
            if settings.museum is not None:
                tab: GameTab = MuseumTab(settings.program, send, settings.museum, transcript)
            else:
                tab = GameTab(settings.program, send, authentic=settings.authentic,
                              transcript=transcript)
        except Exception as exc:  # noqa: BLE001 - e.g. the transcript folder is not writable
            server.table.note(f"#{number} from {peer} could not start: {exc}")
            await self._bye(ws, "This page could not start a UNIVAC; please tell the "
                                "lecturer. Goodbye.", 1011)
            return
        seat = Seat(number, peer, "web", tab.results)
        self.sockets[number] = socket
        self.tabs[number] = tab
        server.table.seat(seat)
        server.heap.settle()
        send(tab.hello())
        for message in tab.greeting():
            send(message)
        writer = asyncio.get_running_loop().create_task(self._write(socket))
        ticker = (asyncio.get_running_loop().create_task(self._tick(tab, seat, socket))
                  if tab.museum else None)
        why = "left"
        try:
            why = await self._read(ws, tab, seat, socket)
        finally:
            for task in (ticker, writer):
                if task is not None:
                    task.cancel()
            await asyncio.gather(*(t for t in (ticker, writer) if t), return_exceptions=True)
            self.sockets.pop(number, None)
            self.tabs.pop(number, None)
            tab.close()
            if socket.goodbye is not None:
                why = "idle" if socket.goodbye.startswith("No key") else (
                    "staff exit" if socket.goodbye == STAFF_EXIT else "server stopping")
            server.table.unseat(number, why)
            server.heap.terminal_left(tab)  # watched until freed, as a terminal is
            await self._bye(ws, socket.goodbye or "Goodbye from the UNIVAC.", CLOSE_GOODBYE)

    async def _read(self, ws: web.WebSocketResponse, tab: GameTab, seat: Seat,
                    socket: _Socket) -> str:
        bucket = InputBucket()
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.BINARY:
                    await self._bye(ws, "binary messages are not understood",
                                    CLOSE_BAD_MESSAGE)
                    return "bad message"
                break  # an error or a close: aiohttp has answered it
            seat.last_input = time.monotonic()
            try:
                incoming = parse(message.data)
            except BadMessage as exc:
                await self._bye(ws, str(exc), CLOSE_BAD_MESSAGE)
                return f"bad message: {exc}"
            if incoming.kind == "k":
                await tab.key(incoming.value)
            elif incoming.kind == "pin":
                await tab.pin(incoming.value)
            if tab.staff_exit:
                socket.goodbye = STAFF_EXIT
                if self.stop is not None:
                    self.stop.set()
                return "staff exit"
            if socket.goodbye is not None:
                break
            pause = bucket.take(len(message.data.encode()))
            if pause:
                await asyncio.sleep(pause)  # stop reading: TCP holds the rest back
        if ws.close_code == 1009:
            return "message too large"
        return "left"

    async def _password(self, ws: web.WebSocketResponse) -> bool:
        assert self.server is not None
        expected = (self.server.options.password or "").encode()
        await ws.send_str(json.dumps({"t": "password"}))
        try:
            message = await ws.receive(timeout=PASSWORD_SECONDS)
        except TimeoutError:
            await self._bye(ws, "No password: this page is closing.", CLOSE_WRONG_PASSWORD)
            return False
        try:
            incoming = parse(message.data) if message.type is WSMsgType.TEXT else None
        except BadMessage:
            incoming = None
        if incoming is None or incoming.kind != "password" or not hmac.compare_digest(
                incoming.value.encode(), expected):
            await self._bye(ws, "That is not the class password.", CLOSE_WRONG_PASSWORD)
            return False
        return True

    def _sender(self, socket: _Socket) -> Callable[[Message], None]:
        def send(message: Message) -> None:
            if socket.goodbye is not None:
                return
            text = json.dumps(message, separators=(",", ":"))
            socket.backlog += len(text)
            if socket.backlog > OUTPUT_BACKLOG_BYTES:  # the page is not reading
                socket.goodbye = "This page stopped reading; it is closed."
                socket.outgoing.put_nowait(None)
                return
            socket.outgoing.put_nowait(text)
        return send

    async def _write(self, socket: _Socket) -> None:
        """Send what the tab said, all that is waiting in one frame (a JSON array): a reply's
        dozen pieces of paper cost one write, not a dozen."""
        while True:
            batch = [await socket.outgoing.get()]
            while not socket.outgoing.empty() and batch[-1] is not None:
                batch.append(socket.outgoing.get_nowait())
            texts = [text for text in batch if text is not None]
            if texts:
                socket.backlog -= sum(len(text) for text in texts)
                try:
                    await socket.ws.send_str("[" + ",".join(texts) + "]")
                except (ConnectionError, RuntimeError):
                    return
            if batch[-1] is None:
                await self._bye(socket.ws, socket.goodbye or "Goodbye from the UNIVAC.",
                                CLOSE_GOODBYE)
                return

    async def _tick(self, tab: GameTab, seat: Seat, socket: _Socket) -> None:
        """The exhibit's clock: typing, idle reset and attract mode; never idle-closed
        (a museum tab always has its demonstrations to show)."""
        assert isinstance(tab, MuseumTab)
        while socket.goodbye is None:
            tab.tick()
            seat.last_input = time.monotonic()
            busy = tab.kiosk.pacer.busy
            await asyncio.sleep(0.03 if busy else self.settings.museum_tick)

    async def _bye(self, ws: web.WebSocketResponse, text: str, code: int) -> None:
        with contextlib.suppress(Exception):
            if not ws.closed:
                await ws.send_str(json.dumps({"t": "bye", "text": text}))
                await ws.close(code=code, message=_reason(text))


def _reason(text: str) -> bytes:
    """A close frame's reason: at most 123 bytes of UTF-8."""
    return text.encode("utf-8")[:123].decode("utf-8", "ignore").encode("utf-8")
