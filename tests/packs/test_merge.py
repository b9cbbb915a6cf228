"""The merge pack: a two-way tape merge hand-written in UNIVAC code (issue 19).

The program is booted from the pack's tape, as an operator booted it (the loader on
Uniservo 1, CLEAR C, INITIAL READ), with reels made by records.py on Uniservos 2 and 3 and
a blank writable reel on 4; it runs at the desk to its final stop.
What it wrote and typed is compared with Python's own merge (heapq.merge, stable).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import command
from tests.support.sizes import MERGE_EXAMPLES, MERGE_RECORDS, size
from univac_ttt.desk import Desk, Limits
from univac_ttt.machine import StopKind
from univac_ttt.machine.tape import BLOCK_WORDS, Reel
from univac_ttt.machine.word import ZERO, from_int, from_text, to_text
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.merge import records as rec
from univac_ttt.program.reel import parse_reel

PACK = resources.files("univac_ttt.packs.merge")


def program():
    return shipped_pack("merge").program


class Run:
    """One merge at the desk: the stop, the paper, the reels and the typed report."""

    def __init__(self, a: Reel, b: Reel, out: Reel | None = None) -> None:
        self.desk = Desk(limits=Limits(cap=5_000_000))
        self.out = out if out is not None else Reel([], writable=True, name="scratch")
        self.a, self.b = a, b
        self.desk.attach(2, a)
        self.desk.attach(3, b)
        self.desk.attach(4, self.out)
        assert self.desk.load_tape(shipped_pack("merge").boot_tape()) is None
        self.stop = self.desk.run()

    @property
    def paper(self) -> str:
        return self.desk.paper.text

    def report(self) -> dict[str, tuple[int, int]]:
        """Uniservo -> (records, total) as typed."""
        found = re.findall(r"UNISERVO (\d)  RECORDS  (\S{12})\n {12}TOTAL    (\S{12})",
                           self.paper)
        return {unit: (signed(n), signed(t)) for unit, n, t in found}

    def symbol(self, label: str) -> int:
        return program().symbols[label]


def signed(text: str) -> int:
    return -int(text[1:]) if text[0] == "-" else int(text)


def finished(run: Run) -> bool:
    return (run.stop.kind is StopKind.HALT and run.stop.address == run.symbol("DONE")
            and run.paper.endswith("MERGE COMPLETE.\n"))


def check_merge(a: list[rec.Record], b: list[rec.Record]) -> Run:
    run = Run(rec.reel_of(a, "a"), rec.reel_of(b, "b"))
    assert finished(run), run.paper
    written = rec.records_of(run.out)
    assert written == rec.python_merge(a, b)
    keys = [rec.key_of(r) for r in written]
    assert keys == sorted(keys)
    total_a, total_b = sum(r.amount for r in a), sum(r.amount for r in b)
    assert run.report() == {"2": (len(a), total_a), "3": (len(b), total_b),
                            "4": (len(a) + len(b), total_a + total_b)}
    # the output reel has exactly the blocks its records and the end record need
    assert len(run.out.blocks) == (len(a) + len(b)) // rec.RECORDS_PER_BLOCK + 1
    assert run.a.written is False and run.b.written is False
    return run


# ---- random sorted reels against Python's merge ----------------------------------------

words = st.one_of(st.integers(-10**11 + 1, 10**11 - 1).map(from_int),
                  st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-Δ", min_size=12,
                          max_size=12).map(from_text))
records = st.builds(rec.Record, st.integers(0, rec.MAX_KEY),
                    st.integers(-10**9, 10**9),
                    st.lists(words, min_size=8, max_size=8).map(tuple))
# Few distinct keys in one strategy, so equal keys across and within the reels are common.
crowded = st.builds(rec.Record, st.integers(0, 6), st.integers(-999, 999))


def sorted_reel(strategy, max_size):
    return st.lists(strategy, max_size=max_size).map(lambda rs: sorted(rs, key=lambda r: r.key))


@settings(max_examples=size(*MERGE_EXAMPLES))
@given(sorted_reel(records, size(*MERGE_RECORDS)), sorted_reel(records, size(*MERGE_RECORDS)))
def test_random_sorted_reels_merge_as_pythons_merge(a, b):
    check_merge(a, b)


@settings(max_examples=size(*MERGE_EXAMPLES))
@given(sorted_reel(crowded, 30), sorted_reel(crowded, 30))
def test_equal_keys_keep_reel_a_first_and_each_reels_order(a, b):
    check_merge(a, b)


# ---- the cases named in the issue ----------------------------------------------------------

def accounts(keys, amount=100, tag="A"):
    return [rec.Record(k, amount + i, rec.text_words(f"{tag}{i}")) for i, k in enumerate(keys)]


def test_two_empty_reels_give_an_empty_reel_and_zero_counts():
    run = check_merge([], [])
    assert run.out.blocks == [rec.END_RECORD + (ZERO,) * 50]


@pytest.mark.parametrize("side", ["a", "b"])
def test_one_empty_reel_copies_the_other(side):
    full = accounts(range(10, 200, 10))
    a, b = (full, []) if side == "b" else ([], full)
    check_merge(a, b)


def test_equal_keys_go_out_reel_a_first():
    a, b = accounts([5, 7, 7, 9], tag="A"), accounts([7, 7, 9], tag="B")
    run = check_merge(a, b)
    names = [r[2] for r in rec.records_of(run.out)]
    assert names == [from_text(t.ljust(12)) for t in
                     ("A0", "A1", "A2", "B0", "B1", "A3", "B2")]


@pytest.mark.parametrize("count_a, count_b", [(5, 0), (6, 6), (11, 1), (12, 17), (35, 36)])
def test_records_at_every_block_boundary(count_a, count_b):
    """5 records put the end record in a block's last slot; 6 give it a block of its own."""
    check_merge(accounts(range(0, 2 * count_a, 2)), accounts(range(1, 2 * count_b, 2)))


