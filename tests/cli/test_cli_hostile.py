"""The installed command against hostile surroundings: bad options and paths, FIFOs and
devices, strict and Latin-1 locales, /dev/full, closed streams and full disks (issue 16,
part A). Real processes; every one has a timeout, so a regression that hangs fails.
"""

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hostile import HUGE, no_traceback, small_files, univac
from univac_ttt.hostio.text_files import TextFileError, read_text_file

STRICT = {"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8", "PYTHONIOENCODING": "utf-8"}


def test_a_staff_pin_of_spaces_is_refused():
    for pin in (" ", "    ", "\t"):
        result = univac("kiosk", "--pin", pin)
        assert result.returncode == 2 and "PIN" in no_traceback(result)


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


def test_the_kiosk_refuses_printouts_where_no_folder_can_be(tmp_path):
    """--printouts /dev/full started, and every finished game's printout was lost to the
    log ("Not a directory"), unseen by the staff."""
    (tmp_path / "file").write_text("")
    for where in ("/dev/full", str(tmp_path / "file" / "printouts"), "/proc/univac-ttt-test",
                  "/proc", str(tmp_path / ("n" * 300))):  # /proc: no folder, no file
        result = univac("kiosk", "--pin", "2468", "--printouts", where,
                        "--data", str(tmp_path / "data"), timeout=30)
        assert result.returncode == 2
        assert f"the printouts folder {where} cannot be written: " in no_traceback(result)


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


def test_play_plain_on_dev_zero_ends_with_bounded_memory():
    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    with open("/dev/zero", "rb") as zero:
        for args in (["play", "--plain"], ["monitor"]):
            result = subprocess.run([sys.executable, "-m", "univac_ttt", *args], stdin=zero,
                                    capture_output=True, timeout=60, preexec_fn=limit_memory)
            assert b"not lines of text" in result.stderr + result.stdout, args
            no_traceback(result)


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
    assert result.returncode == 74 and "Exception" not in err
    # the stream is named (it said only "input/output failed")
    assert "univac-ttt: cannot write the standard output (No space left on device)" in err


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
