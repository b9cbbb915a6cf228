"""A program pack: one UNIVAC program and what a front end may ask of it.

A pack is a folder holding a coding sheet (``.ucs``) or a memory image (``.img``) and a
``pack.toml`` (docs/programs.md). It says the program's name, title and help, the line over
the keyboard, the phrases the program types for its results, the reels it wants mounted
and its typewriter defaults. A shipped pack's Python module (``univac_ttt/packs/NAME``) may
add what TOML cannot say, a board reader or demonstrations, with ``Pack.extended``; a pack
made by hand has no Python at all.

A program without a pack (any ``--image``) has ``NO_PACK``'s answers: it scores nothing and
claims no board. Nothing here imports a pack: the composer hands packs to the front ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..machine.records import Record
from ..machine.tape import Reel

if TYPE_CHECKING:
    from .assembler import Program

PACK_FILE = "pack.toml"
PACK_BYTES = 1_000_000  # a pack.toml larger than this is no pack
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,39}\Z")
SPEEDS = ("fast", "authentic")
BOOT_UNIT = 1  # the pack's program is booted from a fresh tape on Uniservo 1
TAPE_UNITS = range(2, 11)  # a pack's own reels: Uniservo 2-9 and the tenth, written 10

# A board drawn from memory for the monitor (lines of text), given the memory's words.
BoardReader = Callable[[Sequence[str]], list[str]]


class PackError(ValueError):
    """A pack folder that cannot be used; the message names the file and the field."""


class LoadedProgram:
    """A pack's program: the words it puts into memory and its assembled sheet (labels,
    remarks; None for an image). A pack read from a snapshot of its folder has the
    words at once and assembles its sheet only when someone first asks for the labels, from
    the text read at the start; the copies ``Pack.extended`` makes share one."""

    __slots__ = ("words", "_program", "_assemble", "_symbols", "boot_blocks")

    def __init__(self, words: dict[int, str], program: Program | None = None,
                 assemble: Callable[[], Program] | None = None,
                 symbols: dict[str, int] | None = None,
                 boot_blocks: list[tuple[str, ...]] | None = None) -> None:
        self.words = words
        self._program = program
        self._assemble = assemble
        # A snapshot's: the sheet's labels and their addresses without assembling it.
        self._symbols = symbols
        self.boot_blocks = boot_blocks  # the boot tape's blocks, when a snapshot has them

    @property
    def symbols(self) -> dict[str, int]:
        """The sheet's labels and their addresses (none for an image)."""
        if self._symbols is None:
            program = self.program
            self._symbols = dict(program.symbols) if program is not None else {}
        return self._symbols

    @property
    def labels(self) -> frozenset[str]:
        """The sheet's labels (none for an image)."""
        return frozenset(self.symbols)

    @property
    def program(self) -> Program | None:
        if self._assemble is not None:
            self._program, self._assemble = self._assemble(), None
        return self._program


class PackTape(Record):
    """A reel the pack mounts before its program runs. A named tuple (no dataclasses at
    start-up) whose blocks are left out of its comparisons and its repr."""

    unit: int  # 2-10
    reel: Path | None  # None: a blank reel (write = true only)
    write: bool = False
    # The reel's blocks as read with the pack: every mount copies these, so a run never
    # reads the folder again (a file removed later cannot stop a new game).
    blocks: tuple[tuple[str, ...], ...] = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self[:3] == other[:3]  # type: ignore[index]

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self[:3])

    def __repr__(self) -> str:
        return f"PackTape(unit={self.unit!r}, reel={self.reel!r}, write={self.write!r})"

    @property
    def unit_name(self) -> str:
        return "-" if self.unit == 10 else str(self.unit)


class Demonstration(Record):
    """A demonstration the kiosk may play when idle: the entries keyed, and the result
    name the program should announce at its end."""

    entries: tuple[str, ...]
    result: str


# A Pack's fields in order: compared, hashed and shown (its loaded program is not).
PACK_FIELDS = ("name", "title", "help", "folder", "source", "key_hint", "results", "tally",
               "tapes", "speed", "banner", "card_title", "card", "captions", "board",
               "demonstrations")


