"""What a first-time player reads in plain mode and on the screens: messages on a line of
their own, each figure said once, counts and UNIVAC times in plain words."""

from pathlib import Path

from tests.support import command
from univac_ttt.hostio.wording import count
from univac_ttt.machine.timing import format_time

SHIPPED_IMAGE = (Path(__file__).resolve().parents[2] / "univac_ttt" / "packs" / "tictactoe"
                 / "tictactoe.img")


def univac(*args, stdin="", together=False):
    """Run the command; with ``together`` stderr goes where stdout goes (2>&1)."""
    return command.univac(*args, stdin=stdin, together=together, timeout=120)


def test_a_message_starts_on_its_own_line_when_both_streams_go_to_one_place():
    # 116: the greeting begins with the typewriter's upper-case shift word (16 instructions)
    result = univac("run", "--max-steps", "116", str(SHIPPED_IMAGE), together=True)
    assert result.returncode == 1
    assert "TYPE\nunivac-ttt: step limit reached at 167 (left): the program ran the 116 " \
           "instructions that --max-steps allows" in result.stdout, result.stdout


def test_the_paper_alone_is_byte_stable_when_the_message_goes_elsewhere():
    result = univac("run", "--max-steps", "116", str(SHIPPED_IMAGE))
    assert result.stdout.endswith("YOU MOVE FIRST. TYPE")  # no line end added to the paper
    assert result.stderr.startswith("univac-ttt: step limit reached")


def test_a_runaway_is_reported_with_one_count_and_a_readable_time(tmp_path):
    image = tmp_path / "loop.img"
    image.write_text("000 000000U00000\n")
    result = univac("play", "--plain", "--image", str(image))
    assert result.returncode == 1
    message = result.stderr
    assert message.count("instructions") == 1, message
    assert "5,000,000 instructions without waiting for the keyboard" in message
    assert "endless loop" in message and "33 min 44.0 s UNIVAC time" in message


def test_one_of_a_thing_is_singular():
    assert count(1, "instruction") == "1 instruction"
    assert count(5_000_020, "instruction") == "5,000,020 instructions"
    assert count(0, "word") == "0 words" and count(2, "entry", "entries") == "2 entries"


def test_univac_durations_read_as_people_say_them():
    assert format_time(0) == "0 s" and format_time(0.2) == "0 s"
    assert format_time(81) == "81 us" and format_time(59_300) == "59.3 ms"
    assert format_time(1_801_000) == "1.801 s"
    assert format_time(59_999_990) == "1 min 0.0 s"
    assert format_time(2_024_023_000) == "33 min 44.0 s"
    assert format_time(14_689_422_000) == "4 h 04 min 49 s"


def test_a_one_word_program_says_1_instruction(tmp_path):
    image = tmp_path / "stop.img"
    image.write_text("000 900000000000\n")
    result = univac("run", str(image))
    assert result.returncode == 0
    assert "; 1 instruction, 81 us UNIVAC time" in result.stderr, result.stderr


def test_help_texts_wrap_at_words_to_any_width():
    from univac_ttt.console.app_layout import KEYS_HELP
    from univac_ttt.kiosk.app import KIOSK_HELP
    from univac_ttt.packs import shipped_pack
    from univac_ttt.tui.wrap import wrap_words

    for text in (shipped_pack("tictactoe").help + "\n\n" + KEYS_HELP, KIOSK_HELP):
        for width in (40, 60, 80):
            lines = wrap_words(text, width)
            assert all(len(line) <= width for line in lines), width
            assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # no word cut
    lines = wrap_words("      PageUp/PageDown or the mouse wheel scroll the paper; Up/Down "
                       "earlier entries", 60)
    assert lines[1] == "      Up/Down earlier entries"  # the continuation keeps the indent
