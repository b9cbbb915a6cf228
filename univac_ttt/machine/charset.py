"""The UNIVAC I six-bit character code: one table, used by every other module.

Inside the emulator a character is the Python character ``chr(code)`` (code 0-63), so a
word is a 12-character ``str``: immutable, hashable and compared in code order for free.
The *glyph* is how a character is shown in listings, images and the monitor; the
*typed* text is what the Supervisory Control typewriter puts on paper.

Sources: the High-Speed Printer code table (S-HSPTAB) and paper (S-HSP). A non-printing
code has a stand-in there (its code with the 8-weight bit toggled), so 57 (written ``?``)
and 76 are fast-feed controls and 62 prints. Rows marked ``assumed`` are our choices where
the sources are unsure (U2); docs/fidelity.md gives the reasons, in a table a test keeps
equal to this one.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from .records import Record


class Kind(Enum):
    DIGIT = "digit"
    LETTER = "letter"
    SYMBOL = "symbol"
    SPACE = "space"
    IGNORE = "ignore"
    CONTROL = "typewriter control"
    PRINTER = "printer control"
    UNUSED = "unused"


class Character(Record):
    code: int  # six-bit code 0-63
    glyph: str  # one character shown in listings and memory images
    name: str
    kind: Kind
    typed: str  # what the SC typewriter prints ("" for nothing)
    assumed: bool = False  # True where the reference is unsure (U2)

    @property
    def octal(self) -> str:
        return f"{self.code:02o}"

    @property
    def check_bit(self) -> int:
        """Odd parity over seven bits (REFERENCE 1.1)."""
        return 1 if bin(self.code).count("1") % 2 == 0 else 0

    @property
    def on_keyboard(self) -> bool:
        """Whether the Supervisory Control keyboard has a key for it."""
        return self.kind in (Kind.DIGIT, Kind.LETTER, Kind.SYMBOL, Kind.SPACE)


def _c(octal: str, glyph: str, name: str, kind: Kind, typed: str | None = None,
       assumed: bool = False) -> Character:
    return Character(int(octal, 8), glyph, name, kind, glyph if typed is None else typed, assumed)


_D, _L, _S = Kind.DIGIT, Kind.LETTER, Kind.SYMBOL

# The two readings of S-HSPTAB's merged OCR line for rows 36/37 and 76/77 (docs/fidelity.md,
# "Character code"). "stand-in" (the default): the line's stand-in T is the toggle of 76, so
# 76 is fast feed IV, and 62 (no stand-in) prints "="; fast feed I "@" goes to 37. "label":
# the label (FFIV) belongs to 37, 76 prints "=", and 62 is the non-printing fast feed I.
READINGS = ("stand-in", "label")
_DISPUTED = {
    "stand-in": (_c("37", "@", "fast feed I", Kind.PRINTER, "", assumed=True),
                 _c("62", "=", "equals", _S, assumed=True),
                 _c("76", "⁴", "fast feed IV", Kind.PRINTER, "", assumed=True)),
    "label": (_c("37", "⁴", "fast feed IV", Kind.PRINTER, "", assumed=True),
              _c("62", "@", "fast feed I", Kind.PRINTER, "", assumed=True),
              _c("76", "=", "equals", _S, assumed=True)),
}
DISPUTED_CODES = (0o36, 0o37, 0o62, 0o76)  # 36: non-printing on the HSP, typed as ¢ by us

_COMMON: tuple[Character, ...] = tuple(sorted((
    # zone 00
    _c("00", "ι", "ignore", Kind.IGNORE, ""),
    _c("01", "Δ", "space", Kind.SPACE, " "),
    _c("02", "-", "minus", _S),
    *(_c(f"{3 + d:02o}", str(d), f"digit {d}", _D) for d in range(10)),
    _c("15", "'", "apostrophe", _S, assumed=True),
    _c("16", "&", "ampersand", _S, assumed=True),
    _c("17", "(", "left parenthesis", _S),
    # zone 01
    _c("20", "⏎", "carriage return", Kind.CONTROL, "\n", assumed=True),
    _c("21", ",", "comma", _S),
    _c("22", ".", "period", _S),
    _c("23", ";", "semicolon", _S),
    *(_c(f"{0o24 + i:02o}", ch, f"letter {ch}", _L) for i, ch in enumerate("ABCDEFGHI")),
    _c("35", "#", "number sign", _S),
    _c("36", "¢", "cent sign", _S, assumed=True),
    # zone 10
    _c("40", "⇥", "tabulate", Kind.CONTROL, "\t", assumed=True),
    _c("41", "⇑", "upper case shift", Kind.CONTROL, "", assumed=True),
    _c("42", "⇓", "lower case shift", Kind.CONTROL, "", assumed=True),
    _c("43", ")", "right parenthesis", _S),
    *(_c(f"{0o44 + i:02o}", ch, f"letter {ch}", _L) for i, ch in enumerate("JKLMNOPQR")),
    _c("55", "$", "dollar sign", _S),
    _c("56", "*", "asterisk", _S, assumed=True),
    _c("57", "?", "fast feed III", Kind.PRINTER, ""),
    # zone 11
    _c("60", "■", "printer stop", Kind.PRINTER, ""),
    _c("61", "◆", "printer breakpoint", Kind.PRINTER, ""),
    _c("63", "+", "plus", _S),
    _c("64", "/", "slash", _S),
    *(_c(f"{0o65 + i:02o}", ch, f"letter {ch}", _L) for i, ch in enumerate("STUVWXYZ")),
    _c("75", "%", "percent", _S),
    _c("77", "□", "unused code", Kind.UNUSED, ""),
), key=lambda c: c.code))


def _table(reading: str) -> tuple[Character, ...]:
    table = tuple(sorted(_COMMON + _DISPUTED[reading], key=lambda c: c.code))
    assert [c.code for c in table] == list(range(64)), "the code table must have all 64 codes"
    assert len({c.glyph for c in table}) == 64, "glyphs must be unique"
    return table


reading = READINGS[0]  # the reading in use (use_reading changes it)
CHARACTERS: tuple[Character, ...] = _table(reading)
BY_GLYPH: dict[str, Character] = {c.glyph: c for c in CHARACTERS}

# Internal characters of the most used codes.
IGNORE = "\x00"
SPACE = "\x01"
MINUS = "\x02"
ZERO_DIGIT = "\x03"
CARRIAGE_RETURN = chr(0o20)
UPPER_SHIFT = chr(0o41)
LOWER_SHIFT = chr(0o42)

# str.translate tables between internal characters and glyphs, and by code the glyph and
# what the typewriter types (devices.py, ops.py).
TO_GLYPHS = {c.code: c.glyph for c in CHARACTERS}
FROM_GLYPHS = {ord(c.glyph): chr(c.code) for c in CHARACTERS}
GLYPHS = [c.glyph for c in CHARACTERS]
TYPED = [c.typed for c in CHARACTERS]


def glyphs(internal: str) -> str:
    """Show internal characters as UNIVAC glyphs (Δ for space, ι for ignore...)."""
    return internal.translate(TO_GLYPHS)


# What a modern keyboard key means on the Supervisory Control keyboard.
KEYBOARD_KEYS: dict[str, str] = {
    c.glyph: chr(c.code) for c in CHARACTERS if c.on_keyboard
}
KEYBOARD_KEYS[" "] = SPACE
for _ch in "abcdefghijklmnopqrstuvwxyz":
    KEYBOARD_KEYS[_ch] = KEYBOARD_KEYS[_ch.upper()]


# What else must forget on a change of reading (devices.py's memo of typed words).
ON_READING: list[Callable[[], None]] = []


def use_reading(name: str) -> None:
    """Switch the whole process to one reading of the disputed codes (READINGS): every
    table above is refilled in place, so modules that imported them see the change. For a
    command's start (``--code-reading``), before any program is read: one machine's
    words mean the same under both readings, only their glyphs and printing differ."""
    global CHARACTERS, reading
    if name not in READINGS:
        raise ValueError(f"{name!r} is not a reading: {', '.join(READINGS)}")
    reading = name
    CHARACTERS = _table(name)
    BY_GLYPH.clear()
    BY_GLYPH.update({c.glyph: c for c in CHARACTERS})
    TO_GLYPHS.clear()
    TO_GLYPHS.update({c.code: c.glyph for c in CHARACTERS})
    FROM_GLYPHS.clear()
    FROM_GLYPHS.update({ord(c.glyph): chr(c.code) for c in CHARACTERS})
    GLYPHS[:] = [c.glyph for c in CHARACTERS]
    TYPED[:] = [c.typed for c in CHARACTERS]
    for glyph in [g for g in KEYBOARD_KEYS if g not in " abcdefghijklmnopqrstuvwxyz"]:
        del KEYBOARD_KEYS[glyph]
    KEYBOARD_KEYS.update({c.glyph: chr(c.code) for c in CHARACTERS if c.on_keyboard})
    for forget in ON_READING:
        forget()
