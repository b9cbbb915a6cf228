"""The lecture monitor: every command, bad input, exact back-stepping, tours, UI, CLI."""

import json
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support.command import univac
from tests.support.monitors import game_monitor
from univac_ttt.machine.word import from_int, from_text, to_int
from univac_ttt.monitor.app import MonitorApp
from univac_ttt.monitor.core import COMMANDS, Monitor, find_command
from univac_ttt.monitor.script import run_script
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")

# Every central-computer instruction kind, in a loop (no keyboard: it never waits).
ALL_KINDS = {i: from_text(t) for i, t in enumerate([
    "B00100L00101", "F00102A00101", "S00101X00000", "M00103N00103", "P00103D00103",
    "E00102H00105", "C00106G00107", "J00108K00000", "V00100W00110", "Y00100Z00120",
    "B00100T00012", ".10000;10000", "-10000010000", "000000,00000", "500109R00140",
    "B00100L00100", "Q00018000000", "900000000000", "000000U00000"])}
ALL_KINDS.update({100: from_int(5), 101: from_int(7), 102: from_text("101010101010"),
                  103: from_int(3), 109: from_text("ιιιιιιιιιιιι")})


def at_keyboard():
    m = game_monitor()
    m.execute("go")
    return m


def test_commands_resolve_by_name_alias_and_unique_prefix():
    assert find_command("s").name == "step" and find_command("exam").name == "examine"
    assert find_command("e").name == "examine" and find_command("CONT").name == "continue"
    with pytest.raises(Exception, match="could be"):
        find_command("re")  # registers, restore


def test_go_runs_to_the_keyboard_wait():
    m = game_monitor()
    out = m.execute("go")
    assert "waiting for the keyboard" in out[-1] and m.waiting_for_keyboard
    assert m.machine.next_instruction_address() == (SHIPPED.program.address_of("ASK"), "left")


def test_go_with_an_address_starts_there():
    m = Monitor({5: from_text("900000000000")})
    assert "normal stop" in m.execute("go 5")[-1]


def test_step_counts_instructions():
    m = at_keyboard()
    m.execute("type 5")
    before = m.machine.instructions
    m.execute("step 7")
    assert m.machine.instructions == before + 7


def test_next_steps_over_a_subroutine_call():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("break XPLAYS")
    m.execute("go")
    m.execute("step 4")  # to the R0 MARKX / U0 MARK word
    call = m.machine.next_instruction_address()[0]
    m.execute("next")
    assert m.machine.next_instruction_address() == (call + 1, "left")


def test_break_at_an_address_and_on_operations():
    m = at_keyboard()
    m.execute("type 5")
    find = SHIPPED.program.address_of("FIND")
    assert m.execute("break FIND") == [f"break at {find:03d} (FIND)"]
    assert f"breakpoint at {find:03d}" in m.execute("continue")[-1]
    m.execute("nobreak FIND")
    m.execute("break -printer")
    out = m.execute("continue")[-1]
    assert "operation break" in out and " 50 " in out
    assert m.execute("show break") == ["break before every 50 instruction"]
    m.execute("nobreak -printer")
    m.execute("break -keyboard")
    assert "operation break" in m.execute("continue")[-1]
    assert m.execute("nobreak all") == ["all breakpoints removed"]
    assert m.execute("show break") == ["no breakpoints"]


def test_break_op_by_letter():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("break -op Q")
    out = m.execute("continue")[-1]
    assert "Q0" in out


def test_examine_words_ranges_and_registers():
    m = at_keyboard()
    lines = m.execute("examine 400-402")
    assert len(lines) == 3 and lines[0].startswith("400") and "BRD:" in lines[0]
    assert m.execute("e BRD+1:BRD+3")[0].startswith("401")
    elt = SHIPPED.program.address_of("ELT")
    assert m.execute("e ELT+2-ELT+3")[0].startswith(f"{elt + 2:03d}")
    assert m.execute("examine rA")[0].startswith("rA")
    assert len(m.execute("examine rY")) == 10
    assert m.execute("e CC") == [f"CC   {m.machine.cc:03d}"]
    assert "10 340 KEY" in m.execute("e SR")[0]


def test_deposit_words_numbers_instructions_and_registers():
    m = at_keyboard()
    m.execute("deposit 401 4")
    assert to_int(m.machine.mem[401]) == 4
    m.execute("d 402 ΔΔΔXιιιιιιιι")
    assert m.machine.mem[402] == from_text("ΔΔΔXιιιιιιιι")
    m.execute("d 403 B0 400 H0 341")
    assert m.machine.mem[403] == from_text("B00400H00341")
    m.execute("d rA -42")
    assert to_int(m.machine.a) == -42
    m.execute("d CC 9")
    assert m.machine.next_instruction_address() == (9, "left")


