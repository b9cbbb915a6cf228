"""Hand-written reels booting through ``univac-ttt run --tape``, and the ``tape`` command.

Every reel here is written as text in the test, as a person would type it, not by the
project's own writer. Their programs type no upper-case shift, so the typewriter, at rest in
small letters (S-PV; docs/fidelity.md, "The typewriter's case"), types them in small letters.
"""


import pytest

from tests.support import command

# One block, read by INITIAL READ into 000-059: add two typed numbers and type the sum.
ADD_ONCE = """\
# hand-written: INITIAL READ puts these words at 000, 001, ...
100008100009  000 read a into 008, b into 009
B00008A00009  001 rA = a + b
H00010500006  002 the sum to 010; type the label
500010500007  003 type the sum, then a carriage return
900000000000  004 stop
000000000000  005
SUMΔιιιιιιιι  006 the label
⏎ιιιιιιιιιιι  007 carriage return
"""

ZEROS = "000000000000\n"

# Two blocks: a two-word loader reads block 2 to 060-119 and goes there.
LOADER_AND_MESSAGE = (
    "# block 1: a loader by hand\n"
    "110000300060  read block 2 of tape 1, store it at 060\n"
    "U00060000000  go to 060\n" + ZEROS * 58 +
    "# block 2: the program, at 060\n"
    "500063500064  type the message\n"
    "500065900000  a return, and stop\n"
    "000000000000\n"
    "HELLOΔFROMΔT\n"
    "APEιιιιιιιιι\n"
    "⏎ιιιιιιιιιιι\n")

# Writes its own block (000-059) to the reel on Uniservo 2, rewinds, reads it back.
WRITER = """\
520000620000  write 000-059 on tape 2; rewind tape 2
120000300100  read it back, to 100-159
500106500107  type the copy of the message
900000000000
000000000000
000000000000
COPIEDιιιιιι
⏎ιιιιιιιιιιι
"""


def univac(*args, stdin="", cwd=None):
    return command.univac(*args, stdin=stdin, cwd=cwd)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_one_block_reel_boots_and_types_the_sum(tmp_path):
    reel = write(tmp_path, "add.tape", ADD_ONCE)
    result = univac("run", "--tape", f"1={reel}", "--plain", stdin="12\n30\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "> 12\n> 30\nsum 000000000042\n"  # keyed lines echoed
    assert "normal stop" in result.stderr


def test_a_hand_written_loader_reads_the_next_block(tmp_path):
    reel = write(tmp_path, "hello.tape", LOADER_AND_MESSAGE)
    result = univac("run", "--tape", f"1={reel}", "--plain")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hello from tape\n"


def test_a_writable_reel_is_written_and_saved_back(tmp_path):
    writer = write(tmp_path, "writer.tape", WRITER)
    out = tmp_path / "out.tape"
    result = univac("run", "--tape", f"1={writer}", "--tape", f"2={out}:rw", "--plain")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "copied\n"
    same = univac("tape", "compare", str(writer), str(out))
    assert same.returncode == 0 and "the reels are the same: 1 blocks" in same.stdout


def test_writing_a_read_only_reel_is_an_error_stop_and_the_file_is_kept(tmp_path):
    writer = write(tmp_path, "writer.tape", WRITER)
    out = write(tmp_path, "out.tape", "")
    result = univac("run", "--tape", f"1={writer}", "--tape", f"2={out}", "--plain")
    assert result.returncode == 1
    assert "write-protected" in result.stderr and "Traceback" not in result.stderr
    assert out.read_text(encoding="utf-8") == ""


def test_reading_past_the_end_is_an_error_stop(tmp_path):
    reel = write(tmp_path, "short.tape", "110000900000\n")
    result = univac("run", "--tape", f"1={reel}", "--plain")
    assert result.returncode == 1 and "read past the last written block" in result.stderr


def test_the_shipped_tape_boots_and_plays(tmp_path):
    made = univac("tape", "make", "tictactoe.img", "-o", str(tmp_path / "t.tape"),
                  cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2] /
                          "univac_ttt" / "packs" / "tictactoe"))
    assert made.returncode == 0, made.stderr
    result = univac("run", "--tape", f"1={tmp_path / 't.tape'}", "--plain", stdin="5\n")
    assert "NEW GAME" in result.stdout and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, message", [
    (["run", "--plain"], "Uniservo 1 has no reel mounted"),
    (["run", "--tape", "1=nope.tape"], "nope.tape: does not exist"),
    (["run", "--tape", "0=x.tape"], "is not a Uniservo"),
    (["run", "--tape", "x.tape"], "N=FILE"),
    (["tape", "list", "nope.tape"], "does not exist"),
    (["tape", "make", "nope.img", "-o", "x.tape"], "does not exist"),
])
def test_mistakes_exit_2_with_a_clear_message(tmp_path, args, message):
    result = univac(*args, cwd=str(tmp_path))
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_tape_make_refuses_a_fifo_or_device_as_its_output(tmp_path):
    """It renamed its file over ``-o /dev/full`` (which, run as root, took the device's
    place until someone made it again); assemble -o already refused a device."""
    fifo = tmp_path / "fifo"
    __import__("os").mkfifo(fifo)
    result = univac("tape", "make", "tictactoe.img", "-o", str(fifo), cwd=str(
        __import__("pathlib").Path(__file__).resolve().parents[2] / "univac_ttt" / "packs"
        / "tictactoe"))
    assert result.returncode == 2 and "univac-ttt: the tape" in result.stderr
    assert "is a pipe (FIFO), not a file" in result.stderr
    assert __import__("stat").S_ISFIFO(fifo.stat().st_mode)


