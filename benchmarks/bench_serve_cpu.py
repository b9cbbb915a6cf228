"""The class server's CPU a move, in process and repeatable (issue 21's "server CPU under
2 ms a move"): a real ClassServer on a loopback telnet port, seated terminals playing
scripted games, and only the server's thread's CPU time counted.

    python3 benchmarks/bench_serve_cpu.py                       # 80x24, 120x40, 200x60
    python3 benchmarks/bench_serve_cpu.py --sizes 120x40 --profile   # where it goes
    python3 benchmarks/bench_serve_cpu.py --pause 1.2 --moves 8      # at a player's pace

The server runs on the main thread's event loop exactly as ``univac-ttt serve --workers 1``
runs it (telnet parsing, the paced socket writer, the class table, the collector's
freezing). The clients run in a thread of their own on blocking sockets: they answer the
telnet negotiation, type a square, wait until its echo is drawn, press Enter and wait until
the whole reply is drawn, and read and throw away what the server sends (no screen is kept:
the clients cost next to nothing, and none of it is counted). "Drawn" is learnt from the
served application itself (its after_render, on the server's thread), not from the bytes.

The games are scripted, so every run does the same work: terminal i plays the first square
still free on its paper's board in ``SCRIPT`` turned by i, until the game ends; then, as a
player would, it waits for the next game's greeting (the others play meanwhile). The figure is
``time.thread_time()`` of the server's thread over the measured moves, several repeats,
their median; say the load average (printed) beside it. Nothing of the benchmark runs on
the server's thread while it is measured but the after_render check above and one wake-up
at the end of each repeat (until 2026-12-02 evening a 10 ms poll and a cross-thread call
for each terminal waiting out a new game's hold ran there, 0.3-0.8 ms a move).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import queue
import re
import select
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prompt_toolkit.input import DummyInput  # noqa: E402

from univac_ttt.classroom.options import Endpoint, ServeOptions  # noqa: E402
from univac_ttt.cli import served_apps  # noqa: E402
from univac_ttt.serve.server import ClassServer  # noqa: E402

IAC, SB, SE, WILL = 255, 250, 240, 251
TTYPE, NAWS, IS = 24, 31, 0
SCRIPT = "519374628"  # the squares a terminal tries in turn, each game
WAIT = 30.0  # seconds any one wait may take before the run is called broken


class Seated:
    """One served console as the clients see it: the application (the server's thread's)
    and an event its after_render sets when what the client waits for is drawn."""

    def __init__(self, served: Any) -> None:
        self.served = served
        self.console = served.console
        self.drawn = threading.Event()
        self.until: Callable[[], bool] = lambda: False
        served.application.after_render += self._rendered

    def _rendered(self, _app: object) -> None:
        if self.until():
            self.drawn.set()

    def expect(self, until: Callable[[], bool]) -> None:
        """From now on, ``drawn`` is set by the first drawing after which ``until`` holds
        (set before the key is sent, so no drawing is missed)."""
        self.drawn.clear()
        self.until = until

    def wait(self) -> None:
        if not self.drawn.wait(WAIT):
            raise RuntimeError("a terminal was not drawn in time")


class Client:
    """One terminal's socket, negotiated as a telnet client of the given size."""

    def __init__(self, port: int, columns: int, rows: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(bytes([IAC, WILL, NAWS, IAC, SB, NAWS, columns >> 8, columns & 255,
                                 rows >> 8, rows & 255, IAC, SE, IAC, WILL, TTYPE,
                                 IAC, SB, TTYPE, IS]) + b"xterm" + bytes([IAC, SE]))
        self.seated: Seated | None = None
        self.script = SCRIPT
        self.played = 0
        self.hold_until: float | None = None  # a game ended: its type-ahead hold's end
        self.next_move = 0.0  # time.monotonic() of its next move (--pause)
        self.received = 0

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode())


