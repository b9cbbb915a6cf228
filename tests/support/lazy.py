"""A module imported when a test first uses it, not when the test module is collected.

Every xdist worker collects every test module, so an import at a module's top is paid by
all four workers, whichever runs the tests: aiohttp and asyncssh cost ~0.17 s of CPU each.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it (a missing
    module fails the test that needs it: the test extra installs every one, none is
    skipped)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> object:
        if attribute.startswith("_"):  # pytest's collection looks for its own marks here
            raise AttributeError(attribute)
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)
