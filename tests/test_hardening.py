"""Issue 16, part A: each attack class found by the outside run, as a regression test.

Real processes, pipes, FIFOs, /dev/full and file-size limits (Linux); every subprocess has
a timeout so a regression that hangs fails instead of blocking the suite.
"""

import contextlib
import json
import logging
import multiprocessing
import os
import resource
import signal
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.kiosk.supervisor import Terminated, supervise
from univac_ttt.limits import JsonError, NumberError, load_json, parse_number
from univac_ttt.lineinput import LineReader, Refused
from univac_ttt.monitor.core import Monitor
from univac_ttt.museum.controller import Kiosk, KioskSettings
from univac_ttt.museum.printouts import save_printout
from univac_ttt.museum.stats import TallyFile
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import load_tictactoe
from univac_ttt.program.assembler import AssemblyError, assemble
from univac_ttt.safefile import atomic_write, create_new
from univac_ttt.safetext import visible
from univac_ttt.textfile import TextFileError, read_text_file

SHIPPED = load_tictactoe()
TTT = shipped_pack("tictactoe")
HUGE = "9" * 5000  # more digits than Python converts (4,300)
GAME = ("2", "8", "0", "1", "4")  # one visitor game: a UNIVAC win with one bad code


def univac(*args, stdin=b"", env=None, timeout=60, preexec_fn=None, stdout=None):
    return subprocess.run([sys.executable, "-m", "univac_ttt", *args], input=stdin,
                          stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, env={**os.environ, **(env or {})},
                          preexec_fn=preexec_fn)


def small_files(limit=3000):
    """For a child process: files larger than ``limit`` bytes fail as on a full disk."""
    def limit_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_files


def no_traceback(result):
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err
    return err


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


# ---- kiosk data safety ---------------------------------------------------------------

def _kiosk_games(folder: str, games: int) -> None:
    root = Path(folder)
    settings = KioskSettings(pin="2468", printouts=root / "printouts",
                             stats=root / "tally.json", idle_seconds=60, authentic=False,
                             first_demo=0, clock=lambda: 5000.0)
    kiosk = Kiosk(SHIPPED.image.words, SHIPPED.program, settings)
    for _ in range(games):  # the tally is shared, so count our own sequences
        for move in GAME:
            kiosk.submit(move)


@pytest.mark.parametrize("kiosks", [2, 4])
def test_kiosks_sharing_a_folder_lose_no_count_and_no_printout(tmp_path, kiosks):
    games_each = 12
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_kiosk_games, args=(str(tmp_path), games_each))
               for _ in range(kiosks)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    tally = json.loads((tmp_path / "tally.json").read_text())
    (day,) = tally.values()
    printouts = list((tmp_path / "printouts").rglob("*.txt"))
    assert day["bad_codes"] == kiosks * games_each
    assert day["games"] == len(printouts) >= kiosks * games_each
    assert all(p.read_text().rstrip().endswith("THANK YOU FOR THE GAME.") for p in printouts)
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_tally_saves_merge_with_what_another_kiosk_saved(tmp_path):
    path = tmp_path / "tally.json"
    first, second = TallyFile(path), TallyFile(path)
    first.today().games += 3
    first.save()
    second.today().games += 2
    second.save()
    first.today().games += 1
    first.save()
    assert TallyFile(path).today().games == 6
    assert first.today().games == 6


def test_a_link_planted_at_the_old_temporary_name_is_never_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / ".tally.json.tmp").symlink_to(victim)
    tally = TallyFile(tmp_path / "tally.json")
    tally.today().games = 1
    tally.save()
    assert victim.read_text() == "precious"
    assert TallyFile(tmp_path / "tally.json").today().games == 1


def test_printouts_with_the_same_second_get_their_own_files(tmp_path):
    paths = {save_printout(tmp_path, f"GAME {n}") for n in range(5)}
    assert len(paths) == 5
    assert sorted(p.read_text() for p in paths) == [f"GAME {n}\n" for n in range(5)]
    taken = create_new(tmp_path, "x", ".txt", "one")
    assert create_new(tmp_path, "x", ".txt", "two") != taken and taken.read_text() == "one"


