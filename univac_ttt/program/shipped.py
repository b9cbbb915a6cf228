"""Files shipped inside the package (the loader's coding sheet, a shipped pack's files).

Read through importlib.resources, so they are found in a wheel as in a checkout.
"""

from __future__ import annotations

from importlib import resources


class ProgramError(RuntimeError):
    """A shipped program or file is missing or broken."""


def read_shipped(name: str, package: str = __package__ or "univac_ttt.program") -> str:
    """A file shipped in a package of univac_ttt (by default program/: the loader)."""
    try:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProgramError(f"the shipped file {name} cannot be read: {exc}") from None