def test_a_bad_word_in_a_reel_names_its_line(tmp_path):
    reel = write(tmp_path, "bad.tape", "000000000000\n\nB0001050001!\n")
    result = univac("run", "--tape", f"1={reel}")
    assert result.returncode == 2 and "bad.tape, line 3: character 12" in result.stderr


def test_tape_list_and_compare(tmp_path):
    a = write(tmp_path, "a.tape", ADD_ONCE)
    b = write(tmp_path, "b.tape", ADD_ONCE.replace("SUMΔ", "SUM="))
    listing = univac("tape", "list", str(a))
    assert listing.returncode == 0
    assert listing.stdout.splitlines()[1] == \
        "block    1  100008100009 ... 000000000000   7 of 60 words not zero"
    differ = univac("tape", "compare", str(a), str(b))
    assert differ.returncode == 1
    assert "block 1 word 7: SUMΔιιιιιιιι / SUM=ιιιιιιιι" in differ.stdout


def test_tape_make_from_a_coding_sheet(tmp_path):
    sheet = write(tmp_path, "p.ucs", '000 START: 50 MSG 90 000\nMSG: "HI FROM SHEET"\n'
                  .replace('"HI FROM SHEET"', '"HIΔFROMΔUCSΔ"'))
    made = univac("tape", "make", str(sheet), "-o", str(tmp_path / "p.tape"))
    assert made.returncode == 0, made.stderr
    result = univac("run", "--tape", f"1={tmp_path / 'p.tape'}", "--plain")
    assert result.stdout == "hi from ucs " and result.returncode == 0


def test_an_image_reads_its_data_from_a_mounted_reel(tmp_path):
    image = write(tmp_path, "reader.img", "000 120000300100  read tape 2 to 100\n"
                                          "001 500100500101  type two words\n"
                                          "002 900000000000\n")
    data = write(tmp_path, "data.tape", "DATAΔFROMΔTA\nPEΔUNIT⏎ιιιι\n")
    result = univac("run", str(image), "--tape", f"2={data}", "--plain")
    assert result.returncode == 0 and result.stdout == "data from tape unit\n"


def test_a_written_reel_is_saved_even_when_the_program_stops_on_an_error(tmp_path):
    program = write(tmp_path, "p.tape", "530000110000\n")  # write on 3, then read past end
    out = tmp_path / "out.tape"
    result = univac("run", "--tape", f"1={program}", "--tape", f"3={out}:rw")
    assert result.returncode == 1 and "read past the last written block" in result.stderr
    assert out.read_text(encoding="utf-8").count("530000110000") == 1


@pytest.mark.parametrize("spelling", [["--tape", "-={data}"], ["--tape=-={data}"]])
def test_the_tenth_uniservo_mounts_in_both_spellings(tmp_path, spelling):
    """``--tape -=FILE`` (the documented spelling) works as ``--tape=-=FILE`` does."""
    image = write(tmp_path, "reader.img", "000 1-0000300100  read tape 10 to 100\n"
                                          "001 500100900000  type it\n")
    data = write(tmp_path, "ten.tape", "TENTHΔUNITιι\n")
    args = [word.format(data=data) for word in spelling]
    result = univac("run", str(image), *args, "--plain")
    assert result.returncode == 0 and result.stdout == "tenth unit", result.stderr
