"""Malformed and endless files given to the command: exit 2 with one line, never a
traceback, never read forever.
"""

from tests.support import command


def test_malformed_files_exit_2_with_one_line(tmp_path):
    good = "000 B00100900000\n100 000000000042\n"
    cases = {
        "truncated.img": (good + "101 00000000", "line 3"),
        "binary.img": (b"\x7fELF\x00\x01\x02", "binary"),
        "huge.img": ("#" * 1_200_000, "larger than"),
        "address.img": (good + "1000 000000000000\n", "line 3"),
        "duplicate.img": (good + "100 000000000001\n", "given twice"),
        "wide.img": (good + "102 0000000000000 too wide\n", "line 3"),
        "narrow.img": ("005 12345\n", "line 1"),
        "latin1.img": ("000 ÿ".encode("latin-1"), "UTF-8"),
    }
    for name, (content, expected) in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        result = command.univac("run", str(path))
        assert result.returncode == 2, name
        assert expected in result.stderr, (name, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_an_endless_file_is_refused_not_read_forever():
    for args in (["run", "/dev/zero"], ["monitor", "--script", "/dev/zero"],
                 ["monitor", "/dev/zero"], ["verify", "/dev/zero"]):
        result = command.univac(*args)
        assert result.returncode == 2, args
        assert "is a device, not a file" in result.stderr and "Traceback" not in result.stderr
