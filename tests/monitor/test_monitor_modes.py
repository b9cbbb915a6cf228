"""The monitor's keyboard mode follows the machine (issue 13 follow-up): a boot, reset or
clear ends a keyboard wait and empties the keyboard, whatever was typed for the old run."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from univac_ttt.machine.word import from_text
from univac_ttt.monitor.app import KEYBOARD_HINT, MonitorApp, memory_line
from univac_ttt.monitor.core import Monitor
from univac_ttt.monitor.panes import (
    MEMORY_NARROW,
    MEMORY_WIDE,
    PAPER_WIDTH,
    SIDE_WIDTH,
    Panes,
    plan,
)
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")


def at_keyboard() -> Monitor:
    m = Monitor.for_pack(TTT)
    m.execute("go")
    assert m.waiting_for_keyboard
    return m


def test_boot_at_a_keyboard_wait_leaves_keyboard_mode():
    m = at_keyboard()
    out = m.execute("boot")
    assert not m.waiting_for_keyboard
    assert "waiting for the keyboard" not in out[-1] and out[-1].startswith("next: 000 left")
    assert m.execute("where")[0].startswith("000 left = LOAD")


def test_boot_drops_a_word_typed_for_the_old_run():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("boot")
    assert m.keyboard.pending_words == []
    out = m.execute("continue")  # the loader, then the new game's first keyboard wait
    assert m.waiting_for_keyboard and "waiting for the keyboard" in out[-1]
    assert "X" not in "".join(m.execute("board"))  # no stale 5 played


def test_a_word_typed_after_boot_waits_for_the_new_run():
    m = at_keyboard()
    m.execute("boot")
    assert "will read it at its next 10" in m.execute("type 5")[0]
    m.execute("continue")
    assert m.keyboard.pending_words == [] and m.waiting_for_keyboard  # the 5 was read


def test_reset_and_clears_leave_keyboard_mode():
    for command in ("reset", "desk general-clear", "desk initial-read"):
        m = at_keyboard()
        m.execute("type 5")
        m.execute(command)
        assert not m.waiting_for_keyboard, command
    m = at_keyboard()
    m.execute("reset")
    assert m.keyboard.pending_words == []


def test_moving_cc_away_from_the_read_ends_the_wait():
    m = at_keyboard()
    m.execute("deposit CC 100")
    assert not m.waiting_for_keyboard


def test_the_keyboard_hint_says_what_is_true_in_each_mode():
    m = at_keyboard()
    assert "[waiting for the keyboard: use 'type TEXT']" in m.describe_stop()
    with create_pipe_input() as pipe:
        MonitorApp(m, input=pipe, output=DummyOutput())
        assert KEYBOARD_HINT in m.describe_stop() and "type TEXT" not in m.describe_stop()


# ---- attach: one reel, one Uniservo ------------------------------------------------------

def _reel(tmp_path, name="sum.tape"):
    path = tmp_path / name
    blank = Monitor({0: from_text("520100900000")})
    blank.execute(f"attach 2 {path}:rw")
    blank.execute("go 0")
    blank.execute("detach 2")
    return path


def test_attach_refuses_a_unit_that_has_a_reel(tmp_path):
    m = at_keyboard()  # the shipped tape is on Uniservo 1
    reel = _reel(tmp_path)
    out = m.execute(f"attach 1 {reel}:rw")
    assert out == ["?? Uniservo 1 already has tictactoe.tape mounted: detach 1 first; "
                   "nothing was mounted"]
    assert m.machine.tapes[1].reel.name == "tictactoe.tape"
    m.execute("detach 1")
    assert m.execute(f"attach 1 {reel}")[0].startswith("attached: Uniservo 1")


def test_one_file_is_not_mounted_on_two_units(tmp_path):
    m = Monitor({})
    reel = _reel(tmp_path)
    assert m.execute(f"attach 2 {reel}")[0].startswith("attached")
    out = m.execute(f"attach 3 {tmp_path}/../{tmp_path.name}/sum.tape:rw")
    assert out[0].startswith("?? ") and "already mounted on Uniservo 2" in out[0]
    assert m.machine.tapes[3].reel is None and set(m.mounts) == {2}
    m.execute("detach 2")
    assert m.execute(f"attach 3 {reel}:rw")[0].startswith("attached: Uniservo 3")


# ---- panes -------------------------------------------------------------------------------

def test_every_pane_off_leaves_no_pane_area():
    assert plan(Panes("off", False, False, False), 100, 30).top_rows == 0
    assert plan(Panes("off", True, False, False), 100, 30).top_rows > 0


def test_narrow_has_no_remark_and_no_more_than_its_columns():
    for columns, rows in ((80, 24), (100, 30), (120, 40), (160, 48)):
        narrow = plan(Panes("narrow"), columns, rows)
        assert not narrow.memory_wide and narrow.memory_width <= MEMORY_NARROW
        assert plan(Panes("wide"), columns, rows).memory_wide


def test_the_paper_column_widens_to_whole_lines_when_there_is_room():
    assert plan(Panes("off"), 100, 30).side_width == PAPER_WIDTH
    assert plan(Panes("wide"), 120, 40).side_width == PAPER_WIDTH
    assert plan(Panes("off"), 80, 24).side_width == SIDE_WIDTH  # 80 columns: 38 + 1 + 41


@given(st.integers(0, 120))
def test_a_memory_line_never_cuts_a_field(width):
    line = memory_line("▶007 100340000000", [" 10 340 KEY     ", "00 000         ", "ASK:"],
                       "stall, input-ready lamp lit", width)
    assert len(line) <= width
    assert line.endswith(("100340000000", "KEY", "000", "ASK:", "lit", "…")) or width < 17
    if line.endswith("…"):  # the remark cut after a whole word
        shown, remark = line[line.index("ASK:") + 4:-1].strip(), "stall, input-ready lamp lit"
        assert shown and remark.startswith(shown) and remark[len(shown)] in " ,"


def _screen(app: MonitorApp, columns: int, rows: int) -> str:
    """The monitor's screen as prompt_toolkit's own renderer draws it at columns x rows."""
    import asyncio
    import io

    import pyte
    from prompt_toolkit.application.current import set_app
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.output.vt100 import Vt100_Output
    from prompt_toolkit.renderer import Renderer

    class Sink(io.StringIO):
        def isatty(self) -> bool:
            return True

    sink = Sink()
    output = Vt100_Output(sink, lambda: Size(rows=rows, columns=columns), term="xterm",
                          default_color_depth=ColorDepth.DEPTH_1_BIT, enable_cpr=False)

    async def draw() -> None:  # buffer windows ask for a running loop
        with set_app(app.app):
            app.app.output = output
            app.layout.before_render(app.app)
            Renderer(app.app.renderer.style, output, full_screen=True).render(
                app.app, app.app.layout)
    asyncio.run(draw())
    screen = pyte.Screen(columns, rows)
    pyte.Stream(screen).feed(sink.getvalue())
    return "\n".join(screen.display)


@pytest.mark.parametrize("columns, rows", [(60, 20), (60, 14), (40, 12), (80, 24)])
@pytest.mark.parametrize("memory", ["wide", "narrow", "off"])
def test_a_small_screen_shows_the_panes_that_fit_never_window_too_small(columns, rows,
                                                                         memory):
    with create_pipe_input() as keys:
        app = MonitorApp(Monitor.for_pack(TTT), input=keys, output=DummyOutput())
        app.monitor.panes.memory = memory
        screen = _screen(app, columns, rows)
    assert "Window too small" not in screen
    assert "LECTURE MONITOR" in screen and "monitor>" in screen
    shown = plan(app.monitor.panes, columns, rows)
    if shown.registers:
        assert "REGISTERS" in screen
    if memory == "off" and columns >= 40:
        assert shown.registers  # the registers take the room the memory view left


@pytest.mark.parametrize("columns, rows", [(200, 60), (160, 48), (120, 40)])
def test_the_registers_stand_beside_the_memory_lines_on_a_wide_screen(columns, rows):
    """At 200x60 the memory view took every column the panes left, so the registers stood
    at column 155, some 90 columns right of the longest remark."""
    with create_pipe_input() as keys:
        app = MonitorApp(Monitor.for_pack(TTT), input=keys, output=DummyOutput())
        lines = _screen(app, columns, rows).splitlines()
    heading = next(line for line in lines if "REGISTERS" in line)
    memory_end = max(len(line.split("│")[0].rstrip()) for line in lines[2:20])
    assert heading.index("REGISTERS") <= MEMORY_WIDE + 3
    assert heading.index("REGISTERS") - memory_end <= 40  # beside the remarks, not far off
    assert plan(Panes(), columns, rows).memory_width <= MEMORY_WIDE


@pytest.mark.parametrize("columns, rows", [(200, 60), (120, 40), (80, 24), (300, 120)])
def test_a_tall_screen_gives_its_rows_to_the_memory_view(columns, rows):
    """At 200x60 the panes stopped at 26 rows, so a projector showed 24 memory words above
    29 rows of mostly empty command output; the memory pane fills its rows whatever the
    height, and its last line says which half of the word runs next."""
    with create_pipe_input() as keys:
        app = MonitorApp(Monitor.for_pack(TTT), input=keys, output=DummyOutput())
        lines = _screen(app, columns, rows).splitlines()
    shown = plan(Panes(), columns, rows)
    words = [line for line in lines if re.match(r"^[ ▶*]\d{3} ", line)]
    assert len(words) == shown.top_rows - 2
    assert any(line.startswith("  next: left half of 000") for line in lines)
    output = shown.top_rows + 3  # title, panes, state line, rule: then the output
    assert rows - 2 - output >= (rows - 5) // 3 - 1  # the command output keeps its third


@pytest.mark.parametrize("columns, rows", [(200, 60), (120, 40), (80, 24)])
def test_the_registers_show_cr_s_instructions_whole(columns, rows):
    """After a step from a labelled word, the registers' CR line read "CR   U00000000000
    U0 000 START | 00 0": the pair beside the word was cut at the pane's 38 columns, at
    200x60 too. The pair now has a line of its own, whole."""
    monitor = Monitor.for_pack(TTT)
    monitor.execute("deposit 000 U0 000 B0 340")  # labelled halves: START and KEY
    monitor.execute("step")
    with create_pipe_input() as keys:
        app = MonitorApp(monitor, input=keys, output=DummyOutput())
        app.state.freeze()
        lines = _screen(app, columns, rows).splitlines()
    registers = [line.split("│")[-1] for line in lines if "│" in line]
    assert any(line.startswith("CR   U00000B00340") for line in registers)
    assert any(line.strip() == "U0 000 START | B0 340 KEY" for line in registers)
    assert any(line.startswith("rY, rI, rO") for line in registers)  # still room for all


def test_a_cr_pair_too_long_for_the_pane_drops_its_labels():
    from univac_ttt.monitor.app_state import _compact_registers
    from univac_ttt.monitor.panes import REGISTERS_WIDTH

    monitor = Monitor.for_pack(TTT)
    monitor.execute("deposit 000 B0 174 B0 056")  # BADCODE+2 and OPENING+3: 40 columns
    monitor.execute("step")
    lines = _compact_registers(monitor)
    assert all(len(line) <= REGISTERS_WIDTH for line in lines)
    cr = lines.index(next(line for line in lines if line.startswith("CR ")))
    assert lines[cr + 1].split() == ["B0", "174", "|", "B0", "056"]
