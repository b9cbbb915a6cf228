"""The tapes through the desk: attach, detach, boot, the lamps, snapshots over tape moves,
and the program booted by INITIAL READ in play, the console, the kiosk and the referee."""

import pytest
from conftest import n, w
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support import command
from univac_ttt.console.app import ConsoleApp, ConsoleSettings
from univac_ttt.desk import Desk, TapeUnitError, tape_unit
from univac_ttt.desk.desk import LOADER_LIMIT
from univac_ttt.desk.session import GameSession
from univac_ttt.desk.tapelamps import loaded_note, tape_lamp, tape_seconds
from univac_ttt.machine import StopKind
from univac_ttt.machine.tape import BLOCK_CYCLE_PULSES, BLOCK_WORDS, Reel
from univac_ttt.machine.word import ZERO
from univac_ttt.packs.tictactoe import fresh_tictactoe_tape, load_tictactoe
from univac_ttt.program.boottape import boot_reel
from univac_ttt.verify.referee import Referee

SHIPPED = load_tictactoe()
HALT = w("900000000000")


def block(*words: str) -> tuple[str, ...]:
    return tuple(words) + (ZERO,) * (BLOCK_WORDS - len(words))


def numbered(first: int) -> tuple[str, ...]:
    return tuple(n(first + i) for i in range(BLOCK_WORDS))


class FakeClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


# ---- the desk's Uniservos ----------------------------------------------------------------

def test_attach_shows_the_reel_and_detach_takes_it_off():
    desk = Desk()
    reel = Reel([numbered(0), numbered(60)], name="data")
    desk.attach(3, reel)
    (view,) = desk.tape_units()
    assert (view.unit, view.reel, view.position, view.blocks, view.moving) == (
        3, "data", 0, 2, "")
    assert view.line() == "Uniservo 3  data  2 blocks, at the start  (read only)"
    assert len(desk.tape_units(mounted_only=False)) == 10
    assert desk.detach(3) is reel and desk.tape_units() == []
    assert desk.detach(3) is None


@pytest.mark.parametrize("unit", [0, 11, -1])
def test_a_unit_the_desk_lacks_is_refused(unit):
    with pytest.raises(TapeUnitError):
        Desk().attach(unit, Reel())


def test_units_are_named_as_the_instruction_names_them():
    assert tape_unit("1") == 1 and tape_unit("-") == 10 and tape_unit("10") == 10
    with pytest.raises(TapeUnitError, match="not a Uniservo"):
        tape_unit("A")


def test_boot_is_clear_c_then_initial_read():
    desk = Desk({100: n(1)})
    desk.attach(1, Reel([block(HALT)], name="one"))
    desk.machine.cc, desk.machine.half = 400, 1
    assert desk.boot() is None
    assert (desk.machine.cc, desk.machine.half) == (0, 0)
    assert desk.machine.mem[0] == HALT and desk.machine.mem[100] == n(1)
    assert desk.run().kind is StopKind.HALT


def test_boot_without_a_reel_is_a_stop_and_changes_nothing():
    desk = Desk({0: n(5)})
    before = desk.snapshot()
    stop = desk.boot()
    assert stop is not None and stop.is_error and "no reel" in stop.reason
    assert desk.machine.mem == list(before.mem)


def test_the_lamps_show_a_moving_tape_at_the_machine_time():
    desk = Desk({0: w("110000900000")})
    desk.attach(1, Reel([numbered(0)], name="t"))
    desk.step(1)  # 11: the block comes into rI while the computer goes on
    (view,) = desk.tape_units()
    assert view.moving == "reading" and view.position == 1  # the block takes its time
    desk.machine.pulses += BLOCK_CYCLE_PULSES
    assert desk.tape_units()[0].moving == ""


