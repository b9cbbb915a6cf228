"""The browser tests' one Chromium a worker: launching it costs ~1.5 s of CPU (Chromium,
Playwright's driver and its API), so test_web.py and test_layout.py share it; each test's
pages close with it (test_web.py's ``_close_pages``, test_layout.py's contexts)."""

from __future__ import annotations

import pytest
from support.web import chromium


@pytest.fixture(scope="session")
def browser():
    with chromium() as browser:
        yield browser
