"""Run a prompt_toolkit application so that no traceback ever reaches the screen, no key
sequence ends it, and every way out leaves the terminal as it was found.

prompt_toolkit's own handler for errors in key bindings and rendering prints the traceback
and waits for Enter. Ours ends the application with the exception instead; the caller
(the CLI's last guard, or the kiosk's supervisor) then reports or recovers in one line.
The input is guarded (tui/keyguard.py). SIGTERM and SIGHUP end the application through its
normal exit, which leaves the alternate screen and raw mode, and then raise SignalEnded;
the end of standard input raises InputEnded, and a terminal that has hung up (EIO)
TerminalLost: the caller stops rather than restarts.
"""

from __future__ import annotations

import asyncio
import errno
import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from prompt_toolkit.application import Application

from .ending import InputEnded, SignalEnded, TerminalLost
from .keyguard import guard_application

T = TypeVar("T")
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                       if hasattr(signal, name))


def run_guarded(app: Application[T], pre_run: Callable[[], None] | None = None) -> T:
    guard_application(app)
    catch_signals = threading.current_thread() is threading.main_thread()
    before = {signum: signal.getsignal(signum) for signum in ENDING_SIGNALS} \
        if catch_signals else {}

    def end(error: BaseException) -> None:
        future = app.future
        if future is not None and not future.done():
            app.exit(exception=error)

    def install() -> None:
        loop = asyncio.get_running_loop()

        def handler(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            end(context.get("exception") or RuntimeError(context.get("message", "error")))

        loop.set_exception_handler(handler)
        for signum in before:
            loop.add_signal_handler(signum, end, SignalEnded(signum))
        if pre_run is not None:
            pre_run()

    try:
        return app.run(pre_run=install, handle_sigint=False, set_exception_handler=False)
    except EOFError:
        raise InputEnded from None
    except OSError as exc:
        if exc.errno == errno.EIO:
            raise TerminalLost from exc
        raise
    finally:
        for signum, previous in before.items():  # the loop's close set them to the default
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)


async def run_guarded_async(app: Application[T], pre_run: Callable[[], None] | None = None) -> T:
    """For an app on someone else's event loop (serve's connections): the key guard only.
    Signals, the loop's exception handler and the end of input (EOFError) belong to the
    server."""
    guard_application(app)
    return await app.run_async(pre_run=pre_run, handle_sigint=False,
                               set_exception_handler=False)
