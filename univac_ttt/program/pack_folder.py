"""A pack folder read and checked: its pack.toml's fields, its program and its reels.

program/pack.py says what a pack is; here is how one is made of a folder (``read_pack``),
or of parsed data and readers of its files (``pack_from_data``: a pack's snapshot gives
them instead of the files). Every failure is a PackError naming the file and the field.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from .pack import (
    BOOT_UNIT,
    NAME_PATTERN,
    PACK_BYTES,
    PACK_FILE,
    SPEEDS,
    TAPE_UNITS,
    LoadedProgram,
    Pack,
    PackError,
    PackTape,
)

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from pathlib import Path  # imported for a pack's reels only (a snapshot names none)
    from typing import Any

TOP_KEYS = ("name", "title", "help", "sheet", "image", "key_hint", "results", "tally",
            "tapes", "typewriter", "banner", "card", "captions")
TAPE_KEYS = ("unit", "reel", "write")
TYPEWRITER_KEYS = ("speed",)
CARD_KEYS = ("title", "text")


class _Fields:
    """The checks of one pack.toml, each failure naming the file and the field."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: str, reason: str) -> PackError:
        return PackError(f"{self.path}: {where}: {reason}" if where else f"{self.path}: {reason}")

    def known(self, table: dict[str, Any], allowed: Sequence[str], where: str = "") -> None:
        for key in table:
            if key not in allowed:
                field_name = f"{where}.{key}" if where else key
                raise self.fail(field_name, f"unknown key (a pack.toml may have "
                                            f"{', '.join(allowed)})")

    def text(self, table: dict[str, Any], key: str, where: str = "", required: bool = False,
             one_line: bool = False) -> str:
        field_name = f"{where}.{key}" if where else key
        if key not in table:
            if required:
                raise self.fail(field_name, "missing (it is required)")
            return ""
        value = table[key]
        if not isinstance(value, str):
            raise self.fail(field_name, f"must be a string, not {_kind(value)}")
        if required and not value.strip():
            raise self.fail(field_name, "is empty")
        if one_line and "\n" in value.strip():
            raise self.fail(field_name, "must be one line")
        if not all(ch.isprintable() or ch == "\n" for ch in value):
            raise self.fail(field_name, "holds a control character")
        return value.strip("\n") if not one_line else value.strip()

    def table(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table ([{key}]), not {_kind(value)}")
        return value

    def file(self, folder: str | Path, value: str, where: str) -> str:
        """The path of a file the pack names, written as ``Path(folder) / value`` writes it
        (without pathlib: a shipped pack's start never needs it)."""
        parts = value.replace(os.sep, "/").split("/")
        if os.path.isabs(value) or os.path.splitdrive(value)[0] or ".." in parts:
            raise self.fail(where, f"{value!r} must be a file in the pack's folder")
        inside = "/".join(part for part in parts if part not in ("", "."))
        target = os.path.join(folder, inside) if inside else os.fspath(folder)
        if not os.path.isfile(target):
            raise self.fail(where, f"no file {value!r} in {folder}")
        return target


def _kind(value: object) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


# What a pack's files give its checks: the program of its sheet or image, and a reel's
# blocks; either raises LoadError, which the check names the field of.
ProgramReader = Callable[[str, bool], LoadedProgram]  # (file, is a sheet)
BlocksReader = Callable[[str], tuple[tuple[str, ...], ...]]


class LoadError(ValueError):
    """A pack's sheet, image or reel that does not load (the reader's reason)."""


def _read_program(path: str, sheet: bool) -> LoadedProgram:
    """The program of a sheet (assembled) or an image, read from its file now."""
    from .image import ImageError, read_image
    from .sources import ProgramFileError, read_sheet

    try:
        if sheet:
            loaded = read_sheet(path)
            return LoadedProgram(loaded.words, loaded.program)
        return LoadedProgram(read_image(path).words)
    except (ProgramFileError, ImageError) as exc:
        raise LoadError(str(exc)) from None


def _read_blocks(path: str) -> tuple[tuple[str, ...], ...]:
    from .reel import ReelError, read_reel

    try:
        return tuple(read_reel(path).blocks)
    except ReelError as exc:
        raise LoadError(str(exc)) from None


def read_pack(folder: str | Path) -> Pack:
    """The pack in a folder, its program assembled or read; PackError names what is wrong."""
    import tomllib
    from pathlib import Path

    from ..hostio.text_files import TextFileError, read_text_file

    folder = Path(folder)
    path = folder / PACK_FILE
    if not folder.is_dir():
        raise PackError(f"{folder}: no such folder (a pack is a folder with a {PACK_FILE})")
    if not path.is_file():
        raise PackError(f"{folder}: not a program pack (a pack is a folder with a {PACK_FILE})")
    try:
        data = tomllib.loads(read_text_file(path, PACK_BYTES))
    except TextFileError as exc:
        raise PackError(f"{path}: {exc.reason}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PackError(f"{path}: not TOML: {exc}") from None
    return pack_from_data(folder, data, _read_program, _read_blocks)


def pack_from_data(folder: str | Path, data: dict[str, Any], read_program: ProgramReader,
                   read_blocks: BlocksReader) -> Pack:
    """The pack a folder's parsed pack.toml describes, every field checked; its program
    and reels come from ``read_program`` and ``read_blocks`` (the files, or a snapshot).
    ``folder`` may be a path's text (the snapshot's): the Pack makes it a Path when asked."""
    check = _Fields(os.path.join(folder, PACK_FILE))
    check.known(data, TOP_KEYS)
    name = check.text(data, "name", required=True, one_line=True)
    if not NAME_PATTERN.match(name):
        raise check.fail("name", f"{name!r}: use lower-case letters, digits and '-' "
                                 "(at most 40), starting with a letter or digit")
    title = check.text(data, "title", required=True, one_line=True)
    help_text = check.text(data, "help", required=True)
    sheet, image = check.text(data, "sheet"), check.text(data, "image")
    if bool(sheet) == bool(image):
        raise check.fail("sheet", "give exactly one of sheet (a coding sheet) or image "
                                  "(a memory image)" + (", not both" if sheet else ""))
    source = sheet or image
    source_path = check.file(folder, source, "sheet" if sheet else "image")
    try:
        loaded = read_program(source_path, bool(sheet))
    except LoadError as exc:
        raise check.fail("sheet" if sheet else "image", f"does not load: {exc}") from None

    results = check.table(data, "results")
    for phrase, result in results.items():
        if not phrase.strip() or not phrase.isprintable():
            raise check.fail("results", f"{phrase!r}: a phrase must be printable text")
        if not isinstance(result, str) or not NAME_PATTERN.match(result):
            raise check.fail(f"results.{phrase!r}", "the result name must be a string of "
                                                   "lower-case letters, digits and '-'")
    tally = check.table(data, "tally")
    for result, label in tally.items():
        if result not in results.values():
            raise check.fail(f"tally.{result}", "names no result of [results]")
        if not isinstance(label, str) or not label.strip() or "\n" in label:
            raise check.fail(f"tally.{result}", "the label must be one line of text")

    typewriter = check.table(data, "typewriter")
    check.known(typewriter, TYPEWRITER_KEYS, "typewriter")
    speed = check.text(typewriter, "speed", "typewriter", one_line=True) or None
    if speed is not None and speed not in SPEEDS:
        raise check.fail("typewriter.speed", f"{speed!r}: use \"fast\" or \"authentic\"")

    card = check.table(data, "card")
    check.known(card, CARD_KEYS, "card")
    captions = check.table(data, "captions")
    for label, caption in captions.items():
        if not isinstance(caption, str) or not caption.strip():
            raise check.fail(f"captions.{label}", "a caption must be text")
        if sheet and label not in loaded.labels:
            raise check.fail(f"captions.{label}", f"the sheet {source} has no label {label}")

    return Pack(
        name=name, title=title, help=help_text, folder=folder, source=source,
        key_hint=check.text(data, "key_hint", one_line=True),
        results=dict(results), tally=dict(tally),
        tapes=_tapes(check, folder, data, read_blocks),
        speed=speed, banner=check.text(data, "banner", one_line=True),
        card_title=check.text(card, "title", "card", one_line=True),
        card=check.text(card, "text", "card"), captions=dict(captions),
        _loaded=loaded)


def _tapes(check: _Fields, folder: str | Path, data: dict[str, Any],
           read_blocks: BlocksReader) -> tuple[PackTape, ...]:
    tapes = data.get("tapes", [])
    if not isinstance(tapes, list) or not all(isinstance(t, dict) for t in tapes):
        raise check.fail("tapes", "write each reel as a [[tapes]] table")
    found: list[PackTape] = []
    for index, tape in enumerate(tapes, start=1):
        where = f"tapes[{index}]"
        check.known(tape, TAPE_KEYS, where)
        unit = tape.get("unit")
        if isinstance(unit, bool) or not isinstance(unit, int):
            raise check.fail(f"{where}.unit", "missing or not a number: give a Uniservo "
                                              "2-9, or 10 for the tenth")
        if unit == BOOT_UNIT:
            raise check.fail(f"{where}.unit", "Uniservo 1 is kept for the program tape; "
                                              "use 2-9, or 10")
        if unit not in TAPE_UNITS:
            raise check.fail(f"{where}.unit", f"{unit} is no Uniservo: use 2-9, or 10 for "
                                              "the tenth")
        if any(t.unit == unit for t in found):
            raise check.fail(f"{where}.unit", f"Uniservo {unit} is given twice")
        write = tape.get("write", False)
        if not isinstance(write, bool):
            raise check.fail(f"{where}.write", "must be true or false")
        reel = check.text(tape, "reel", where, one_line=True)
        if not reel and not write:
            raise check.fail(f"{where}.reel", "missing: a read-only reel needs its file "
                                              "(only write = true may start blank)")
        path = check.file(folder, reel, f"{where}.reel") if reel else None
        blocks: tuple[tuple[str, ...], ...] = ()
        if path is not None:  # every reel file must read now, not when the program runs
            try:
                blocks = read_blocks(path)
            except LoadError as exc:
                raise check.fail(f"{where}.reel", str(exc)) from None
        found.append(PackTape(unit, _as_path(path), write, blocks))
    return tuple(found)


def _as_path(path: str | None) -> Path | None:
    """A reel's file as the Path a PackTape holds (pathlib imported only for a pack with
    reels)."""
    if path is None:
        return None
    from pathlib import Path

    return Path(path)
