"""No byte sequence from a keyboard ends a full-screen session (issue 16, part B).

The guarded parser is tested on its own, then each full-screen app (console, monitor,
kiosk) is fed the attack run's sequences and arbitrary bytes through a pipe and must still
answer its quit keys afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import re
import signal
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.application import Application
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.output import DummyOutput

from tests.support.fake_clock import FakeClock
from tests.support.sizes import APP_FUZZ_EXAMPLES, long_run, size
from univac_ttt.console.app import ConsoleApp, ConsoleSettings
from univac_ttt.desk.session import GameSession
from univac_ttt.kiosk.app import KioskApp
from univac_ttt.kiosk.supervisor import supervise
from univac_ttt.monitor.app import MonitorApp
from univac_ttt.monitor.core import Monitor
from univac_ttt.museum.controller import Kiosk, KioskSettings
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe
from univac_ttt.tui import keyguard
from univac_ttt.tui.ending import InputEnded, SignalEnded, TerminalLost
from univac_ttt.tui.guard import run_guarded, run_guarded_async
from univac_ttt.tui.keyguard import PASTE_LIMIT, GuardedParser, mouse_report_ok

SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")
PIN = "7Q#z90"
F12 = "\x1b[24~"
# The attack run's malformed mouse-like sequences (8 ValueError, 1 KeyError), and a
# cursor-position report too long for int().
MALFORMED = ["\x1b[1m", "\x1b[1;2m", "\x1b[<1;2m", "\x1b[;m", "\x1b[;;;;m", "\x1b[<;;M",
             "\x1b[;;M", "\x1b[<0;;M", "\x1b[M\xff\xff\xff", "\x1b[" + "9" * 5000 + ";1R"]


def parse(data: list[str], mouse: bool = False, clock: FakeClock | None = None,
          flush: bool = True) -> tuple[list[KeyPress], GuardedParser]:
    keys: list[KeyPress] = []
    parser = GuardedParser(keys.append, lambda: mouse, clock or FakeClock(100.0))
    for piece in data:
        parser.feed(piece)
    if flush:
        parser.flush()
    return keys, parser


# ---- the parser --------------------------------------------------------------------------

@pytest.mark.parametrize("sequence", MALFORMED)
def test_malformed_reports_are_dropped_and_typing_goes_on(sequence):
    for mouse in (False, True):
        keys, parser = parse([sequence + "5"], mouse=mouse)
        assert all(k.key not in (Keys.Vt100MouseEvent, Keys.CPRResponse) for k in keys)
        assert keys[-1] == KeyPress("5", "5")


def test_well_formed_mouse_reports_pass_only_while_mouse_support_is_on():
    wheel = ["\x1b[<64;10;5M", "\x1b[M`!!", "\x1b[96;14;13M"]
    for report in wheel:
        assert mouse_report_ok(report)
        on, _ = parse([report], mouse=True)
        assert [k.key for k in on] == [Keys.Vt100MouseEvent]
        off, parser = parse([report], mouse=False)
        assert off == [] and parser.dropped == 1
    assert not mouse_report_ok("\x1b[<64;99999;5M")  # a number no terminal sends


_REPORT_PIECES = st.sampled_from(["\x1b", "[", "<", ";", "M", "m", "R", "~", "O", "0", "1",
                                  "12", "5", "\r", "\x7f", "a", " "])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(_REPORT_PIECES, min_size=1, max_size=12).map("".join),
                 st.text(min_size=1, max_size=8),
                 st.tuples(st.sampled_from(["\x1b[", "\x1b[<", "\x1b[M", "\x1b", "[", ""]),
                           st.text(alphabet="0123456789;", max_size=7),
                           st.sampled_from(["R", "M", "m", "~", "!!", ""])).map("".join)))
def test_a_prefix_is_matched_as_prompt_toolkit_matches_it(prefix):
    """The guarded parser skips the report patterns for a prefix that does not start with
    Esc [: the same key (or none) as prompt_toolkit's own match, reports and all."""
    guarded = GuardedParser(lambda key: None)
    assert guarded._get_match(prefix) == Vt100Parser._get_match(guarded, prefix)


def test_the_report_patterns_skipped_are_anchored_where_the_guard_says():
    from prompt_toolkit.input import vt100_parser

    for pattern in (vt100_parser._cpr_response_re, vt100_parser._mouse_event_re):
        assert pattern.pattern.startswith("^" + re.escape(keyguard.REPORT_START))
    guarded = GuardedParser(lambda key: None)
    assert guarded._get_match("\x1b[12;40R") == Keys.CPRResponse
    assert guarded._get_match("\x1b[<64;10;5M") == Keys.Vt100MouseEvent
    assert guarded._get_match("\r") == Keys.ControlM and guarded._get_match("5") is None


def test_a_cursor_position_report_passes_when_it_is_sane():
    keys, _ = parse(["\x1b[12;40R"])
    assert [k.key for k in keys] == [Keys.CPRResponse]


def test_a_paste_typed_slowly_ends_at_the_first_pause():
    keys, parser = parse(["\x1b[200~", "12"], flush=False)
    assert keys == [] and parser.in_paste
    parser.flush()  # what the application does after ttimeoutlen without input
    assert keys == [KeyPress(Keys.BracketedPaste, "12")] and not parser.in_paste
    parser.feed("5")
    assert keys[-1] == KeyPress("5", "5")


def test_a_real_paste_arrives_whole_even_with_its_end_mark_split():
    keys, _ = parse(["x\x1b[200~line one\nline", " two\x1b[2", "01~y"])
    assert keys == [KeyPress("x", "x"), KeyPress(Keys.BracketedPaste, "line one\nline two"),
                    KeyPress("y", "y")]


def test_a_paste_is_cut_at_its_size_and_time_bounds():
    clock = FakeClock(100.0)
    keys, parser = parse(["\x1b[200~", "a" * (PASTE_LIMIT + 5000)], clock=clock, flush=False)
    assert parser.in_paste and parser.dropped == 5000
    parser.feed("b" * 10 + "\x1b[201~5")
    assert keys[0] == KeyPress(Keys.BracketedPaste, "a" * PASTE_LIMIT)
    assert keys[1] == KeyPress("5", "5")
    keys, parser = parse(["\x1b[200~", "1"], clock=clock, flush=False)
    clock.now += keyguard.PASTE_SECONDS + 0.1
    parser.feed("2")  # typed quickly, never a pause: still ended by time
    assert keys == [KeyPress(Keys.BracketedPaste, "12")] and not parser.in_paste


def test_an_endless_escape_prefix_is_flushed_as_keys():
    keys, _ = parse(["\x1b[" + "1" * 10_000], flush=False)
    assert len(keys) > 9_000  # typed digits, not a prefix held in memory


def test_prefix_cache_stays_bounded(monkeypatch):
    # a bound of 500 instead of 10,000: the same clearing, a twentieth of the parsing
    # (each new prefix is compared with every known sequence, ~0.2 ms)
    limit = 500
    monkeypatch.setattr(keyguard, "PREFIX_CACHE_LIMIT", limit)
    cache = keyguard._parser_module._IS_PREFIX_OF_LONGER_MATCH_CACHE
    parse(["\x1b[" + str(n) for n in range(limit + 100)])
    parse(["x"])
    assert len(cache) <= limit + 10


@given(chunks=st.lists(st.tuples(st.text(max_size=30) | st.sampled_from(
    ["\x1b[200~", "\x1b[201~", "\x1b[", "\x1b[<", "\x1b[M", "\x1b"] + MALFORMED[:-1]),
    st.booleans(), st.booleans()), max_size=20))
def test_any_text_any_pauses_then_a_pause_and_a_key_gives_that_key(chunks):
    clock = FakeClock(100.0)
    keys: list[KeyPress] = []
    parser = GuardedParser(keys.append, lambda: True, clock)
    for text, pause, late in chunks:
        parser.feed(text)
        clock.now += 3.0 if late else 0.0
        if pause:
            parser.flush()
    parser.flush()
    assert not parser.in_paste
    parser.feed("5")
    parser.flush()
    assert keys[-1] == KeyPress("5", "5")
    assert all(k.key != Keys.Vt100MouseEvent or mouse_report_ok(k.data) for k in keys)


# ---- a small app with mouse support on: guarded, not disabled ----------------------------

def test_mouse_support_on_still_survives_malformed_reports():
    kb = KeyBindings()
    kb.add("q")(lambda event: event.app.exit(result="quit"))
    with create_pipe_input() as pipe:
        app: Application[str] = Application(layout=Layout(Window()), key_bindings=kb,
                                            mouse_support=True, full_screen=True,
                                            input=pipe, output=DummyOutput())
        with too_long_for_int() as report:
            pipe.send_text("".join(MALFORMED[:-1]) + report + "\x1b[<64;1;1M" + "q")
            assert run_guarded(app) == "quit"


def test_an_app_on_a_server_loop_is_guarded_too():
    kb = KeyBindings()
    kb.add("q")(lambda event: event.app.exit(result="quit"))
    with create_pipe_input() as pipe:
        app: Application[str] = Application(layout=Layout(Window()), key_bindings=kb,
                                            input=pipe, output=DummyOutput())
        with too_long_for_int() as report:
            pipe.send_text("".join(MALFORMED[:-1]) + report + "q")
            # unguarded, a bad report raises inside the key processor and "q" is never seen
            assert asyncio.run(asyncio.wait_for(run_guarded_async(app), 10)) == "quit"


# ---- the three apps through a pipe -------------------------------------------------------

class Driven:
    """An app with its pipe; ``run`` feeds steps from a thread while the app runs."""

    def __init__(self, make: Callable[[object], object], quit_keys: list[str]) -> None:
        self.context = create_pipe_input()
        self.pipe = self.context.__enter__()
        self.front = make(self.pipe)
        self.app: Application[object] = self.front.app  # type: ignore[attr-defined]
        # the pause that ends an escape or a paste, waited on: each send is one write, in
        # the pipe whole before the app reads it, so no pause splits it however short
        self.app.ttimeoutlen = 0.005
        self.quit_keys = quit_keys
        self.alive_before_quit: bool | None = None
        self._fed = False  # the parser was fed since the last send
        self._flushed = False  # ... and flushed after that (the app's pause in the input)
        self._flush = threading.Event()  # set at each flush: the sender's wait ends at once

    def _watch_the_parser(self) -> None:
        """Note each feed and flush of the app's guarded parser, to wait on them."""
        parser = self.app.input.vt100_parser  # type: ignore[attr-defined]
        feed, flush = parser.feed, parser.flush

        def fed(data: str) -> None:
            self._fed, self._flushed = True, False
            feed(data)

        def flushed() -> None:
            self._flushed = self._fed
            flush()
            self._flush.set()

        parser.feed, parser.flush = fed, flushed

    def _send(self, data: bytes, end: float) -> None:
        """Send bytes, then wait until the app has read them all and, ttimeoutlen later,
        flushed its parser (a paste left open is ended there), or has ended."""
        self._fed = self._flushed = False
        self._flush.clear()
        self.pipe.send_bytes(data)
        if not data:
            return
        while self.app.is_running and time.monotonic() < end and not (
                self._flushed and fcntl.ioctl(self.pipe.pipe.read_fd, termios.FIONREAD,
                                              b"\0\0\0\0") == b"\0\0\0\0"):
            self._flush.wait(0.01)  # a flush, or a look at whether the app has ended
            self._flush.clear()

    def run(self, data: bytes, timeout: float = 20.0) -> object:
        def feed() -> None:
            end = time.monotonic() + timeout
            while not self.app.is_running and time.monotonic() < end:
                time.sleep(0.005)
            self._watch_the_parser()
            self._send(data, end)
            self.alive_before_quit = self.app.is_running and not self.app.is_done
            while self.app.is_running and time.monotonic() < end:
                for keys in self.quit_keys:  # each key alone, past a pause
                    self._send(keys.encode(), end)
            if self.app.is_running:  # not responsive: end it so the suite goes on
                self.app.loop.call_soon_threadsafe(  # type: ignore[union-attr]
                    lambda: self.app.exit(result="unresponsive"))

        thread = threading.Thread(target=feed, daemon=True)
        thread.start()
        try:
            return self.front.run()  # type: ignore[attr-defined]
        finally:
            thread.join(timeout)
            self.context.__exit__(None, None, None)


def console(folder: Path) -> Driven:
    settings_ = ConsoleSettings(save_directory=folder)
    return Driven(lambda pipe: ConsoleApp(
        lambda on_print: GameSession(SHIPPED.image.words, on_print=on_print), settings_,
        input=pipe, output=DummyOutput()), ["\x11\x11"])


def monitor(folder: Path) -> Driven:
    return Driven(lambda pipe: MonitorApp(Monitor.for_pack(TTT, tapes={}),
                                          input=pipe, output=DummyOutput()), ["\x11\x11"])


def kiosk(folder: Path) -> Driven:
    kiosk_settings = KioskSettings(pin=PIN, printouts=folder / "printouts",
                                   stats=folder / "tally.json", idle_seconds=60,
                                   authentic=False)
    return Driven(lambda pipe: KioskApp(Kiosk(SHIPPED.image.words, SHIPPED.program,
                                              kiosk_settings),
                                        input=pipe, output=DummyOutput()),
                  ["\x1b", F12 + PIN + "\r"])


APPS = {"console": console, "monitor": monitor, "kiosk": kiosk}
EXPECTED = {"console": 0, "monitor": 0, "kiosk": 0}
# Keys that legitimately end or change a session are kept out of the fuzz: the quit keys
# of console and monitor, Enter in the monitor (it runs commands, fuzzed elsewhere), and
# F12 in the kiosk (staff entry: two wrong PINs lock it for 30 s, on purpose).
STRIP = {"console": b"\x11\x04\x03", "monitor": b"\x11\x04\x03\r\n", "kiosk": b""}


def attack(name: str, data: bytes, folder: Path) -> None:
    data = bytes(b for b in data if b not in STRIP[name])
    if name == "kiosk":  # wrong PINs after F12 lock staff entry for 30 s, by design
        while F12.encode() in data:
            data = data.replace(F12.encode(), b"")
    driven = APPS[name](folder)
    result = driven.run(data)
    assert driven.alive_before_quit, f"{name} ended on {data!r}"
    assert result == EXPECTED[name], f"{name} did not answer its quit keys after {data!r}"


@contextlib.contextmanager
def too_long_for_int() -> Iterator[str]:
    """A cursor-position report too long for int(), as the apps are sent it. At Python's
    own limit (4,300 digits) that is MALFORMED's 5,000 digits, which a guarded app types as
    5,000 keys (~0.7 s of CPU an app, most of the three tests' time); by default the limit
    is lowered to its least, 640, for the test and 700 digits sent: the same ValueError in
    an unguarded app's int() (checked 2026-12-04 with the guard taken away: all three apps
    end on it; at the default limit, 700 digits end none). ``--long`` sends the 5,000."""
    if long_run():
        yield MALFORMED[-1]
        return
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        yield "\x1b[" + "9" * 700 + ";1R"
    finally:
        sys.set_int_max_str_digits(before)


@pytest.mark.parametrize("name", sorted(APPS))
def test_each_app_survives_the_attack_sequences(name, tmp_path):
    for sequence in MALFORMED[:-1] + ["\x1b[200~"]:
        attack(name, sequence.encode("utf-8", "surrogateescape"), tmp_path)
    with too_long_for_int() as report:
        attack(name, report.encode(), tmp_path)


def test_staff_pin_works_after_a_slowly_typed_paste_start(tmp_path):
    driven = kiosk(tmp_path)
    slow = [c.encode() for c in "\x1b[200~"]
    driven.quit_keys = [F12 + PIN + "\r"]  # no Escape: the pause alone ends the paste
    assert driven.run(b"".join(slow)) == 0


PIECES = st.one_of(
    st.binary(max_size=24),
    st.sampled_from([s.encode("utf-8", "surrogateescape") for s in MALFORMED[:-1]] + [
        b"\x1b[200~", b"\x1b[201~", b"\x1b[", b"\x1b[<", b"\x1b[M", b"\x1bO", b"\x1b\x1b",
        b"\x1b[24~", b"\x1bOP", b"\x1bOQ", b"\x1b[15~", b";", b"9999", b"\r", b"\xff\xfe",
        b"\x1b[<64;10;5M", b"\x1b[12;40R"]),
)


@pytest.mark.parametrize("name", sorted(APPS))
@settings(max_examples=size(*APP_FUZZ_EXAMPLES), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(PIECES, max_size=12))
def test_any_bytes_leave_each_app_running_and_responsive(name, pieces, tmp_path):
    attack(name, b"".join(pieces), tmp_path)


# ---- ways out that are not faults --------------------------------------------------------

def test_sigterm_ends_the_app_through_its_normal_exit_and_restores_handlers(tmp_path):
    before = signal.getsignal(signal.SIGTERM)
    driven = monitor(tmp_path)
    driven.app.pre_run_callables.append(
        lambda: threading.Timer(0.2, signal.raise_signal, (signal.SIGTERM,)).start())
    with pytest.raises(SignalEnded) as ended:
        driven.front.run()  # type: ignore[attr-defined]
    driven.context.__exit__(None, None, None)
    assert ended.value.exit_code == 128 + signal.SIGTERM
    assert str(ended.value) == "stopped by SIGTERM"
    assert signal.getsignal(signal.SIGTERM) == before


def test_the_end_of_input_is_input_ended_not_a_fault(tmp_path):
    driven = console(tmp_path)
    driven.pipe.close()
    with pytest.raises(InputEnded):
        driven.front.run()  # type: ignore[attr-defined]
    driven.context.__exit__(None, None, None)


@pytest.mark.parametrize(("ending", "code"), [
    (SignalEnded(signal.SIGHUP), 0), (SignalEnded(signal.SIGTERM), 0), (InputEnded(), 74),
    (TerminalLost(), 74)])
def test_the_kiosk_supervisor_stops_rather_than_restarts_when_a_session_ends(ending, code):
    made = []

    class Ended:
        def run(self) -> int:
            raise ending

    def make() -> Ended:
        made.append(1)
        return Ended()

    assert supervise(make, sleep=lambda s: None) == code
    assert len(made) == 1


def test_a_served_console_survives_the_attack_sequences_over_telnet():
    from tests.support.serving import connected, key_in, run, serving

    async def scenario() -> None:
        async with serving() as server:
            client = await connected(server)
            for sequence in MALFORMED[:-1] + ["\x1b[200~"]:  # the long report types digits
                await client.send(sequence)
                await asyncio.sleep(0.02)  # each sequence its own write
            await asyncio.sleep(0.7)  # a pause ends the paste mark
            assert client.keyboard_line() == ""
            await key_in(client, "5")
            assert client.board() == list("O234X6789")
            assert len(server.table.seats) == 1  # still seated: the session never ended
            await client.close()

    run(scenario())
