"""The reads of private attributes the server needs, kept here so an upgrade breaks
one place (tests/serve/test_serve.py checks the internals serve relies on still exist).

Many applications share one event loop, so the loop's exception handler must find which
terminal's application a failed callback belonged to, to end that one terminal and no
other. asyncio gives a callback's ``contextvars`` context only as ``Handle._context``
(CPython 3.7+); prompt_toolkit keeps the current application in a context variable, so
running ``get_app_or_none`` in that context names the application.

prompt_toolkit was made for one application at a time in a process, and two of its
process-wide records outlive a served terminal (found by diffing the heap across connect
and disconnect cycles, docs/performance-log.md): its typeahead store keeps one entry for every
input ever made (``typeahead._buffer``, keyed by the input's hash, never removed), and each
application restores, when it ends, the SIGWINCH handler it found when it began, which
among many terminals ending in any order is often a departed terminal's, keeping that
terminal's whole application (and, through the handler's context, another's) alive.
``forget_terminal`` undoes both when a terminal ends. (Since 2026-12-06 a served terminal
attaches no SIGWINCH handler at all, winch.py; a handler some other application left is
still removed here.)

keys.py replaces the key processor's registry (``KeyProcessor._bindings``) with one that
answers as ``_CombinedRegistry`` does (reading an And filter's terms and prompt_toolkit's
quoted insert's filter to know a key's binding without asking filters), and
tui/static_layout.py overrides the application's ``_update_invalidate_events``; wakeups.py
replaces the key processor's ``_start_timeout`` and the application's ``invalidate``
(reading ``_invalidated``, ``_is_running``), and memory_input.py runs a terminal's reader
as the loop runs a callback (``Handle._run``). Besides these, telnet.py and ssh.py subclass
prompt_toolkit's servers and override or use their underscored members (listed in
``PROMPT_TOOLKIT_INTERNALS``): that is the point of those subclasses (non-blocking writes,
paced reading, a handshake timeout).
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app_or_none
from prompt_toolkit.input import Input, typeahead

# (module, class or None for the module itself, members) that serve/ relies on.
PROMPT_TOOLKIT_INTERNALS = (
    ("prompt_toolkit.contrib.telnet.server", "TelnetConnection",
     ("_ready", "_closed", "feed", "close", "run_application", "vt100_input", "vt100_output",
      "parser", "enable_cpr")),
    ("prompt_toolkit.contrib.telnet.protocol", "TelnetProtocolParser",
     ("ttype_received_callback",)),
    ("prompt_toolkit.output.vt100", "Vt100_Output", ("_buffer", "stdout")),
    ("prompt_toolkit.contrib.telnet.server", "TelnetServer",
     ("_accept", "_create_socket", "_application_tasks", "connections")),
    ("prompt_toolkit.contrib.ssh.server", "PromptToolkitSSHSession",
     ("_get_size", "_chan", "app_session", "data_received", "connection_made")),
    ("prompt_toolkit.input.typeahead", None, ("_buffer",)),
    ("prompt_toolkit.application.application", "Application",
     ("_default_bindings", "_page_navigation_bindings", "_update_invalidate_events",
      "_invalidated", "_is_running", "_redraw")),
    ("prompt_toolkit.application.application", "_CombinedRegistry",
     ("_create_key_bindings", "get_bindings_for_keys", "get_bindings_starting_with_keys")),
    ("prompt_toolkit.key_binding.key_processor", "KeyProcessor",
     ("_bindings", "_start_timeout", "_flush_wait_task", "_get_matches",
      "_is_prefix_of_longer_match", "_call_handler", "_previous_key_sequence",
      "_previous_handler")),  # the last five: key_path.py's short path
    ("prompt_toolkit.key_binding.key_processor", None, ("_Flush",)),
    # keys.py's sole_binding: the filters it knows are off in the plain state
    ("prompt_toolkit.filters.base", "_AndList", ("filters",)),
    ("prompt_toolkit.key_binding.bindings.basic", None, ("in_quoted_insert",)),
    ("asyncio.unix_events", "_UnixSelectorEventLoop", ("_signal_handlers",)),
    # winch.py replaces the attach run_async looks up in its module at every run
    ("prompt_toolkit.application.application", None, ("attach_winch_signal_handler",)),
    ("asyncio.events", "Handle", ("_callback", "_run")),
)

_SIGWINCH = getattr(signal, "SIGWINCH", None)


def app_of_failed_callback(context: dict[str, Any]) -> Application[Any] | None:
    """The application whose callback raised, from the loop's exception handler context."""
    handle_context = getattr(context.get("handle"), "_context", None)
    return handle_context.run(get_app_or_none) if handle_context is not None else None


def forget_terminal(input: Input, loop: asyncio.AbstractEventLoop) -> None:
    """A terminal has ended: drop what prompt_toolkit's process-wide records keep of it
    and of any other terminal that is no longer running."""
    typeahead._buffer.pop(input.typeahead_hash(), None)
    handlers = getattr(loop, "_signal_handlers", None)  # the Unix loops only
    if _SIGWINCH is None or not isinstance(handlers, dict):
        return
    handle = handlers.get(_SIGWINCH)
    owner = getattr(getattr(handle, "_callback", None), "__self__", None)
    if handle is not None and (not isinstance(owner, Application) or not owner.is_running):
        # Served terminals learn their size from the protocol (NAWS, SSH's window change):
        # the server's own SIGWINCH is nobody's, and a departed terminal's handler is a leak.
        loop.remove_signal_handler(_SIGWINCH)