def test_load_tape_loads_the_program_and_hands_over_at_000():
    desk = Desk()
    desk.machine.mem[:] = [n(9)] * 1000
    assert desk.load_tape(fresh_tictactoe_tape()) is None
    assert desk.machine.mem == [SHIPPED.image.words.get(a, ZERO) for a in range(1000)]
    assert desk.machine.next_instruction_address() == (0, "left")
    moves = desk.tape_moves
    assert [m.block for m in moves] == list(range(1, 19))
    assert all(m.motion == "reading" and m.unit == 1 and m.blocks == 18 for m in moves)
    # One block a tenth of a second, one after the other, from the machine's clock.
    assert all(b.start >= a.start + BLOCK_CYCLE_PULSES for a, b in zip(moves, moves[1:],
                                                                            strict=False))
    assert desk.run().kind is StopKind.KEYBOARD


def test_load_tape_reports_a_loader_that_never_hands_over():
    desk = Desk()
    looping = Reel([block(w("000000U00000")), numbered(0)], name="loops")
    stop = desk.load_tape(looping)
    assert stop is not None and stop.is_error and "did not hand over" in stop.reason
    assert desk.machine.instructions == LOADER_LIMIT
    halting = Reel([block(HALT)], name="halts")
    assert Desk().load_tape(halting).kind is StopKind.HALT


def test_load_tape_with_an_empty_reel_is_the_initial_read_stop():
    stop = Desk().load_tape(Reel([], name="blank"))
    assert stop is not None and stop.is_error and "initial read" in stop.reason


# ---- exact snapshots over tape instructions ------------------------------------------------

def test_restore_puts_back_the_head_the_buffers_and_the_busy_time():
    desk = Desk({0: w("120000300200"), 1: w("220000300300"), 2: HALT})
    desk.attach(2, Reel([numbered(100), numbered(200)], name="data"))
    before = desk.snapshot()
    desk.step(1)
    middle = desk.snapshot()
    assert desk.machine.tapes[2].position == 1 and desk.machine.tapes[2].busy_until > 0
    desk.run()
    assert desk.machine.tapes[2].position == 0
    desk.restore(middle)
    servo = desk.machine.tapes[2]
    assert servo.position == 1 and servo.busy_until == middle.tapes.units[0].busy_until
    assert desk.machine.ri == list(numbered(100)) and desk.snapshot() == middle
    desk.restore(before)
    assert servo.position == 0 and servo.busy_until == 0 and desk.snapshot() == before


def test_restore_undoes_a_write_on_the_reel():
    desk = Desk({0: w("520100900000"), 100: n(7)})
    reel = Reel([numbered(0)], writable=True, name="out")
    desk.attach(2, reel)
    before = desk.snapshot()
    desk.run()
    assert reel.block_count == 1 and reel.blocks[0][0] == n(7) and reel.written
    desk.restore(before)
    assert reel.blocks == [numbered(0)] and not reel.written
    assert desk.machine.tapes[2].reel is reel and desk.machine.tapes[2].position == 0


def test_restore_remounts_a_reel_detached_since():
    desk = Desk()
    reel = Reel([numbered(0)], name="r")
    desk.attach(4, reel)
    state = desk.snapshot()
    desk.detach(4)
    desk.restore(state)
    assert desk.machine.tapes[4].reel is reel


# ---- the lamps replayed at tape speed --------------------------------------------------

def test_the_lamp_names_each_block_as_its_time_comes():
    desk = Desk()
    desk.load_tape(fresh_tictactoe_tape())
    moves = desk.tape_moves
    assert tape_lamp(moves, 0.05) == "UNISERVO 1 READING  block 1 of 18"
    assert tape_lamp(moves, 0.15) == "UNISERVO 1 READING  block 2 of 18"
    assert tape_lamp(moves, 1.75) == "UNISERVO 1 READING  block 18 of 18"
    assert tape_lamp(moves, tape_seconds(moves) + 0.01) == "" == tape_lamp([], 1.0)
    assert tape_seconds(moves) == pytest.approx(1.8, abs=0.1)
    assert loaded_note(moves, "tictactoe.tape").startswith(
        "Loaded from tictactoe.tape on Uniservo 1 by INITIAL READ: 18 blocks in 1.8 s")


# ---- the front ends boot the tape ------------------------------------------------------------

