"""The kiosk's data kept safe: shared folders, damaged or unreadable tallies, full disks,
planted links, and the supervisor's restarts and signals (issue 16, part A).
"""

import json
import logging
import multiprocessing
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest

from tests.support.hostile import HUGE, small_files
from univac_ttt.hostio.atomic_files import create_new
from univac_ttt.hostio.text_files import TextFileError
from univac_ttt.kiosk.supervisor import Terminated, supervise
from univac_ttt.museum.controller import Kiosk, KioskSettings
from univac_ttt.museum.printouts import save_printout
from univac_ttt.museum.stats import TallyFile
from univac_ttt.packs.tictactoe import load_tictactoe

SHIPPED = load_tictactoe()


GAME = ("2", "8", "0", "1", "4")  # one visitor game: a UNIVAC win with one bad code


def _kiosk_games(folder: str, games: int) -> None:
    root = Path(folder)
    settings = KioskSettings(pin="2468", printouts=root / "printouts",
                             stats=root / "tally.json", idle_seconds=60, authentic=False,
                             first_demo=0, clock=lambda: 5000.0)
    kiosk = Kiosk(SHIPPED.image.words, SHIPPED.program, settings)
    for _ in range(games):  # the tally is shared, so count our own sequences
        for move in GAME:
            kiosk.submit(move)


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
