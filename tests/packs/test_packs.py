"""Program packs: reading a pack folder, its refusals, and a pack made by hand (a sheet and a
pack.toml, no Python) run end to end with --program in run, play --plain and monitor."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.support import command
from univac_ttt.console.app import ConsoleApp, ConsoleSettings
from univac_ttt.console.side_panel import render_panel
from univac_ttt.desk.paper import PrintedChunk
from univac_ttt.desk.score import ScoreKeeper
from univac_ttt.desk.session import GameSession
from univac_ttt.machine.tape import Reel
from univac_ttt.machine.word import from_int
from univac_ttt.monitor.core import Monitor
from univac_ttt.packs import open_pack, shipped_names, shipped_pack
from univac_ttt.program.pack import NO_PACK, PackError
from univac_ttt.program.pack_folder import read_pack
from univac_ttt.program.reel import format_reel

GREETING_SHEET = """\
## A greeting, made by hand: types hello, reads a word and types it back
000 START:  50 HELLO     50 ASKW
ASK:        10 KEY       00 000       wait for a word on the keyboard
            50 SAID      50 KEY       type it back
            50 DONE      U0 ASK       and ask again
100 HELLO:  MSG "⏎⇑HELLO⏎"
ASKW:       MSG "TYPE A WORD⏎"
SAID:       MSG "⏎YOU SAID "
DONE:       MSG "⏎WELL DONE⏎"
KEY:        = 0
"""

GREETING_TOML = """\
name = "greet"
title = "A greeting that types back what you key"
sheet = "greet.ucs"
help = "The UNIVAC says hello; type a word and it types it back."
key_hint = "type a word, then Enter"

[results]
"WELL DONE" = "greeted"

