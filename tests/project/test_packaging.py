"""What an installed copy holds: every file the package reads besides its modules is named
by pyproject's package-data (a pip install once left the browser page's files behind, and
serve --web failed on an installed copy while it worked from the source tree)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "univac_ttt"


def test_every_data_file_of_the_package_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["*"]
    data = [path for path in PACKAGE.rglob("*") if path.is_file()
            and "__pycache__" not in path.parts and path.suffix not in (".py", ".pyc")]
    assert {path.name for path in data} >= {"index.html", "univac.css", "univac.js",
                                             "pack.toml"}
    left_behind = [str(path.relative_to(ROOT)) for path in data
                   if not any(fnmatch(path.name, pattern) for pattern in patterns)]
    assert left_behind == []


def test_the_licence_is_an_spdx_string_that_setuptools_takes_without_a_warning():
    """``license = {text = "MIT"}`` made every ``pip install .`` print setuptools' boxed
    deprecation warning, the first thing a newcomer read; the string form needs 77."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["project"]["license"] == "MIT"
    assert "setuptools>=77" in config["build-system"]["requires"]
    assert (ROOT / "LICENSE").is_file()  # found by setuptools' default license-files
