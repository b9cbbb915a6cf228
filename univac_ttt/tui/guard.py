"""Run a prompt_toolkit application so that no traceback ever reaches the screen.

prompt_toolkit's own handler for errors in key bindings and rendering prints the traceback
and waits for Enter. Ours ends the application with the exception instead; the caller
(the CLI's last guard, or the kiosk's supervisor) then reports or recovers in one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from prompt_toolkit.application import Application

T = TypeVar("T")


def run_guarded(app: Application[T], pre_run: Callable[[], None] | None = None) -> T:
    def install() -> None:
        loop = asyncio.get_running_loop()

        def handler(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            error = context.get("exception") or RuntimeError(context.get("message", "error"))
            future = app.future
            if future is not None and not future.done():
                app.exit(exception=error)

        loop.set_exception_handler(handler)
        if pre_run is not None:
            pre_run()

    return app.run(pre_run=install, handle_sigint=False, set_exception_handler=False)
