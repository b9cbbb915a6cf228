"""The host input and output helpers: atomic writes, bounded numbers and JSON, and a line
reader that bounds lines and refuses bad UTF-8 (issue 16, part A).
"""


import pytest

from tests.support import command
from tests.support.hostile import HUGE
from univac_ttt.hostio.atomic_files import atomic_write, create_new
from univac_ttt.hostio.bounded_input import JsonError, NumberError, load_json, parse_number
from univac_ttt.hostio.stdin_lines import LineReader, Refused


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


def test_atomic_write_never_puts_a_file_in_place_of_a_fifo_or_device(tmp_path):
    """A rename over /dev/null (as root) made it a regular file for every process."""
    import os
    import stat

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="Not a regular file"):
        atomic_write(fifo, "x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]  # no temporary left


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


def test_the_line_limit_is_in_bytes_and_the_refusal_says_so():
    """50 two-byte letters fill a 100-byte limit; 51 (51 characters) are refused, and the
    refusal says bytes, as the README does, not characters."""
    import io
    reader = LineReader(io.BytesIO(("é" * 50 + "\n" + "é" * 51 + "\n").encode()), 100)
    assert reader.read_line() == "é" * 50
    refused = reader.read_line()
    assert isinstance(refused, Refused) and str(refused).endswith("longer than 100 bytes")


def test_a_byte_order_mark_at_the_start_of_stdin_is_dropped():
    """Moves saved by Windows Notepad begin with a UTF-8 byte order mark: the plain console
    refused the first move ("no key for 'U+FEFF'") and the monitor's first command ("no
    command '\\ufeffgo'"), where --script and every file reader drop it. Only the stream's
    first bytes are a mark; one later in the input is a character like any other."""
    import io
    reader = LineReader(io.BytesIO(b"\xef\xbb\xbf5\n\xef\xbb\xbf9\n"), 100)
    assert reader.read_line() == "5"
    assert reader.read_line() == "\ufeff9"
    assert LineReader(io.BytesIO(b"\xef\xbb\xbf"), 100).read_line() is None
    result = command.univac("play", "--plain", stdin="\ufeff5\n")
    assert "> 5\n" in result.stdout and "refused" not in result.stdout + result.stderr
    result = command.univac("monitor", stdin="\ufeffgo\n")
    assert result.returncode == 0 and "??" not in result.stdout


def test_a_first_line_too_long_is_refused_whole_with_or_without_a_byte_order_mark():
    """The mark is no part of the line's length, and it does not make room for a longer
    line to be cut in two: a first line one byte over the limit is refused whole (its tail
    was once returned as a second line, run as a monitor command), and one at the limit is
    read, with the mark or without."""
    import io
    for mark in (b"", b"\xef\xbb\xbf"):
        for tail in (b"\n", b""):
            reader = LineReader(io.BytesIO(mark + b"a" * 101 + b"\nnext\n"), 100)
            refused = reader.read_line()
            assert isinstance(refused, Refused), (mark, refused)
            assert reader.read_line() == "next"
            reader = LineReader(io.BytesIO(mark + b"a" * 100 + tail), 100)
            assert reader.read_line() == "a" * 100
            assert reader.read_line() is None
        reader = LineReader(io.BytesIO(mark + b"a" * 150 + b"\nstep\n"), 100)
        assert isinstance(reader.read_line(), Refused)
        assert reader.read_line() == "step"
    result = command.univac("monitor", stdin="\ufeff" + "x" * 998 + "step\n")
    assert "longer than 1,000 bytes" in result.stdout
    assert "monitor> step" not in result.stdout


def test_a_count_option_says_what_it_takes() -> None:
    """`--pack abc` said "'abc' is not a whole number (the value)"; a count option names
    its range instead, and the bounds as before."""
    import argparse

    from univac_ttt.hostio.bounded_input import count_option

    convert = count_option(1000)
    assert convert(" 12 ") == 12
    for text, said in [("abc", "'abc' is not a whole number from 1 to 1,000"),
                       ("1e3", "'1e3' is not a whole number from 1 to 1,000"),
                       ("0", "the value must be at least 1"),
                       ("1001", "the value must be at most 1,000")]:
        with pytest.raises(argparse.ArgumentTypeError) as caught:
            convert(text)
        assert str(caught.value) == said
