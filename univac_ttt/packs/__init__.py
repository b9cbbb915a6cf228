"""The shipped program packs, one folder each (docs/programs.md), and finding a pack by
name or folder. Only the composer (the command line), the kiosk and the referee come here;
desk/ and program/ never import a pack, the front ends are handed one.

A shipped pack is a folder here with a pack.toml; its ``__init__.py`` may define
``check(pack)`` to check its committed files against the program read (a PackError if they
disagree) and ``extend(pack) -> Pack`` to add what TOML cannot say. Its ``snapshot.json``
(snapshot.py) is what a full read gave, used while the files it records are unchanged. A
folder named by path is read as TOML only: no Python in it is run.
"""

from __future__ import annotations

import importlib
import os
from functools import lru_cache
from types import ModuleType

from ..program.pack import NAME_PATTERN, PACK_FILE, Pack, PackError
from ..program.pack_folder import read_pack

HERE = os.path.dirname(__file__)  # a path's text: pathlib costs a start 17 M instructions
DEFAULT = "tictactoe"  # what `univac-ttt play` plays with neither --program nor --image


def shipped_names() -> list[str]:
    """Every folder here with a pack.toml, by name."""
    return sorted(entry.name for entry in os.scandir(HERE)
                  if entry.is_dir() and os.path.isfile(os.path.join(entry.path, PACK_FILE)))


@lru_cache(maxsize=16)
def shipped_pack(name: str) -> Pack:
    """A shipped pack, with its Python extras; PackError if there is none by that name.
    Read from its snapshot while that is current, else from its folder and checked."""
    if name not in shipped_names():
        known = ", ".join(shipped_names())
        raise PackError(f"no program {name!r}: the shipped programs are {known} "
                        "(univac-ttt programs lists them; or name a pack folder)")
    from .snapshot import load_snapshot

    pack = load_snapshot(os.path.join(HERE, name))
    if pack is None or pack.name != name:
        pack = read_shipped_folder(name)
    extend = getattr(_module(name), "extend", None)
    return extend(pack) if callable(extend) else pack


def read_shipped_folder(name: str) -> Pack:
    """A shipped pack read in full from its folder and checked by its Python (``check``),
    without its extras: what a snapshot is made from."""
    pack = read_pack(os.path.join(HERE, name))
    if pack.name != name:
        raise PackError(f"{os.path.join(HERE, name, PACK_FILE)}: name: {pack.name!r} is not the "
                        f"folder's name {name!r}")
    check = getattr(_module(name), "check", None)
    if callable(check):
        check(pack)
    return pack


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def open_pack(spec: str) -> Pack:
    """``--program NAME|DIR``: a shipped pack by name, else a pack folder by its path."""
    if NAME_PATTERN.match(spec) and spec in shipped_names():
        return shipped_pack(spec)
    from pathlib import Path  # a folder named by the user

    path = Path(spec)
    if path.is_dir():
        return read_pack(path)
    if "/" in spec or path.exists():
        return read_pack(path)  # says what is wrong with it
    return shipped_pack(spec)  # names the shipped programs