def test_watch_stops_when_a_word_changes():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("watch BRD+1")
    out = m.execute("continue")
    assert any("watch: 401 changed" in line for line in out)
    assert to_int(m.machine.mem[401]) == 1
    assert m.execute("nowatch all") == ["no watches"]


def test_trace_prints_each_instruction():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("trace on")
    out = m.execute("step 3")
    assert len(out) == 4 and out[0].startswith("007 left")
    assert m.execute("trace off") == ["trace off"]


def test_history_lists_the_last_instructions_and_changes_nothing():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("step 30")
    before = m.machine.snapshot()
    lines = m.execute("history 5")
    assert len(lines) == 5 and m.machine.snapshot() == before


def test_where_names_the_part_of_the_program():
    m = at_keyboard()
    out = m.execute("where")
    assert out[0].startswith("007 left = ASK") and "read and check" in out[0]


def test_type_refuses_missing_keys():
    m = at_keyboard()
    assert m.execute("type 5!")[0].startswith("??")
    assert m.keyboard.pending == 0


def test_paper_and_board():
    m = at_keyboard()
    m.execute("type 5")
    m.execute("continue")
    assert m.execute("board")[0] == "   O   2   3"
    assert m.execute("paper 3")[-2] == "|    7   8   9"


def test_help_lists_every_command():
    out = m = game_monitor().execute("help")
    for command in COMMANDS:  # each usage starts a line, its summary follows
        index = next(i for i, line in enumerate(out) if line.startswith(command.usage))
        assert command.summary[:20] in out[index] + out[index + 1]
    assert "step over" in game_monitor().execute("help next")[1]
    del m


def test_quit():
    m = game_monitor()
    assert m.execute("quit") == ["bye"] and m.finished


@pytest.mark.parametrize("line", [
    "zz", "step x", "step 0", "examine", "examine 1000", "examine NOWHERE", "e 10-5",
    "deposit 401", "deposit 401 !!", "deposit 401 1234567890123", "break -op ZZ",
    "nobreak 5", "nowatch 5", "trace maybe", "back 500", "go 1000", "show nothing",
    "save", "restore /nonexistent/file.json", "do /nonexistent/file", "next now",
    "continue 5", "e 0-999"])
def test_bad_commands_get_one_line_and_change_nothing(line):
    m = at_keyboard()
    before = m.machine.snapshot()
    out = m.execute(line)
    assert len(out) == 1 and out[0].startswith("??"), out
    assert m.machine.snapshot() == before


def test_back_is_exact_over_every_instruction_kind():
    m = Monitor(ALL_KINDS)
    states = [m.machine.snapshot()]
    for _ in range(60):  # three passes over the loop: every kind several times
        m.execute("step")
        states.append(m.machine.snapshot())
    for expected in reversed(states[:-1]):
        m.execute("back")
        assert m.machine.snapshot() == expected
    m.execute("step 60")
    assert m.machine.snapshot() == states[-1]


def test_back_over_keyboard_reads_and_printing_is_exact():
    m = at_keyboard()
    start = m.machine.snapshot()
    paper = m.desk.paper.text
    m.execute("type 5")
    m.execute("continue")
    m.execute("type 9")
    m.execute("continue")
    end = m.machine.snapshot()
    total = end.instructions - start.instructions
    m.execute(f"back {total}")
    assert m.machine.snapshot() == start and m.desk.paper.text == paper
    m.execute("continue")  # the same keyboard words are read again
    m.execute("continue")
    assert m.machine.snapshot() == end


def test_long_steps_run_at_full_speed_in_chunks():
    m = Monitor(ALL_KINDS)
    calls = []
    real_run = m.machine.run
    m.machine.run = lambda n=10**12: calls.append(n) or real_run(n)
    m.execute("step 100000")
    # one machine run per chunk between the desk's looks at its STOP key, no more
    chunks = 100000 // m.desk.limits.check_every
    assert m.machine.instructions == 100000 and len(calls) <= chunks + 2
    assert min(calls) >= m.desk.limits.check_every