def test_reels_of_many_blocks():
    a = accounts(range(0, 3 * 400, 3), amount=10**6)
    b = accounts(range(1, 5 * 150, 5), amount=-5)
    run = check_merge(a, b)
    assert len(run.out.blocks) == 92
    # every block of the inputs was read once, every block of the output written once
    assert run.desk.machine.tapes.blocks_read == 67 + 26 + 18  # inputs, and the boot tape
    assert run.desk.machine.tapes.blocks_written == 92


def test_the_reels_are_rewound_at_the_end():
    run = check_merge(accounts([1, 2, 3]), accounts([2]))
    assert [run.desk.machine.tapes[u].position for u in (2, 3, 4)] == [0, 0, 0]


def test_an_output_reel_with_old_blocks_is_written_over_from_the_start():
    old = Reel([tuple(from_int(7) for _ in range(BLOCK_WORDS))] * 5, writable=True)
    run = Run(rec.reel_of(accounts([1, 3]), "a"), rec.reel_of(accounts([2]), "b"), old)
    assert finished(run)
    assert [rec.key_of(r) for r in rec.records_of(old)] == [1, 2, 3] and len(old.blocks) == 1


def test_the_merged_reel_merges_again():
    """Reel C has reel A's layout: a second pass merges it with a third reel."""
    first = check_merge(accounts([1, 4, 9]), accounts([2, 3]))
    third = rec.reel_of(accounts([0, 5], tag="C"), "c")
    second = Run(first.out, third)
    second.out.writable = True
    assert finished(second)
    assert [rec.key_of(r) for r in rec.records_of(second.out)] == [0, 1, 2, 3, 4, 5, 9]
    assert second.report()["4"][0] == 7


# ---- what the operator is told when something is wrong -----------------------------------

def test_a_key_out_of_sequence_stops_with_the_key_and_start_goes_on():
    a = accounts([10, 30, 20, 40])
    run = Run(rec.reel_of(a, "a"), rec.reel_of(accounts([25]), "b"))
    assert run.stop.kind is StopKind.HALT and run.stop.address != run.symbol("DONE")
    assert run.paper.endswith("UNISERVO 2  OUT OF SEQUENCE\nAT KEY 000000000020\n")
    stop = run.desk.run()  # START: the record is taken as it is
    assert stop.kind is StopKind.HALT and stop.address == run.symbol("DONE")
    assert [rec.key_of(r) for r in rec.records_of(run.out)] == [10, 25, 30, 20, 40]
    assert run.report()["4"] == (5, sum(r.amount for r in a) + 100)


def test_reel_b_out_of_sequence_names_uniservo_3():
    run = Run(rec.reel_of([], "a"), rec.reel_of(accounts([3, 2]), "b"))
    assert run.paper.endswith("UNISERVO 3  OUT OF SEQUENCE\nAT KEY 000000000002\n")


