"""What the server needs of a front end, and nothing of any particular one.

The server never imports the console or the monitor: the command line (the composer) passes
in their public factories, one per ``--app`` name. A factory builds a fresh front end, with
its own machine, for one terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindingsBase
from prompt_toolkit.key_binding.bindings.page_navigation import load_page_navigation_bindings
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.output import Output


class ServedApp(Protocol):
    application: Application[int]

    async def run(self) -> int: ...

    def results(self) -> tuple[int, int, int]:
        """UNIVAC wins, draws, opponent's wins so far on this terminal."""
        ...


class AppFactory(Protocol):
    def __call__(self, input: Input, output: Output, *, authentic: bool = False,
                 transcript: Path | None = None) -> ServedApp: ...


AppFactories = Mapping[str, AppFactory]


@cache
def shared_default_bindings() -> tuple[KeyBindingsBase, KeyBindingsBase]:
    """prompt_toolkit's default key bindings (Emacs, Vi, mouse, page navigation), made once
    for every terminal of the process.

    Each ``Application`` builds its own set: about 4,600 objects and 400 KiB a terminal,
    the largest single part of a seated terminal's memory, and thousands more objects for
    every full collection to walk. They hold no state of an application (their filters and
    handlers ask ``get_app()`` / ``event.app`` when called), so one set serves all."""
    return load_key_bindings(), load_page_navigation_bindings()


def make_app(factory: AppFactory, input: Input, output: Output, *, authentic: bool,
             transcript: Path | None) -> ServedApp:
    """A fresh front end for one terminal, drawn promptly among many on one loop."""
    served = factory(input, output, authentic=authentic, transcript=transcript)
    # prompt_toolkit postpones a redraw while the loop has other work, up to 10 ms, by
    # rescheduling it; with many applications on one loop they keep each other waiting.
    served.application.max_render_postpone_time = None
    app = served.application
    app._default_bindings, app._page_navigation_bindings = shared_default_bindings()
    return served