def test_a_game_session_boots_its_tape_each_game():
    session = GameSession(SHIPPED.image.words, tape=fresh_tictactoe_tape())
    assert session.tape.name == "tictactoe.tape" and len(session.boot_moves) == 18
    assert session.waiting_for_keyboard and "NEW GAME" in session.paper
    # The figures of the first reply do not include the tape's time.
    assert session.last_move.pulses < session.boot_pulses
    session.submit("5")
    session.new_game()
    assert len(session.boot_moves) == 18 and session.machine.tapes[1].position == 18
    assert session.paper.count("NEW GAME") == 2


def test_a_session_without_a_tape_boots_one_made_from_its_words():
    session = GameSession({0: HALT})
    assert session.tape.block_count == 18 and session.halted


def test_a_session_whose_tape_cannot_boot_shows_the_stop():
    session = GameSession({}, tape=Reel([], name="blank"))
    assert session.error is not None and "initial read" in session.error


def run_authentic_console(clock):
    settings = ConsoleSettings(authentic=True, clock=clock)
    with create_pipe_input() as pipe:
        return ConsoleApp(lambda on_print: GameSession(
            SHIPPED.image.words, on_print=on_print, tape=fresh_tictactoe_tape()),
            settings, input=pipe, output=DummyOutput())


def test_the_console_in_authentic_speed_shows_the_tape_being_read():
    clock = FakeClock()
    console = run_authentic_console(clock)
    seen = []
    for _ in range(40):
        if console.show_tape_lamp():
            seen.append(console.hint)
        console.pacer.advance()
        clock.now += 0.05
    reading = [s for s in seen if s.startswith("UNISERVO 1 READING")]
    assert reading[0].endswith("block 1 of 18") and reading[-1].endswith("block 18 of 18")
    assert len(reading) == 18
    assert seen[-1].startswith("Loaded from tictactoe.tape")
    # Nothing was typed while the tape was read: the program had not started.
    assert "NEW GAME" not in console.pacer.text


def test_the_console_in_fast_speed_loads_at_once():
    clock = FakeClock()
    settings = ConsoleSettings(authentic=False, clock=clock)
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession(
            SHIPPED.image.words, on_print=on_print, tape=fresh_tictactoe_tape()),
            settings, input=pipe, output=DummyOutput())
    assert not console.show_tape_lamp() and "NEW GAME" in console.pacer.text


def test_the_kiosk_boots_the_tape_it_is_given(tmp_path):
    from univac_ttt.museum.controller import Kiosk, KioskSettings

    settings = KioskSettings(pin="1234", stats=tmp_path / "t.json",
                             printouts=tmp_path / "p", idle_seconds=60)
    kiosk = Kiosk(SHIPPED.image.words, SHIPPED.program, settings, fresh_tictactoe_tape())
    assert kiosk.session.tape.name == "tictactoe.tape"
    assert len(kiosk.session.boot_moves) == 18 and kiosk.session.waiting_for_keyboard


def test_the_referee_proves_the_booted_program():
    referee = Referee()
    assert referee.tape.name == "tictactoe.tape"
    report = referee.run()
    assert report.ok and report.booted_from == "tictactoe.tape"
    assert "program loaded by INITIAL READ from    tictactoe.tape" in report.table()


def test_the_referee_fails_a_tape_that_does_not_boot():
    referee = Referee()
    referee.tape = Reel([], name="blank")
    report = referee.run()
    assert not report.ok and report.machine_faults == 1


def test_a_patched_program_is_judged_from_a_patched_tape():
    patch = {SHIPPED.program.address_of("BRD") + 1: n(4)}  # X already on square 1
    referee = Referee(patch=patch)
    assert referee.tape.name != "tictactoe.tape"
    assert referee.tape.blocks != boot_reel(SHIPPED.image.words).blocks


def test_play_plain_boots_a_tape_made_from_its_image(tmp_path):

    image = tmp_path / "halt.img"
    image.write_text("000 900000000000\n", encoding="utf-8")
    result = command.univac("play", "--plain", "--image", str(image))
    # The loader's 20 instructions and 18 blocks of tape time, then the stop at 000.
    assert "normal stop at 000 (left): stop instruction (90); 21 instructions, 1.801 s" \
        in result.stderr