def test_an_overflowing_check_total_voids_the_merge():
    big = [rec.Record(k, 60_000_000_000) for k in (1, 2)]
    run = Run(rec.reel_of(big, "a"), rec.reel_of([], "b"))
    assert run.stop.kind is StopKind.HALT and run.stop.address == run.symbol("DONE")
    assert "CHECK TOTAL OVERFLOW. THE MERGE IS VOID.\n" in run.paper
    assert "MERGE COMPLETE" not in run.paper
    # 000 starts the merge again afterwards, not the overflow report
    assert program().symbols["START"] == 1
    assert run.desk.machine.mem[0] == program().image.words[0]


def test_a_blank_input_reel_is_an_error_stop_naming_the_unit():
    run = Run(Reel([], name="blank"), rec.reel_of([], "b"))
    assert run.stop.kind is StopKind.ERROR
    assert "Uniservo 2: read past the last written block" in run.stop.reason


def test_a_reel_without_an_end_record_stops_at_its_end():
    words = accounts([1, 2, 3, 4, 5, 6])
    blocks = [tuple(w for r in words for w in r.words())]
    run = Run(Reel(blocks, name="a"), rec.reel_of([], "b"))
    assert run.stop.kind is StopKind.ERROR and "Uniservo 2" in run.stop.reason


# ---- the program in memory, and the shipped files --------------------------------------

def test_the_program_fits_with_its_buffers_and_every_transfer_is_u1_safe():
    prog = program()
    symbols = prog.symbols
    for buffer in ("BUFA", "BUFB", "BUFC"):
        assert symbols[buffer] % 10 == 0 and symbols[buffer] + 60 <= 1000
    assert max(prog.image.words) < 1000
    for address, word in sorted(prog.image.words.items()):
        if address >= symbols["ZERO"]:
            break  # constants and data from here on
        text = to_text(word)
        if text[0] in "UQT" and text[1] == "0":
            assert text[6:] == "000000", f"{address:03d}: a left-half transfer needs a skip"


