"""Each checking stop lights its own neon on the desk, every front end shows it, the stop's
message names the same neon, and CLEAR C or GENERAL CLEAR puts it out (docs/fidelity.md,
"The desk")."""

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.monitors import game_monitor
from univac_ttt.console.side_panel import lamp_for
from univac_ttt.desk import Desk
from univac_ttt.desk.neons import FAULTS, label, neon_of
from univac_ttt.desk.session import GameSession
from univac_ttt.machine import MachineOptions, StopKind
from univac_ttt.machine.word import from_text
from univac_ttt.monitor.app import MonitorApp
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()

# One program per error neon: the stop it makes, and the neon's label.
PROGRAMS = {
    "ODD-EVEN CHECK": ({0: "B00100900000", 100: "000000000005"}, "fault"),
    "ADDER FAULT": ({0: "B00100A00101", 1: "900000000000", 100: "00000000000A",
                     101: "00000000000B"}, ""),
    "OVERFLOW": ({0: "B00100A00100", 1: "900000000000", 100: "099999999999"}, "stop"),
    "DIVIDE OVERFLOW": ({0: "L00101D00100", 1: "900000000000", 100: "000000000009",
                         101: "000000000001"}, ""),
    "INVALID INSTRUCTION": ({0: "I00000900000"}, ""),
    "BAD ADDRESS": ({0: "B0010(900000"}, ""),
}


def _desk(words, how):
    options = MachineOptions(overflow="stop") if how == "stop" else None
    desk = Desk({a: from_text(w) for a, w in words.items()}, options)
    if how == "fault":
        desk.machine.inject_fault(100, 11, 0)
    return desk


@pytest.mark.parametrize("neon", sorted(PROGRAMS))
def test_each_error_stop_lights_its_own_neon_and_the_message_agrees(neon):
    desk = _desk(*PROGRAMS[neon])
    stop = desk.run()
    assert stop.kind is StopKind.ERROR
    assert desk.neons.lit() == [neon] and desk.neons.error == [neon]
    assert label(neon_of(stop.reason)) == neon


def test_every_neon_has_a_program_here():
    assert {label(name) for name in FAULTS} - {"TAPE CHECK"} == set(PROGRAMS)


def test_the_odd_even_message_names_its_neon_and_clear_c_puts_it_out():
    desk = _desk(*PROGRAMS["ODD-EVEN CHECK"])
    stop = desk.run()
    assert "the ODD-EVEN CHECK neon is lit" in stop.reason
    desk.clear_c()
    assert desk.neons.lit() == [] and desk.stop is stop  # the record stays
    assert desk.run().kind is StopKind.ERROR  # the fault is still there: lit again
    assert desk.neons.error == ["ODD-EVEN CHECK"]
    desk.general_clear()
    assert desk.neons.lit() == []


def test_start_after_the_repair_runs_on_and_the_neon_goes_out():
    desk = _desk(*PROGRAMS["ODD-EVEN CHECK"])
    desk.run()
    desk.machine.clear_faults()
    assert desk.run().kind is StopKind.HALT and desk.neons.lit() == []


def test_the_input_ready_lamp_follows_the_keyboard_wait():
    desk = Desk({0: from_text("100100900000")})
    desk.run()
    assert desk.neons.lit() == ["INPUT READY"]
    desk.clear_c()
    desk.machine.cc = 5
    assert desk.neons.lit() == []


def test_the_monitor_shows_the_neon_in_desk_and_on_the_state_line():
    mon = game_monitor()
    mon.execute("go")
    mon.execute("fault BRD+5 12 0")
    mon.execute("type 9")
    assert "ODD-EVEN CHECK neon" in mon.execute("continue")[-1]
    assert mon.execute("desk")[0] == "neons: ODD-EVEN CHECK"
    with create_pipe_input() as pipe:
        app = MonitorApp(mon, input=pipe, output=DummyOutput())
        assert "neons: ODD-EVEN CHECK" in app.state.frozen.state
        pipe.send_text(":desk clear-c\r\x11\x11")
        assert app.run() == 0
    assert mon.execute("desk")[0] == "neons: none lit"


def test_the_console_lamp_names_the_neon():
    session = GameSession(SHIPPED.image.words)
    session.desk.machine.inject_fault(405, 11, 0)
    session.submit("5")
    lamp = lamp_for(session, typing=False)
    assert lamp.label == "ERROR STOP" and lamp.detail.startswith("neon: ODD-EVEN CHECK;")


def test_the_kiosk_shows_the_neon_to_the_visitor(tmp_path):
    from univac_ttt.kiosk.app import KioskApp
    from univac_ttt.museum.controller import Kiosk, KioskSettings

    settings = KioskSettings(pin="2468", printouts=tmp_path / "p", stats=tmp_path / "t.json",
                             idle_seconds=60, authentic=False, first_demo=0)
    kiosk = Kiosk(SHIPPED.image.words, SHIPPED.program, settings)
    assert kiosk.error_stop == ""
    kiosk.session.desk.machine.inject_fault(405, 11, 0)
    kiosk.submit("5")
    assert "ODD-EVEN CHECK neon is lit" in kiosk.error_stop
    with create_pipe_input() as pipe:
        app = KioskApp(kiosk, input=pipe, output=DummyOutput())
        assert "ODD-EVEN CHECK" in "".join(text for _, text in app._hint())
    kiosk.new_game()
    assert kiosk.error_stop == "" and kiosk.session.waiting_for_keyboard
