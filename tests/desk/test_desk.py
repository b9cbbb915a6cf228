"""The Supervisory Control desk: limits, STOP, observers, stamped and bounded paper, and
the rules that keep every way of running the UNIVAC going through it."""

import ast
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.terminal import Terminal

from tests.support.command import univac
from univac_ttt.desk import Desk, Limits
from univac_ttt.desk.paper import Paper
from univac_ttt.machine import StopKind
from univac_ttt.machine.word import from_text
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe

ROOT = Path(__file__).resolve().parents[2]
COMMAND = shutil.which("univac-ttt") or "univac-ttt is not installed: pip install '.[test]'"
LOOP = {0: from_text("000000U00000")}  # a transfer to itself: a runaway program
SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")


def test_a_runaway_program_stops_at_the_cap_and_can_go_on():
    desk = Desk(LOOP, limits=Limits(cap=30_000, check_every=7_000))
    stop = desk.run()
    assert stop.kind is StopKind.STEP_LIMIT and "limit of 30,000" in stop.reason
    assert desk.machine.instructions == 30_000 and desk.stop is stop
    assert desk.run().kind is StopKind.STEP_LIMIT and desk.machine.instructions == 60_000


def test_stop_from_another_thread_ends_a_run_quickly_and_leaves_it_resumable():
    desk = Desk(LOOP, limits=Limits(cap=10**12))
    timer = threading.Timer(0.2, desk.limits.stop)
    timer.start()
    started = time.perf_counter()
    stop = desk.run()
    took = time.perf_counter() - started
    assert stop.kind is StopKind.INTERRUPT and took < 0.2 + 0.5, took
    state = desk.snapshot()
    assert desk.run(1).kind is StopKind.STEP_LIMIT  # the flag was used up: START runs on
    assert desk.machine.instructions == state.instructions + 1


def test_stop_is_a_flag_by_default_and_an_event_when_a_front_end_passes_one():
    flag = Limits().interrupt
    assert not isinstance(flag, threading.Event) and not flag.is_set()
    flag.set()
    assert flag.is_set()
    flag.clear()
    assert not flag.is_set()
    event = threading.Event()
    desk = Desk(LOOP, limits=Limits(cap=10**12, check_every=1_000, interrupt=event))
    event.set()
    assert desk.run().kind is StopKind.INTERRUPT and not event.is_set()
    assert desk.run(5).kind is StopKind.STEP_LIMIT and "5 instructions executed" in \
        desk.stop.reason


def test_observers_notice_without_stopping_and_leave_breakpoints_alone():
    program = SHIPPED.program
    desk = Desk(SHIPPED.image.words)
    opening = program.address_of("OPENING")
    desk.observe = {opening: "opening"}
    desk.machine.break_addresses.add(program.address_of("RULEA"))
    assert desk.run().kind is StopKind.KEYBOARD
    desk.release("5")
    assert desk.run().kind is StopKind.KEYBOARD and desk.noticed == ["opening"]
    desk.release("9")
    stop = desk.run()
    assert stop.kind is StopKind.MONITOR and stop.address == program.address_of("RULEA")
    assert desk.machine.break_addresses == {program.address_of("RULEA")}


def test_an_observed_run_ends_exactly_as_an_unobserved_one():
    """Observing sends the pairs at the observed addresses through the interpreter and the
    rest through the compiled path: the machine ends in the same state, to the pulse."""
    plain, seen = Desk(SHIPPED.image.words), Desk(SHIPPED.image.words)
    seen.observe = {address: f"at {address:03d}" for address in range(0, 1000, 7)}
    notes = []
    for move in ["", *"5973", *"5973"]:
        for desk in (plain, seen):
            if move:
                desk.release(move)
            assert desk.run().kind is StopKind.KEYBOARD
        notes += seen.noticed
        assert seen.snapshot() == plain.snapshot() and seen.paper.text == plain.paper.text
    assert len(notes) > 100 and not plain.noticed
    assert not seen.machine.arrivals  # the hook is on only while the desk runs


