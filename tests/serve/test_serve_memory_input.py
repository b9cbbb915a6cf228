"""A served terminal's in-memory input (serve/memory_input.py) reads as prompt_toolkit's
pipe input does: what was sent before the application attached, keys parsed by the same
VT100 parser, a long paste read 1,024 bytes a turn of the loop, the end of input only
after everything sent before it, nothing delivered while detached; and an application on
it runs, reads its keys and ends on the end of input."""

from __future__ import annotations

import asyncio
import io

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.output.vt100 import Vt100_Output

from tests.support.serving import run
from univac_ttt.serve.memory_input import READ_BYTES, MemoryPipeInput, create_memory_pipe_input


def test_keys_are_read_as_a_pipe_gives_them() -> None:
    async def scenario() -> None:
        keys = MemoryPipeInput()
        keys.send_text("5\r\x1b[A")  # sent before anyone reads: kept
        turns: list[list[object]] = []

        def reader() -> None:
            turns.append([k.key for k in keys.read_keys()])

        with keys.attach(reader):
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            assert turns == [["5", Keys.ControlM, Keys.Up]]
            keys.send_text("x" * (2 * READ_BYTES + 10))  # a paste: three turns
            for _ in range(6):
                await asyncio.sleep(0)
            assert [len(t) for t in turns[1:]] == [READ_BYTES, READ_BYTES, 10]
            keys.send_text("\x1b")  # a lone Escape waits for the flush, as in a pipe
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            assert turns[-1] == []
            assert [k.key for k in keys.flush_keys()] == [Keys.Escape]
            with keys.detach():  # nothing delivered while detached
                keys.send_text("7")
                for _ in range(3):
                    await asyncio.sleep(0)
                count = len(turns)
            for _ in range(3):
                await asyncio.sleep(0)
            assert len(turns) == count + 1 and turns[-1] == ["7"]
            keys.send_text("8")
            keys.close()  # the end comes after the bytes sent before it
            for _ in range(4):
                await asyncio.sleep(0)
            assert turns[-2:] == [["8"], []] and keys.closed
            keys.send_text("9")  # nothing after the end
            for _ in range(3):
                await asyncio.sleep(0)
            assert turns[-1] == []
    run(scenario(), 10)


def test_an_application_reads_its_keys_and_ends_with_the_input() -> None:
    async def scenario() -> str:
        bindings = KeyBindings()
        typed: list[str] = []

        @bindings.add(Keys.Any)
        def _(event) -> None:  # type: ignore[no-untyped-def]
            typed.append(event.data)

        with create_memory_pipe_input() as keys:
            app: Application[None] = Application(
                layout=Layout(Window()), key_bindings=bindings, input=keys,
                output=Vt100_Output(io.StringIO(), lambda: Size(24, 80), term="xterm",
                                    enable_cpr=False))
            keys.send_text("ab")
            task = asyncio.get_running_loop().create_task(app.run_async())
            while len(typed) < 2:
                await asyncio.sleep(0.001)
            keys.send_text("c")
            keys.close()
            try:
                await asyncio.wait_for(task, 5)
            except EOFError:
                return "".join(typed)
        return "no end"
    assert run(scenario(), 10) == "abc"


async def _terminal(keys: MemoryPipeInput, bindings: KeyBindings,
                    apps: list[Application[None]]) -> None:
    """An application on ``keys`` in an app session of its own, as a served terminal's."""
    output = Vt100_Output(io.StringIO(), lambda: Size(24, 80), term="xterm", enable_cpr=False)
    with create_app_session(input=keys, output=output):
        app: Application[None] = Application(layout=Layout(Window()), key_bindings=bindings)
        apps.append(app)
        await app.run_async(set_exception_handler=False)


def _failing_on_x() -> tuple[KeyBindings, list[dict[str, object]], list[Application[None]]]:
    """Bindings whose x fails, the running loop's exception handler recording each failure,
    and the list the terminal's application will be put in."""
    bindings = KeyBindings()

    @bindings.add("x")
    def _(event) -> None:  # type: ignore[no-untyped-def]
        raise RuntimeError("a front end's own binding failed")

    failed: list[dict[str, object]] = []
    asyncio.get_running_loop().set_exception_handler(
        lambda _loop, context: failed.append(context))
    return bindings, failed, []


def test_a_failing_key_is_reported_with_its_application() -> None:
    """The server's exception handler ends the terminal whose key failed: it finds that
    terminal's application in the failed callback's context (serve/private.py)."""
    from univac_ttt.serve.private import app_of_failed_callback

    async def scenario() -> bool:
        bindings, failed, apps = _failing_on_x()
        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as keys:
            task = loop.create_task(_terminal(keys, bindings, apps))
            await asyncio.sleep(0.01)
            keys.send_text("x")  # sent from another context: the connection's
            while not failed:
                await asyncio.sleep(0.001)
            found = app_of_failed_callback(failed[0]) is apps[0]
            apps[0].exit()
            await asyncio.wait_for(task, 5)
        return found
    assert run(scenario(), 10)


def test_held_reads_are_read_at_once_and_a_failure_still_names_its_application() -> None:
    """Bytes sent between ``hold_reads`` and ``read_held`` (the telnet connection's feed)
    are read by the application inside ``read_held``, with no turn of the loop between; a
    key that fails there is reported to the loop's exception handler with its
    application's context, as a key read on the loop's turn is."""
    from univac_ttt.serve.private import app_of_failed_callback

    async def scenario() -> tuple[list[str], bool]:
        bindings, failed, apps = _failing_on_x()
        typed: list[str] = []

        @bindings.add("a")
        def _(event) -> None:  # type: ignore[no-untyped-def]
            typed.append("a")

        loop = asyncio.get_running_loop()
        with create_memory_pipe_input() as keys:
            task = loop.create_task(_terminal(keys, bindings, apps))
            await asyncio.sleep(0.01)
            keys.hold_reads()
            keys.send_text("a")
            assert typed == []  # held: not read while the sender is still sending
            keys.read_held()
            seen = list(typed)  # read inside read_held, no turn of the loop between
            keys.hold_reads()
            keys.send_text("x")
            keys.read_held()
            found = bool(failed) and app_of_failed_callback(failed[0]) is apps[0]
            apps[0].exit()
            await asyncio.wait_for(task, 5)
        return seen, found
    assert run(scenario(), 10) == (["a"], True)
