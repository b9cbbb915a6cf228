"""Words: twelve UNIVAC characters, seen as text, as a signed number, or as two instructions.

A word is a 12-character ``str`` of internal characters (``chr(code)``). Position 0 is the
sign position of a number and the operation character of the left instruction.
"""

from __future__ import annotations

from .charset import FROM_GLYPHS, MINUS, TO_GLYPHS, ZERO_DIGIT

WORD_LENGTH = 12
DIGITS = 11
MODULUS = 10**DIGITS  # magnitudes are 11 decimal digits

ZERO = ZERO_DIGIT * WORD_LENGTH  # "000000000000": positive zero

MEMORY_WORDS = 1000  # the mercury memory: addresses 000-999
LAST_ADDRESS = MEMORY_WORDS - 1
TAPE_BLOCK_WORDS = 60  # a tape block, and the rI and rO buffers

# Excess-three digits are codes 3..12; these tables turn them into ASCII digits and back.
_DIGIT_TO_ASCII = {3 + d: chr(48 + d) for d in range(10)}
# For the numeric check every non-digit becomes "x", so str.isdigit() is exact.
NUMERIC_CHECK = {i: _DIGIT_TO_ASCII.get(i, "x") for i in range(64)}
_ASCII_TO_DIGIT = {48 + d: chr(3 + d) for d in range(10)}


def is_digit_char(ch: str) -> bool:
    return 3 <= ord(ch) <= 12


def is_numeric(word: str) -> bool:
    """True for a number: sign ``-`` or a digit, then eleven digits (U3, U4)."""
    return (word[0] == MINUS or 3 <= ord(word[0]) <= 12) and \
        word[1:].translate(NUMERIC_CHECK).isdigit()


def to_int(word: str) -> int | None:
    """The signed value of positions 2-12 (sign: ``-`` negative, anything else positive),
    or None when one of them is not a digit. This is how the adder reads a word (U3)."""
    digits = word[1:].translate(NUMERIC_CHECK)
    if not digits.isdigit():
        return None
    value = int(digits)
    return -value if word[0] == MINUS else value


def from_int(value: int) -> str:
    """The canonical word for a value: sign ``0`` or ``-``, then 11 digits.

    Values beyond 11 digits keep their low 11 digits (what the adder keeps on overflow).
    """
    sign = MINUS if value < 0 else ZERO_DIGIT
    return sign + (f"{abs(value) % MODULUS:011d}").translate(_ASCII_TO_DIGIT)


def from_text(text: str) -> str:
    """A word from exactly 12 glyphs (Δ or a real space for the blank)."""
    text = text.replace(" ", "Δ")
    if len(text) != WORD_LENGTH:
        raise ValueError(f"a word has 12 characters, not {len(text)}")
    for ch in text:
        if ord(ch) not in FROM_GLYPHS:
            raise ValueError(f"{ch!r} is not a UNIVAC character")
    return text.translate(FROM_GLYPHS)


def to_text(word: str) -> str:
    """The word as 12 glyphs."""
    return word.translate(TO_GLYPHS)


def instruction(op: str, address: int) -> str:
    """A six-character instruction from a one- or two-glyph operation and an address 0-999."""
    if len(op) == 1:
        op += "0"
    return from_text(f"{op}0{address:03d}{op}0{address:03d}")[:6]


def _return_links() -> tuple[str, ...]:
    """What R stores for each CC: a skip, then U back to CC (000000U00ccc)."""
    head = ZERO_DIGIT * 6 + instruction("U", 0)[:3]
    digits = [chr(3 + d) for d in range(10)]
    return tuple(head + digits[cc // 100] + digits[cc // 10 % 10] + digits[cc % 10]
                 for cc in range(MEMORY_WORDS))


RETURN_LINKS = _return_links()  # by CC
