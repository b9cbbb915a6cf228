"""The referee on a damaged coding sheet: a clear report, never a crash (issue 16, part A).
"""

import contextlib
from pathlib import Path

from tests.support.hostile import no_traceback, univac
from univac_ttt.packs.tictactoe import load_tictactoe
from univac_ttt.program.assembler import AssemblyError, assemble

SHIPPED = load_tictactoe()


def test_verify_reports_a_damaged_sheet_instead_of_crashing(tmp_path):
    lines = Path(SHIPPED.source_path if hasattr(SHIPPED, "source_path") else
                 Path(__file__).resolve().parents[2] / "univac_ttt/packs/tictactoe/tictactoe.ucs"
                 ).read_text(encoding="utf-8").split("\n")
    del lines[144]  # line 145 of the shipped sheet
    sheet = tmp_path / "damaged.ucs"
    sheet.write_text("\n".join(lines), encoding="utf-8")
    result = univac("verify", str(sheet), timeout=120)
    no_traceback(result)
    assert result.returncode == 1 and b"no readable board" in result.stdout


def test_the_referee_survives_deleting_any_line_of_the_sheet(long_run):
    """Every one-line deletion that still assembles is judged, never crashes the referee
    (a sample by default; all 330 lines with --long, about a minute)."""
    import io

    from univac_ttt.machine import MachineOptions
    from univac_ttt.packs.tictactoe import sheet_text
    from univac_ttt.verify.referee import RefereeError, run_verification

    lines = sheet_text().split("\n")
    chosen = range(len(lines)) if long_run else range(130, len(lines), 15)
    judged = 0
    for index in chosen:
        try:
            program = assemble("\n".join(lines[:index] + lines[index + 1:]))
        except AssemblyError:
            continue
        with contextlib.suppress(RefereeError):  # a clear report is fine; a crash is not
            run_verification(MachineOptions(), io.StringIO(), program)
        judged += 1
    assert judged > 0


def test_a_sheet_that_loses_fails_with_status_1_as_help_says(tmp_path):
    """Exercise 1's reordered element table loses a game: FAILED and status 1, which
    --help now states (a script checking a student's sheet reads the status)."""
    from tests.support import command

    shipped = Path(__file__).resolve().parents[2] / "univac_ttt/packs/tictactoe/tictactoe.ucs"
    text = shipped.read_text()
    row = "B0 BRD+1   A0 BRD+2     row 1-2-3"
    assert text.count(row) == 1
    text = text.replace(row, "B0 BRD+3   A0 BRD+2     row 1-2-3")
    text = text.replace("             A0 BRD+3   H0 ES", "             A0 BRD+1   H0 ES", 1)
    sheet = tmp_path / "my.ucs"
    sheet.write_text(text)
    result = command.univac("verify", str(sheet))
    assert result.returncode == 1 and "FAILED" in result.stdout
    assert "the opponent won" in result.stdout
    helped = " ".join(command.univac("verify", "--help").stdout.split())
    for status in ("0 when every game is proved", "1 when any is not", "2 for a bad file or",
                   "74 when the output could not be written"):
        assert status in helped, status
