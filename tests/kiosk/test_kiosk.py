"""The museum kiosk with a fake clock and a pipe: no real waiting anywhere."""

import json
import logging

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.fake_clock import FakeClock
from univac_ttt.desk.session import GameSession
from univac_ttt.kiosk.app import KioskApp
from univac_ttt.kiosk.bigboard import big_board
from univac_ttt.kiosk.supervisor import supervise
from univac_ttt.museum.controller import ATTRACT, WELCOME, Kiosk, KioskSettings, Mode
from univac_ttt.museum.stats import TallyFile
from univac_ttt.packs.tictactoe import DEMO_GAMES, load_tictactoe, results_in
from univac_ttt.packs.tictactoe.board import last_printed_board

SHIPPED = load_tictactoe()
F12, F2 = "\x1b[24~", "\x1bOQ"


@pytest.fixture
def clock():
    return FakeClock(5000.0)


@pytest.fixture
def make_kiosk(tmp_path, clock):
    def make(**changes):
        settings = KioskSettings(pin="2468", printouts=tmp_path / "printouts",
                                 stats=tmp_path / "tally.json", idle_seconds=60,
                                 authentic=False, first_demo=0, clock=clock)
        for key, value in changes.items():
            setattr(settings, key, value)
        return Kiosk(SHIPPED.image.words, SHIPPED.program, settings)
    return make


def test_demonstration_scripts_end_as_promised():
    for moves, expected in DEMO_GAMES:
        session = GameSession(SHIPPED.image.words, results=results_in)
        for move in moves:
            session.submit(move)
        assert session.score.games == 1, moves
        assert (session.score.univac_wins == 1) == (expected == "univac"), moves
    firsts = {moves[0] for moves, _ in DEMO_GAMES}
    assert firsts == set("123456789")


def test_visitor_game_is_tallied_and_printed(make_kiosk, tmp_path):
    kiosk = make_kiosk()
    for move in ("2", "8", "0", "1", "4"):
        kiosk.submit(move)
    today = kiosk.tally.today()
    assert (today.games, today.univac_wins, today.bad_codes) == (1, 1, 1)
    saved = list((tmp_path / "printouts").rglob("*.txt"))
    assert len(saved) == 1
    text = saved[0].read_text()
    assert text.startswith("NEW GAME") and text.rstrip().endswith("THANK YOU FOR THE GAME.")
    on_disk = json.loads((tmp_path / "tally.json").read_text())
    assert list(on_disk.values())[0]["games"] == 1


def test_captions_say_which_rule_decided(make_kiosk):
    kiosk = make_kiosk()
    kiosk.submit("5")
    assert "opening" in kiosk.caption
    kiosk.submit("9")
    assert "one O and two blanks" in kiosk.caption or "two X" in kiosk.caption
    kiosk.submit("0")
    assert "not a square code" in kiosk.caption


def test_captions_keep_the_kiosks_runs_on_the_compiled_path(make_kiosk):
    """The captions ride on the desk's observer hook, not on breakpoints: the kiosk's
    replies run compiled (a breakpoint would send every instruction to the interpreter),
    and each caption is still noticed."""
    kiosk = make_kiosk()
    machine = kiosk.session.desk.machine
    counted = {"run": 0, "interpreted": 0}

    def counting(name, real):
        def wrapped(*args, **kwargs):
            before = machine.instructions
            result = real(*args, **kwargs)
            counted[name] += max(0, machine.instructions - before)
            return result
        return wrapped

    machine.run = counting("run", machine.run)
    machine._run_generic = counting("interpreted", machine._run_generic)
    captions = []
    for _ in range(3):  # the same game thrice: a pair compiles the second time it is seen
        for move in "5973":
            kiosk.submit(move)
            captions.append(kiosk.caption)
    assert any("opening" in c for c in captions) and any("two X" in c for c in captions)
    assert counted["run"] > 5_000
    assert counted["interpreted"] < counted["run"] // 5, counted
    assert not machine.break_addresses and not machine.arrivals  # nothing left behind


def test_idle_starts_attract_mode_and_abandons_the_game(make_kiosk, clock):
    kiosk = make_kiosk()
    kiosk.submit("5")
    clock.now += 59
    kiosk.tick()
    assert kiosk.mode is Mode.PLAYING
    clock.now += 1
    kiosk.tick()
    assert kiosk.mode is Mode.ATTRACT and kiosk.caption == ATTRACT
    assert kiosk.tally.today().abandoned == 1
    assert last_printed_board(kiosk.game_paper) == (0,) * 9