@pytest.mark.parametrize("damage", [
    "[" * 50_000 + "]" * 50_000,
    '{"2026-11-30": {"games": ' + HUGE + "}}",
    '{"2026-11-30": {"games": "3"}}',
    '{"2026-11-30": {"games": true}}',
    '{"2026-11-30": {"games": 1.5}}',
    '{"2026-11-30": {"games": -1}}',
    '{"2026-11-30": {"cheese": 1}}',
    '{"yesterday": {"games": 1}}',
    '{"2026-11-30": [1, 2]}',
    "[]",
    "\xff not text",
])
def test_a_damaged_tally_is_moved_aside_logged_and_counting_starts_afresh(
        tmp_path, caplog, damage):
    path = tmp_path / "tally.json"
    path.write_bytes(damage.encode("utf-8", "surrogateescape") if damage[0] != "\xff"
                     else b"\xff not text")
    tally = TallyFile(path)
    assert tally.days == {}
    assert (tmp_path / "tally.json.damaged").exists() and not path.exists()
    assert any("unreadable" in r.getMessage() for r in caplog.records)
    tally.today().games += 1
    tally.save()
    assert TallyFile(path).today().games == 1


def test_a_second_damaged_tally_does_not_overwrite_the_first_kept_aside(tmp_path):
    path = tmp_path / "tally.json"
    for text in ("[1", "[2"):
        path.write_text(text)
        TallyFile(path)
    kept = sorted(p.read_text() for p in tmp_path.glob("tally.json.damaged*"))
    assert kept == ["[1", "[2"]


FULL_DISK_KIOSK = textwrap.dedent("""
    import logging, sys
    from datetime import date, timedelta
    from pathlib import Path
    from univac_ttt.museum.stats import TallyFile
    from univac_ttt.kiosk.supervisor import setup_logging
    folder = Path(sys.argv[1])
    setup_logging(folder / "kiosk.log")
    log = logging.getLogger("univac_ttt.kiosk")
    tally = TallyFile(folder / "tally.json")
    for day in range(200):
        when = date(2025, 1, 1) + timedelta(days=day)
        tally.days[when.isoformat()] = type(tally.today())(games=day)
        try:
            tally.save()
        except OSError as exc:
            log.error("tally not saved: %s " + "x" * 500, exc)
    print("finished")
""")


def test_a_full_disk_keeps_the_tally_whole_and_logging_quiet(tmp_path):
    (tmp_path / "tally.json").write_text('{"2026-11-30": {"games": 5}}\n')
    (tmp_path / "kiosk.log").write_text("x" * 2900)
    result = subprocess.run([sys.executable, "-c", FULL_DISK_KIOSK, str(tmp_path)],
                            capture_output=True, text=True, timeout=60,
                            preexec_fn=small_files(3000))
    assert result.stdout.strip() == "finished"
    assert "Logging error" not in result.stderr and "Traceback" not in result.stderr
    tally = json.loads((tmp_path / "tally.json").read_text())  # whole, never cut
    assert tally["2026-11-30"]["games"] == 5
    assert len(tally) in range(2, 201)  # some saves worked, then the disk was full
    assert not list(tmp_path.glob(".*.tmp")) and not list(tmp_path.glob("*.damaged*"))
    assert (tmp_path / "kiosk.log").stat().st_size <= 3000


def test_a_full_disk_never_destroys_the_previous_monitor_save(tmp_path):
    save = tmp_path / "machine.json"
    script = tmp_path / "lecture.txt"
    script.write_text(f"save {save}\n")
    assert univac("monitor", "--script", str(script)).returncode == 0
    before = save.read_text()
    script.write_text(f"deposit 400 5\nsave {save}\n")
    result = univac("monitor", "--script", str(script), preexec_fn=small_files(20_000))
    out = result.stdout.decode()
    assert "?? cannot write" in out and result.returncode == 1
    assert save.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lecture.txt", "machine.json"]


