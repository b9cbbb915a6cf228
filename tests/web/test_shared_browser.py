"""The browser the page's tests share (support/web.shared_chromium): one launch while
they come one after another, closed before any test that does not ask for it. Held with a
stand-in for Chromium, so no browser is launched here."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from support import web

from tests.web.conftest import pytest_runtest_teardown as teardown_hook


def pytest_runtest_teardown(item: object, nextitem: object) -> None:
    """The conftest's wrapper hook around a teardown that passes."""
    around = teardown_hook(item, nextitem)  # type: ignore[arg-type]
    next(around)
    with contextlib.suppress(StopIteration):
        around.send(None)


class _Item:
    def __init__(self, *fixturenames: str) -> None:
        self.fixturenames = list(fixturenames)


class _Browser:
    def __init__(self) -> None:
        self.connected = True

    def is_connected(self) -> bool:
        return self.connected


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> tuple[list[_Browser], list[_Browser]]:
    """support/web's Chromium replaced by stand-ins: the browsers launched and closed."""
    launched: list[_Browser] = []
    closed: list[_Browser] = []

    @contextlib.contextmanager
    def chromium() -> Iterator[_Browser]:
        browser = _Browser()
        launched.append(browser)
        try:
            yield browser
        finally:
            closed.append(browser)

    monkeypatch.setattr(web, "chromium", chromium)
    monkeypatch.setattr(web, "_shared", None)
    return launched, closed


def test_one_launch_while_the_browser_tests_follow_each_other(
        stand_in: tuple[list[_Browser], list[_Browser]]) -> None:
    launched, closed = stand_in
    first = web.shared_chromium()
    pytest_runtest_teardown(_Item("browser"), _Item("browser", "tmp_path"))  # type: ignore[arg-type]
    assert web.shared_chromium() is first and launched == [first] and closed == []
    pytest_runtest_teardown(_Item("browser"), _Item("tmp_path"))  # type: ignore[arg-type]
    assert closed == [first]  # closed before a test without it
    second = web.shared_chromium()
    assert second is not first and launched == [first, second]
    pytest_runtest_teardown(_Item("browser"), None)  # type: ignore[arg-type]
    assert closed == [first, second] and web._shared is None  # the worker's last test


def test_the_browser_is_closed_after_a_failed_teardown_and_a_dead_one_replaced(
        stand_in: tuple[list[_Browser], list[_Browser]]) -> None:
    """A teardown that raises (a context's close after Chromium crashed) still lets the
    browser go before a test without it; a browser found dead is launched again."""
    launched, closed = stand_in
    first = web.shared_chromium()
    around = teardown_hook(_Item("browser"), _Item("tmp_path"))  # type: ignore[arg-type]
    next(around)
    with pytest.raises(RuntimeError, match="teardown failed"):
        around.throw(RuntimeError("teardown failed"))
    assert closed == [first] and web._shared is None
    second = web.shared_chromium()
    second.connected = False  # it crashed
    third = web.shared_chromium()
    assert third is not second and launched == [first, second, third]
    assert closed == [first, second]
    web.close_shared_chromium()
