"""Abuse: fuzzed keyboard entries, random memory images, malformed files, and a soak run.

Bounded so the suite stays quick; `pytest --long` runs the big versions (10,000 games,
2,000 examples per property). docs/reliability.md records the largest runs.
"""

import io
import subprocess
import sys
import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.console.plain import PlainConsole
from univac_ttt.desk import Desk, Limits
from univac_ttt.desk.session import GameSession
from univac_ttt.machine import KeyboardEntryError, MachineOptions, StopKind, keys_to_word
from univac_ttt.machine.word import from_int, to_int
from univac_ttt.packs.tictactoe import DEMO_GAMES, load_tictactoe
from univac_ttt.program.assembler import AssemblyError, assemble
from univac_ttt.program.image import ImageError, parse_image

SHIPPED = load_tictactoe()
BRD = SHIPPED.program.address_of("BRD")
SQUARE_WORDS = {from_int(k): k for k in range(1, 10)}

entries = st.one_of(
    st.text(max_size=40),                                   # any Unicode at all
    st.text(alphabet="0123456789", max_size=14),            # digits, long and short
    st.sampled_from(["", " ", "5 5", "-5", "+5", "05", "10", "A", "\t", "\x00", "٥", "５"]),
    st.text(alphabet=st.characters(max_codepoint=31), max_size=5),  # control characters
    st.text(min_size=200, max_size=2000),                   # very long lines
)


def board_of(session):
    return [to_int(session.machine.mem[BRD + k]) for k in range(1, 10)]


@given(st.lists(entries, min_size=1, max_size=12))
def test_keyboard_fuzz_never_breaks_the_game(typed):
    session = GameSession(SHIPPED.image.words)
    for text in typed:
        before_board = board_of(session)
        before_state = session.machine.snapshot()
        try:
            word = keys_to_word(text)
        except KeyboardEntryError:
            word = None
        result = session.submit(text)
        assert session.waiting_for_keyboard, "the game must always go on"
        if word is None:
            assert not result.accepted
            assert session.machine.snapshot() == before_state
            continue
        assert result.accepted
        square = SQUARE_WORDS.get(word)
        if square is None or before_board[square - 1] != 0:
            assert board_of(session) == before_board  # a warning, and nothing changed
            assert "NOT A SQUARE CODE" in session.paper[-200:] or "TAKEN" in session.paper[-200:]


@given(st.lists(entries, max_size=30))
def test_plain_console_takes_any_flood_of_lines(lines):
    stdin = io.StringIO("\n".join(line.replace("\n", " ") for line in lines))
    out, err = io.StringIO(), io.StringIO()
    result = PlainConsole(Desk(SHIPPED.image.words), stdin, out, err).run()
    assert result.exit_code == 0 and result.stop is None  # end of input, cleanly
    assert out.getvalue().count("> ") >= 1


codes = st.integers(min_value=0, max_value=63).map(chr)
words = st.text(alphabet=codes, min_size=12, max_size=12)
documented = {StopKind.HALT, StopKind.BREAKPOINT, StopKind.KEYBOARD, StopKind.STEP_LIMIT,
              StopKind.ERROR}


@given(st.dictionaries(st.integers(0, 999), words, max_size=60),
       st.lists(words, max_size=5), st.booleans(), st.sampled_from(["transfer", "stop"]),
       st.sampled_from(["latency", "average"]), st.booleans())
def test_random_memory_images_always_end_in_a_documented_state(
        memory, typed, right_half, overflow, timing, switch):
    options = MachineOptions(right_half_after_transfer=right_half, overflow=overflow,
                             timing=timing, breakpoint_switch=switch)
    desk = Desk(memory, options, Limits(cap=600))
    desk.keyboard.replace_pending(list(reversed(typed)))
    machine = desk.machine
    for _ in range(5):  # start again after each stop, as an operator would
        stop = desk.run()
        assert stop.kind in documented
        assert 0 <= stop.address <= 999 and stop.half in ("left", "right")
        assert stop.reason
    state = machine.snapshot()
    for word in (*state.mem, state.a, state.x, state.l, state.f, *state.v, *state.y, state.cr):
        assert len(word) == 12 and all(ord(ch) < 64 for ch in word)
    assert 0 <= state.cc <= 999 and state.half in (0, 1)


@given(st.text(max_size=400))
def test_any_text_is_an_image_or_a_clear_error(text):
    try:
        image = parse_image(text, "fuzz.img")
    except ImageError as exc:
        assert exc.line is None or exc.line >= 1
        assert "fuzz.img" in str(exc)
    else:
        assert all(0 <= a <= 999 and len(w) == 12 for a, w in image.words.items())


sheet_lines = st.lists(st.one_of(
    st.text(max_size=60),
    st.sampled_from(["000 B0 010  90 000", "L: = 5", "MSG \"HI\"", "RESERVE 3", "## S",
                     "B0 L  A0 L+1", "X: \"ΔΔΔXιιιιιιιι\"", "= -12", "999 = 1", "U0 X 00 0"])),
    max_size=12)


@given(sheet_lines)
def test_any_coding_sheet_assembles_or_names_its_line(lines):
    try:
        program = assemble("\n".join(lines), "fuzz.ucs")
    except AssemblyError as exc:
        text_lines = "\n".join(lines).split("\n")
        assert exc.line in range(1, len(text_lines) + 1) and "fuzz.ucs" in str(exc)
    else:
        assert all(len(w) == 12 for w in program.image.words.values())


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
        result = subprocess.run([sys.executable, "-m", "univac_ttt", "run", str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, name
        assert expected in result.stderr, (name, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


class CountingSink(io.TextIOBase):
    """A stdout that only counts, so the soak measures the emulator, not the paper."""

    def __init__(self):
        self.characters = 0
        self.results = 0
        self._tail = ""

    def write(self, text):
        self.characters += len(text)
        window = self._tail + text
        self.results += window.count("THE UNIVAC WINS") + window.count("IS A DRAW")
        self._tail = text[-20:]
        return len(text)


def soak_lines(games):
    for i in range(games):
        yield from DEMO_GAMES[i % len(DEMO_GAMES)][0]


class Feeder(io.TextIOBase):
    """stdin that hands the console one prepared line at a time."""

    def __init__(self, lines):
        self.lines = iter(lines)

    def readline(self, size=-1):
        line = next(self.lines, None)
        return "" if line is None else line + "\n"


def test_soak_many_games_in_one_process_without_growing(long_run):
    games = 10_000 if long_run else 300
    warm_up = 60  # games played before measuring, so the decode and arithmetic memos fill
    lines = list(soak_lines(games))
    warm_lines = len(list(soak_lines(warm_up)))
    desk = Desk(SHIPPED.image.words)
    sink = CountingSink()
    console = PlainConsole(desk, Feeder(lines[warm_lines:]), sink, io.StringIO())
    tracemalloc.start()
    try:
        for line in lines[:warm_lines]:
            assert desk.run().kind is StopKind.KEYBOARD
            desk.release(line)
        start_bytes = tracemalloc.get_traced_memory()[0]
        result = console.run()
        end_bytes = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0 and result.stop is None
    assert sink.results == games
    assert end_bytes - start_bytes < 2_000_000, (start_bytes, end_bytes)


def test_an_endless_file_is_refused_not_read_forever():
    for args in (["run", "/dev/zero"], ["monitor", "--script", "/dev/zero"],
                 ["monitor", "/dev/zero"], ["verify", "/dev/zero"]):
        result = subprocess.run([sys.executable, "-m", "univac_ttt", *args],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, args
        assert "is a device, not a file" in result.stderr and "Traceback" not in result.stderr
