"""Stops as the operator saw them: at a 90 (or a ,0 with the switch set) START goes on."""

from tests.support.command import univac

IMAGE = """\
000 B00100900000  rA = 5; stop
001 A00101,00000  rA = 12; breakpoint stop
002 H00102500102  keep it and type it
003 100200000000  wait for the keyboard
100 000000000005
101 000000000007
"""


def _image(tmp_path):
    path = tmp_path / "stops.img"
    path.write_text(IMAGE, encoding="utf-8")
    return str(path)


def test_run_ends_at_a_normal_stop_by_default(tmp_path):
    result = univac("run", _image(tmp_path), "--plain")
    assert result.returncode == 0 and result.stdout == ""
    assert "normal stop at 000 (right)" in result.stderr.splitlines()[-1]


def test_start_after_stop_goes_on_past_the_stop(tmp_path):
    result = univac("run", _image(tmp_path), "--plain", "--start-after-stop")
    assert result.returncode == 0
    assert result.stdout == "000000000012> \n"  # end of input ends the prompt line
    lines = result.stderr.splitlines()
    assert "normal stop at 000 (right)" in lines[0] and "START pressed" in lines[0]
    assert "breakpoint" not in result.stderr  # the switch is not set: ,0 does not stop
    assert "end of input" in lines[-1]


def test_start_after_stop_with_the_breakpoint_switch(tmp_path):
    result = univac("run", _image(tmp_path), "--plain", "--start-after-stop",
                    "--breakpoint-switch")
    assert result.returncode == 0 and result.stdout == "000000000012> \n"
    lines = result.stderr.splitlines()
    assert "breakpoint stop at 001 (right)" in lines[1] and "START pressed" in lines[1]


def test_without_start_after_stop_the_switch_ends_the_run_at_the_breakpoint(tmp_path):
    path = tmp_path / "bp.img"
    path.write_text("000 B00100,00000\n001 900000900000\n100 000000000005\n")
    result = univac("run", str(path), "--plain", "--breakpoint-switch")
    assert result.returncode == 0
    assert "breakpoint stop at 000 (right)" in result.stderr.splitlines()[-1]