def test_the_shipped_reels_are_what_the_script_makes():
    for name, text in rec.shipped_texts().items():
        assert PACK.joinpath(name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m univac_ttt.packs.merge.records")


def test_the_shipped_reels_merge():
    a, b = rec.shipped_a(), rec.shipped_b()
    assert len(a) == 20 and len(b) == 13
    assert len({r.key for r in a} & {r.key for r in b}) >= 2  # equal keys to show
    for reel_name, records in ((rec.REEL_A_NAME, a), (rec.REEL_B_NAME, b)):
        reel = parse_reel(PACK.joinpath(reel_name).read_text(encoding="utf-8"), reel_name)
        assert rec.records_of(reel) == [r.words() for r in records]
    check_merge(a, b)


def test_pack_toml_follows_the_contract():
    pack = tomllib.loads(PACK.joinpath("pack.toml").read_text(encoding="utf-8"))
    assert set(pack) <= {"name", "title", "help", "sheet", "image", "key_hint", "results",
                         "tapes", "typewriter", "banner", "card", "captions"}
    assert pack["name"] == "merge" and pack["sheet"] == "merge.ucs"
    assert PACK.joinpath(pack["sheet"]).is_file()
    tapes = {t["unit"]: t for t in pack["tapes"]}
    assert set(tapes) == {2, 3, 4}
    assert tapes[2]["reel"] == rec.REEL_A_NAME and tapes[3]["reel"] == rec.REEL_B_NAME
    assert not tapes[2]["write"] and not tapes[3]["write"]
    assert tapes[4]["write"] and "reel" not in tapes[4]  # a blank scratch reel


# ---- univac-ttt run, as an operator at a terminal would ----------------------------------

def test_run_the_sheet_with_the_shipped_reels_types_the_counts(tmp_path):
    sheet = Path(str(PACK.joinpath("merge.ucs")))
    a, b = (Path(str(PACK.joinpath(n))) for n in (rec.REEL_A_NAME, rec.REEL_B_NAME))
    before = a.read_bytes(), b.read_bytes()
    out = tmp_path / "merged.tape"
    result = command.univac("run", str(sheet), "--tape", f"2={a}", "--tape", f"3={b}",
                            "--tape", f"4={out}:rw", "--plain")
    assert result.returncode == 0, result.stderr
    assert "UNISERVO 2  RECORDS  000000000020\n" in result.stdout
    assert "UNISERVO 3  RECORDS  000000000013\n" in result.stdout
    assert "UNISERVO 4  RECORDS  000000000033\n" in result.stdout
    total = sum(r.amount for r in rec.shipped_a() + rec.shipped_b())
    assert f"            TOTAL    {total:012d}\nMERGE COMPLETE.\n" in result.stdout
    assert "normal stop" in result.stderr
    merged = parse_reel(out.read_text(encoding="utf-8"), "merged")
    assert rec.records_of(merged) == rec.python_merge(rec.shipped_a(), rec.shipped_b())
    assert (a.read_bytes(), b.read_bytes()) == before


# ---- the console and the monitor show the Uniservos moving ---------------------------------

class FakeClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def merge_console(authentic: bool, clock: FakeClock):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from univac_ttt.console.app import ConsoleApp, ConsoleSettings
    from univac_ttt.desk.session import GameSession

    pack = shipped_pack("merge")
    settings = ConsoleSettings(authentic=authentic, clock=clock, pack=pack)
    with create_pipe_input() as pipe:
        return ConsoleApp(lambda on_print: GameSession.from_pack(pack, on_print=on_print),
                          settings, input=pipe, output=DummyOutput())


def test_the_console_in_authentic_speed_shows_each_reel_moving_at_tape_time():
    clock = FakeClock()
    console = merge_console(True, clock)
    hints, panels = [], []
    for _ in range(120):
        if console.show_tape_lamp():
            hints.append(console.hint)
        panels.append(console.uniservo_lines())
        console.pacer.advance()
        clock.now += 0.05
    assert hints[0] == "UNISERVO 1 READING  block 1 of 18"
    for lamp in ("UNISERVO 2 READING  block 1 of 4", "UNISERVO 2 READING  block 4 of 4",
                 "UNISERVO 3 READING  block 3 of 3", "UNISERVO 4 WRITING  block 6 of 6",
                 "UNISERVO 4 REWINDING"):
        assert any(lamp in hint for hint in hints), lamp
    assert any(" · " in hint for hint in hints)  # two reels moving at once
    assert hints[-1] == ("Tapes at rest: Uniservo 2 read 4 blocks; Uniservo 3 read 3 "
                         "blocks; Uniservo 4 wrote 6 blocks.")
    # The panel follows the same replay: unit 4 blank at first, then written, then rewound.
    assert panels[0][4:] == ["4 scratch reel 4", "  at the start, 0 blocks"]
    assert any(p[5] == "  WRITING  block 3 of 3" for p in panels)
    assert panels[-1] == ["2 input-a.tape", "  at the start, 4 blocks", "3 input-b.tape",
                          "  at the start, 3 blocks", "4 scratch reel 4",
                          "  at the start, 6 blocks"]
    assert "TWO-WAY MERGE" in console.pacer.text  # the typewriter, at 10 characters a second


def test_the_console_in_fast_speed_shows_the_reels_where_the_merge_left_them():
    console = merge_console(False, FakeClock())
    assert not console.show_tape_lamp()
    panel = console.layout.panel_text().value
    assert "UNISERVOS" in panel and "input-a.tape" in panel and "6 blocks" in panel
    assert "MERGE COMPLETE." in console.pacer.text


def test_the_monitor_pane_shows_the_uniservos_of_a_program_without_a_board():
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from univac_ttt.monitor.app import MonitorApp
    from univac_ttt.monitor.core import Monitor

    pack = shipped_pack("merge")
    monitor = Monitor(pack.words, pack.program, tapes=pack.mounts())  # as monitor --program
    with create_pipe_input() as pipe:
        app = MonitorApp(monitor, input=pipe, output=DummyOutput())
    monitor.execute("break NA1")
    monitor.execute("go")
    monitor.execute("step 1")  # 12 000: reel A's first block is on its way into rI
    app._freeze()
    pane = "".join(text for _style, text in app.layout.board_text())
    assert pane.startswith(" UNISERVOS\n")
    assert " 2 input-a.tape  READING  block 1 of 4\n" in pane
    assert " 1 merge.tape  at the start, 18 blocks\n" in pane
    assert " 4 …ratch reel 4  at the start, 0 blocks\n" in pane  # a long name, cut to fit
    assert "Uniservo 2  input-a.tape  4 blocks, after block 1 of 4  (read only, reading)" in (
        monitor.execute("show tapes"))
    monitor.execute("nobreak all")
    monitor.execute("go")
    app._freeze()
    pane = "".join(text for _style, text in app.layout.board_text())
    assert " 4 scratch reel 4  REWINDING\n" in pane  # at the stop, by the machine's clock


def test_the_lamps_skip_a_rewind_at_the_start_and_name_every_moving_unit():
    from univac_ttt.desk.tapelamps import tape_lamp, work_note
    from univac_ttt.machine.tape import TapeMove

    moves = [TapeMove(2, "rewinding", 0, 4, 100, 100),  # at the start already: no motion
             TapeMove(2, "reading", 1, 4, 100, 1000),
             TapeMove(4, "writing", 1, 1, 500, 1400),
             TapeMove(4, "rewinding", 0, 1, 1500, 1600)]
    def at(pulses):
        return tape_lamp(moves, pulses / 2.25e6)
    assert at(200) == "UNISERVO 2 READING  block 1 of 4"
    assert at(600) == "UNISERVO 2 READING  block 1 of 4 · UNISERVO 4 WRITING  block 1 of 1"
    assert at(1450) == "UNISERVO 4 WRITING  block 1 of 1"  # between movements: the last lit
    assert at(1550) == "UNISERVO 4 REWINDING" and at(1700) == ""
    assert work_note(moves) == "Tapes at rest: Uniservo 2 read 1 block; Uniservo 4 wrote 1 block."
    assert work_note([]) == ""


def test_the_lecture_tour_matches_its_expected_output():
    import io

    from univac_ttt.monitor.core import Monitor
    from univac_ttt.monitor.script import run_script

    root = Path(__file__).resolve().parents[2]
    pack = shipped_pack("merge")
    script = (root / "docs" / "lecture" / "merge.txt").read_text(encoding="utf-8")
    out = io.StringIO()
    monitor = Monitor(pack.words, pack.program, tapes=pack.mounts())  # as monitor --program
    assert run_script(monitor, script.splitlines(), out) == 0
    assert out.getvalue() == (root / "docs" / "lecture" / "merge.out").read_text(encoding="utf-8")


def test_the_coding_sheet_excerpts_in_the_merge_page_match_the_sheet():
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "merge.md").read_text(encoding="utf-8")
    walk = page.split("## What the program does", 1)[1].split("\n## ", 1)[0]
    excerpts = re.findall(r"```\n(.*?)\n```", walk, flags=re.S)
    assert len(excerpts) == 3
    sheet = PACK.joinpath("merge.ucs").read_text(encoding="utf-8")
    for excerpt in excerpts:
        assert excerpt in sheet, excerpt