class Pack:
    """A pack, immutable once made and compared by its fields, as the frozen dataclass it
    was (a plain class: importing dataclasses cost a fifth of a start-up)."""

    name: str
    title: str
    help: str
    folder: Path | None  # None: no folder (NO_PACK)
    source: str  # the sheet's or image's file name, relative to the folder
    key_hint: str
    results: dict[str, str]  # phrase typed -> result name
    tally: dict[str, str]  # result name -> label in a score
    tapes: tuple[PackTape, ...]
    speed: str | None  # the typewriter's default: "fast" or "authentic"
    banner: str  # the console's title bar after "SUPERVISORY CONTROL"
    card_title: str  # the console's reference card (the keys a player types)
    card: str
    captions: dict[str, str]  # label -> caption (the kiosk)
    # What only a shipped pack's Python can add (``extended``):
    board: BoardReader | None
    demonstrations: tuple[Demonstration, ...]
    _loaded: LoadedProgram | None

    def __init__(self, name: str, title: str, help: str,  # noqa: A002 - pack.toml's key
                 folder: Path | None, source: str = "", key_hint: str = "",
                 results: dict[str, str] | None = None, tally: dict[str, str] | None = None,
                 tapes: tuple[PackTape, ...] = (), speed: str | None = None,
                 banner: str = "", card_title: str = "", card: str = "",
                 captions: dict[str, str] | None = None, board: BoardReader | None = None,
                 demonstrations: tuple[Demonstration, ...] = (),
                 _loaded: LoadedProgram | None = None) -> None:
        values = self.__dict__
        values.update(name=name, title=title, help=help, folder=folder, source=source,
                      key_hint=key_hint, results={} if results is None else results,
                      tally={} if tally is None else tally, tapes=tapes, speed=speed,
                      banner=banner, card_title=card_title, card=card,
                      captions={} if captions is None else captions, board=board,
                      demonstrations=demonstrations, _loaded=_loaded)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a Pack (it is frozen)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a Pack (it is frozen)")

    def _values(self) -> tuple[object, ...]:
        values = self.__dict__
        return tuple(values[name] for name in PACK_FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        values = self.__dict__
        shown = ", ".join(f"{name}={values[name]!r}" for name in PACK_FIELDS)
        return f"Pack({shown})"

    # ---- the program -------------------------------------------------------------------

    @property
    def words(self) -> dict[int, str]:
        """The words that go into memory."""
        return self._loaded.words if self._loaded is not None else {}

    @property
    def program(self) -> Program | None:
        """The assembled coding sheet (labels, remarks), or None for an image pack."""
        return self._loaded.program if self._loaded is not None else None

    def label_address(self, label: str) -> int | None:
        """Where the sheet puts ``label`` (None: no such label, or an image pack), read
        from a snapshot without assembling the sheet (the referee's BRD)."""
        return self._loaded.symbols.get(label) if self._loaded is not None else None

    @cached_property
    def _boot(self) -> Reel:
        blocks = self._loaded.boot_blocks if self._loaded is not None else None
        if blocks is not None:
            return Reel(list(blocks), writable=False, name=f"{self.name}.tape")
        from .boottape import boot_reel

        return boot_reel(self.words, f"{self.name}.tape")

    def boot_tape(self) -> Reel:
        """A fresh program tape for Uniservo 1 (the loader, then the whole memory): a run
        never changes the copy kept here."""
        reel = self._boot
        return Reel(list(reel.blocks), writable=False, name=reel.name)

    def reels(self) -> dict[int, Reel]:
        """The pack's own reels, fresh, by unit: a read-only reel as shipped; a write = true
        reel as a scratch copy in memory (or blank), so the shipped file is never written."""
        mounted: dict[int, Reel] = {}
        for tape in self.tapes:
            if tape.reel is None:
                mounted[tape.unit] = Reel([], writable=True, name=f"scratch reel {tape.unit_name}")
                continue
            name = tape.reel.name if not tape.write else f"{tape.reel.name} (scratch copy)"
            mounted[tape.unit] = Reel(list(tape.blocks), writable=tape.write, name=name)
        return mounted

    def mounts(self) -> dict[int, Reel]:
        """Everything to mount: the boot tape on Uniservo 1 and the pack's reels."""
        return {BOOT_UNIT: self.boot_tape(), **self.reels()} if self._loaded is not None \
            else {}

    # ---- results -----------------------------------------------------------------------

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        if not self.results:
            return None
        phrases = sorted(self.results, key=len, reverse=True)  # the longest phrase first
        return re.compile("|".join(_phrase_pattern(p) for p in phrases))

    def results_in(self, text: str) -> list[str]:
        """The result names the phrases in a piece of paper announce, in order."""
        if self._pattern is None:
            return []
        return [self.results[m.group(0)] for m in self._pattern.finditer(text)]

    @property
    def result_names(self) -> tuple[str, ...]:
        """Each result name once, in the order the tally lists them (then [results])."""
        names = list(self.tally)
        names += [n for n in self.results.values() if n not in names]
        return tuple(names)

    def result_label(self, name: str) -> str:
        return self.tally.get(name, name)

    @property
    def scores(self) -> bool:
        return bool(self.results)

    def caption_addresses(self) -> dict[int, str]:
        """Caption text by instruction address, for the labels this program has."""
        program = self.program
        if program is None:
            return {}
        return {program.symbols[label]: text for label, text in self.captions.items()
                if label in program.symbols}

    def extended(self, **extras: Any) -> Pack:
        """This pack with what a shipped pack's Python adds (``board``, ``demonstrations``)."""
        unknown = set(extras) - {"board", "demonstrations"}
        if unknown:
            raise TypeError(f"a pack's Python may add board and demonstrations, not "
                            f"{', '.join(sorted(unknown))}")
        values = {name: self.__dict__[name] for name in (*PACK_FIELDS, "_loaded")}
        return Pack(**{**values, **extras})


NO_PACK = Pack(name="", title="", help="", folder=None)  # any --image: no score, no board


def _phrase_pattern(phrase: str) -> str:
    """A phrase matched as whole words (YOU WIN is not the start of YOU WINNER)."""
    text = re.escape(phrase)
    if phrase[:1].isalnum():
        text = r"(?<![A-Z0-9])" + text
    if phrase[-1:].isalnum():
        text += r"(?![A-Z0-9])"
    return text


# ---- reading a pack folder -------------------------------------------------------------

TOP_KEYS = ("name", "title", "help", "sheet", "image", "key_hint", "results", "tally",
            "tapes", "typewriter", "banner", "card", "captions")
TAPE_KEYS = ("unit", "reel", "write")
TYPEWRITER_KEYS = ("speed",)
CARD_KEYS = ("title", "text")


class _Fields:
    """The checks of one pack.toml, each failure naming the file and the field."""

    def __init__(self, path: Path) -> None:
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

    def file(self, folder: Path, value: str, where: str) -> Path:
        relative = Path(value)
        if relative.is_absolute() or ".." in relative.parts:
            raise self.fail(where, f"{value!r} must be a file in the pack's folder")
        target = folder / relative
        if not target.is_file():
            raise self.fail(where, f"no file {value!r} in {folder}")
        return target


def _kind(value: object) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


# What a pack's files give its checks: the program of its sheet or image, and a reel's
# blocks; either raises LoadError, which the check names the field of.
ProgramReader = Callable[[Path, bool], LoadedProgram]  # (file, is a sheet)
BlocksReader = Callable[[Path], tuple[tuple[str, ...], ...]]


class LoadError(ValueError):
    """A pack's sheet, image or reel that does not load (the reader's reason)."""


def _read_program(path: Path, sheet: bool) -> LoadedProgram:
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


def _read_blocks(path: Path) -> tuple[tuple[str, ...], ...]:
    from .reel import ReelError, read_reel

    try:
        return tuple(read_reel(path).blocks)
    except ReelError as exc:
        raise LoadError(str(exc)) from None


def read_pack(folder: str | Path) -> Pack:
    """The pack in a folder, its program assembled or read; PackError names what is wrong."""
    import tomllib

    from ..hostio.text_files import TextFileError, read_text_file

    folder = Path(folder)
    path = folder / PACK_FILE
    if not folder.is_dir():
        raise PackError(f"{folder}: no such folder (a pack is a folder with a {PACK_FILE})")
    if not path.is_file():
        raise PackError(f"{folder}: no {PACK_FILE} in this folder, so it is no pack")
    try:
        data = tomllib.loads(read_text_file(path, PACK_BYTES))
    except TextFileError as exc:
        raise PackError(f"{path}: {exc.reason}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PackError(f"{path}: not TOML: {exc}") from None
    return pack_from_data(folder, data, _read_program, _read_blocks)


def pack_from_data(folder: Path, data: dict[str, Any], read_program: ProgramReader,
                   read_blocks: BlocksReader) -> Pack:
    """The pack a folder's parsed pack.toml describes, every field checked; its program
    and reels come from ``read_program`` and ``read_blocks`` (the files, or a snapshot)."""
    path = folder / PACK_FILE
    check = _Fields(path)
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


def _tapes(check: _Fields, folder: Path, data: dict[str, Any],
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
        found.append(PackTape(unit, path, write, blocks))
    return tuple(found)