class Drainer(threading.Thread):
    """Reads and drops what the server writes to every client, so no socket fills."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.clients: list[Client] = []
        self.stopping = False

    def run(self) -> None:
        while not self.stopping:
            socks = {c.sock: c for c in self.clients if c.sock.fileno() >= 0}
            if not socks:
                time.sleep(0.01)
                continue
            ready, _, _ = select.select(list(socks), [], [], 0.05)
            for sock in ready:
                try:
                    data = sock.recv(1 << 16)
                except OSError:
                    data = b""
                socks[sock].received += len(data)


def _moves(seated: Seated) -> int:
    session = seated.console.session
    return session.words_typed + session.refusals


BOARD_ROW = re.compile(r"^   ([OX1-9])   ([OX1-9])   ([OX1-9])\s*$", re.MULTILINE)


def _free(console: Any) -> str:
    """The squares still free on the paper's last board (the player's sight of it; read
    on the client thread while this terminal's server side is at rest, uncounted)."""
    cells = "".join("".join(row) for row in BOARD_ROW.findall(console.pacer.text[-600:])[-3:])
    return "".join(cell for cell in cells if cell.isdigit())


HOLD_MARGIN = 0.02  # seconds past the console's type-ahead hold before the next key


def play_move(client: Client, loop: asyncio.AbstractEventLoop) -> None:
    """A square, its echo, Enter and the whole reply, as a player makes a move: the first
    free square in the terminal's turn of SCRIPT."""
    seated = client.seated
    assert seated is not None
    console = seated.console
    games = console.session.score.games
    free = _free(console)
    square = next((s for s in client.script if s in free), client.script[0])
    seated.expect(lambda: console.keyboard_buffer.text == square)
    client.send(square)
    seated.wait()
    before = _moves(seated)
    seated.expect(lambda: _moves(seated) > before and not console.typing)
    client.send("\r")
    seated.wait()
    client.played += 1
    if console.session.score.games > games:  # the game ended: the next one's greeting first
        # Keys typed before its hold ends are dropped (ConsoleApp.holding). The hold's end
        # is read here, on the client thread, with this terminal at rest (its reply is
        # drawn, fast typing has nothing left); a key dropped all the same would end the
        # run with "not drawn in time", never a wrong figure.
        assert not console.typing, "the benchmark plays in fast typing"
        hold = console._hold_until  # noqa: SLF001 - the benchmark's sight of the hold
        client.hold_until = None if hold is None else hold + HOLD_MARGIN


def drive(clients: list[Client], moves: int, loop: asyncio.AbstractEventLoop,
          results: queue.Queue[object], done: Callable[[], None], pause: float) -> None:
    """Each client makes ``moves`` moves, round by round; one waiting for its next game
    lets the others play meanwhile (the client thread's work). Nothing of it runs on the
    server's thread but ``done``, once, at the end: the clock the console's hold is read
    by is time.monotonic, as the console's own. ``pause``: seconds a terminal waits after
    its move before the next, as a player thinks (the server's timers that a quick typist
    cancels then run out: prompt_toolkit's key flush at 0.5 s and its timeout at 1 s)."""
    try:
        goal = {id(client): client.played + moves for client in clients}
        while True:
            left = [c for c in clients if c.played < goal[id(c)]]
            if not left:
                break
            played = False
            for client in left:
                if client.hold_until is not None:
                    if time.monotonic() <= client.hold_until:
                        continue
                    client.hold_until = None
                if time.monotonic() < client.next_move:
                    continue
                play_move(client, loop)
                client.next_move = time.monotonic() + pause
                played = True
            if not played:
                time.sleep(0.005)
        results.put(None)
    except BaseException as exc:  # noqa: BLE001 - handed to the server's thread
        results.put(exc)
    finally:
        done()


async def start_server(terminals: int) -> tuple[ClassServer, queue.Queue[Seated],
                                                asyncio.Event, asyncio.Task[Any]]:
    """A class server on a loopback telnet port, on this loop, for ``terminals`` seats;
    each console it seats comes out of the queue (the server's warm terminal does not);
    set the event to stop it, and await the task."""
    loop = asyncio.get_running_loop()
    seated: queue.Queue[Seated] = queue.Queue()
    base = served_apps()["play"]

    def factory(input: Any, output: Any, **kwargs: Any) -> Any:
        served = base(input, output, **kwargs)
        if not isinstance(input, DummyInput):  # the server's warm terminal (apps.py) is no seat
            seated.put(Seated(served))
        return served

    options = ServeOptions(telnet=Endpoint("127.0.0.1", 0), max_clients=terminals + 1)
    server = ClassServer(options, {"play": factory}, io.StringIO(), live=False)
    stop = asyncio.Event()
    task = loop.create_task(server.run(stop))
    await asyncio.wait_for(server.ready.wait(), WAIT)
    assert server.telnet is not None
    return server, seated, stop, task