[tally]
greeted = "words"
"""


def univac(*args, stdin="", timeout=60):
    return command.univac(*args, stdin=stdin, timeout=timeout)


def make_pack(folder: Path, toml: str = GREETING_TOML, files: dict | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "greet.ucs").write_text(GREETING_SHEET, encoding="utf-8")
    (folder / "pack.toml").write_text(toml, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def greet(tmp_path):
    return make_pack(tmp_path / "greet")


# ---- the shipped packs --------------------------------------------------------------------

def test_the_shipped_packs_are_found_and_listed_with_their_titles():
    assert "tictactoe" in shipped_names()
    result = univac("programs")
    assert result.returncode == 0, result.stderr
    for name in shipped_names():
        assert re.search(rf"^{name}\s+{re.escape(shipped_pack(name).title)}$",
                         result.stdout, re.M)


def test_a_program_without_a_pack_scores_nothing_and_claims_no_board():
    assert NO_PACK.results_in("THE UNIVAC WINS. YOU WIN.") == []
    assert NO_PACK.board is None and not NO_PACK.scores and NO_PACK.mounts() == {}


def test_tictactoe_claims_its_board_and_its_results():
    pack = shipped_pack("tictactoe")
    assert pack.board is not None and pack.result_names == ("univac", "draw", "opponent")
    assert pack.boot_tape() is not pack.boot_tape()  # a fresh tape each time


# ---- a pack made by hand ------------------------------------------------------------------

def test_a_hand_made_pack_reads_without_python(greet):
    pack = open_pack(str(greet))
    assert (pack.name, pack.title, pack.key_hint) == (
        "greet", "A greeting that types back what you key", "type a word, then Enter")
    assert pack.program is not None and "KEY" in pack.program.symbols
    assert pack.board is None and pack.demonstrations == ()
    assert pack.results_in("WELL DONE.. WELL DONE") == ["greeted", "greeted"]
    assert pack.results_in("WELL DONER") == []  # whole words only
    assert pack.boot_tape().name == "greet.tape" and set(pack.mounts()) == {1}


def test_a_pack_names_its_files_as_paths_do(greet, tmp_path):
    """The files a pack.toml names are found and written as ``Path(folder) / name`` would
    (pack_folder joins them without pathlib); a folder given as text is a Path when asked."""
    (greet / "pack.toml").write_text(
        GREETING_TOML.replace('"greet.ucs"', '".//greet.ucs"')
        + '[[tapes]]\nunit = 2\nreel = "./reels//in.tape"\n', encoding="utf-8")
    (greet / "reels").mkdir()
    (greet / "reels" / "in.tape").write_text("000000000001\n", encoding="utf-8")
    pack = read_pack(str(greet))
    assert pack.folder == greet and isinstance(pack.folder, Path)
    assert pack.tapes[0].reel == greet / "reels" / "in.tape"
    assert isinstance(pack.tapes[0].reel, Path)
    assert str(pack.tapes[0].reel) == str(greet / "reels" / "in.tape")
    assert pack.program is not None and "KEY" in pack.program.symbols
    for outside in (str(tmp_path / "greet.ucs"), "reels/../greet.ucs"):
        (greet / "pack.toml").write_text(GREETING_TOML.replace('"greet.ucs"', f'"{outside}"'),
                                         encoding="utf-8")
        with pytest.raises(PackError, match="must be a file in the pack's folder"):
            read_pack(greet)


def test_a_packs_folder_given_as_text_is_the_same_pack(greet):
    from univac_ttt.program.pack import Pack

    by_path = read_pack(greet)
    fields = {name: getattr(by_path, name) for name in
              ("name", "title", "help", "source", "key_hint", "results", "tally")}
    as_text, as_path = Pack(folder=str(greet), **fields), Pack(folder=greet, **fields)
    assert as_text == as_path
    assert repr(as_text) == repr(as_path) and f"folder={greet!r}" in repr(as_text)
    assert as_text.folder == greet and isinstance(as_text.folder, Path)
    assert as_text.extended(board=None) == as_path


def test_run_program_dir_types_the_greeting_echoes_and_counts(greet):
    result = univac("run", "--program", str(greet), "--plain", stdin="HI\nTHERE\n")
    assert result.returncode == 0, result.stderr
    assert "HELLO\nTYPE A WORD\n> HI\n" in result.stdout
    assert "YOU SAID 0000000000HI\nWELL DONE" in result.stdout
    assert "YOU SAID 0000000THERE\nWELL DONE" in result.stdout
    assert "score: words 2" in result.stderr


def test_play_plain_program_dir_runs_the_pack(greet):
    result = univac("play", "--plain", "--program", str(greet), stdin="HI\n")
    assert result.returncode == 0, result.stderr
    assert "YOU SAID 0000000000HI\nWELL DONE" in result.stdout
    assert "score: words 1" in result.stderr
    assert "Traceback" not in result.stderr


def test_monitor_program_dir_runs_the_pack(greet):
    script = "go\ntype HI\ncontinue\npaper 3\nboard\n"
    result = univac("monitor", "--program", str(greet), stdin=script)
    assert "| YOU SAID 0000000000HI" in result.stdout and "| WELL DONE" in result.stdout
    assert "?? this program has no board" in result.stdout  # the pack reads none
    booted = univac("monitor", "--program", str(greet), stdin="boot\ngo\npaper 2\n")
    assert "| TYPE A WORD" in booted.stdout  # its tape is on Uniservo 1


def test_the_console_shows_the_packs_hint_and_tally(greet):
    pack = read_pack(greet)
    with create_pipe_input() as pipe:
        console = ConsoleApp(lambda on_print: GameSession.from_pack(pack, on_print=on_print),
                             ConsoleSettings(pack=pack), input=pipe, output=DummyOutput())
        console.keyboard_buffer.text = "HI"
        console.submit()
        panel = re.sub(r"\x1b\[[0-9;]*m", "", render_panel(console.session, False, False,
                                                           pack=pack))
    assert console.session.score.count("greeted") == 1
    assert "words 1" in panel and "type a word, then Enter" in panel
    assert "square codes" not in panel
    assert "The UNIVAC says hello" in "\n".join(console.layout.help_lines())


def test_the_score_keeper_counts_a_phrase_split_between_pieces():
    keeper = ScoreKeeper(read_pack_results({"WELL DONE": "greeted"}))
    for text in ("\nWELL D", "ONE\n", "> WELL DONE"):
        keeper.printed(PrintedChunk(text, 0, keyed=text.startswith(">")))
    assert keeper.score.count("greeted") == 1 and keeper.line() == "score: greeted 1"


def read_pack_results(results):
    from univac_ttt.program.pack import Pack

    return Pack(name="x", title="x", help="x", folder=None, results=results).results_in


# ---- reels: mounted fresh, write = true on a scratch copy ---------------------------------

WRITER_SHEET = """\
000 START:  53 100       54 100       write a block on Uniservo 3 and on 4
            90 000       00 000
