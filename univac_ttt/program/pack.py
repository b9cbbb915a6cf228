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

from ..machine.records import Record
from ..machine.tape import Reel

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from pathlib import Path  # a Pack's folder is made a Path when asked for (see Pack)
    from typing import Any

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
    was (a plain class: importing dataclasses cost a fifth of a start-up).

    ``folder`` may be given as a path's text (a shipped pack's snapshot gives one): it is
    made a Path when first asked for, so a start that never asks (plain play, verify)
    never imports pathlib, and with it urllib.parse and ipaddress (17 M instructions)."""

    name: str
    title: str
    help: str
    # folder: Path | None, None for no folder (NO_PACK): the property below
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
                 folder: Path | str | None, source: str = "", key_hint: str = "",
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

    @property
    def folder(self) -> Path | None:
        """The pack's folder (None: NO_PACK), a Path from its text when first asked for."""
        folder = self.__dict__["folder"]
        if isinstance(folder, str):
            from pathlib import Path

            folder = self.__dict__["folder"] = Path(folder)
        return folder  # type: ignore[no-any-return]

    def _values(self) -> tuple[object, ...]:
        values = self.__dict__
        return tuple(values[name] if name != "folder" else self.folder for name in PACK_FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}"
                          for name, value in zip(PACK_FIELDS, self._values(), strict=True))
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
        """The result names the phrases in a piece of paper announce, in order. Read after
        every reply: a paper without any phrase in it is answered at once, and one with a
        phrase by ``str.find`` (``_whole_phrases``: the pattern's matches, whose look-behinds
        make it try every position: 34 us for a result's reply against 2)."""
        pattern = self._pattern
        if pattern is None:
            return []
        for phrase in self.results:
            if phrase in text:
                break
        else:
            return []
        phrases = self._phrases
        if phrases is None:
            return [self.results[m.group(0)] for m in pattern.finditer(text)]
        return [self.results[phrase] for phrase in _whole_phrases(text, phrases)]

    @cached_property
    def _phrases(self) -> tuple[tuple[str, bool, bool], ...] | None:
        """The pattern's phrases in its order (the longest first), each with whether it
        must not follow and not precede a capital A-Z or a digit 0-9 (the typewriter's);
        None if one is empty (only the pattern answers that)."""
        phrases = sorted(self.results, key=len, reverse=True)
        if not all(phrases):
            return None
        return tuple((p, p[:1].isalnum(), p[-1:].isalnum()) for p in phrases)

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


_WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")  # _phrase_pattern's


def _whole_phrases(text: str, phrases: Sequence[tuple[str, bool, bool]]) -> list[str]:
    """The phrases ``_phrase_pattern``'s alternation finds in ``text``, in order, found by
    ``str.find``: the pattern's look-behind makes it try every position of a reply (some
    140 k host instructions for a result's reply, which runs on into the next greeting).
    Each whole-word occurrence of each phrase, then, as the alternation takes them, the
    leftmost first, at one position the first phrase in the pattern's order, and none that
    starts inside one taken."""
    found: list[tuple[int, int, str]] = []
    size = len(text)
    for order, (phrase, before, after) in enumerate(phrases):
        start = text.find(phrase)
        while start >= 0:
            end = start + len(phrase)
            if not ((before and start and text[start - 1] in _WORD_CHARACTERS)
                    or (after and end < size and text[end] in _WORD_CHARACTERS)):
                found.append((start, order, phrase))
            start = text.find(phrase, start + 1)
    found.sort()
    taken, free_from = [], 0
    for start, _, phrase in found:
        if start >= free_from:
            taken.append(phrase)
            free_from = start + len(phrase)
    return taken


def _phrase_pattern(phrase: str) -> str:
    """A phrase matched as whole words (YOU WIN is not the start of YOU WINNER)."""
    text = re.escape(phrase)
    if phrase[:1].isalnum():
        text = r"(?<![A-Z0-9])" + text
    if phrase[-1:].isalnum():
        text += r"(?![A-Z0-9])"
    return text
