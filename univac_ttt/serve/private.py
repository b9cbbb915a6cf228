"""The one read of a private attribute the server needs, kept here so an upgrade breaks
one place (tests/serve/test_serve.py checks the internals serve relies on still exist).

Many applications share one event loop, so the loop's exception handler must find which
terminal's application a failed callback belonged to, to end that one terminal and no
other. asyncio gives a callback's ``contextvars`` context only as ``Handle._context``
(CPython 3.7+); prompt_toolkit keeps the current application in a context variable, so
running ``get_app_or_none`` in that context names the application.

Besides this, telnet.py and ssh.py subclass prompt_toolkit's servers and override or use
their underscored members (listed in ``PROMPT_TOOLKIT_INTERNALS``): that is the point of
those subclasses (non-blocking writes, paced reading, a handshake timeout).
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app_or_none

# (module, class, members) of prompt_toolkit that telnet.py and ssh.py rely on.
PROMPT_TOOLKIT_INTERNALS = (
    ("prompt_toolkit.contrib.telnet.server", "TelnetConnection",
     ("_ready", "_closed", "feed", "close", "run_application", "vt100_input", "vt100_output")),
    ("prompt_toolkit.contrib.telnet.server", "TelnetServer",
     ("_accept", "_create_socket", "_application_tasks", "connections")),
    ("prompt_toolkit.contrib.ssh.server", "PromptToolkitSSHSession",
     ("_get_size", "_chan", "app_session", "data_received", "connection_made")),
)


def app_of_failed_callback(context: dict[str, Any]) -> Application[Any] | None:
    """The application whose callback raised, from the loop's exception handler context."""
    handle_context = getattr(context.get("handle"), "_context", None)
    return handle_context.run(get_app_or_none) if handle_context is not None else None
