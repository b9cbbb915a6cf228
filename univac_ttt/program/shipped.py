"""Files shipped inside the package (the loader's coding sheet, a shipped pack's files).

Read from the package's folder, found from its module, so they are found in an installed
wheel as in a checkout (editable or not) without importing importlib.resources (and with
it zipfile, lzma and bz2) at every start; only a package that is not a folder on disk (a
zip import) is read through importlib.resources.
"""

from __future__ import annotations

import importlib
import os
import sys


class ProgramError(RuntimeError):
    """A shipped program or file is missing or broken."""


def read_shipped(name: str, package: str = __package__ or "univac_ttt.program") -> str:
    """A file shipped in a package of univac_ttt (by default program/: the loader)."""
    try:
        module = sys.modules.get(package) or importlib.import_module(package)
        folder = os.path.dirname(getattr(module, "__file__", None) or "")
        if folder and os.path.isdir(folder):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                return handle.read()
        from importlib import resources

        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProgramError(f"the shipped file {name} cannot be read: {exc}") from None
