"""The documentation: the site builds strictly, and what it tells people to do works."""

import re
import subprocess
import sys
from pathlib import Path

from tests.support.command import univac
from univac_ttt.monitor.core import Monitor
from univac_ttt.packs import shipped_pack
from univac_ttt.packs.tictactoe import sheet_text

TTT = shipped_pack("tictactoe")

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_strictly(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                             "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "museum" / "index.html").exists()


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    commands = [line for line in lines[:8] if line.startswith("python3 -m pip")]
    assert commands == ["python3 -m pip install . && univac-ttt",
                        "python3 -m pip install '.[test]' && python3 -m pytest"]


def test_the_readme_says_how_the_tests_run_as_they_do():
    """The workers pyproject gives pytest, and the browser tests failing without Chromium
    (tests/support/web.py's require_chromium), as the README tells them (it said three
    workers, and skipped)."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    workers = re.search(r"-n (\d+)", (ROOT / "pyproject.toml").read_text())
    assert workers is not None
    names = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six"}
    assert f"The tests run in {names[workers.group(1)]} parallel workers" in readme
    assert "skipped with a message" not in readme and "fail with a message" in readme


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 -m pip install '.[test]' && python3 -m pytest" in ci


def test_lecture_exercise_reordered_element_is_caught(tmp_path):
    sheet = sheet_text()
    # Row 1-2-3 listed as 3-2-1: the force rule then prefers another blank.
    changed = sheet.replace("ELT:     B0 BRD+1   A0 BRD+2     row 1-2-3\n"
                            "             A0 BRD+3   H0 ES",
                            "ELT:     B0 BRD+3   A0 BRD+2     row 3-2-1\n"
                            "             A0 BRD+1   H0 ES")
    assert changed != sheet
    path = tmp_path / "reordered.ucs"
    path.write_text(changed, encoding="utf-8")
    result = univac("verify", str(path), timeout=120)
    assert result.returncode == 1 and "FAILED" in result.stdout
    assert re.search(r"losses\s+[1-9]", result.stdout)


def test_lecture_exercises_two_and_three_in_the_monitor():
    m = Monitor.for_pack(TTT, tapes={})
    assert not m.execute("deposit OPEN1 B0 TWO H0 SQK")[0].startswith("??")
    m.execute("go")
    m.execute("type 5")
    m.execute("continue")
    assert m.execute("board")[0] == "   1   O   3"
    assert not m.execute("deposit D3 00 000 U0 FORCE")[0].startswith("??")


def test_systemd_unit_runs_the_kiosk():
    unit = (ROOT / "docs" / "univac-ttt-kiosk.service").read_text()
    assert "ExecStart=" in unit and "univac-ttt kiosk" in unit and "Restart=always" in unit


def test_systemd_units_run_the_browser_exhibit():
    server = (ROOT / "docs" / "univac-ttt-web.service").read_text()
    assert "univac-ttt serve --web 127.0.0.1:8080 --kiosk" in server
    browser = (ROOT / "docs" / "univac-ttt-browser.service").read_text()
    assert "BindsTo=univac-ttt-web.service" in browser
    assert "chromium --kiosk" in browser and "http://127.0.0.1:8080/" in browser


def test_coding_sheet_excerpts_in_the_program_page_match_the_sheet():
    page = (ROOT / "docs" / "program.md").read_text()
    walk = page.split("## Walking through the coding sheet", 1)[1].split("\n## ", 1)[0]
    excerpts = re.findall(r"```\n(.*?)\n```", walk, flags=re.S)
    assert len(excerpts) >= 6
    sheet = sheet_text()
    for excerpt in excerpts:
        assert excerpt in sheet, excerpt.splitlines()[0]


def test_the_readme_names_each_commands_file_argument_as_its_help_does():
    """The README's table says `univac-ttt monitor [FILE]`; the usage line said [image]
    (and verify's [sheet]) for the same argument."""
    from univac_ttt.cli.main import build_parser

    readme = (ROOT / "README.md").read_text()
    named = dict(re.findall(r"`univac-ttt (\w+) \[(\w+)\]", readme))
    assert {"monitor", "verify"} <= set(named)
    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for command, argument in named.items():
        assert f"[{argument}]" in subcommands[command].format_usage(), command
