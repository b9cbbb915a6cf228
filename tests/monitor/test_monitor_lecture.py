"""Issue 13 (the lecturer) and issue 16 (bounded monitor work): breakpoints with counts and
commands, reset, the session log, back then a different move, bounds on do, trace,
history and watches, STOP in long commands, and the panes' plan."""

import os
import re
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support import command
from univac_ttt.desk import Limits
from univac_ttt.machine import StopKind
from univac_ttt.machine.word import ZERO, to_text
from univac_ttt.monitor import core
from univac_ttt.monitor.core import Monitor
from univac_ttt.monitor.panes import REGISTERS_WIDTH, SIDE_WIDTH, Panes, fit, plan
from univac_ttt.monitor.sessionlog import SessionLog
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")


def game_monitor(limits=None):
    return Monitor.for_pack(TTT, limits=limits, tapes={})


def empty_monitor(limits=None):
    """Memory all zeros: every word is two skips, so the machine circles 000-999 for ever
    (2,000 instructions a lap), the simplest program that never stops."""
    return Monitor({}, None, limits=limits)


# ---- back, then a different move ---------------------------------------------------------

def test_back_before_a_keyboard_read_then_type_plays_the_new_move():
    m = game_monitor()
    for line in ("go", "type 5", "continue"):
        m.execute(line)
    assert m.desk.paper.text.rstrip().endswith("7   8   9")
    out = m.execute("back 300")
    assert "recorded words again: 5" in out[-1]
    typed = m.execute("type 1")
    assert "replaces the recorded 1 word" in typed[-1]
    m.execute("continue")
    assert m.execute("board")[0].split() == ["X", "2", "3"]  # X took 1, not 5
    assert to_text(m.keyboard.log[-1]) == "000000000001" and m.keyboard.pending_words == []
    # The new future is exact too: back and forward again reproduce it.
    present = m.machine.snapshot()
    m.execute("back 100")
    m.execute("continue")
    assert m.machine.snapshot() == present


def test_back_then_continue_replays_the_recorded_word():
    m = game_monitor()
    for line in ("go", "type 5", "continue", "back 300", "continue"):
        m.execute(line)
    assert m.execute("board")[1].split() == ["4", "X", "6"]


def test_back_that_undoes_no_read_keeps_a_word_typed_ahead():
    m = game_monitor()
    m.execute("step 20")
    m.execute("type 5")  # typed ahead: the UNIVAC has not asked yet
    m.execute("back 5")
    assert not m.recorded_future
    m.execute("type 9")
    assert len(m.keyboard.pending_words) == 2


# ---- breakpoints with a count and with commands ------------------------------------------

def test_a_breakpoint_with_a_count_stops_on_that_arrival_then_every_time():
    m = empty_monitor()
    assert "arrival 3" in m.execute("break 005[3]")[0]
    m.execute("go")
    assert m.machine.instructions == 2 * 2000 + 10  # passed twice, stopped on the third
    assert m.machine.last_stop.kind is StopKind.MONITOR
    m.execute("continue")
    assert m.machine.instructions == 3 * 2000 + 10  # SIMH: after the count, every time
    assert m.execute("show break") == ["break at 005"]


def test_commands_attached_to_a_breakpoint_run_when_it_stops():
    m = empty_monitor()
    m.execute("break 005; examine rA; where")
    out = m.execute("go")
    assert "monitor> examine rA" in out and "monitor> where" in out
    assert out[-1].startswith("005 left")


def test_a_breakpoint_that_continues_itself_is_bounded(monkeypatch):
    monkeypatch.setattr(core, "COMMAND_BUDGET", 30)
    m = empty_monitor()
    m.execute("break 005; continue")
    out = m.execute("go")
    assert out[-1].startswith("?? this line has run 30 commands")
    assert m.machine.instructions == 30 * 2000 + 10  # go, then 30 continues


def test_bad_breakpoint_counts_and_actions_change_nothing():
    m = empty_monitor()
    for line in ("break 005[0]", "break -op B; where", "break ;", "break 005[x]",
                 "break -op ;n; where",
                 "break 5; " + "; ".join(["where"] * 21)):
        assert m.execute(line)[0].startswith("??"), line
    assert not m.machine.break_addresses and not m.break_actions


def test_nobreak_forgets_counts_and_actions():
    m = empty_monitor()
    m.execute("break 005[4]; where")
    m.execute("nobreak 005")
    assert not m.break_counts and not m.break_actions


# ---- reset and the session log ------------------------------------------------------------

def test_reset_reloads_the_program_and_keeps_breakpoints():
    m = game_monitor()
    for line in ("break FIND", "go", "type 5", "continue", "deposit 400 7"):
        m.execute(line)
    out = m.execute("new")
    assert out[0].startswith("a fresh machine")
    assert m.machine.instructions == 0 and m.desk.paper.text == ""
    assert m.machine.mem == [SHIPPED.image.words.get(a, ZERO) for a in range(1000)]
    assert m.keyboard.pending_words == [] and 114 in m.machine.break_addresses
    assert m.execute("go")[-1].startswith("next: 007")


