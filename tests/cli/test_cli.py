"""The installed command, run as a user would: real processes, pipes, exit statuses."""

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.command import univac

# A program written from the manual: read two numbers from the keyboard, type their sum,
# and stop when the first number is zero.
ADDER_IMAGE = """\
# adder: sum of two typed numbers, repeated until the first is 0
000 100100000000  read a into 100
001 B00100L00103  rA = a; rL = 0
002 Q00009000000  a = 0: stop
003 100101000000  read b into 101
004 B00100A00101  rA = a + b
005 H00102500104  sum to 102; type the label
006 500102500105  type the sum, then a carriage return
007 000000U00000  again
009 900000000000  stop
103 000000000000  zero
104 ⇑SUMΔιιιιιιι  label (the shift: the typewriter types small letters unshifted)
105 ⏎ιιιιιιιιιιι  carriage return
"""


@pytest.fixture
def adder(tmp_path):
    path = tmp_path / "adder.img"
    path.write_text(ADDER_IMAGE, encoding="utf-8")
    return path


def test_run_a_hand_written_program(adder):
    result = univac("run", str(adder), "--plain", stdin="12\n30\n-00000000005\n2\n0\n")
    assert result.returncode == 0
    # each keyed line follows its prompt (echoed: stdin is not a terminal), as on screen
    assert result.stdout == ("> 12\n> 30\nSUM 000000000042\n"
                             "> -00000000005\n> 2\nSUM -00000000003\n> 0\n")
    summary = result.stderr.strip().splitlines()[-1]
    assert "normal stop at 009 (left)" in summary and "UNIVAC time" in summary


def test_run_refuses_keys_the_keyboard_lacks_and_prompts_again(adder):
    result = univac("run", str(adder), "--plain", stdin="1!\n1\n2\n0\n")
    assert "refused" in result.stderr and "'!'" in result.stderr
    assert result.stdout.startswith("> 1!\n> 1\n> 2\nSUM 000000000003")


def test_run_end_of_input_is_clean(adder):
    result = univac("run", str(adder), stdin="")
    assert result.returncode == 0 and "end of input" in result.stderr


def test_run_bad_image_exits_2_with_the_line(tmp_path):
    bad = tmp_path / "bad.img"
    bad.write_text("000 000000000000\n001 B0010\n")
    result = univac("run", str(bad))
    assert result.returncode == 2
    assert "line 2" in result.stderr and "Traceback" not in result.stderr


def test_run_missing_image_exits_2(tmp_path):
    result = univac("run", str(tmp_path / "nope.img"))
    assert result.returncode == 2 and "does not exist" in result.stderr


def test_error_stop_exits_1(tmp_path):
    image = tmp_path / "e.img"
    image.write_text("000 I00000000000\n")
    result = univac("run", str(image))
    assert result.returncode == 1 and "invalid instruction" in result.stderr


def test_max_steps_guards_a_runaway_program(tmp_path):
    image = tmp_path / "loop.img"
    image.write_text("000 000000U00000\n")
    result = univac("run", str(image), "--max-steps", "5000")
    assert result.returncode == 1 and "step limit" in result.stderr


@pytest.mark.parametrize("args", [["run"], ["run", "x", "--max-steps", "0"],
                                  ["run", "x", "--overflow", "maybe"], ["--bogus"]])
def test_bad_options_exit_2_without_traceback(args):
    result = univac(*args)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "univac-ttt:" in result.stderr


def test_play_plain_over_pipes():
    result = univac("play", "--plain", stdin="5\n9\nQ\n")
    assert result.returncode == 0
    assert "NEW GAME" in result.stdout and "NOT A SQUARE CODE" in result.stdout
    assert "   O   2   3\n   4   X   6\n   7   8   9\n" in result.stdout
    assert result.stdout.count("> ") == 4


def test_the_installed_command_exists_and_runs(adder):
    command = shutil.which("univac-ttt")
    assert command, "install the package first: python3 -m pip install '.[test]'"
    result = subprocess.run([command, "run", str(adder)], input="1\n1\n0\n",
                            capture_output=True, text=True, timeout=60)
    assert "SUM 000000000002" in result.stdout and result.returncode == 0


def test_plain_mode_output_is_byte_stable():
    """A fixed session must print exactly what it printed when this file was recorded.

    play boots the program from tictactoe.tape by INITIAL READ (tests/desk/test_tapes_desk.py);
    the load types nothing, so no tape line was added and the golden file is unchanged."""
    from pathlib import Path
    data = Path(__file__).resolve().parents[1] / "data"
    result = univac("play", "--plain", stdin=(data / "plain_session.in").read_text())
    assert result.returncode == 0
    assert result.stdout == (data / "plain_session.out").read_text(encoding="utf-8")


def test_every_subcommand_module_adds_its_parser_and_its_function():
    """One module a subcommand: each is listed by --help and parses to its own function."""
    from univac_ttt.cli.main import COMMANDS, SUBCOMMANDS, build_parser

    parser = build_parser()
    assert COMMANDS == ("play", "run", "monitor", "kiosk", "serve", "verify", "assemble",
                        "tape", "programs")
    required = {"assemble": ["x.ucs"], "tape": ["list", "x.tape"]}
    for module in SUBCOMMANDS:
        args = parser.parse_args([module.NAME, *required.get(module.NAME, [])])
        assert args.command == module.NAME
        assert callable(args.func)
        assert args.func.__module__ == module.__name__


def test_the_kiosk_idle_time_has_one_default():
    from univac_ttt.cli.kiosk import IDLE_DEFAULT
    from univac_ttt.cli.main import build_parser
    from univac_ttt.museum.controller import KioskSettings

    assert build_parser().parse_args(["kiosk"]).idle == IDLE_DEFAULT
    with pytest.raises(TypeError):  # no second default to drift from the command line's
        KioskSettings(pin="2468", printouts=Path("p"), stats=Path("t.json"))


def test_a_mistyped_command_is_named_with_the_likeliest_and_the_list():
    result = univac("moniter")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("univac-ttt: no command 'moniter'; did you mean monitor?")
    assert "play, run, monitor" in result.stderr and "Traceback" not in result.stderr
    assert "no command 'zzz' (the commands:" in univac("zzz").stderr  # no likeliest


def test_an_unknown_option_is_said_with_its_own_command_s_usage():
    result = univac("verify", "--bogus")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: univac-ttt verify")
    assert result.stderr.endswith("univac-ttt: unrecognized arguments: --bogus\n")


def test_run_s_help_says_its_console_is_always_the_plain_one():
    """run has no full-screen console: its --plain changes nothing, and the help said
    "the only one for images so far", though play --image runs an image full screen."""
    result = univac("run", "--help")
    text = " ".join(result.stdout.split())
    assert "which run always uses" in text and "play --image FILE runs an image full" in text