def test_atomic_write_replaces_whole_or_not_at_all(tmp_path):
    target = tmp_path / "file"
    atomic_write(target, "old")
    atomic_write(target, b"new")
    assert target.read_text() == "new"
    target.chmod(0o640)
    atomic_write(target, "newer")
    assert target.stat().st_mode & 0o777 == 0o640
    assert create_new(tmp_path, "p", ".txt", "x").stat().st_mode & 0o777 == 0o644
    with pytest.raises(IsADirectoryError):
        atomic_write(tmp_path, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "p.txt"]


def test_the_same_fault_at_start_up_stops_the_supervisor_with_a_message(caplog):
    said, sleeps = [], []

    def broken():
        raise RecursionError("maximum recursion depth exceeded")

    assert supervise(broken, sleep=sleeps.append, report=said.append) == 1
    assert len(sleeps) == 2 and "same fault" in said[0] and "RecursionError" in said[0]
    assert any("same fault" in r.getMessage() for r in caplog.records)


def test_different_or_late_faults_keep_the_supervisor_restarting():
    times = iter(range(0, 1000, 10))  # each app runs 10 s before its fault

    class Late:
        def run(self):
            raise RuntimeError("late")

    made = []

    def make():
        made.append(1)
        if len(made) == 6:
            class Staff:
                def run(self):
                    return 0
            return Staff()
        return Late()

    assert supervise(make, sleep=lambda s: None, clock=lambda: next(times)) == 0
    assert len(made) == 6


