"""A served terminal's key press and redraw without needless timers or wake-ups of the loop.

Hundreds of terminals share one event loop, and prompt_toolkit's key path was made for one
application a process. For every key it starts a timer task (``KeyProcessor._start_timeout``,
1 s) that, when it runs out, flushes the keys held as the prefix of a longer binding; with
no key held (a letter, a digit, Enter: nearly every key a player types) it can only find
nothing to flush, and a player's next key a second later cancels or outlives it. And every
``invalidate`` schedules its redraw with ``call_soon_threadsafe`` twice, each a write to the
loop's self-pipe and one more turn of the loop to read it back, though it is called on the
loop's own thread, and its two callbacks (the invalidation's event, then the redraw) are
two handles where one does. And for every read of input the application starts another
task (``auto_flush_input``) that sleeps half a second and flushes the VT100 parser, for a
lone Esc or an unfinished sequence; with an input that can tell the parser holds nothing
(``may_hold``: no ESC read since the last flush) it would flush nothing.

``quiet_wakeups`` gives one application the same behaviour without them: the timer is
started only while a key is held (with none held a running one is cancelled, as the next
key would have cancelled it), and an invalidation on the application's own loop is
scheduled with ``call_soon``, the event fired and the screen drawn in one callback (the
same calls, in the same order, in the same context: nothing queued can come between
prompt_toolkit's two); from any other thread, or with a minimum redraw interval or a
render postponement, it is prompt_toolkit's own; the flush task is not started while the
input says it holds nothing (its place taken by one finished future, the same for every
read, which prompt_toolkit only ever cancels). An invalidation while a redraw is already
held or queued (a key's text and cursor changes fire three) returns at once, as each of
the ways it could take would.

And the keys' redraw is drawn at the end of their processing, in the same turn of the loop,
instead of queued for the next: an invalidation while the key processor runs (a key's echo,
a reply) is held, and once ``process_keys`` returns (or raises) the screen is drawn, once,
as the queued callback would have drawn it. A key cost three turns of the loop (the
socket's read, the keys, the redraw), each a ``select`` and the loop's bookkeeping for
every terminal; now one turn fewer. Anything the keys' handlers queued (a background task's
step) runs after the drawing instead of before it; what it changes invalidates again, as it
did.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from prompt_toolkit.application import Application

_AUTO_FLUSH = "auto_flush_input"  # Application.run_async's flush task's coroutine


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _on_loop_unpaced(app: Application[Any]) -> bool:
    """Whether ``invalidate_on_loop`` would queue the redraw on the loop itself."""
    loop = app.loop
    return (app._is_running and loop is not None and not loop.is_closed()  # noqa: SLF001
            and not app.min_redraw_interval and not app.max_render_postpone_time
            and _on_loop(loop))


def quiet_wakeups(app: Application[Any]) -> None:
    """The key processor's timeout only for held keys; invalidations on the loop's thread
    without the self-pipe (see the module's docstring)."""
    processor = app.key_processor
    start_timeout = processor._start_timeout  # noqa: SLF001

    def start_timeout_if_held() -> None:
        if processor.key_buffer:
            start_timeout()
            return
        task = processor._flush_wait_task  # noqa: SLF001
        if task is not None:  # as prompt_toolkit's next timer would: nothing to flush
            task.cancel()
            processor._flush_wait_task = None  # noqa: SLF001

    processor._start_timeout = start_timeout_if_held  # type: ignore[method-assign]  # noqa: SLF001

    invalidate = app.invalidate

    def redraw() -> None:
        try:  # prompt_toolkit's two callbacks, one after the other, as one
            app.on_invalidate.fire()
        finally:
            app._invalidated = False  # noqa: SLF001
            app._redraw()  # noqa: SLF001

    def invalidate_on_loop() -> None:
        if app._invalidated or not _on_loop_unpaced(app):  # noqa: SLF001
            invalidate()  # prompt_toolkit's: nothing when not running, closed or queued
            return
        app._invalidated = True  # noqa: SLF001
        app.loop.call_soon(redraw)  # type: ignore[union-attr]

    app.invalidate = invalidate_on_loop  # type: ignore[method-assign]

    process_keys = processor.process_keys
    held = [0, False]  # process_keys running (nested), an invalidation held meanwhile

    def invalidate_held() -> None:
        if app._invalidated:  # noqa: SLF001 - a redraw is held or queued: every way below
            return  # (prompt_toolkit's own first) would do nothing; a key fires three
        if held[0] and _on_loop_unpaced(app):
            app._invalidated = True  # noqa: SLF001
            held[1] = True
            return
        invalidate_on_loop()

    def process_keys_and_draw() -> None:
        held[0] += 1
        try:
            process_keys()
        finally:
            held[0] -= 1
            if not held[0] and held[1]:
                held[1] = False
                redraw()

    app.invalidate = invalidate_held  # type: ignore[method-assign]
    processor.process_keys = process_keys_and_draw  # type: ignore[method-assign]

    may_hold = getattr(app.input, "may_hold", None)
    if may_hold is None:
        return
    create = app.create_background_task
    finished: list[asyncio.Future[None]] = []  # one done future, for every read

    def create_unless_nothing_to_flush(coroutine: Coroutine[Any, Any, None]) -> Any:
        if getattr(coroutine, "__name__", "") == _AUTO_FLUSH and not may_hold():
            coroutine.close()
            loop = asyncio.get_running_loop()
            if not finished or finished[0].get_loop() is not loop:
                done: asyncio.Future[None] = loop.create_future()
                done.set_result(None)
                finished[:] = [done]
            return finished[0]  # prompt_toolkit only ever cancels it: a done one stays done
        return create(coroutine)

    app.create_background_task = create_unless_nothing_to_flush  # type: ignore[method-assign]