def test_attract_mode_plays_different_demonstrations(make_kiosk, clock):
    kiosk = make_kiosk(idle_seconds=10)
    clock.now += 10
    kiosk.tick()
    for _ in range(200):
        clock.now += 1
        kiosk.tick()
    today = kiosk.tally.today()
    assert today.demonstrations >= 3 and today.games == 0
    assert kiosk.demo_index >= 3
    assert "UNIVAC WINS" in kiosk.session.paper and "DRAW" in kiosk.session.paper


def test_any_key_leaves_attract_mode_for_a_fresh_game(make_kiosk, clock):
    kiosk = make_kiosk(idle_seconds=10)
    clock.now += 10
    kiosk.tick()
    for _ in range(6):
        clock.now += 3
        kiosk.tick()
    assert kiosk.activity() is True  # the key only woke the kiosk
    assert kiosk.mode is Mode.PLAYING and kiosk.caption == WELCOME
    assert kiosk.session.waiting_for_keyboard
    assert last_printed_board(kiosk.game_paper) == (0,) * 9
    assert kiosk.submit("5")


def test_staff_exit_needs_the_pin(make_kiosk, clock):
    kiosk = make_kiosk()
    kiosk.staff_begin()
    assert kiosk.mode is Mode.STAFF
    assert not kiosk.staff_pin("1111") and kiosk.mode is Mode.PLAYING
    kiosk.staff_begin()
    clock.now += 31
    kiosk.tick()
    assert kiosk.mode is Mode.PLAYING  # the PIN prompt times out
    kiosk.staff_begin()
    assert kiosk.staff_pin("2468")


def run_app(kiosk, keys):
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())
        pipe.send_text(keys)
        return app, app.run()


def test_locked_keys_do_nothing_and_staff_leave_with_the_pin(make_kiosk):
    kiosk = make_kiosk()
    locked = "\x03\x1a\x1c\x11\x04" + "\x1bOR" + "\x1bOS"  # ^C ^Z ^\ ^Q ^D F3 F4
    app, code = run_app(kiosk, "5\r" + locked + F12 + "1111\r" + F12 + "2468\r")
    assert code == 0
    assert kiosk.session.words_typed == 1 and not kiosk.pacer.authentic
    assert kiosk.session.waiting_for_keyboard  # still playing after every locked key


def test_visitor_keys_are_filtered_and_f2_starts_again(make_kiosk):
    kiosk = make_kiosk()
    app, _ = run_app(kiosk, "!5\r" + F2 + F12 + "2468\r")
    assert kiosk.tally.today().abandoned == 1
    assert last_printed_board(kiosk.game_paper) == (0,) * 9


def test_supervisor_restarts_after_a_fault_and_logs_it(make_kiosk, caplog):
    made = []

    class Faulty:
        def run(self):
            raise RuntimeError("injected fault")

    class Staff:
        def run(self):
            return 0

    def make():
        made.append(len(made))
        return Faulty() if len(made) < 3 else Staff()

    sleeps = []
    with caplog.at_level(logging.ERROR, logger="univac_ttt.kiosk"):
        assert supervise(make, sleep=sleeps.append) == 0
    assert len(made) == 3 and sleeps == [1.0, 1.0]
    logged = [r for r in caplog.records if r.exc_info and "injected" in str(r.exc_info[1])]
    assert len(logged) == 2


def test_supervisor_restarts_a_real_kiosk_whose_key_handler_fails(make_kiosk, monkeypatch):
    apps, pipes = [], []

    def make():
        kiosk = make_kiosk()
        if not apps:
            monkeypatch.setattr(kiosk, "submit", lambda text: 1 / 0)
        context = create_pipe_input()
        pipe = context.__enter__()
        pipes.append(context)  # keep the pipe open while its app runs
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())
        pipe.send_text("5\r" if not apps else F12 + "2468\r")
        apps.append(app)
        return app

    assert supervise(make, sleep=lambda s: None, max_restarts=3) == 0
    assert len(apps) == 2
    for context in pipes:
        context.__exit__(None, None, None)


