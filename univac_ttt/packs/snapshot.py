"""Snapshots of the shipped packs: what reading a pack folder gives, kept in the folder.

Reading a pack folder parses its pack.toml (tomllib) and assembles its coding sheet, and the
shipped pack's Python checks its committed files against it: most of what ``univac-ttt
play`` spent before its first prompt. So each shipped pack's folder also holds
``snapshot.json``, written from a full read by

    python -m univac_ttt.packs.snapshot

with pack.toml's data, the program's words, its labels with their addresses (the
referee reads BRD without the assembler), the boot tape's blocks, the pack's reels, and
the size and CRC-32 of every file that read used (the folder's data files and
program/loader.ucs). A snapshot is used only while each of those files is as recorded;
after any change (an edited sheet, a new reel, a rebuilt loader) the folder is read the
long way, which gives the new program or says what is wrong. The sheet is assembled from
the text read at the start when something first asks for its labels or remarks (the
monitor, the kiosk). A test writes every snapshot afresh and compares it with the
committed one, so a change to the code that reads packs cannot leave a stale one behind.
CRC-32 rather than a cryptographic hash: it only tells an edited file from the one read,
and zlib costs nothing at start-up where hashlib would cost a millisecond.
"""

from __future__ import annotations

import os
import sys
import zlib

from ..hostio.text_files import decode_text
from ..program.pack import LoadedProgram, Pack
from ..program.pack_folder import pack_from_data

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

SNAPSHOT_FILE = "snapshot.json"
FORMAT = 2  # raised whenever what a snapshot holds changes
# univac_ttt/, which the files are named from (a path's text: no pathlib at start-up)
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
LOADER = "program/loader.ucs"
SNAPSHOT_BYTES = 4_000_000  # a snapshot file larger than this is not read


def recorded_files(folder: str | Path) -> list[str]:
    """The files a snapshot of ``folder`` vouches for: its data files and the loader, named
    from univac_ttt/ (the folder's Python is not data: it is imported, not read)."""
    names = sorted(entry.name for entry in os.scandir(folder)
                   if entry.is_file() and not entry.name.endswith((".py", ".pyc"))
                   and entry.name != SNAPSHOT_FILE)
    base = _from_root(folder)
    return [f"{base}/{name}" for name in names] + [LOADER]


def _from_root(folder: str | Path) -> str:
    """``folder``'s path from PACKAGE_ROOT, with '/' (ValueError if it is not inside)."""
    inside = os.path.relpath(os.path.realpath(folder), PACKAGE_ROOT)
    if inside == os.pardir or inside.startswith(os.pardir + os.sep) or os.path.isabs(inside):
        raise ValueError(f"{folder} is not in {PACKAGE_ROOT}")
    return inside.replace(os.sep, "/")