def test_paper_is_stamped_with_the_decision_time_and_bounded():
    desk = Desk(SHIPPED.image.words, paper_limit=2_000)
    desk.run()
    for move in "5973" * 30:
        mark = desk.paper.end
        desk.release(move)
        desk.run()
        pieces = desk.paper.pieces_since(mark)
        assert pieces and pieces[0].since_release > 0
        assert all(p.pulses - p.since_release == desk.paper.released for p in pieces)
    assert desk.paper.characters <= 2_000 and len(desk.paper.text) == desk.paper.characters


def test_paper_positions_survive_trimming():
    paper = Paper(limit=10)
    for text in ("abcd", "efgh", "ijkl", "mnop"):
        paper.add(text, 0)
    assert paper.text == "ijklmnop" and paper.end == 4 and paper.since(3) == "mnop"
    assert paper.since(0) == "ijklmnop"
    paper.truncate(3)
    assert paper.text == "ijkl" and paper.end == 3


def test_kept_paper_leaves_the_collectors_rounds():
    """A paper's kept pieces are plain tuples of text and numbers, which CPython stops
    tracking once they have survived a collection: thousands of them a paper are not walked
    by every full collection of a served class. Listeners and readers still get
    PrintedChunks, with the same fields."""
    import gc

    from univac_ttt.desk.paper import PrintedChunk

    paper = Paper(limit=1_000)
    heard: list[PrintedChunk] = []
    paper.listeners.append(heard.append)
    for n in range(300):
        paper.add(f"W{n} ", 10 * n)
    paper.add_keyed("5", 3_000)
    gc.collect()
    assert not any(gc.is_tracked(piece) for piece in paper.chunks)
    pieces = paper.pieces_since(paper.end - 2)
    assert all(type(p) is PrintedChunk for p in (*pieces, *heard))
    assert pieces[0] == heard[-2] and pieces[0].text == "W299 " and pieces[0].pulses == 2_990
    assert pieces[1].keyed and pieces[1].text == "\n> 5\n" and heard[-1] == pieces[1]
    assert paper.typed_since(paper.end - 2) == "W299 "


def test_initial_read_without_a_reel_is_a_stop_that_changes_nothing():
    desk = Desk(LOOP)
    before = desk.snapshot()
    stop = desk.initial_read()
    assert stop is not None and stop.is_error and "Uniservo 1" in stop.reason
    assert desk.snapshot() == before


def loop_image(tmp_path):
    path = tmp_path / "loop.img"
    path.write_text("000 000000U00000\n")
    return path


def test_monitor_script_stops_a_runaway_at_the_cap(tmp_path):
    result = univac("monitor", str(loop_image(tmp_path)), stdin="go\n")
    assert result.returncode == 1, result.stdout
    assert "?? the program ran 5,000,000 instructions without stopping" in result.stdout


def test_play_plain_ends_a_runaway_with_a_message(tmp_path):
    result = univac("play", "--plain", "--image", str(loop_image(tmp_path)))
    assert result.returncode == 1
    assert "endless loop" in result.stderr and "Traceback" not in result.stderr


def test_ctrl_c_stops_a_runaway_in_the_full_screen_monitor(tmp_path):
    terminal = Terminal([COMMAND, "monitor", str(loop_image(tmp_path))], columns=100, rows=30)
    terminal.wait_for("monitor>")
    terminal.send("go 0\r")
    terminal.wait_for("Ctrl-C stops it")
    time.sleep(0.5)
    started = time.monotonic()
    terminal.send("\x03")
    screen = terminal.wait_for("operator stop", timeout=5)
    assert time.monotonic() - started < 1.0 + 0.5  # pty round trips on a busy machine
    assert "?? " not in screen
    terminal.send("step\r")  # the machine goes on from where it stopped
    terminal.wait_for("monitor> step")
    terminal.send("\x11\x11")
    assert terminal.close() == 0


