"""A listening socket whose accept fails for want of descriptors (EMFILE) stays readable:
the telnet server rests it a while instead of failing again at every wake-up (a pool
worker out of descriptors spun at 100 % of a core), and then takes the connection; in a
pool, only an accept that succeeded is a worker's sign of life, and a worker whose server
is closing is passed over (serve/pack.py)."""

from __future__ import annotations

import asyncio
import errno
import socket

from univac_ttt.serve import telnet
from univac_ttt.serve.pack import next_in_line


class _Exhausted(socket.socket):
    """A listening socket whose accept fails as a process out of descriptors sees."""

    failing = True
    tries = 0

    def accept(self):  # type: ignore[no-untyped-def]
        type(self).tries += 1
        if self.failing:
            raise OSError(errno.EMFILE, "Too many open files")
        return super().accept()


def test_an_accept_out_of_descriptors_rests_the_socket_then_takes_the_connection(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(telnet, "ACCEPT_RETRY", 1.0)
    listener = _Exhausted(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    admitted: list[str] = []

    def admit(peer: str) -> str:
        admitted.append(peer)
        return "The class is full."

    async def scenario() -> tuple[int, bool]:
        server = telnet.ServedTelnetServer("127.0.0.1", 0, lambda connection: None,  # type: ignore[arg-type, return-value]
                                           admit, listener)
        task = asyncio.create_task(server.run())
        client = socket.create_connection(listener.getsockname())
        for _ in range(500):  # the first try, however loaded the machine
            if _Exhausted.tries:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # the loop free to spin, were it to
        tries, resting = _Exhausted.tries, server.resting
        _Exhausted.failing = False  # descriptors freed
        for _ in range(400):  # the rest over (1 s), the connection taken
            await asyncio.sleep(0.02)
            if admitted:
                break
        client.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return tries, resting

    tries, resting = asyncio.run(scenario())
    assert resting and tries == 1  # one failed accept, then rest: no spin
    assert len(admitted) == 1  # the connection taken once the rest was over
    listener.close()


def test_a_closing_worker_is_passed_over_while_another_is_open() -> None:
    assert next_in_line([0, 5], 100) == 0
    assert next_in_line([0, 5], 100, closing=[1, 0]) == 1
    assert next_in_line([100, 100, 3], 100, closing=[0, 0, 1]) == 0  # the emptiest open
    assert next_in_line([0, 5], 100, closing=[1, 1]) == 0  # all closing: the first says so
