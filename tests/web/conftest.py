"""The browser the page's tests drive: one Chromium while they come one after another."""

from __future__ import annotations

import pytest
from support.web import release_unless_wanted, shared_chromium


@pytest.fixture
def browser():  # type: ignore[no-untyped-def]
    return shared_chromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    """Around the test's own teardown (its pages closed), and after it even when it fails:
    the browser goes when the next test in this worker does not ask for it, or there is
    none (a failed teardown once left it open, and the next test's asyncio.run refused)."""
    try:
        return (yield)
    finally:
        release_unless_wanted(nextitem)