_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Scanning:
    """What json's C scanner reads from its decoder: json.JSONDecoder()'s settings."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int, parse_constant = float, int, _CONSTANTS.__getitem__


def _parsed(raw: bytes) -> object:
    """The value of a UTF-8 JSON text, as ``json.loads`` gives it, read by json's own C
    scanner without importing json (the import compiles json's patterns, about 5 M
    instructions of play's start). ValueError if it is not one JSON value. A text json
    would read that this does not (another encoding, a byte order mark) is only read the
    long way: the folder, not the snapshot."""
    text = raw.decode("utf-8")
    try:
        from _json import make_scanner
    except ImportError:  # an interpreter without json's C part
        import json

        return json.loads(text)
    blank = " \t\n\r"  # json's whitespace
    start = len(text) - len(text.lstrip(blank))
    try:
        value, end = make_scanner(_Scanning)(text, start)
    except StopIteration:
        raise ValueError("not a JSON value") from None
    except (AttributeError, TypeError):  # a later _json asks _Scanning for more: json's way
        import json

        return json.loads(text)
    if text[end:].strip(blank):
        raise ValueError("more than one JSON value")
    return value


def _stamp(data: bytes) -> list[int]:
    return [len(data), zlib.crc32(data)]


def load_snapshot(folder: str | Path) -> Pack | None:
    """The pack of a shipped folder from its snapshot, or None if it has none, it is of
    another format, or any file it vouches for has changed (then read the folder)."""
    try:
        with open(os.path.join(folder, SNAPSHOT_FILE), "rb") as handle:
            raw = handle.read(SNAPSHOT_BYTES + 1)
        snapshot = _parsed(raw) if len(raw) <= SNAPSHOT_BYTES else None
    except (OSError, ValueError):
        return None
    if not isinstance(snapshot, dict) or snapshot.get("format") != FORMAT:
        return None
    seen: dict[str, bytes] = {}
    try:
        for name, stamp in snapshot["files"].items():
            with open(os.path.join(PACKAGE_ROOT, name), "rb") as handle:
                seen[name] = handle.read()
            if _stamp(seen[name]) != stamp:
                return None
        return _pack(folder, snapshot, seen)
    except (OSError, KeyError, TypeError, ValueError):
        return None


def _pack(folder: str | Path, snapshot: dict[str, Any], seen: dict[str, bytes]) -> Pack:
    words = {int(address): word for address, word in snapshot["words"].items()}
    symbols = {label: int(address) for label, address in snapshot["symbols"].items()}
    boot = [tuple(block) for block in snapshot["boot"]]
    reels = {name: tuple(tuple(block) for block in blocks)
             for name, blocks in snapshot["reels"].items()}
    base = _from_root(folder)

    def read_program(path: str, sheet: bool) -> LoadedProgram:
        if not sheet:
            return LoadedProgram(words, boot_blocks=boot)
        text = decode_text(seen[f"{base}/{os.path.basename(path)}"])

        def assemble() -> Any:
            from ..program.assembler import assemble as assemble_sheet

            return assemble_sheet(text, path)
        return LoadedProgram(words, assemble=assemble, symbols=symbols,
                             boot_blocks=boot)

    def read_blocks(path: str) -> tuple[tuple[str, ...], ...]:
        return reels[os.path.basename(path)]

    return pack_from_data(folder, snapshot["data"], read_program, read_blocks)


def snapshot_text(folder: str | Path, pack: Pack) -> str:
    """The snapshot of a pack read in full from ``folder`` (and checked by its Python)."""
    import tomllib

    program = pack.program
    snapshot = {
        "format": FORMAT,
        "note": "generated by `python -m univac_ttt.packs.snapshot` from the files below; "
                "do not edit",
        "files": {name: _stamp(_read(os.path.join(PACKAGE_ROOT, name)))
                  for name in recorded_files(folder)},
        "data": tomllib.loads(_read_text(os.path.join(folder, "pack.toml"))),
        "words": {str(address): word for address, word in sorted(pack.words.items())},
        "symbols": dict(sorted(program.symbols.items())) if program is not None else {},
        "boot": [list(block) for block in pack.boot_tape().blocks],
        "reels": {tape.reel.name: [list(block) for block in tape.blocks]
                  for tape in pack.tapes if tape.reel is not None},
    }
    return _dumps(snapshot)


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _dumps(snapshot: dict[str, Any]) -> str:
    """JSON with a line for each key, each file, word, block and reel: small, and a diff
    shows what changed."""
    import json

    def one(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def listed(items: list[str], opening: str, closing: str) -> str:
        return opening + "\n" + ",\n".join(items) + "\n" + closing

    parts = []
    for key, value in snapshot.items():
        if isinstance(value, dict) and key != "data":
            body = listed([f"{one(k)}:{one(v)}" for k, v in value.items()], "{", "}")
        elif isinstance(value, list) and value and isinstance(value[0], list):
            body = listed([one(item) for item in value], "[", "]")
        else:
            body = one(value)
        parts.append(f"{one(key)}:{body}")
    return listed(parts, "{", "}") + "\n"


def main() -> int:
    """Write every shipped pack's snapshot from a full read of its folder."""
    from ..hostio.atomic_files import atomic_write
    from . import HERE, read_shipped_folder, shipped_names

    for name in shipped_names():
        folder = os.path.join(HERE, name)
        text = snapshot_text(folder, read_shipped_folder(name))
        atomic_write(os.path.join(folder, SNAPSHOT_FILE), text.encode("utf-8"))
        sys.stdout.write(f"wrote {os.path.join(folder, SNAPSHOT_FILE)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
