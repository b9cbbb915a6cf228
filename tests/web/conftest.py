"""The browser the page's tests drive: one Chromium while they come one after another."""

from __future__ import annotations

import pytest
from support.web import close_shared_chromium, shared_chromium


@pytest.fixture
def browser():  # type: ignore[no-untyped-def]
    return shared_chromium()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the test's own teardown (its pages closed): the browser goes when the next
    test in this worker does not ask for it, or there is none."""
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        close_shared_chromium()