async def seat(port: int, seated: queue.Queue[Seated], drainer: Drainer, terminals: int,
               columns: int, rows: int) -> list[Client]:
    """``terminals`` clients connected and seated, each with its script, their greetings
    typed (one at a time: the n-th seated console is the n-th client's)."""
    loop = asyncio.get_running_loop()
    clients = []
    for index in range(terminals):
        client = Client(port, columns, rows)
        client.script = SCRIPT[index % len(SCRIPT):] + SCRIPT[:index % len(SCRIPT)]
        drainer.clients.append(client)
        client.seated = await loop.run_in_executor(None, seated.get, True, WAIT)
        clients.append(client)
    for client in clients:  # the greeting typed
        while client.seated.console.typing or not _free(client.seated.console):  # type: ignore[union-attr]
            await asyncio.sleep(0.01)
    return clients


async def measure(columns: int, rows: int, terminals: int, warmup: int, moves: int,
                  repeats: int, profile: cProfile.Profile | None,
                  pause: float = 0.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    server, seated, stop, task = await start_server(terminals)
    assert server.telnet is not None
    drainer = Drainer()
    drainer.start()
    clients = await seat(server.telnet.bound_port, seated, drainer, terminals, columns, rows)

    async def rounds(count: int, pause: float = 0.0) -> None:
        """The clients' moves; the server's thread only serves them meanwhile (it is
        woken once at the end, never polled: its CPU is the figure)."""
        results: queue.Queue[object] = queue.Queue()
        finished = loop.create_future()

        def done() -> None:
            loop.call_soon_threadsafe(finished.set_result, None)

        thread = threading.Thread(target=drive, args=(clients, count, loop, results, done,
                                                         pause))
        thread.start()
        await finished
        thread.join()
        error = results.get()
        if error is not None:
            raise error  # type: ignore[misc]

    await rounds(warmup)  # the machines' first replies compile their code
    per_move = []
    for _ in range(repeats):
        received = sum(c.received for c in clients)
        if profile is not None:
            profile.enable()
        started = time.thread_time()
        await rounds(moves, pause)
        cpu = time.thread_time() - started
        if profile is not None:
            profile.disable()
        per_move.append(cpu / (moves * terminals) * 1000)
    written = (sum(c.received for c in clients) - received) / (moves * terminals)
    outcomes = [s.served.results() for s in (c.seated for c in clients) if s is not None]
    stop.set()
    await asyncio.wait_for(task, WAIT)
    drainer.stopping = True
    drainer.join(5)  # before the sockets close under its select
    for client in clients:
        client.sock.close()
    wins, draws, losses = (sum(o[i] for o in outcomes) for i in range(3))
    return {"per_move": per_move, "bytes": written, "wins": wins, "draws": draws,
            "losses": losses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="80x24,120x40,200x60")
    parser.add_argument("--terminals", type=int, default=10, help="seated and playing")
    parser.add_argument("--moves", type=int, default=20, help="a terminal's moves a repeat")
    parser.add_argument("--warmup", type=int, default=6, help="moves each before measuring")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds a terminal thinks between its moves (a class: 1.2)")
    parser.add_argument("--profile", action="store_true",
                        help="print the server thread's cProfile top lists (its CPU time)")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load average "
          f"{os.getloadavg()[0]:.2f}, {args.terminals} terminals, {args.moves} moves each "
          f"x {args.repeats} repeats, pause {args.pause:g} s")
    print("| terminal | server CPU a move ms, median | min | max | bytes a move "
          "| UNIVAC wins / draws / opponent wins |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes.split(","):
        columns, rows = (int(part) for part in size.split("x"))
        profile = cProfile.Profile(time.thread_time) if args.profile else None
        figures = asyncio.run(measure(columns, rows, args.terminals, args.warmup, args.moves,
                                      args.repeats, profile, args.pause))
        per_move = figures["per_move"]
        print(f"| {size} | {statistics.median(per_move):.2f} | {min(per_move):.2f} "
              f"| {max(per_move):.2f} | {figures['bytes']:,.0f} "
              f"| {figures['wins']} / {figures['draws']} / {figures['losses']} |", flush=True)
        if profile is not None:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(args.top)
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