100 DATA:   = 7
"""


def test_write_reels_are_scratch_copies_and_the_shipped_file_is_never_written(tmp_path):
    reel_text = format_reel(Reel([tuple(from_int(n) for n in range(60))]), "input")
    toml = ('name = "writer"\ntitle = "writes"\nhelp = "h"\nsheet = "w.ucs"\n'
            '[[tapes]]\nunit = 2\nreel = "in.tape"\n'
            '[[tapes]]\nunit = 3\nreel = "out.tape"\nwrite = true\n'
            '[[tapes]]\nunit = 4\nwrite = true\n')
    folder = make_pack(tmp_path / "writer", toml,
                       {"w.ucs": WRITER_SHEET, "in.tape": reel_text, "out.tape": reel_text})
    pack = read_pack(folder)
    reels = pack.reels()
    assert not reels[2].writable and reels[3].writable and reels[4].blocks == []
    result = univac("run", "--program", str(folder), "--plain")
    assert result.returncode == 0, result.stderr
    assert (folder / "out.tape").read_text(encoding="utf-8") == reel_text
    monitor = Monitor.for_pack(pack)
    monitor.execute("go")
    written = monitor.desk.machine.tapes[3].reel
    assert written is not None and written.blocks[0][0] == from_int(7)
    assert pack.reels()[3].blocks[0][0] == from_int(0)  # the next mount is fresh again
    assert (folder / "out.tape").read_text(encoding="utf-8") == reel_text
    (folder / "in.tape").unlink()  # read with the pack: a later mount needs no file
    assert pack.reels()[2].blocks == reels[2].blocks


# ---- bad pack folders: a clear message naming the file and the field ----------------------

BASE = ('name = "greet"\ntitle = "A greeting"\nhelp = "Hello."\nsheet = "greet.ucs"\n')


@pytest.mark.parametrize(("toml", "field", "reason"), [
    (BASE + 'colour = "red"\n', "colour", "unknown key"),
    (BASE.replace('name = "greet"\n', ""), "name", "missing"),
    (BASE.replace('title = "A greeting"\n', ""), "title", "missing"),
    (BASE.replace('help = "Hello."\n', ""), "help", "missing"),
    (BASE.replace('name = "greet"', 'name = "Greet Me"'), "name", "lower-case"),
    (BASE.replace('title = "A greeting"', 'title = 3'), "title", "must be a string"),
    (BASE + 'image = "greet.img"\n', "sheet", "not both"),
    (BASE.replace('sheet = "greet.ucs"\n', ""), "sheet", "exactly one"),
    (BASE.replace('"greet.ucs"', '"other.ucs"'), "sheet", "no file 'other.ucs'"),
    (BASE.replace('"greet.ucs"', '"../greet.ucs"'), "sheet", "in the pack's folder"),
    (BASE.replace('"greet.ucs"', '"bad.ucs"'), "sheet", "does not load"),
    (BASE + '[[tapes]]\nunit = 1\nreel = "in.tape"\n', "tapes[1].unit", "Uniservo 1"),
    (BASE + '[[tapes]]\nunit = 11\nreel = "in.tape"\n', "tapes[1].unit", "no Uniservo"),
    (BASE + '[[tapes]]\nunit = "2"\nreel = "in.tape"\n', "tapes[1].unit", "not a number"),
    (BASE + '[[tapes]]\nunit = 2\nreel = "gone.tape"\n', "tapes[1].reel", "no file"),
    (BASE + '[[tapes]]\nunit = 2\n', "tapes[1].reel", "missing"),
    (BASE + '[[tapes]]\nunit = 2\nreel = "bad.tape"\n', "tapes[1].reel", "line 1"),
    (BASE + '[[tapes]]\nunit = 2\nreel = "in.tape"\nwrite = "yes"\n', "tapes[1].write",
     "true or false"),
    (BASE + '[[tapes]]\nunit = 2\nspeed = 3\n', "tapes[1].speed", "unknown key"),
    (BASE + '[[tapes]]\nunit = 2\nwrite = true\n[[tapes]]\nunit = 2\nwrite = true\n',
     "tapes[2].unit", "twice"),
    (BASE + '[typewriter]\nspeed = "slow"\n', "typewriter.speed", "fast"),
    (BASE + '[results]\n"WELL DONE" = "Greeted!"\n', "results.'WELL DONE'", "result name"),
    (BASE + '[results]\n"WELL DONE" = "greeted"\n[tally]\nwon = "wins"\n', "tally.won",
     "names no result"),
    (BASE + '[captions]\nNOWHERE = "a caption"\n', "captions.NOWHERE", "no label NOWHERE"),
    (BASE + 'name = "again"\n', "", "not TOML"),
])
def test_a_bad_pack_is_refused_naming_the_file_and_the_field(tmp_path, toml, field, reason):
    folder = make_pack(tmp_path / "bad", toml, {
        "bad.ucs": "000 B0 NOWHERE 90 000\n", "in.tape": "000000000001\n",
        "bad.tape": " not a word\n"})
    with pytest.raises(PackError) as raised:
        read_pack(folder)
    message = str(raised.value)
    assert message.startswith(str(folder / "pack.toml")), message
    assert f": {field}:" in message or not field, message
    assert reason in message, message
    result = univac("run", "--program", str(folder), "--plain")  # the user's view
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_folder_without_a_pack_and_an_unknown_name_are_refused(tmp_path):
    with pytest.raises(PackError,
                       match=r"not a program pack \(a pack is a folder with a pack.toml\)"):
        read_pack(tmp_path)
    for args in (["run", "--program", "nosuch", "--plain"],
                 ["play", "--plain", "--program", str(tmp_path / "missing")],
                 ["monitor", "--program", "nosuch"]):
        result = univac(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr, args
    assert "the shipped programs are merge, tictactoe" in univac(
        "run", "--program", "nosuch").stderr


def test_program_and_image_together_are_refused(greet, tmp_path):
    image = tmp_path / "x.img"
    image.write_text("000 900000000000\n", encoding="utf-8")
    result = univac("play", "--plain", "--program", str(greet), "--image", str(image))
    assert result.returncode == 2 and "not both" in result.stderr


def test_serve_hands_every_terminal_the_pack_named(greet):
    from univac_ttt.cli import served_apps

    pack = read_pack(greet)
    apps = served_apps(pack)
    with create_pipe_input() as pipe:
        console = apps["play"](pipe, DummyOutput()).console
        assert console.settings.pack is pack and "HELLO" in console.session.paper
        monitor = apps["monitor"](pipe, DummyOutput()).monitor
        assert monitor.board_reader is None and monitor.sheet is pack.program
    default = served_apps()  # tic-tac-toe, as before
    with create_pipe_input() as pipe:
        assert "NEW GAME" in default["play"](pipe, DummyOutput()).console.session.paper
    result = univac("serve", "--program", "nosuch", "--telnet", "0")
    assert result.returncode == 2 and "no program 'nosuch'" in result.stderr


def test_the_full_screen_console_runs_a_hand_made_pack(greet):
    import shutil

    from support.terminal import Terminal

    terminal = Terminal([shutil.which("univac-ttt") or "univac-ttt", "play", "--program",
                         str(greet)], columns=80, rows=24)
    try:
        terminal.wait_for("type a word, then Enter")  # the pack's key hint on the lamp
        terminal.send("HI\r")
        screen = terminal.wait_for("words 1")  # the pack's tally counted WELL DONE
        assert "YOU SAID 0000000000HI" in screen and "square codes" not in screen
        terminal.send("\x11\x11")
    finally:
        assert terminal.close() == 0


def test_a_paper_without_a_phrase_is_answered_as_the_pattern_would():
    """results_in skips the pattern when no phrase is in the text (every reply's paper is
    read): the answer is the pattern's own for texts with a phrase, part of one, one in
    small letters, run into other words, or none."""
    from itertools import product

    from univac_ttt.program.pack import Pack

    pack = Pack(name="x", title="x", help="x", folder=None,
                results={"WELL DONE": "greeted", "YOU WIN": "won", "A DRAW": "drew"})
    parts = ["", "WELL DONE", "WELL D", "well done", "YOU WINNER", "YOU WIN.", "XA DRAW",
             "A DRAW\n", "\n   O   2   3\n", "> YOU WIN"]
    matched = 0
    for first, second in product(parts, repeat=2):
        text = first + " " + second
        expected = [pack.results[m.group(0)] for m in pack._pattern.finditer(text)]
        assert pack.results_in(text) == expected, text
        matched += bool(expected)
    assert matched > 20


# ---- results: found by str.find as the pattern finds them ---------------------------------

_PHRASE_LETTERS = st.sampled_from(["A", "B", "AB", " ", "1", ".", "!", "a", "é"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_PHRASE_LETTERS, min_size=1, max_size=4).map("".join),
                min_size=1, max_size=4, unique=True),
       st.lists(st.one_of(_PHRASE_LETTERS, st.sampled_from(["\n", "Z", "0", "AB A", "B1"])),
                max_size=24))
def test_the_results_read_are_the_pattern_s_matches(phrases, pieces):
    """``results_in`` finds the phrases with ``str.find`` (the pattern's look-behinds try every
    position): the same results as the pattern's matches, in order, for overlapping phrases,
    one inside another, and phrases that start or end with a letter or digit or do not."""
    from univac_ttt.program.pack import Pack

    results = {phrase: f"r{i}" for i, phrase in enumerate(phrases)}
    pack = Pack(name="x", title="x", help="x", folder=None, results=results)
    text = "".join(pieces) + "".join(phrases) + "".join(reversed(pieces))
    expected = [results[m.group(0)] for m in pack._pattern.finditer(text)]
    assert pack.results_in(text) == expected
    for cut in (1, len(text) // 2):
        assert pack.results_in(text[cut:]) == [
            results[m.group(0)] for m in pack._pattern.finditer(text[cut:])]


def test_an_occurrence_refused_at_a_boundary_leaves_the_one_overlapping_it() -> None:
    """The first A.A in 1A.A.A follows a digit (not a result); the next one starts inside
    it and is (the search goes on from the next character, not past the refused one)."""
    from univac_ttt.program.pack import Pack

    for phrases, text, expected in ((["A.A"], "1A.A.A", ["r0"]), (["AA"], "1AAA", []),
                                    (["AA"], "1AA AA", ["r0"]),
                                    (["A.A", "1", ".A"], "1A.A.A", ["r2", "r2"])):
        results = {phrase: f"r{i}" for i, phrase in enumerate(phrases)}
        pack = Pack(name="x", title="x", help="x", folder=None, results=results)
        assert [results[m.group(0)] for m in pack._pattern.finditer(text)] == expected
        assert pack.results_in(text) == expected