def test_ctrl_c_pressed_three_times_on_a_runaway_stops_it_and_keeps_the_monitor(tmp_path):
    """Ctrl-C is STOP while a command runs and a quit key (press twice) when none does: an
    impatient lecturer's three quick Ctrl-Cs on a runaway stopped it, armed quit and quit,
    losing the session. A Ctrl-C within a second of STOP or a command's end is a late
    STOP; later, one Ctrl-C arms quit and the key bar names that key."""
    terminal = Terminal([COMMAND, "monitor", str(loop_image(tmp_path))], columns=100, rows=30)
    terminal.wait_for("monitor>")
    terminal.send("go 0\r")
    terminal.wait_for("Ctrl-C stops it")
    time.sleep(0.3)
    terminal.send("\x03")
    terminal.wait_for("operator stop", timeout=5)
    terminal.send("\x03\x03")  # the hand's next two presses, the run already stopped
    terminal.wait_for("Ctrl-C is STOP, and nothing is running now", timeout=5)
    terminal.send("step\r")  # still there
    screen = terminal.wait_for("monitor> step")
    assert "again quits" not in screen
    time.sleep(1.5)  # past the late-STOP moment: a Ctrl-C now is a first press of quit
    terminal.send("\x03")
    terminal.wait_for("Ctrl-C again quits")
    terminal.send("\x03")
    assert terminal.close() == 0


# ---- the rules: who may run a Machine, and who may import whom ------------------------

# The layers under and beside the front ends (docs/architecture.md); every other package of
# univac_ttt is a front end, so a new one is held to the rules without being listed here.
# museum/ is the exhibit's controller, driven by the kiosk and the browser page alike.
LAYERS = ("machine", "hostio", "program", "desk", "tui", "verify", "packs", "cli", "museum",
          "classroom")
FRONT_ENDS = tuple(sorted(
    path.name for path in (ROOT / "univac_ttt").iterdir()
    if (path / "__init__.py").is_file() and path.name not in LAYERS))
# Who may name a pack: the composer, the kiosk and its controller (museum/) and the referee
# (tic-tac-toe's own front end and judge), and the packs themselves. desk/ and program/
# never do; the browser page is handed its pack by the composer.
PACK_USERS = ("cli", "kiosk", "museum", "verify", "packs")
# The machine's own tests (tests/machine/: instructions, arithmetic, checking, tapes, timing),
# the loader's, and the shared helpers that build small machines.
MACHINE_TESTS = {"tests/conftest.py", "tests/program/test_boottape.py",
                 "tests/support/timing_probe.py"}


def _python_files():
    yield from (ROOT / "univac_ttt").rglob("*.py")
    yield from (ROOT / "tests").rglob("*.py")


