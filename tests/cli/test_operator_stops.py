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


def test_start_after_stop_ends_at_the_final_stop(tmp_path):
    """A 90 with only cleared memory after it is the program's last stop: START is not
    pressed there, so the run ends at once instead of running skips to --max-steps."""
    path = tmp_path / "final.img"
    path.write_text("000 B00100900000\n001 500100900000\n100 000000000005\n")
    result = univac("run", str(path), "--plain", "--start-after-stop", "--max-steps", "50")
    assert result.returncode == 0 and result.stdout == "000000000005"
    lines = result.stderr.splitlines()
    assert "normal stop at 000 (right)" in lines[0] and "START pressed" in lines[0]
    assert "normal stop at 001 (right)" in lines[-1] and "START" not in lines[-1]
    assert "50 instructions" not in result.stderr


def test_the_lower_case_typewriter_types_small_letters_until_the_shift(tmp_path):
    """The typewriter as S-PV describes it (the default, --typewriter lower): small letters,
    and capitals after the upper-case shift (41, our placement) until the lower-case shift
    (42); --typewriter capitals starts a run shifted up."""
    path = tmp_path / "case.img"
    path.write_text("000 500100500101\n001 500102900000\n"
                    "100 HELLOΔιιιιιι\n101 ⇑HELLOΔιιιιι\n102 ⇓HELLOιιιιιι\n")
    lower = univac("run", str(path), "--plain")
    assert lower.returncode == 0 and lower.stdout == "hello HELLO hello"
    capitals = univac("run", str(path), "--plain", "--typewriter", "capitals")
    assert capitals.stdout == "HELLO HELLO hello"
