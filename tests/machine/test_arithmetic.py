"""The adder, multiplier and divider against Python integers, and the bypass rules."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.machine import Machine
from univac_ttt.machine import arithmetic as ar
from univac_ttt.machine.ops import BY_CODE
from univac_ttt.machine.word import MODULUS, from_int, from_text, is_numeric, to_int

values = st.integers(min_value=-(MODULUS - 1), max_value=MODULUS - 1)
nonzero = values.filter(lambda v: v != 0)


def _shift(code: str):  # noqa: ANN202
    """A shift as the operation table states it (ops.py: its row's body), on a word."""
    def shift(word: str, n: int) -> str:
        m = Machine()
        m.a = word
        BY_CODE[code].execute(m, n)
        return m.a
    shift.__name__ = code
    return shift


shift_right, shift_left = _shift(".n"), _shift(";n")
shift_right_keep_sign, shift_left_keep_sign = _shift("-n"), _shift("0n")


@given(values, values)
def test_add_matches_integers(a, b):
    total, overflow = ar.add(from_int(a), from_int(b))
    expected = a + b
    assert overflow == (abs(expected) >= MODULUS)
    if not overflow:
        assert to_int(total) == expected
    else:
        assert to_int(total) == (abs(expected) % MODULUS) * (1 if expected > 0 else -1)


@given(values, values)
def test_subtract_is_add_of_negation(a, b):
    total, overflow = ar.add(from_int(a), ar.negate(from_int(b)))
    if not overflow:
        assert to_int(total) == a - b


@given(values, values)
def test_multiply_rounded_as_fractions(l, x):
    result = ar.multiply_rounded(from_int(l), from_int(x))
    magnitude = (abs(l) * abs(x) + MODULUS // 2) // MODULUS
    sign = -1 if (l < 0) != (x < 0) else 1
    assert to_int(result) == sign * magnitude


@given(values, values)
def test_negative_multiply(l, x):
    assert to_int(ar.multiply_rounded(from_int(l), from_int(x), True)) == \
        -to_int(ar.multiply_rounded(from_int(l), from_int(x)))


@given(values, values)
def test_product_keeps_all_22_digits(l, x):
    high, low = ar.multiply_full(from_int(l), from_int(x))
    assert abs(to_int(high)) * MODULUS + abs(to_int(low)) == abs(l) * abs(x)


@given(values, nonzero)
def test_divide_as_fractions(a, l):
    result = ar.divide(from_int(a), from_int(l))
    if abs(a) >= abs(l):
        assert isinstance(result, str) and "overflow" in result
        return
    if isinstance(result, str):  # rounding reached twelve digits
        assert "twelve" in result
        return
    rounded, unrounded = result
    assert abs(to_int(unrounded)) == abs(a) * MODULUS // abs(l)
    assert abs(to_int(rounded)) == (abs(a) * MODULUS * 10 // abs(l) + 5) // 10


def test_divide_by_zero_is_overflow():
    assert "overflow" in ar.divide(from_int(0), from_int(0))


@given(values, values)
def test_greater_is_algebraic_for_numbers(a, b):
    assert ar.greater(from_int(a), from_int(b)) == (a > b)


def test_minus_zero_is_not_greater_than_plus_zero():
    assert not ar.greater(from_text("-00000000000"), from_text("000000000000"))
    assert not ar.greater(from_text("000000000000"), from_text("-00000000000"))


def test_greater_uses_code_order_for_text():
    assert ar.greater(from_text("B00000000000"), from_text("A00000000000"))
    assert ar.greater(from_text("A00000000000"), from_text("900000000000"))  # letters > digits
    assert not ar.greater(from_text("ΔΔΔΔΔΔΔΔΔΔΔΔ"), from_text("000000000000"))


def test_add_result_signs():
    assert ar.add(from_int(-5), from_int(5))[0] == from_int(0)
    assert ar.add(from_int(-5), from_int(-5))[0] == from_text("-00000000010")


def test_letters_bypass_the_adder():
    # An instruction template plus a number: the letter rides along unchanged.
    total, overflow = ar.add(from_text("000000B00400"), from_int(7))
    assert total == from_text("000000B00407") and not overflow


def test_bypassed_letter_breaks_the_carry():
    total, _ = ar.add(from_text("000000009A99"), from_int(1))
    assert total == from_text("000000009A00")  # the carry out of "99" stops at A


def test_both_operands_bypassed_is_an_adder_fault():
    with pytest.raises(ar.AdderFault):
        ar.add(from_text("00000000000A"), from_text("00000000000B"))


def test_bypass_with_unlike_signs_subtracts_digits():
    total, _ = ar.add(from_text("00000000A050"), from_text("-00000000030"))
    assert total == from_text("00000000A020")


def test_extract_takes_positions_where_rf_is_odd():
    a = from_text("ABCDEFGHIJKL")
    m = from_text("MNOPQRSTUVWX")
    f = from_text("111111111000")  # "0" is code 3 (odd); "1" is code 4 (even)
    assert ar.extract(a, m, f) == from_text("ABCDEFGHIVWX")


@pytest.mark.parametrize("fn,n,before,after", [
    (shift_right, 2, "-12345678901", "00-123456789"),
    (shift_left, 2, "-12345678901", "234567890100"),
    (shift_right_keep_sign, 3, "-12345678901", "-00012345678"),
    (shift_left_keep_sign, 3, "-12345678901", "-45678901000"),
])
def test_shifts(fn, n, before, after):
    assert fn(from_text(before), n) == from_text(after)


def test_numeric_view():
    assert is_numeric(from_text("-00000000005")) and is_numeric(from_text("700000000005"))
    assert not is_numeric(from_text("A00000000005"))  # a letter sign makes it text for T
    assert not is_numeric(from_text("00000000000A"))
    assert to_int(from_text("-00000000042")) == -42


shift_counts = st.integers(min_value=0, max_value=9)


@given(values, shift_counts)
def test_shift_right_keeping_the_sign_divides_by_powers_of_ten(v, n):
    word = shift_right_keep_sign(from_int(v), n)
    assert abs(to_int(word)) == abs(v) // 10**n
    assert word[0] == from_int(v)[0]  # the sign character stays where it was


@given(values, shift_counts)
def test_shift_left_keeping_the_sign_multiplies_and_drops_high_digits(v, n):
    shifted = shift_left_keep_sign(from_int(v), n)
    assert abs(to_int(shifted)) == (abs(v) * 10**n) % MODULUS
    assert shifted[0] == from_int(v)[0]


@given(values, shift_counts)
def test_shifts_with_the_sign_move_all_twelve_characters(v, n):
    word = from_int(v)
    zero = from_int(0)[0]
    assert shift_right(word, n) == zero * n + word[:12 - n]
    assert shift_left(word, n) == word[n:] + zero * n


def test_a_zero_product_takes_its_sign_from_the_operands():
    """BN-158: the comparator fixes a product's sign from the operands' signs, so a zero
    product of unlike signs is -0; a zero sum stays +0 (U3), and so does a zero quotient."""
    minus_five, zero = from_text("-00000000005"), from_text("000000000000")
    assert ar.multiply_rounded(minus_five, zero) == from_text("-00000000000")
    assert ar.multiply_rounded(minus_five, zero, True) == zero
    assert ar.multiply_full(minus_five, from_text("000000000001")) == (
        from_text("-00000000000"), from_text("-00000000005"))
    assert ar.add(minus_five, from_text("000000000005"))[0] == zero
    assert ar.divide(zero, minus_five)[0] == zero
