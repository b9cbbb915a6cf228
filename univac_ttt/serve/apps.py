"""What the server needs of a front end, and nothing of any particular one.

The server never imports the console or the monitor: the command line (the composer) passes
in their public factories, one per ``--app`` name. A factory builds a fresh front end, with
its own machine, for one terminal.
"""

from __future__ import annotations

import contextlib
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import DummyInput, Input
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import DummyOutput, Output

from .key_path import plain_keys
from .keys import serve_keys
from .wakeups import quiet_wakeups
from .winch import no_winch


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


def make_app(factory: AppFactory, input: Input, output: Output, *, authentic: bool,
             transcript: Path | None) -> ServedApp:
    """A fresh front end for one terminal, drawn promptly among many on one loop."""
    served = factory(input, output, authentic=authentic, transcript=transcript)
    # prompt_toolkit postpones a redraw while the loop has other work, up to 10 ms, by
    # rescheduling it; with many applications on one loop they keep each other waiting.
    served.application.max_render_postpone_time = None
    app = served.application
    # prompt_toolkit's default key bindings, one table for every terminal (the monitor's too),
    # and key lookups from it, warm for the process (keys.py).
    serve_keys(app)
    # A digit or Enter straight to its handler, not through the key state machine.
    plain_keys(app)
    # No timer task for a key that holds nothing, no self-pipe for a redraw (wakeups.py).
    quiet_wakeups(app)
    # Its size comes from the connection (NAWS, SSH), never from the server's SIGWINCH.
    no_winch(app)
    return served


# The keys a class types (a square, Enter, a correction), looked up once at start-up
# (``warm_terminal``); any other key's first lookup in the process scans then (0.27 ms).
WARM_KEYS: tuple[str, ...] = (*string.digits, " ", Keys.ControlM, Keys.ControlJ,
                              Keys.ControlH, Keys.Backspace)


_WARMED: list[object] = []  # the warm terminal's key lookups, shared with the class


def warm_terminal(factory: AppFactory) -> None:
    """Build one terminal's front end, on no terminal, look up the keys a class types, and
    let it go. A first terminal builds tables for the whole process as well as its own
    (prompt_toolkit's shared key bindings and their filters: about 3,600 objects the
    collector tracks, for 400 of the terminal's own), and the first key anyone types builds
    more (the shared defaults' conditional copies, 1,072 bindings with their filters, and
    each key's first lookup scans their ~700 bindings: 3.4 ms for the first key, 0.27 ms
    for each other one, once a process); made here, before the heap freezes start-up's
    objects (heap.py), they are frozen with them, instead of made by the first student
    (whose key waited for them) and walked by every reclaim of the class. A front end that
    cannot start here is left to fail, and say so, on the terminal that asks for it."""
    with contextlib.suppress(Exception):
        served = make_app(factory, DummyInput(), DummyOutput(), authentic=False,
                          transcript=None)
        lookups = served.application.key_processor._bindings  # noqa: SLF001 - keys.py's
        with set_app(served.application):
            for key in WARM_KEYS:
                lookups.sole_binding(key)
        # the looked-up keys are kept for the class (keys.py shares them while a terminal
        # uses them; the warm terminal is let go, and the collection after it took them)
        _WARMED[:] = [lookups._lookups]  # noqa: SLF001 - keys.py's
