"""One loader for run, monitor, verify and assemble (issue 13): a coding sheet or an image,
whichever command is given it; and ``univac-ttt assemble`` with its listing."""


import pytest

from tests.support import command
from univac_ttt.packs.tictactoe import load_tictactoe, sheet_text
from univac_ttt.program.image import parse_image
from univac_ttt.program.sources import ProgramFileError, read_program

SHIPPED = load_tictactoe()
TINY_SHEET = "000 START: 90 000 00 000  stop at once\n"


def univac(*args, stdin=""):
    return command.univac(*args, stdin=stdin, timeout=120)


@pytest.fixture()
def files(tmp_path):
    sheet = tmp_path / "my.ucs"
    sheet.write_text(sheet_text())
    image = tmp_path / "my.img"
    assert univac("assemble", str(sheet), "-o", str(image), "--quiet").returncode == 0
    odd = tmp_path / "my.sheet"  # a sheet under another name: tried as image, then sheet
    odd.write_text(sheet_text())
    return sheet, image, odd


def test_read_program_takes_a_sheet_an_image_and_a_sheet_by_another_name(files):
    sheet, image, odd = files
    for path, kind in ((sheet, "coding sheet"), (image, "memory image"), (odd, "coding sheet")):
        loaded = read_program(path)
        assert loaded.words == SHIPPED.image.words and loaded.kind == kind
    assert read_program(sheet).program.symbols["BRD"] == 400
    assert read_program(image).program is None


def test_read_program_says_why_a_file_is_neither(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("hello world\n")
    with pytest.raises(ProgramFileError, match="line 1.*not a coding sheet either"):
        read_program(junk)
    with pytest.raises(ProgramFileError, match="does not exist"):
        read_program(tmp_path / "missing.ucs")


@pytest.mark.parametrize("which", [0, 1, 2])
def test_run_monitor_and_verify_accept_the_same_files(files, which):
    path = str(files[which])
    run = univac("run", path, stdin="5\n")
    assert run.returncode == 0 and "NEW GAME" in run.stdout and "   O   2   3" in run.stdout
    monitor = univac("monitor", path, stdin="go\npaper 4\n")
    assert monitor.returncode == 0 and "|    1   2   3" in monitor.stdout
    verify = univac("verify", path)
    assert verify.returncode == 0 and "PERFECT PLAY PROVED" in verify.stdout


def test_assemble_prints_a_listing_and_writes_the_image(tmp_path):
    sheet = tmp_path / "tiny.ucs"
    sheet.write_text(TINY_SHEET)
    image = tmp_path / "tiny.img"
    result = univac("assemble", str(sheet), "-o", str(image))
    assert result.returncode == 0
    assert "000  900000000000" in result.stdout and "START:" in result.stdout
    assert "stop at once" in result.stdout and "wrote 1 word to" in result.stderr
    assert "# 1 word, 1 label" in result.stdout
    assert image.read_text().splitlines()[-1].startswith("000 900000000000")
    assert univac("run", str(image)).returncode == 0  # the image runs: a normal stop


def test_the_shipped_sheet_assembles_to_the_shipped_image(tmp_path):
    image = tmp_path / "out.img"
    source = tmp_path / "tictactoe.ucs"
    source.write_text(sheet_text())
    assert univac("assemble", str(source), "-o", str(image), "--quiet").returncode == 0
    assert parse_image(image.read_text()).words == SHIPPED.image.words


def test_assemble_reports_the_first_error_with_its_line(tmp_path):
    sheet = tmp_path / "bad.ucs"
    sheet.write_text("000 START: 90 000 00 000\n001 B0 NOWHERE 00 000\n")
    result = univac("assemble", str(sheet), "-o", str(tmp_path / "bad.img"))
    assert result.returncode == 2 and "line 2" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "bad.img").exists()


@pytest.mark.parametrize("text", ["", "\n\n", "# only a remark\n"])
def test_an_image_without_a_word_line_is_refused_not_run_as_zeros(tmp_path, text):
    """An empty file once loaded as a memory of zeros and ran to the step limit."""
    empty = tmp_path / "empty.img"
    empty.write_text(text)
    result = univac("play", "--plain", "--image", str(empty), stdin="")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"univac-ttt: {empty}: holds no word lines (an image is one "
                             "word a line: a three-digit address, a space and the word's 12 "
                             "characters)\n")