def test_save_and_restore_round_trip(tmp_path):
    m = at_keyboard()
    m.execute("type 5")
    m.execute("step 40")
    path = tmp_path / "state.json"
    m.execute(f"save {path}")
    data = json.loads(path.read_text())
    assert data["format"].startswith("univac-ttt machine state") and len(data["memory"]) == 1000
    saved = m.machine.snapshot()
    m.execute("continue")
    m.execute(f"restore {path}")
    assert m.machine.snapshot() == saved


def test_restore_refuses_a_bad_file_and_changes_nothing(tmp_path):
    m = at_keyboard()
    before = m.machine.snapshot()
    bad = tmp_path / "bad.json"
    for text in ("not json", json.dumps({"format": "x"}),
                 json.dumps({"format": "univac-ttt machine state 1", "memory": ["x"] * 1000})):
        bad.write_text(text)
        out = m.execute(f"restore {bad}")
        assert out[0].startswith("??") and m.machine.snapshot() == before


def test_do_runs_a_script_file(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("go\ntype 5\ncontinue\nboard\n")
    m = game_monitor()
    out = m.execute(f"do {script}")
    assert "monitor> board" in out and "   O   2   3" in out


@pytest.mark.parametrize("tour", ["opening", "block", "loading"])
def test_lecture_tours_match_their_expected_output(tour):
    import io
    script = (ROOT / "docs" / "lecture" / f"{tour}.txt").read_text().splitlines()
    out = io.StringIO()
    assert run_script(game_monitor(), script, out) == 0
    assert out.getvalue() == (ROOT / "docs" / "lecture" / f"{tour}.out").read_text()


def test_monitor_ui_through_a_pipe():
    m = game_monitor()
    with create_pipe_input() as pipe:
        app = MonitorApp(m, input=pipe, output=DummyOutput())
        pipe.send_text("go\r5\r:board\r:where\r\x11\x11")
        assert app.run() == 0
    text = "\n".join(app.lines)
    assert "UNIVAC KEYBOARD ▸ 5" in text and "   O   2   3" in text
    assert "monitor> where" in text


def test_ctrl_z_types_nothing_into_the_command_line():
    """prompt_toolkit's Emacs keys typed a literal ^Z: "go" after it was "no command
    '\\x1ago'" though the line looked like go."""
    from univac_ttt.monitor.app_keys import NO_CTRL_Z

    with create_pipe_input() as pipe:
        app = MonitorApp(game_monitor(), input=pipe, output=DummyOutput())
        pipe.send_text("\x1ago\r\x11\x11")
        assert app.run() == 0
    text = "\n".join(app.lines)
    assert NO_CTRL_Z in text and "monitor> go" in text and "no command" not in text


def test_the_command_line_holds_a_do_file_line_and_says_so_once():
    """A 30,000-key paste sent as keys took the monitor to 480 MB (each key copied and
    indexed the whole line)."""
    from univac_ttt.monitor.app_layout import LINE_FULL

    with create_pipe_input() as pipe:
        app = MonitorApp(game_monitor(), input=pipe, output=DummyOutput())
        pipe.send_text("9" * 1_500 + "\r\x11\x11")
        assert app.run() == 0
    lines = list(app.lines)
    assert lines.count(LINE_FULL) == 1 and "1,000 characters" in LINE_FULL
    assert "monitor> " + "9" * 1_000 in lines


def test_a_yank_repeated_by_a_count_is_held_to_the_command_line_too():
    """Emacs's Ctrl-Y after Esc and a count set the whole line past insert_text's limit: a
    line killed with Ctrl-U and yanked 999 times was 900,000 characters."""
    from univac_ttt.monitor.app_layout import LINE_FULL

    with create_pipe_input() as pipe:
        app = MonitorApp(game_monitor(), input=pipe, output=DummyOutput())
        pipe.send_text("9" * 900 + "\x15" + "\x1b999" + "\x19" + "\r\x11\x11")
        assert app.run() == 0
    lines = list(app.lines)
    assert lines.count(LINE_FULL) == 1
    assert "monitor> " + "9" * 1_000 in lines


def test_keyboard_mode_takes_only_colon_lines_as_commands():
    """Issue 13: `e NX` typed while the UNIVAC waits is a keyboard word, never half a
    command; ':' (no key of the UNIVAC keyboard) marks a command in keyboard mode."""
    from univac_ttt.machine.charset import BY_GLYPH

    assert ":" not in BY_GLYPH
    m = game_monitor()
    with create_pipe_input() as pipe:
        app = MonitorApp(m, input=pipe, output=DummyOutput())
        pipe.send_text("go\rexamine BRD\r:e NX\r\x11\x11")
        assert app.run() == 0
    text = "\n".join(app.lines)
    assert "UNIVAC KEYBOARD ▸ examine BRD" in text  # went to the UNIVAC, as typed
    assert "monitor> e NX" in text and "NX:" in text


def test_monitor_script_command_line(tmp_path):
    script = tmp_path / "tour.txt"
    script.write_text("go\nwhere\n")
    result = univac("monitor", "--script", str(script))
    assert result.returncode == 0 and "monitor> where" in result.stdout
    piped = univac("monitor", stdin="go\nzz\n")
    assert piped.returncode == 1 and "?? no command 'zz'" in piped.stdout
    missing = univac("monitor", "--script", str(tmp_path / "none.txt"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_a_script_takes_the_keyboard_mode_colon_as_the_full_screen_does():
    """A tour written at the full screen (':e NX' in keyboard mode) runs the same as a
    script or a do file: the ':' only marks a command (it said "no command ':e'")."""
    m = game_monitor()
    m.execute("go")
    assert m.execute(":e NX") == m.execute("e NX") and not m.execute(":e NX")[0].startswith("??")
    assert m.execute(":  where") == m.execute("where")


def test_monitor_on_a_coding_sheet(tmp_path):
    sheet = tmp_path / "p.ucs"
    sheet.write_text("000 START: B0 NUM  90 000  bring it\n010 NUM: = 7\n")
    result = univac("monitor", str(sheet), stdin="go\nexamine NUM\nwhere\n")
    assert "NUM:" in result.stdout and "normal stop" in result.stdout


def test_registers_lists_every_register():
    lines = at_keyboard().execute("registers")
    names = [line.split()[0] for line in lines]
    assert names[:4] == ["rA", "rX", "rL", "rF"] and names.count("rY") == 0
    assert sum(1 for n in names if n.startswith("rY")) == 10
    assert any(n == "CC" for n in names) and any(n == "SR" for n in names)


def test_show_options_and_watch():
    m = at_keyboard()
    options = m.execute("show options")
    assert "right half after a transfer: True" in options and "trace: off" in options
    m.execute("watch KEY")
    assert m.execute("show watch")[0].startswith("watching 340")


@pytest.mark.parametrize("spelling,code", [
    ("B", "B"), ("b", "B"), ("B0", "B"), ("50", "50"), (".n", ".n"), (".3", ".n"),
    (".", ".n"), ("-2", "-n"), ("03", "0n"), ("0n", "0n"), ("00", "00"), (",0", ",0")])
def test_operation_breaks_accept_coding_sheet_spellings(spelling, code):
    m = Monitor({})
    assert m.execute(f"break -op {spelling}") == [f"break before every {code} instruction"]


# ---- tapes: attach, detach, boot, show tapes --------------------------------------------

def write_reel(path, *words):
    path.write_text("".join(f"{word}\n" for word in words), encoding="utf-8")
    return path


def test_show_tapes_lists_the_shipped_tape_and_boot_reads_block_one():
    m = game_monitor()
    assert m.execute("show tapes") == [
        "Uniservo 1  tictactoe.tape  18 blocks, at the start  (read only)"]
    out = m.execute("boot")
    assert out[0].startswith("CLEAR C, INITIAL READ: block 1 of 18")
    assert out[1].startswith("next: 000 left  11 000")
    assert m.execute("where")[0] == "000 left = LOAD, in: Loader (block 1 of the tape)"


def test_break_and_watch_work_on_the_loader_and_back_steps_the_tape():
    m = game_monitor()
    m.execute("boot")
    assert m.execute("break -op 31") == ["break before every 3n instruction"]
    m.execute("continue")
    m.execute("continue")
    servo = m.machine.tapes[1]
    position, busy = servo.position, servo.busy_until
    m.execute("step 1")
    assert servo.position == position + 1
    m.execute("back 1")
    assert (servo.position, servo.busy_until) == (position, busy)
    m.execute("nobreak all")
    m.execute("watch 000")
    out = m.execute("continue")
    assert out[0].startswith("watch: 000 changed from 110000310060")
    m.execute("nowatch all")
    assert m.execute("continue")[-1].endswith("UNIVAC time)") and m.waiting_for_keyboard
    assert m.execute("where")[0].startswith("007 left = ")


def test_attach_a_hand_written_reel_and_boot_it(tmp_path):
    m = Monitor({})
    reel = write_reel(tmp_path / "sum.tape", "B00010A00011", "H00012900000",
                      *["000000000000"] * 8, "000000000005", "000000000007")
    out = m.execute(f"attach 1 {reel}")
    assert out == [f"attached: Uniservo 1  {reel}  1 blocks, at the start  (read only)"]
    m.execute("boot")
    m.execute("go 0")
    assert to_int(m.machine.mem[12]) == 12
    assert m.execute("detach 1") == [f"Uniservo 1: {reel} taken off"]
    assert m.execute("show tapes") == ["no reels mounted (attach N FILE)"]


def test_a_writable_reel_is_saved_on_detach(tmp_path):
    m = Monitor({0: from_text("520100900000"), 100: from_int(42)})
    target = tmp_path / "out.tape"
    m.execute(f"attach 2 {target}:rw")
    m.execute("go 0")
    assert not target.exists()  # saved only when it comes off the unit
    out = m.execute("detach 2")
    assert out[0] == f"saved the reel written on Uniservo 2 to {target}"
    assert "000000000042" in target.read_text()


@pytest.mark.parametrize("line, message", [
    ("attach", "attach N FILE"),
    ("attach 1", "attach N FILE"),
    ("attach 0 x.tape", "not a Uniservo"),
    ("attach 1 /no/such/reel.tape", "nothing was mounted"),
    ("detach", "detach N"),
    ("detach 11", "not a Uniservo"),
    ("boot 2", "always reads Uniservo 1"),
    ("show tape-drives", "show tapes"),
])
def test_bad_tape_commands_change_nothing(line, message):
    m = game_monitor()
    before = m.machine.snapshot()
    out = m.execute(line)
    assert out[0].startswith("??") and message in out[0]
    assert m.machine.snapshot() == before


def test_boot_with_no_reel_says_so():
    m = Monitor({})
    assert "no reel" in m.execute("boot")[0]


def test_a_saved_state_keeps_the_tapes(tmp_path):
    m = game_monitor()
    m.execute("boot")
    m.execute("step 5")
    saved = m.machine.snapshot()
    path = tmp_path / "state.json"
    m.execute(f"save {path}")
    data = json.loads(path.read_text())
    (unit,) = data["tapes"]["units"]
    assert unit["unit"] == 1 and unit["position"] == 6 and len(unit["reel"]["blocks"]) == 18
    m.execute("continue")
    m.execute("detach 1")
    m.execute(f"restore {path}")
    assert m.machine.snapshot() == saved
    fresh = game_monitor()
    fresh.execute(f"restore {path}")
    assert fresh.machine.snapshot() == saved


def test_a_saved_state_with_a_bad_tape_is_refused(tmp_path):
    m = game_monitor()
    path = tmp_path / "state.json"
    m.execute(f"save {path}")
    data = json.loads(path.read_text())
    data["tapes"]["units"][0]["position"] = 99
    path.write_text(json.dumps(data))
    before = m.machine.snapshot()
    assert m.execute(f"restore {path}")[0].startswith("?? not a saved machine")
    assert m.machine.snapshot() == before


@pytest.mark.parametrize("spelling, code", [("31", "3n"), ("3n", "3n"), ("1n", "1n"),
                                            ("5-", "5n"), ("8n", "8n"), ("30", "30")])
def test_break_on_tape_operations_as_the_op_table_spells_them(spelling, code):
    m = game_monitor()
    assert m.execute(f"break -op {spelling}") == [f"break before every {code} instruction"]
    assert f"break before every {code} instruction" in m.execute("show break")


def test_desk_initial_read_names_the_block_it_read():
    m = game_monitor()
    m.execute("desk initial-read")
    assert m.execute("desk initial-read")[0] == (
        "INITIAL READ: block 2 of Uniservo 1 read into 000-059")


def test_every_command_is_a_step_registered_from_its_topic_module():
    """One table, built by the decorator: each row's step lives in commands/<topic>.py,
    help lists the topics in order, and a spelling cannot be registered twice."""
    from univac_ttt.monitor.commands import registry

    assert {c.topic for c in COMMANDS} == set(registry.TOPICS)
    for command in COMMANDS:
        assert command.step.__module__ == f"univac_ttt.monitor.commands.{command.topic}"
    topics = [registry.TOPICS.index(c.topic) for c in COMMANDS]
    assert topics == sorted(topics) and COMMANDS[0].name == "step"
    with pytest.raises(ValueError, match="twice"):
        registry.command("s", usage="s", summary="a second step")(lambda mon, rest: [])
    assert find_command("s").name == "step" and len(COMMANDS) == len(set(COMMANDS))
