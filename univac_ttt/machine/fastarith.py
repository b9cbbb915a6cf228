"""The adder, multiplier and divider on numbers kept with their values, for compiled pairs.

arithmetic.py converts every operand from its 12 characters and every result back; here a
bounded table remembers the value of each numeric word seen or made, so a result stored and
fetched again is not converted twice, and results are formed through a byte table. Every
function returns exactly what its namesake in arithmetic.py returns
(tests/machine/test_fastarith.py); words holding non-digits go to arithmetic.py unchanged.
Compiled pairs also leave results in the registers, and new numbers they store in memory
cells, as ints (the value shadow); ``register_word`` and ``word_of`` are the word such an
int stands for, ``as_words`` and ``materialise`` turn shadowed cells back into words.
"""

from __future__ import annotations

from . import arithmetic as ar
from .charset import MINUS
from .word import MODULUS

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from .cpu import Machine

_LIMIT = 4096  # values and words remembered before a table is emptied
_VALUES: dict[str, int | None] = {}  # word -> signed value (None: not a number to the adder)
_WORDS: dict[int, str] = {}  # value -> canonical word (from_int)
_TO_EXCESS_THREE = bytes.maketrans(b"0123456789", bytes(range(3, 13)))
_TO_WORD = bytes.maketrans(b"-0123456789", bytes([ord(MINUS), *range(3, 13)]))
_HALF_UNIT = ar.HALF_UNIT
_DIGIT_PASSES = [d // 3 + d % 3 for d in range(10)]  # BN-158: 7 = F, F, L
_PAIR_PASSES = [a + b for a in _DIGIT_PASSES for b in _DIGIT_PASSES]  # by 2 digits
_PASSES = [a + b for a in _PAIR_PASSES for b in _PAIR_PASSES]  # by 4 digits


def value(word: str) -> int | None:
    """The adder's value of a word (arithmetic._signed), remembered."""
    known = _VALUES.get(word, False)
    if known is not False:
        return known  # type: ignore[return-value]
    result = ar._signed(word)
    if len(_VALUES) >= _LIMIT:
        _VALUES.clear()
    _VALUES[word] = result
    return result


def word_of(number: int) -> str:
    """word.from_int for |number| < 10^11, remembered both ways."""
    word = _WORDS.get(number)
    if word is None:
        return _new_word(number)
    return word


def _new_word(number: int) -> str:
    """word_of for a number not in the table."""
    word = (b"%012d" % number).translate(_TO_WORD).decode()
    if len(_VALUES) >= _LIMIT:
        _VALUES.clear()
        _WORDS.clear()
    _WORDS[number] = word
    _VALUES[word] = number
    return word


def as_words(cells: list[str | int]) -> list[str]:
    """Memory cells as words: an int a cell holds (the value shadow) stands for word_of it.
    Reads only, so a reader in another thread may call it while the machine runs."""
    return [c if c.__class__ is str else word_of(c) for c in cells]  # type: ignore[arg-type]


def materialise(m: Machine) -> None:
    """Make a word of every cell that compiled code left holding an int (Machine.mem
    holds only words whenever the compiled path is not running)."""
    mem = m.mem
    for address in m._shadowed:
        cell = mem[address]
        if cell.__class__ is int:
            mem[address] = word_of(cell)  # type: ignore[arg-type]
    m._shadowed.clear()


def register_word(number: int) -> str:
    """The word a register holding ``number`` stands for (compiled pairs keep numbers in
    rA, rX, rL and rF as ints): word_of for an adder value (|number| < 10^11), and for rF's
    triple (up to 3 x 10^11) its twelve digits, the top one in the sign position. Compiled
    code has looked in the table first: ``WORD(v) or REG(v)``."""
    if -MODULUS < number < MODULUS:
        return _WORDS.get(number) or _new_word(number)
    return (b"%012d" % number).translate(_TO_WORD).decode()  # a triple: not an adder value


def add(a: str, b: str) -> tuple[str, bool]:
    """arithmetic.add: (sum word, overflow); AdderFault on a double bypass."""
    va = _VALUES.get(a, False)
    if va is False:
        va = value(a)
    vb = _VALUES.get(b, False)
    if vb is False:
        vb = value(b)
    if va is None or vb is None:
        return ar.add(a, b)
    return _sum(va + vb, a, b)  # type: ignore[operator]


def _sum(total: int, a: str, b: str) -> tuple[str, bool]:
    if total and -MODULUS < total < MODULUS:  # a zero's sign is arithmetic.py's rule
        return word_of(total), False
    wrapped = total % MODULUS if total > 0 else -(-total % MODULUS)
    if wrapped:
        return word_of(wrapped), True
    return ar.add(a, b)  # a negative zero: rare enough for the plain adder


def triple(magnitude: int) -> str:
    """arithmetic.triple for a multiplicand of this magnitude: twelve digits, no sign."""
    return (b"%012d" % (3 * magnitude)).translate(_TO_EXCESS_THREE).decode()


def passes(magnitude: int) -> int:
    """arithmetic.multiplier_passes for a multiplier of this magnitude."""
    high, low = divmod(magnitude, 10_000)
    return _PASSES[high // 10_000] + _PASSES[high % 10_000] + _PASSES[low]


_PASSES_OF: dict[int, int] = {}  # multiplier value -> adder passes (compiled M, N, P)


def passes_of(multiplier: int) -> int:
    """passes() of a signed multiplier's magnitude, remembered (a program's multipliers are
    mostly its constants)."""
    result = passes(-multiplier if multiplier < 0 else multiplier)
    if len(_PASSES_OF) >= _LIMIT:
        _PASSES_OF.clear()
    _PASSES_OF[multiplier] = result
    return result


# Products remembered by (rL, rX), one table per kind: (negative, full) for M, N and P.
PRODUCTS: dict[tuple[bool, bool], dict[tuple[str, str], tuple[str, str, str, int] | None]] = {
    (negative, full): {} for negative in (False, True) for full in (False, True)}


def multiply(l_word: str, x_word: str, negative: bool, full: bool
             ) -> tuple[str, str, str, int] | None:
    """M, N (negative) or P (full): (rA, rX, rF, adder passes), or None for a non-digit.
    rX is the multiplier for M and N, the low half of the product for P. Remembered, as
    programs without index registers multiply the same words again and again."""
    table = PRODUCTS[negative, full]
    key = (l_word, x_word)
    known = table.get(key, False)
    if known is not False:
        return known
    if len(table) >= _LIMIT:
        table.clear()
    result = table[key] = _multiply(l_word, x_word, negative, full)
    return result


def _multiply(l_word: str, x_word: str, negative: bool, full: bool
              ) -> tuple[str, str, str, int] | None:
    vl = _VALUES.get(l_word, False)
    if vl is False:
        vl = value(l_word)
    vx = _VALUES.get(x_word, False)
    if vx is False:
        vx = value(x_word)
    if vl is None or vx is None:
        return None
    ml = -vl if vl < 0 else vl  # type: ignore[operator]
    mx = -vx if vx < 0 else vx  # type: ignore[operator]
    product = ml * mx
    sign = (l_word[0] == MINUS) != (x_word[0] == MINUS)
    if full:
        high, low = divmod(product, MODULUS)
        if high and low:
            a, x = word_of(-high if sign else high), word_of(-low if sign else low)
        else:  # a zero half: its sign is arithmetic.py's rule
            a, x = ar.multiply_full(l_word, x_word)  # type: ignore[misc]
    else:
        rounded = (product + _HALF_UNIT) // MODULUS
        if rounded:
            a = word_of(-rounded if sign != negative else rounded)
        else:  # a zero product: its sign is arithmetic.py's rule
            a = ar.multiply_rounded(l_word, x_word, negative)  # type: ignore[assignment]
        x = x_word
    f = (b"%012d" % (3 * ml)).translate(_TO_EXCESS_THREE).decode()  # triple()
    high, low = divmod(mx, 10_000)
    return a, x, f, _PASSES[high // 10_000] + _PASSES[high % 10_000] + _PASSES[low]  # passes()


def divide(a_word: str, l_word: str) -> tuple[str, str] | str:
    """arithmetic.divide: (rounded, unrounded quotient) or an error text."""
    va = _VALUES.get(a_word, False)
    if va is False:
        va = value(a_word)
    vl = _VALUES.get(l_word, False)
    if vl is False:
        vl = value(l_word)
    if va is None or vl is None:
        return ar.divide(a_word, l_word)
    ma = -va if va < 0 else va  # type: ignore[operator]
    ml = -vl if vl < 0 else vl  # type: ignore[operator]
    if ma >= ml:
        return ar.divide(a_word, l_word)
    quotient, remainder = divmod(ma * MODULUS, ml)
    rounded = quotient + (2 * remainder >= ml)  # (10 * scaled // ml + 5) // 10
    if rounded >= MODULUS or not quotient:  # a zero quotient's sign: arithmetic.py's rule
        return ar.divide(a_word, l_word)
    if (a_word[0] == MINUS) != (l_word[0] == MINUS):
        return word_of(-rounded), word_of(-quotient)
    return word_of(rounded), word_of(quotient)