def test_tally_survives_a_crash_mid_write(tmp_path):
    path = tmp_path / "tally.json"
    tally = TallyFile(path)
    tally.today().games = 7
    tally.save()
    # A crash while writing leaves a half-written temporary file behind: ignored.
    (tmp_path / ".tally.json.tmp").write_text('{"2026-')
    assert TallyFile(path).today().games == 7


def test_damaged_tally_is_kept_aside_and_counting_starts_afresh(tmp_path):
    path = tmp_path / "tally.json"
    path.write_text("{not json")
    tally = TallyFile(path)
    assert tally.today().games == 0
    assert (tmp_path / "tally.json.damaged").exists()


def test_the_big_board_keeps_the_moves_through_many_bad_codes(make_kiosk):
    """Some thirty bad codes in a row pushed the last board out of the paper's tail that
    the kiosk reads, and the big board showed nine empty squares mid-game."""
    kiosk = make_kiosk()
    kiosk.submit("5")
    played = kiosk.board
    assert played is not None and played[4] == 1 and played.count(-1) == 1
    for _ in range(60):
        kiosk.submit("0")
    assert "NOT A SQUARE CODE" in kiosk.pacer.text[-200:]
    assert kiosk.board == played
    kiosk.submit("9" if played[8] == 0 else "7")
    assert kiosk.board is not None and kiosk.board.count(1) == 2


def test_big_board_shows_x_o_and_codes():
    lines = big_board((1, -1, 0, 0, 0, 0, 0, 0, 0))
    assert len(lines) == 17
    assert "▀█▄█▀" in lines[1] and "██   ██" in lines[1] and "3" in lines[2]


def test_idle_time_counts_only_once_the_typewriter_has_finished(make_kiosk, clock):
    kiosk = make_kiosk(authentic=True, idle_seconds=10)
    for _ in range(30):  # the greeting takes several seconds to type
        clock.now += 0.5
        kiosk.tick()
        assert kiosk.mode is Mode.PLAYING
    while kiosk.pacer.busy:
        clock.now += 0.5
        kiosk.tick()
    clock.now += 10
    kiosk.tick()
    assert kiosk.mode is Mode.ATTRACT


def test_attract_mode_does_not_restart_an_untouched_game(make_kiosk, clock):
    kiosk = make_kiosk(idle_seconds=10)
    clock.now += 10
    kiosk.tick()
    assert kiosk.mode is Mode.ATTRACT
    assert kiosk.session.paper.count("NEW GAME") == 1


def test_new_game_during_attract_mode_starts_exactly_one_game(make_kiosk, clock):
    kiosk = make_kiosk(idle_seconds=10)
    clock.now += 10
    kiosk.tick()
    for _ in range(5):
        clock.now += 3
        kiosk.tick()
    assert kiosk.tally.today().demonstrations == 1  # one just ended: its next game is typed
    greetings = kiosk.session.paper.count("NEW GAME")
    kiosk.new_game()
    assert kiosk.mode is Mode.PLAYING
    assert kiosk.session.paper.count("NEW GAME") == greetings  # that game is the visitor's
    assert kiosk.submit("5") and kiosk.board[4] == 1
    kiosk.new_game()  # F2 in a visitor's game boots one new game
    assert kiosk.session.paper.count("NEW GAME") == greetings + 1


def test_idle_counts_from_input_ready_even_when_ticks_come_late(make_kiosk, clock):
    """A visitor's move must never be abandoned before the reply was typed and the visitor
    had the whole idle time at INPUT READY, however seldom the screen ticks."""
    kiosk = make_kiosk(authentic=True, idle_seconds=5)
    while kiosk.pacer.busy:
        clock.now += 0.1
        kiosk.tick()
    assert kiosk.submit("5")
    pressed = clock.now
    clock.now += 6.0  # one late tick: the reply (about 5 s) is typed out in it
    kiosk.tick()
    assert not kiosk.pacer.busy and kiosk.pacer.finished_at > pressed + 1
    assert kiosk.mode is Mode.PLAYING  # INPUT READY lit under 5 s ago: not idle yet
    clock.now = kiosk.pacer.finished_at + 4.9
    kiosk.tick()
    assert kiosk.mode is Mode.PLAYING
    clock.now = kiosk.pacer.finished_at + 5.0
    kiosk.tick()
    assert kiosk.mode is Mode.ATTRACT and kiosk.tally.today().abandoned == 1
