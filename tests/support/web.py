"""A web class server on its own thread, and Debian's Chromium driven by Playwright.

The server runs in this process (so a test can hand the museum a fake clock and look at a
tab's desk); the browser is the system's Chromium, never one Playwright downloads.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from univac_ttt.classroom.options import Endpoint, ServeOptions
from univac_ttt.cli.serve import served_apps
from univac_ttt.museum.controller import KioskSettings
from univac_ttt.packs import shipped_pack
from univac_ttt.serve.server import ClassServer
from univac_ttt.web.program import WebProgram

from .fake_clock import FakeClock  # noqa: F401 - the browser tests take it from here
from .serving import CollectorLeftAlone

if TYPE_CHECKING:  # imported when a server starts: aiohttp costs every worker ~0.17 s
    from univac_ttt.web.server import WebListener

CHROMIUM = "/usr/bin/chromium"
# Playwright's own --disable-features (its chromiumSwitches.ts, 1.65): Chromium takes only
# the last --disable-features given, so ours repeats Playwright's list before adding to it.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
# Chromium loads two address-bar popups (WebUI pages, a renderer of their own, ~0.5 CPU-s)
# into every window it opens, and Playwright opens a window for each context: a headless
# page under test never shows an address bar, let alone its popup.
UNSEEN_BROWSER_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required",
                 "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES
                                                  + UNSEEN_BROWSER_UI)]


@dataclass
class Running:
    server: ClassServer
    listener: WebListener
    loop: asyncio.AbstractEventLoop
    out: io.StringIO

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.port}/"

    def call(self, function, *args):  # run on the server's loop, wait for the answer
        async def run():
            return function(*args)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)


@contextlib.contextmanager
def web_server(*, authentic: bool = False, museum: KioskSettings | None = None,
               museum_tick: float = 0.05, **options: object) -> Iterator[Running]:
    """A class server with only the web listener, on a free port, until the block ends."""
    from univac_ttt.web.server import WebListener, WebSettings

    serve_options = ServeOptions(**options)  # type: ignore[arg-type]
    listener = WebListener(WebSettings(Endpoint("127.0.0.1", 0),
                                       WebProgram(shipped_pack("tictactoe")),
                                       authentic, museum, museum_tick))
    out = io.StringIO()
    ready = threading.Event()
    box: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        box["loop"] = loop
        asyncio.set_event_loop(loop)
        server = ClassServer(serve_options, served_apps(), out, live=False,
                             listeners=[listener], heap=CollectorLeftAlone())
        stop = asyncio.Event()
        box["server"], box["stop"] = server, stop

        async def main() -> None:
            task = loop.create_task(server.run(stop))
            await server.ready.wait()
            ready.set()
            await task

        try:
            loop.run_until_complete(main())
        except Exception as exc:  # noqa: BLE001 - reported to the test below
            box["error"] = exc
            ready.set()
        finally:
            loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(20), "the web server did not start"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    loop = box["loop"]
    running = Running(box["server"], listener, loop, out)  # type: ignore[arg-type]
    try:
        yield running
    finally:
        stop = box["stop"]
        if not stop.is_set():  # type: ignore[attr-defined]
            loop.call_soon_threadsafe(stop.set)  # type: ignore[attr-defined, union-attr]
        thread.join(20)


def require_chromium() -> None:
    """Debian's Chromium is needed: a missing browser fails the browser tests, never skips
    them, so a page is never called tested without a browser (.ci/run installs it)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}: "
                    "apt-get install chromium")


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


_shared: tuple[contextlib.ExitStack, object] | None = None


def shared_chromium() -> object:
    """One Chromium for a worker's browser tests that come one after another (the page's
    and the layout's modules, which the conftest hands out together): a launch, with
    Playwright's driver, is ~1 CPU-s. Each test still opens its own context (a renderer,
    storage and cache of its own) and closes it."""
    global _shared
    if _shared is not None and not getattr(_shared[1], "is_connected", lambda: True)():
        close_shared_chromium()  # it died (a crash): the next test gets a new one
    if _shared is None:
        stack = contextlib.ExitStack()
        browser = stack.enter_context(chromium())
        _shared = (stack, browser)
    return _shared[1]


def close_shared_chromium() -> None:
    """Close it before a test that does not ask for it: Playwright's synchronous API keeps
    its event loop running in this thread while a browser is open, and ``asyncio.run``
    then refuses to start (the web-safety tests after a session-wide browser failed so)."""
    global _shared
    if _shared is not None:
        stack, _shared = _shared[0], None
        with contextlib.suppress(Exception):  # a dead browser's driver may refuse to close
            stack.close()


def release_unless_wanted(nextitem: object | None) -> None:
    """After a test: the shared browser goes when the next test in this worker does not ask
    for it, or there is none."""
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        close_shared_chromium()