def test_the_merge_page_shows_what_the_program_types(tmp_path):
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "merge.md").read_text(encoding="utf-8")
    typed = page.split("The typewriter reports:\n\n```\n", 1)[1].split("```", 1)[0]
    run = check_merge(rec.shipped_a(), rec.shipped_b())
    assert run.paper == "\n" + typed


def test_every_file_of_the_pack_is_shipped_as_package_data():
    from fnmatch import fnmatch

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    table = data["tool"]["setuptools"]["package-data"]
    patterns = [p for key, ps in table.items() if fnmatch("univac_ttt.packs.merge", key)
                for p in ps]
    folder = root / "univac_ttt" / "packs" / "merge"
    for path in folder.iterdir():
        if path.is_file() and path.suffix != ".py":
            assert any(fnmatch(path.name, p) for p in patterns), path.name


# ---- through the pack: univac-ttt programs, run --program merge ----------------------------

def univac(*args, cwd=None):
    return command.univac(*args, cwd=cwd)


def test_programs_lists_the_merge_with_its_title():
    result = univac("programs")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.split()[0] == "merge" and "A two-way tape merge" in line for line in lines)
    assert any(line.split()[0] == "tictactoe" for line in lines)


def test_run_program_merge_plain_types_its_counts_and_leaves_the_shipped_reels(tmp_path):
    a, b = (Path(str(PACK.joinpath(n))) for n in (rec.REEL_A_NAME, rec.REEL_B_NAME))
    before = a.read_bytes(), b.read_bytes()
    result = univac("run", "--program", "merge", "--plain", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "UNISERVO 2  RECORDS  000000000020\n" in result.stdout
    assert "UNISERVO 3  RECORDS  000000000013\n" in result.stdout
    assert "UNISERVO 4  RECORDS  000000000033\n" in result.stdout
    total = sum(r.amount for r in rec.shipped_a() + rec.shipped_b())
    assert f"            TOTAL    {total:012d}\nMERGE COMPLETE.\n" in result.stdout
    assert "normal stop" in result.stderr
    assert (a.read_bytes(), b.read_bytes()) == before
    assert list(tmp_path.iterdir()) == []  # the scratch reel stays in memory


def test_the_console_title_names_the_merge():
    console = merge_console(False, FakeClock())
    title = "".join(text for _style, text in console.layout.title_text())
    assert title.endswith("TAPE MERGE") and "TIC-TAC-TOE" not in title
