"""No SIGWINCH handler for a served terminal's application.

prompt_toolkit's ``Application.run_async`` attaches its ``_on_resize`` to the process's
SIGWINCH (``attach_winch_signal_handler``) while it runs, and when it ends removes it and
puts back the handler it found. A served terminal's size never comes by SIGWINCH: the
telnet connection calls ``_on_resize`` itself at NAWS, the SSH session at a window change.
On a server's loop the handler only ever stood for whichever terminal started last (a
resize of the server's own window redrew that one student's screen, or a departed
terminal's: ``private.forget_terminal``), and each attach and removal costs the loop's
signal checks (``signal.valid_signals()`` builds a set of some 65 enum members each time):
about 0.19 ms of CPU a connection, two thirds of it when the terminal leaves.

``no_winch`` marks an application; prompt_toolkit's attach is replaced, once for the
process, by one that attaches nothing for a marked application and is prompt_toolkit's
own for every other (``univac-ttt play`` in a terminal still redraws at SIGWINCH).
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application import application as _module

_served: weakref.WeakSet[Application[Any]] = weakref.WeakSet()
_attach = _module.attach_winch_signal_handler


@contextlib.contextmanager
def _attach_unless_served(handler: Callable[[], None]) -> Iterator[None]:
    if getattr(handler, "__self__", None) in _served:
        yield  # a served terminal's size comes from its connection (NAWS, SSH)
        return
    with _attach(handler):
        yield


def no_winch(app: Application[Any]) -> None:
    """``app`` attaches no SIGWINCH handler when it runs (see the module's docstring)."""
    _served.add(app)
    if _module.attach_winch_signal_handler is not _attach_unless_served:
        _module.attach_winch_signal_handler = _attach_unless_served  # type: ignore[assignment]
