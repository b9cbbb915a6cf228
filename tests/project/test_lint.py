"""The code stays ruff-clean (ruff comes with the test extra)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "univac_ttt", "tests",
                             "benchmarks"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


MODULE_LINES = 500  # the house's bound (issue 20): a longer module has more than one job
MONITOR_CORE_LINES = 400


def test_no_module_is_longer_than_the_house_allows():
    lengths = {path.relative_to(ROOT).as_posix(): len(path.read_text().splitlines())
               for path in (ROOT / "univac_ttt").rglob("*.py")}
    assert len(lengths) > 100  # the package was found
    assert {path: n for path, n in lengths.items() if n > MODULE_LINES} == {}
    assert lengths["univac_ttt/monitor/core.py"] < MONITOR_CORE_LINES