def test_sigterm_during_the_restart_delay_is_a_sigterm_stop(caplog):
    class Faulty:
        def run(self):
            raise RuntimeError("fault")

    def sleep(seconds):
        raise Terminated

    with caplog.at_level(logging.INFO, logger="univac_ttt.kiosk"):
        assert supervise(Faulty, sleep=sleep) == 0
    assert any("SIGTERM" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_real_signal_during_the_restart_delay_stops_cleanly(tmp_path, signame):
    code = textwrap.dedent(f"""
        import logging, os, signal, time
        from pathlib import Path
        from univac_ttt.kiosk.supervisor import lock_signals, setup_logging, supervise
        setup_logging(Path({str(tmp_path / "kiosk.log")!r}))
        lock_signals()
        class Faulty:
            def run(self):
                signal.setitimer(signal.ITIMER_REAL, 0.2)
                raise RuntimeError("fault")
        signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.{signame}))
        raise SystemExit(supervise(Faulty))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0 and result.stderr == ""
    log = (tmp_path / "kiosk.log").read_text()
    assert f"stopped by {signame} (during the restart delay)" in log


def test_a_staff_pin_of_spaces_is_refused():
    for pin in (" ", "    ", "\t"):
        result = univac("kiosk", "--pin", pin)
        assert result.returncode == 2 and "PIN" in no_traceback(result)


# ---- numbers and JSON ----------------------------------------------------------------

def test_parse_number_bounds_length_value_and_alphabet():
    assert parse_number(" 42 ", "n", 1, 100) == 42
    for text in (HUGE, "2²", "٣", "", "1e3", "--1"):
        with pytest.raises(NumberError):
            parse_number(text, "n")
    with pytest.raises(NumberError, match="at most"):
        parse_number("101", "n", 1, 100)


def test_load_json_bounds_size_depth_and_numbers():
    assert load_json('{"a": [1, "[[["]}', "x", 100) == {"a": [1, "[[["]}
    for text, why in (("[" * 9 + "]" * 9, "nested"), ("[" + HUGE + "]", "digits"),
                      ("[1.5]", "not a whole"), ("[NaN]", "not a whole"),
                      ("x" * 20_000, "larger"), ("{", "not JSON")):
        with pytest.raises(JsonError, match=why):
            load_json(text, "x", 10_000)


@pytest.fixture
def monitor():
    return Monitor.for_pack(TTT, tapes={})


@pytest.mark.parametrize("command", [
    f"examine {HUGE}", f"examine 1-{HUGE}", f"examine BRD+{HUGE}", f"deposit {HUGE} 1",
    f"step {HUGE}", f"history {HUGE}", f"break {HUGE}", f"go {HUGE}", f"watch {HUGE}",
    f"deposit 400 {HUGE}", f"paper {HUGE}", "examine ٣٣٣٣٣٣٣٣٣٣",
])
def test_huge_numbers_in_monitor_commands_get_one_short_line(monitor, command):
    before = monitor.machine.snapshot()
    out = monitor.execute(command)
    assert len(out) == 1 and out[0].startswith("??") and len(out[0]) < 200
    assert monitor.machine.snapshot() == before


def _saved(monitor, tmp_path, **changes):
    path = tmp_path / "state.json"
    monitor.execute(f"save {path}")
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("changes, why", [
    ({"breakpoint_switch": "no"}, "breakpoint_switch"),
    ({"breakpoint_switch": 1}, "breakpoint_switch"),
    ({"CC": 10**40}, "digits"),
    ({"half": 0.5}, "not a whole"),
])
def test_restore_refuses_wrong_types_and_huge_numbers(monitor, tmp_path, changes, why):
    path = _saved(monitor, tmp_path, **changes)
    before = monitor.machine.snapshot()
    out = monitor.execute(f"restore {path}")
    assert out[0].startswith("??") and why in out[0]
    assert monitor.machine.snapshot() == before


def test_restore_of_a_huge_number_or_deep_nesting_is_one_line(monitor, tmp_path):
    path = _saved(monitor, tmp_path)
    text = path.read_text().replace('"CC": ', f'"CC": {HUGE}', 1)
    path.write_text(text)
    assert "digits" in monitor.execute(f"restore {path}")[0]
    path.write_text("[" * 200_000 + "]" * 200_000)
    out = monitor.execute(f"restore {path}")
    assert out[0].startswith("?? not a saved machine") and "nested" in out[0]


@pytest.mark.parametrize("line, why", [
    (f"RESERVE {HUGE}", "digits"), ("RESERVE 2²", "not a whole"), (f"= {HUGE}", "fit"),
    (f"= -{HUGE}", "fit"), (f"B0 {HUGE} 00 000", "digits"), (f"B0 1+{HUGE} 00 000", "digits"),
    (f"= 1+{HUGE}", "digits"),
])
def test_huge_numbers_on_a_coding_sheet_name_their_line(line, why):
    with pytest.raises(AssemblyError, match=why) as caught:
        assemble(f"# sheet\n{line}\n")
    assert caught.value.line == 2


@pytest.mark.parametrize("args", [
    ["run", "x.img", "--max-steps", HUGE], ["run", "x.img", "--max-steps", "0"],
    ["run", "x.img", "--max-steps", "²"], ["kiosk", "--pin", "12", "--idle", HUGE],
    ["kiosk", "--pin", "12", "--idle", "86401"],
])
def test_number_options_are_bounded(args):
    result = univac(*args)
    assert result.returncode == 2
    err = no_traceback(result)
    assert "argument" in err and len(err.splitlines()[-1]) < 200


# ---- files ---------------------------------------------------------------------------

def test_special_files_get_a_clear_message_and_never_block(tmp_path, fifo):
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(TextFileError, match="FIFO|device|directory"):
            read_text_file(path, 1000)
    for args in (["run", str(fifo)], ["verify", str(fifo)],
                 ["monitor", "--script", str(fifo)], ["monitor", str(fifo)],
                 ["play", "--plain", "--image", str(fifo)]):
        result = univac(*args, timeout=30)
        assert result.returncode == 2 and "FIFO" in no_traceback(result), args


def test_files_to_write_must_be_regular_files_not_fifos(tmp_path, fifo):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tally.json").symlink_to(fifo)
    for args in (["play", "--plain", "--transcript", str(fifo)],
                 ["kiosk", "--pin", "2468", "--log", str(fifo)],
                 ["kiosk", "--pin", "2468", "--stats", str(fifo)],
                 ["kiosk", "--pin", "2468", "--data", str(tmp_path / "data")]):
        result = univac(*args, timeout=30)
        assert result.returncode == 2 and "FIFO" in no_traceback(result), args


def test_monitor_file_commands_refuse_fifos_nul_and_directories(monitor, fifo, tmp_path):
    for command in (f"restore {fifo}", f"do {fifo}", "save a\0b", "restore a\0b", "do a\0b",
                    f"do {tmp_path}", f"save {tmp_path}", f"save {fifo}"):
        out = monitor.execute(command)
        assert len(out) == 1 and out[0].startswith("??"), command
    assert "NUL" in monitor.execute("save a\0b")[0]
    assert "FIFO" in monitor.execute(f"save {fifo}")[0] and fifo.is_fifo()


@pytest.mark.parametrize("args", [
    ["verify", ""], ["monitor", "--script", ""], ["run", ""], ["monitor", ""],
    ["play", "--plain", "--image", ""], ["play", "--plain", "--transcript", ""],
    ["kiosk", "--pin", "1", "--data", ""],
])
def test_an_empty_path_is_refused_not_taken_as_no_path(args):
    result = univac(*args)
    assert result.returncode == 2 and "empty file name" in no_traceback(result)


def test_cr_only_line_endings_are_line_ends(tmp_path):
    image = tmp_path / "cr.img"
    image.write_bytes(b"# adds nothing\r000 900000000000\r")
    result = univac("run", str(image), timeout=30)
    assert result.returncode == 0 and b"; 1 instruction, " in result.stderr
    sheet = tmp_path / "cr.ucs"
    sheet.write_bytes(b"# one word\r000 = 5\r001 = 6\r")
    script = tmp_path / "cr.txt"
    script.write_bytes(b"examine 0\rexamine 1\r")
    result = univac("monitor", str(sheet), "--script", str(script))
    assert result.returncode == 0 and result.stdout.count(b"monitor>") == 2


# ---- streams -------------------------------------------------------------------------

def test_line_reader_bounds_lines_and_refuses_bad_utf8():
    import io
    stream = io.BytesIO(b"ok\r\n" + b"x" * 5000 + b"\n\xff\xfe\nafter\n" + b"y" * 3_000_000)
    reader = LineReader(stream, 100, give_up=1_000_000)
    assert reader.read_line() == "ok"
    assert "longer than 100" in str(reader.read_line())
    assert "not UTF-8" in str(reader.read_line())
    assert reader.read_line() == "after"
    last = reader.read_line()
    assert isinstance(last, Refused) and "not lines of text" in str(last)
    assert stream.tell() < 1_100_000  # stopped reading, not read to the end
    assert reader.read_line() is None


def test_play_plain_on_dev_zero_ends_with_bounded_memory():
    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    with open("/dev/zero", "rb") as zero:
        for args in (["play", "--plain"], ["monitor"]):
            result = subprocess.run([sys.executable, "-m", "univac_ttt", *args], stdin=zero,
                                    capture_output=True, timeout=60, preexec_fn=limit_memory)
            assert b"not lines of text" in result.stderr + result.stdout, args
            no_traceback(result)


STRICT = {"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8", "PYTHONIOENCODING": "utf-8"}


def test_invalid_utf8_on_stdin_is_refused_under_a_strict_locale(tmp_path):
    result = univac("play", "--plain", stdin=b"\xff\xfe5\n5\n", env=STRICT)
    err = no_traceback(result)
    assert "not UTF-8" in err and b"   4   X   6" in result.stdout
    result = univac("monitor", stdin=b"examine 0\xff\nexamine 0\n", env=STRICT)
    no_traceback(result)
    assert b"?? the line is not UTF-8" in result.stdout and result.returncode == 1
    image = tmp_path / "read.img"
    image.write_text("000 100100000000\n001 900000000000\n")
    result = univac("run", str(image), stdin=b"\xff\n12345\n", env=STRICT)
    assert "not UTF-8" in no_traceback(result) and result.returncode == 0


def test_a_latin1_terminal_gets_escapes_not_an_exception():
    result = univac("monitor", stdin=b"examine 400-599\nexamine 0\n",
                    env={"PYTHONIOENCODING": "latin-1", "LANG": "en_US.ISO-8859-1"})
    no_traceback(result)
    assert result.returncode == 0 and b"\\u" in result.stdout


@pytest.mark.parametrize("args", [["play", "--plain"], ["verify"], ["monitor", "--script"],
                                  ["run"]])
def test_stdout_on_dev_full_is_a_message_and_exit_74(args, tmp_path):
    if args[-1] == "--script":
        (tmp_path / "s.txt").write_text("examine 0-199\n")
        args = [*args, str(tmp_path / "s.txt")]
    if args == ["run"]:
        (tmp_path / "p.img").write_text("000 900000000000\n")
        args = ["run", str(tmp_path / "p.img")]
    with open("/dev/full", "wb") as full:
        result = univac(*args, stdin=b"5\n", stdout=full, timeout=120)
    err = no_traceback(result)
    if args[0] == "run":  # nothing printed: nothing failed
        assert result.returncode == 0
        return
    assert result.returncode == 74 and "No space left" in err and "Exception" not in err


@pytest.mark.parametrize("redirect, args, code", [
    (">&-", "play --plain", 2), ("<&-", "play --plain", 2), (">&-", "verify", 2),
    ("<&-", "run IMG", 2), (">&-", "monitor --script SCRIPT", 2),
    ("<&-", "monitor --script SCRIPT", 0),
])
def test_closed_stdin_or_stdout_is_a_message(tmp_path, redirect, args, code):
    (tmp_path / "p.img").write_text("000 900000000000\n")
    (tmp_path / "s.txt").write_text("examine 0\n")
    args = args.replace("IMG", str(tmp_path / "p.img")).replace("SCRIPT",
                                                                  str(tmp_path / "s.txt"))
    result = subprocess.run(
        ["bash", "-c", f'"$0" -m univac_ttt {args} {redirect}', sys.executable],
        capture_output=True, timeout=60)
    err = no_traceback(result)
    assert result.returncode == code, err
    if code:
        assert "is closed" in err


def test_a_transcript_that_fills_the_disk_is_reported_and_exits_non_zero(tmp_path):
    transcript = tmp_path / "paper.txt"
    moves = b"5\n1\n9\n3\n7\n" * 20
    result = univac("play", "--plain", "--transcript", str(transcript), stdin=moves,
                    preexec_fn=small_files(1500))
    err = no_traceback(result)
    assert "the transcript stopped" in err and err.count("transcript stopped") == 1
    assert result.returncode == 74
    assert 0 < transcript.stat().st_size <= 1500


# ---- what the referee and the paper show -----------------------------------------------

def test_verify_reports_a_damaged_sheet_instead_of_crashing(tmp_path):
    lines = Path(SHIPPED.source_path if hasattr(SHIPPED, "source_path") else
                 Path(__file__).parent.parent / "univac_ttt/packs/tictactoe/tictactoe.ucs"
                 ).read_text(encoding="utf-8").split("\n")
    del lines[144]  # line 145 of the shipped sheet
    sheet = tmp_path / "damaged.ucs"
    sheet.write_text("\n".join(lines), encoding="utf-8")
    result = univac("verify", str(sheet), timeout=120)
    no_traceback(result)
    assert result.returncode == 1 and b"no readable board" in result.stdout


def test_escape_sequences_in_a_saved_paper_are_shown_as_text(monitor, tmp_path):
    path = _saved(monitor, tmp_path, paper="HELLO\x1b[2J\x1b]0;owned\x07\u202eTXT\n")
    script = tmp_path / "lecture.txt"
    script.write_text(f"restore {path}\npaper\n# a \x1b[31m comment\n")
    result = univac("monitor", "--script", str(script))
    assert b"\x1b" not in result.stdout and b"\x07" not in result.stdout
    assert b"HELLO\\x1b[2J\\x1b]0;owned\\x07\\u202eTXT" in result.stdout
    assert visible("a\tb\x9bc") == "a\tb\\x9bc"


def test_a_full_screen_transcript_that_fills_the_disk_is_reported_at_exit(tmp_path):
    from support.terminal import Terminal

    transcript = tmp_path / "paper.txt"
    shell = (f"trap '' XFSZ; ulimit -f 1; exec {sys.executable} -m univac_ttt "
             f"play --transcript {transcript}")
    terminal = Terminal(["/bin/bash", "-c", shell])
    terminal.wait_for("INPUT READY")
    for _ in range(40):  # each refused code prints a warning on the paper
        terminal.send("0\r")
        terminal.pump(0.05)
    terminal.send("\x11")
    terminal.wait_for("again to quit")
    terminal.send("\x11")
    terminal.pump(1.0)
    code = terminal.close()
    assert code == 74
    assert b"the transcript stopped" in terminal.raw
    assert 0 < transcript.stat().st_size <= 1024


def test_the_referee_survives_deleting_any_line_of_the_sheet(long_run):
    """Every one-line deletion that still assembles is judged, never crashes the referee
    (a sample by default; all 330 lines with --long, about a minute)."""
    import io

    from univac_ttt.machine import MachineOptions
    from univac_ttt.packs.tictactoe import sheet_text
    from univac_ttt.verify.referee import RefereeError, run_verification

    lines = sheet_text().split("\n")
    chosen = range(len(lines)) if long_run else range(130, len(lines), 15)
    judged = 0
    for index in chosen:
        try:
            program = assemble("\n".join(lines[:index] + lines[index + 1:]))
        except AssemblyError:
            continue
        with contextlib.suppress(RefereeError):  # a clear report is fine; a crash is not
            run_verification(MachineOptions(), io.StringIO(), program)
        judged += 1
    assert judged > 0


@given(st.lists(st.binary(max_size=300) | st.sampled_from([b"5", b"1", b"\xff", b"\r"]),
                max_size=20))
def test_any_bytes_on_the_plain_consoles_stdin_end_cleanly(pieces):
    import io

    from univac_ttt.console.plain import PlainConsole
    from univac_ttt.desk import Desk

    stdin = io.TextIOWrapper(io.BytesIO(b"\n".join(pieces)), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    result = PlainConsole(Desk(SHIPPED.image.words), stdin, out, err).run()
    assert result.exit_code in (0, 1)
    assert all(line.startswith("refused: ") for line in err.getvalue().splitlines())


def test_an_unreadable_tally_is_not_moved_aside_and_counts_are_kept_for_later(
        tmp_path, monkeypatch):
    import univac_ttt.museum.stats as stats

    path = tmp_path / "tally.json"
    path.write_text('{"2026-11-30": {"games": 5}}')
    day = date(2026, 11, 30)

    def failing(*args):
        raise TextFileError("cannot be read (Input/output error)")

    monkeypatch.setattr(stats, "read_text_file", failing)
    tally = TallyFile(path)  # starts counting from zero, logs, moves nothing
    tally.today(day).games += 1
    with pytest.raises(OSError):
        tally.save()
    monkeypatch.undo()
    tally.save()  # the read works again: the file's 5 and this kiosk's 1
    assert not list(tmp_path.glob("*.damaged*"))
    assert json.loads(path.read_text())["2026-11-30"]["games"] == 6
