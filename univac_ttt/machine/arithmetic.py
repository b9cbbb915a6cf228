"""Decimal sign-and-magnitude arithmetic on words, as the UNIVAC's serial adder does it.

Pure functions: words in, words (and a flag or an error text) out. Numeric words take a
fast path through Python integers; words holding letters go digit by digit, right to left,
with non-digit characters bypassed around the adder (they break the carry chain and land
in the result where they stood; two at the same position is an adder fault). REFERENCE.md
1.2 and 5; choices under U3, U4, U5, U8, U10 are explained in docs/fidelity.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .charset import MINUS, ZERO_DIGIT
from .word import MODULUS, from_int, is_digit_char, is_numeric, to_int

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

HALF_UNIT = MODULUS // 2  # rounding: add 5 in the twelfth product digit
_MEMO_LIMIT = 100_000



def memoised(function: F) -> F:
    """A bounded memo for a pure function of words (emptied when full).

    Programs without index registers compute the same sums, products and extracts again
    and again; every function memoised here depends only on its word arguments.
    """
    table: dict[tuple[Any, ...], Any] = {}

    missing = object()
    lookup = table.get

    @functools.wraps(function)
    def wrapper(*args: Any) -> Any:
        result = lookup(args, missing)
        if result is not missing:
            return result
        result = function(*args)
        if len(table) >= _MEMO_LIMIT:
            table.clear()
        table[args] = result
        return result

    wrapper.cache = table  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


class AdderFault(Exception):
    """Both operands carried a non-digit character in the same position."""

    def __init__(self, position: int) -> None:
        super().__init__(f"both operands hold a non-digit character in position {position + 1}")
        self.position = position


_signed = to_int  # how the adder reads a word (word.to_int)


def negate(word: str) -> str:
    """The word with its sign changed: ``-`` becomes ``0`` and anything else becomes ``-``."""
    return (ZERO_DIGIT if word[0] == MINUS else MINUS) + word[1:]


_SUMS: dict[tuple[str, str], tuple[str, bool]] = {}


def add(a: str, b: str) -> tuple[str, bool]:
    """a + b; returns (sum word, overflow). Raises AdderFault on a double bypass.

    The adder is the hottest arithmetic, so its memo is written out here (same rules as
    ``memoised``).
    """
    key = (a, b)
    known = _SUMS.get(key)
    if known is not None:
        return known
    va = _signed(a)
    vb = _signed(b) if va is not None else None
    if vb is not None:
        total = va + vb  # type: ignore[operator]
        result = from_int(total), not -MODULUS < total < MODULUS
    else:
        result = _add_bypassing(a, b)
    if len(_SUMS) >= _MEMO_LIMIT:
        _SUMS.clear()
    _SUMS[key] = result
    return result


def _add_bypassing(a: str, b: str) -> tuple[str, bool]:
    """Digit-by-digit addition for words that hold non-digit characters."""
    negative_a = a[0] == MINUS
    negative_b = b[0] == MINUS
    digits_a = [0] * 12
    digits_b = [0] * 12
    bypass: dict[int, str] = {}
    for i in range(1, 12):
        ca, cb = a[i], b[i]
        da, db = is_digit_char(ca), is_digit_char(cb)
        if not da and not db:
            raise AdderFault(i)
        if not da:
            bypass[i] = ca
        elif not db:
            bypass[i] = cb
        else:
            digits_a[i] = ord(ca) - 3
            digits_b[i] = ord(cb) - 3

    def magnitude(ds: list[int]) -> int:
        return int("".join(str(d) for d in ds[1:]))

    if negative_a == negative_b:
        negative, top, bottom, sign = negative_a, digits_a, digits_b, 1
    else:
        # The comparator decides which magnitude is larger; the smaller is subtracted.
        if magnitude(digits_a) >= magnitude(digits_b):
            negative, top, bottom = negative_a, digits_a, digits_b
        else:
            negative, top, bottom = negative_b, digits_b, digits_a
        sign = -1
    out = [""] * 12
    carry = 0
    for i in range(11, 0, -1):
        if i in bypass:
            out[i] = bypass[i]
            carry = 0  # a bypassed character breaks the carry (or borrow) chain
            continue
        d = top[i] + sign * bottom[i] + carry
        carry = 0
        if d > 9:
            d, carry = d - 10, 1
        elif d < 0:
            d, carry = d + 10, -1
        out[i] = chr(3 + d)
    overflow = carry == 1
    all_zero = all(out[i] == ZERO_DIGIT for i in range(1, 12))
    out[0] = MINUS if negative and not all_zero else ZERO_DIGIT
    return "".join(out), overflow


def product(l_word: str, x_word: str) -> tuple[int, int] | None:
    """(sign, 22-digit magnitude) of rL times rX, or None if either holds a non-digit."""
    vl, vx = _signed(l_word), _signed(x_word)
    if vl is None or vx is None:
        return None
    sign = -1 if (l_word[0] == MINUS) != (x_word[0] == MINUS) else 1
    return sign, abs(vl) * abs(vx)


@memoised
def multiply_rounded(l_word: str, x_word: str, negative: bool = False) -> str | None:
    """M (and N when negative): the product rounded to 11 digits, as fractions multiply."""
    result = product(l_word, x_word)
    if result is None:
        return None
    sign, magnitude = result
    if negative:
        sign = -sign
    rounded = (magnitude + HALF_UNIT) // MODULUS
    return product_word(sign, rounded)


@memoised
def multiply_full(l_word: str, x_word: str) -> tuple[str, str] | None:
    """P: the 22-digit product, high 11 digits for rA and low 11 digits for rX."""
    result = product(l_word, x_word)
    if result is None:
        return None
    sign, magnitude = result
    return product_word(sign, magnitude // MODULUS), product_word(sign, magnitude % MODULUS)


def multiply(l_word: str, x_word: str, negative: bool, full: bool
             ) -> tuple[str, str, str, int] | None:
    """M, N (negative) or P (full) as the machine does them: (rA, rX, rF, adder passes),
    or None for a non-digit. rX keeps the multiplier for M and N and gets the low half of
    the product for P; rF gets 3 x rL."""
    if full:
        halves = multiply_full(l_word, x_word)
        if halves is None:
            return None
        a, x = halves
    else:
        rounded = multiply_rounded(l_word, x_word, negative)
        if rounded is None:
            return None
        a, x = rounded, x_word
    return a, x, triple(l_word), multiplier_passes(x_word)  # type: ignore[return-value]


@memoised
def triple(l_word: str) -> str | None:
    """What a multiply leaves in rF: three times the multiplicand's magnitude (BN-158).

    The multiplier builds 3 x rL in rA through the adder and stores it in rF. It needs up
    to twelve digits (3 x 0.99999999999 = 2.99999999997), so the whole word is digits and
    the top one stands in the sign position; the product's sign is the comparator's
    business, not rF's (decision, docs/fidelity.md). None if rL holds a non-digit.
    """
    value = _signed(l_word)
    if value is None:
        return None
    return f"{3 * abs(value):012d}".translate(_ASCII_DIGITS)


_ASCII_DIGITS = {48 + d: chr(3 + d) for d in range(10)}
# Adder passes for one multiplier digit (BN-158): a digit of 3 or more releases 3 x the
# multiplicand from rF once per 3, the rest come from rL; so 7 = F, F, L.
_DIGIT_PASSES = {3 + d: d // 3 + d % 3 for d in range(10)}


@memoised
def multiplier_passes(x_word: str) -> int:
    """Adder passes the eleven multiplier digits of rX take (0 to 44, 23.1 on average)."""
    return sum(_DIGIT_PASSES.get(ord(ch), 0) for ch in x_word[1:])


@memoised
def divide(a_word: str, l_word: str) -> tuple[str, str] | str:
    """D: rA / rL as fractions; (rounded quotient, unrounded quotient) or an error text."""
    va, vl = _signed(a_word), _signed(l_word)
    if va is None or vl is None:
        return "a divide operand holds a non-digit character"
    if abs(va) >= abs(vl):
        return "divide overflow: the dividend is not smaller than the divisor"
    sign = -1 if (a_word[0] == MINUS) != (l_word[0] == MINUS) else 1
    unrounded = abs(va) * MODULUS // abs(vl)
    rounded = (abs(va) * MODULUS * 10 // abs(vl) + 5) // 10
    if rounded >= MODULUS:
        return "divide overflow: the rounded quotient needs twelve digits"
    return _signed_word(sign, rounded), _signed_word(sign, unrounded)


def product_word(sign: int, magnitude: int) -> str:
    """A product's word: its sign is the comparator's, from the operands' signs (BN-158),
    so a zero product of unlike signs is -0 (``-00000000000``), as the rule gives."""
    word = from_int(magnitude)
    return MINUS + word[1:] if sign < 0 else word


def _signed_word(sign: int, magnitude: int) -> str:
    word = from_int(magnitude)
    return MINUS + word[1:] if sign < 0 and magnitude else word


@memoised
def greater(a: str, b: str) -> bool:
    """T's test: algebraic for two numbers, else code order from the left (U4).

    A number here has ``-`` or a digit in the sign position; a word with a letter or a
    space there is text and is compared character by character, as sorting needs.
    """
    if is_numeric(a) and is_numeric(b):
        return _signed(a) > _signed(b)  # type: ignore[operator]
    return a > b


@memoised
def extract(a: str, m: str, f: str) -> str:
    """E: positions where rF holds an odd code (low bit 1, U6) take (m); others keep rA."""
    return "".join(mc if ord(fc) & 1 else ac for ac, mc, fc in zip(a, m, f, strict=True))