def test_log_appends_each_command_and_its_output(tmp_path):
    path = tmp_path / "lecture.log"
    m = game_monitor()
    m.execute(f"log {path}")
    m.execute("examine BRD+5")
    m.execute("bogus")
    m.execute("log off")
    text = path.read_text()
    assert "monitor> examine BRD+5\n405" in text and "monitor> bogus\n?? no command" in text
    m.execute("where")
    assert "where" not in path.read_text()


def test_log_refuses_a_fifo_and_a_symlink(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    m = game_monitor()
    assert "FIFO" in m.execute(f"log {fifo}")[0]
    target = tmp_path / "target"
    target.write_text("keep\n")
    link = tmp_path / "link"
    link.symlink_to(target)
    assert m.execute(f"log {link}")[0].startswith("??")
    assert target.read_text() == "keep\n" and m.log is None


def test_a_log_that_reaches_its_bound_closes_and_says_so(tmp_path):
    m = game_monitor()
    m.log = SessionLog(str(tmp_path / "small.log"), limit=300)
    out = m.execute("help")
    assert out[-1].startswith("?? the log") and m.log is None
    assert os.path.getsize(tmp_path / "small.log") < 400


# ---- bounds on one command line (issue 16) -------------------------------------------------

def test_a_do_file_that_calls_itself_is_bounded(tmp_path):
    script = tmp_path / "self.txt"
    script.write_text(f"do {script}\n" * 10)
    out = empty_monitor().execute(f"do {script}")
    assert len(out) < 3 * core.COMMAND_BUDGET
    assert any(line.startswith("??") for line in out)


def test_do_file_lines_are_bounded(tmp_path):
    script = tmp_path / "long.txt"
    script.write_text("examine " + "1" * 5000 + "\nwhere\n")
    out = empty_monitor().execute(f"do {script}")
    assert "line 1: longer than 1,000 characters" in out[0]
    assert "monitor> where" in out


def test_trace_with_a_huge_step_stops_at_its_line_bound():
    m = empty_monitor()
    m.execute("trace on")
    out = m.execute("step 999999999")
    assert len(out) == core.TRACE_LIMIT + 2
    assert out[-2].startswith("?? trace printed 10,000 lines")
    assert m.machine.instructions == core.TRACE_LIMIT
    assert m.execute("back 10")[0].startswith("next:")  # checkpoints kept it short


def test_history_refuses_more_than_its_bound_and_changes_nothing():
    m = game_monitor()
    m.execute("go")
    before = m.machine.snapshot()
    out = m.execute("history 999999999")
    assert out == ["?? history lists at most 10,000 instructions (use back to go further)"]
    assert m.machine.snapshot() == before
    assert len(m.execute("history 10000")) == 170  # all there is


def test_watches_are_bounded():
    m = empty_monitor()
    for address in range(core.MAX_WATCHES):
        m.execute(f"watch {address + 500}")
    assert m.execute("watch 999")[0].startswith("?? at most 16 watches")
    assert m.execute("watch 500")[0].startswith("watching")  # the same one again is fine


def test_stop_ends_a_do_file_in_the_middle_of_a_runaway(tmp_path):
    script = tmp_path / "runaway.txt"
    script.write_text("go\nexamine 000\nexamine 001\n")
    m = empty_monitor(Limits(cap=10**12))
    timer = threading.Timer(0.3, m.desk.limits.stop)
    timer.start()
    out = m.execute(f"do {script}")
    timer.join()
    assert any("STOP was pressed at the desk" in line for line in out)
    assert out[-1] == f"?? STOP was pressed: {script} was left at line 2"
    assert "monitor> examine 000" not in out
    assert not m.desk.limits.interrupt.is_set()


def test_stop_pressed_before_a_do_file_runs_none_of_it(tmp_path):
    script = tmp_path / "steps.txt"
    script.write_text("step\nstep\n")
    m = empty_monitor()
    m.desk.limits.stop()
    assert m.execute(f"do {script}") == [f"?? STOP was pressed: {script} was left at line 1"]
    assert m.machine.instructions == 0


# ---- panes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_registers_board_and_paper_fit_small_screens_with_the_memory_view_off(size):
    columns, rows = size
    p = plan(Panes(memory="off"), columns, rows)
    assert p.registers and p.board and p.paper and not p.squeezed
    assert columns >= REGISTERS_WIDTH + 1 + SIDE_WIDTH
    assert p.top_rows >= 12  # the registers' heading and lines


def test_the_memory_view_comes_first_and_says_what_made_room():
    assert plan(Panes(), 100, 30).squeezed == ("board", "paper")
    assert plan(Panes(), 120, 40).squeezed == ()  # board and paper under the registers
    assert plan(Panes(memory="narrow"), 120, 40).memory_wide is False
    assert plan(Panes(registers=False, board=False, paper=False), 80, 24).memory_width == 80


def test_the_pane_command_sets_the_choice():
    m = empty_monitor()
    assert m.execute("pane memory off") == ["panes: memory off, registers on, board on, "
                                            "paper on"]
    assert m.execute("pane board off")[0] == ("panes: memory off, registers on, board off, "
                                              "paper on")
    assert m.execute("pane sideways on")[0].startswith("??")


@given(st.lists(st.text(max_size=40), min_size=1, max_size=6), st.integers(0, 200))
def test_the_state_line_never_exceeds_its_width(parts, width):
    assert len(fit(parts, width, "  ·  ")) <= width


# ---- docs/lecture.md says what works ------------------------------------------------------

LECTURE = Path(__file__).resolve().parents[2] / "docs" / "lecture.md"


def _table_rows(heading_cell: str) -> list[str]:
    rows, inside = [], False
    for line in LECTURE.read_text().splitlines():
        if line.startswith(f"| {heading_cell} |"):
            inside = True
        elif inside and not line.startswith("|"):
            break
        elif inside and not line.startswith("|---"):
            rows.append(line.split("|")[1])
    return rows


def test_every_command_in_the_lecture_guide_is_a_command():
    rows = _table_rows("command")
    assert len(rows) > 20
    for cell in rows:
        for spelled in re.findall(r"`([a-z]+)", cell):
            assert core.find_command(spelled).name, spelled


def test_every_key_in_the_lecture_guide_is_bound():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from univac_ttt.monitor.app import MonitorApp

    names = {"F10": "f10", "F5": "f5", "F2": "f2", "F3": "f3", "F4": "f4", "F6": "f6",
             "PageUp": "pageup", "PageDown": "pagedown", "Ctrl-C": "c-c", "Ctrl-Q": "c-q"}
    with create_pipe_input() as pipe:
        app = MonitorApp(game_monitor(), input=pipe, output=DummyOutput())
    bound = {str(getattr(k, "value", k)) for b in app.app.key_bindings.bindings for k in b.keys}
    documented = [key for cell in _table_rows("key") for key in names if key in cell]
    assert len(set(documented)) == len(names)
    for key in documented:
        assert names[key] in bound, key


def test_monitor_log_option_logs_the_session_and_refuses_a_device(tmp_path):

    log = tmp_path / "class.log"
    result = command.univac("monitor", "--log", str(log), stdin="where\n")
    assert result.returncode == 0 and "monitor> where\n000 left = START" in log.read_text()
    result = command.univac("monitor", "--log", "/dev/null")
    assert result.returncode == 2 and "device" in result.stderr


def test_completion_after_the_keyboard_mode_prefix():
    from prompt_toolkit.document import Document

    from univac_ttt.monitor.app import CommandCompleter

    completer = CommandCompleter(game_monitor())
    names = [c.text for c in completer.get_completions(Document(":exa"), None)]
    labels = [c.text for c in completer.get_completions(Document(":examine BR"), None)]
    # a command's name is completed with the space its operand needs ("examinerA" was no
    # command), a label without one (BRD+1)
    assert names == ["examine "] and "BRD" in labels
    assert [c.text for c in completer.get_completions(Document("exa"), None)] == ["examine "]
    shown = [c.display_text for c in completer.get_completions(Document("exa"), None)]
    assert shown == ["examine"]


def test_in_keyboard_mode_only_a_command_line_is_completed():
    """Waiting for the keyboard, a line without ':' goes to the UNIVAC: Tab completing
    "ex" to "examine" there made Enter send EXAMINE as a keyboard word."""
    from prompt_toolkit.document import Document

    from univac_ttt.monitor.app import CommandCompleter

    monitor = game_monitor()
    monitor.execute("go")
    assert monitor.waiting_for_keyboard
    completer = CommandCompleter(monitor)
    assert list(completer.get_completions(Document("ex"), None)) == []
    assert [c.text for c in completer.get_completions(Document(":ex"), None)] == ["examine "]


def test_the_output_and_paper_wrap_at_spaces_and_keep_every_word():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from univac_ttt.monitor.app import MonitorApp

    with create_pipe_input() as pipe:
        app = MonitorApp(game_monitor(), input=pipe, output=DummyOutput())
    width = app._output_width()
    sentence = " ".join(f"word{i:03d}" for i in range(60))
    app.lines.append(sentence)
    app._sync_output()
    rows = app.output_buffer.text.split("\n")[-8:]
    assert all(len(row) <= width for row in rows)
    assert " ".join(" ".join(rows).split()).endswith(sentence)  # no word cut in two
    app.monitor.execute("go")
    app._freeze()
    paper = app.paper_buffer.text.split("\n")
    assert "YOU MOVE FIRST. TYPE A SQUARE CODE, 1 TO" in paper and "9." in paper


def test_every_command_that_touches_files_is_refused_where_files_are_off():
    from univac_ttt.monitor.core import COMMANDS, Monitor
    from univac_ttt.packs.tictactoe import load_tictactoe

    class NoFiles(Monitor):
        files_allowed = False

    shipped = load_tictactoe()
    monitor = NoFiles(shipped.image.words, shipped.program)
    touching = [c.name for c in COMMANDS if c.files]
    assert set(touching) == {"attach", "detach", "save", "restore", "do", "log"}
    for name in touching:
        out = monitor.execute(f"{name} /tmp/univac-no-files-test")
        assert out == [f"?? {name}: this terminal cannot read or write files"]