def _package(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return parts[1] if parts[0] == "univac_ttt" and len(parts) > 2 else ""


def _imports(tree: ast.AST, path: Path) -> set[str]:
    """The univac_ttt packages a module imports."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = path.relative_to(ROOT).parts[:-node.level]
                name = ".".join(base[1:]) + ("." + node.module if node.module else "")
                names = [f"{name}.{alias.name}".strip(".") for alias in node.names]
            else:
                names = [(node.module or "").removeprefix("univac_ttt").strip(".")] \
                    if (node.module or "").startswith("univac_ttt") else []
            found.update(n.split(".")[0] for n in names if n)
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names
                         if a.name.startswith("univac_ttt."))
    return found


def test_only_the_desk_builds_or_runs_a_machine():
    offenders = []
    for path in _python_files():
        package = _package(path)
        tests_of = path.relative_to(ROOT).parts[:2]
        if package in ("machine", "desk") or tests_of == ("tests", "machine") \
                or path.relative_to(ROOT).as_posix() in MACHINE_TESTS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else (
                    func.attr if isinstance(func, ast.Attribute) else "")
                if name == "Machine" or (name in ("run", "step") and isinstance(
                        func, ast.Attribute) and getattr(func.value, "attr", getattr(
                            func.value, "id", "")) == "machine"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders


def test_front_ends_never_import_each_other():
    offenders = []
    for path in (ROOT / "univac_ttt").rglob("*.py"):
        package = _package(path)
        if package not in FRONT_ENDS:
            continue
        others = _imports(ast.parse(path.read_text(encoding="utf-8")), path)
        crossing = others & set(FRONT_ENDS) - {package}
        offenders += [f"{path.relative_to(ROOT)} imports {name}" for name in crossing]
    assert not offenders, offenders


def test_the_museum_controller_is_no_front_end_and_draws_nothing():
    """museum/ (attract mode, tally, PIN) is driven by the kiosk and the page alike."""
    for path in (ROOT / "univac_ttt" / "museum").glob("*.py"):
        imported = _imports(ast.parse(path.read_text(encoding="utf-8")), path)
        assert not imported & (set(FRONT_ENDS) | {"tui"}), (path, imported)
        text = path.read_text(encoding="utf-8")
        assert "prompt_toolkit" not in text and "aiohttp" not in text, path
def test_the_front_ends_are_found_not_listed():
    assert {"console", "monitor", "kiosk", "serve", "web"} <= set(FRONT_ENDS)
    assert not set(FRONT_ENDS) & set(LAYERS)


def _module_package(path: Path) -> str:
    """The package of a module, or its own name for a top-level module (cli.py: cli)."""
    parts = path.relative_to(ROOT).parts
    return parts[1] if len(parts) > 2 else parts[1].removesuffix(".py")


def test_only_the_composer_the_kiosk_and_the_referee_name_a_pack():
    offenders = []
    for path in (ROOT / "univac_ttt").rglob("*.py"):
        package = _module_package(path)
        if package in PACK_USERS:
            continue
        if "packs" in _imports(ast.parse(path.read_text(encoding="utf-8")), path):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders
    assert "desk" not in PACK_USERS and "program" not in PACK_USERS


def test_desk_and_program_know_no_shipped_program():
    """No code in desk/ or program/ spells tic-tac-toe's names (its label BRD, its files,
    its phrases); comments and docstrings may mention it as an example."""
    spelled = ("tictactoe", "BRD", "UNIVAC WINS", "SQUARE CODE", "DRAW")
    offenders = []
    for folder in ("desk", "program"):
        for path in (ROOT / "univac_ttt" / folder).glob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                          and node.body and isinstance(node.body[0], ast.Expr)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and id(node) not in docstrings:
                    offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {word}"
                                  for word in spelled if word in node.value]
                if isinstance(node, ast.Name | ast.Attribute):
                    name = node.id if isinstance(node, ast.Name) else node.attr
                    if "tictactoe" in name.lower():
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert not offenders, offenders


def test_the_desk_draws_nothing():
    for path in (ROOT / "univac_ttt" / "desk").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom) else
                     [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                assert name.split(".")[0] not in ("prompt_toolkit", "rich"), (path, name)
                assert _package_of_import(name) not in FRONT_ENDS + ("tui",), (path, name)


def _package_of_import(name: str) -> str:
    parts = name.removeprefix("univac_ttt.").split(".")
    return parts[0]


def test_desk_controls_and_neons():
    bad = {0: from_text("O00000000000")}  # no such operation
    desk = Desk(bad)
    stop = desk.run()
    assert stop.kind is StopKind.ERROR and desk.neons.lit() == ["INVALID INSTRUCTION"]
    desk = Desk(SHIPPED.image.words)
    desk.run()
    assert desk.neons.lit() == ["INPUT READY"]
    desk.operation = "one pair"
    desk.general_clear()
    stop = desk.start()
    assert desk.machine.half == 0 and desk.machine.instructions == 2 and desk.neons.lit() == []
    desk.breakpoint_switch = True
    assert desk.machine.breakpoint_switch


def test_the_monitor_has_the_desk_controls():
    from univac_ttt.monitor.core import Monitor

    m = Monitor.for_pack(TTT, tapes={})
    m.execute("go")
    assert m.execute("desk")[0] == "neons: INPUT READY"
    assert "Uniservo 1 has no reel" in m.execute("desk initial-read")[0]
    assert m.execute("desk switch on") == ["breakpoint switch on"] and m.desk.breakpoint_switch
    assert m.execute("desk general-clear")[0].startswith("GENERAL CLEAR")
    before = m.machine.instructions
    m.execute("desk pair")
    assert m.machine.instructions == before + 2 and m.machine.half == 0
    assert m.execute("desk wobble")[0].startswith("??")


def test_every_operation_row_reaches_help_and_break():
    from univac_ttt.machine.ops import OPERATIONS, find_operation
    from univac_ttt.monitor.core import Monitor

    m = Monitor(LOOP)
    listed = m.execute("help ops")
    assert len(listed) == len(OPERATIONS)
    for op, line in zip(OPERATIONS, listed, strict=True):
        assert line.startswith(op.code) and op.name in line and op.action in line
        assert find_operation(op.code) is op
        assert not m.execute(f"break -op {op.code}")[0].startswith("??")
    for spelling, code in (("b0", "B"), (".3", ".n"), ("03", "0n"), ("00", "00"), ("50", "50")):
        assert find_operation(spelling).code == code


def test_one_address_parser_for_the_assembler_and_the_monitor():
    from univac_ttt.monitor.core import Monitor
    from univac_ttt.program.address import AddressError, evaluate

    symbols = SHIPPED.program.symbols
    assert evaluate("BRD+3", symbols) == symbols["BRD"] + 3 == evaluate("brd+3", symbols)
    for bad in ("", "B+", "1234567890", "NOWHERE"):
        try:
            evaluate(bad, symbols)
        except AddressError as exc:
            assert exc.reason
        else:
            raise AssertionError(bad)
    m = Monitor.for_pack(TTT, tapes={})
    assert m.address("BRD+3") == symbols["BRD"] + 3
    assert m.execute("examine NOWHERE") == ["?? label NOWHERE is not defined"]


def test_ctrl_c_stops_a_runaway_image_under_run_with_a_message(tmp_path):
    import signal

    # The interpreter names each module as it imports it: the image's reader is the last
    # before the run begins, so the Ctrl-C lands in the loop however slow the start is.
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    process = subprocess.Popen([sys.executable, "-m", "univac_ttt", "run",
                                str(loop_image(tmp_path))], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    assert process.stderr is not None
    started = []
    for line in process.stderr:
        started.append(line)
        if line.rstrip().endswith("univac_ttt.program.reel"):
            break
    time.sleep(0.3)  # from reading the image to running it
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=30)
    err = "".join(started) + err
    assert process.returncode == 1, err
    assert "operator stop" in err and "Traceback" not in err


def test_named_counts_are_one_counter_read_by_name_or_key():
    from univac_ttt.museum.stats import DayTally
    from univac_ttt.verify.referee import Report

    day = DayTally(games=1)
    day.games += 1
    day["draws"] += 1
    assert (day.games, day.draws, day["games"], day.univac_wins) == (2, 1, 2, 0)
    assert day.copy() == day and type(day.copy()) is DayTally
    assert list(day.as_dict()) == list(DayTally.NAMES) and day.as_dict()["draws"] == 1
    with pytest.raises(TypeError):
        DayTally(wins=1)
    report = Report()
    report.fail("losses", "lost")
    assert report.losses == 1 and not report.ok and report.failures == ["lost"]
    with pytest.raises(ValueError):
        report.fail("lossses", "a misspelt kind is refused, not counted")
