"""fastarith gives exactly what arithmetic gives, for numbers, text, signs and edges."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.sizes import FASTARITH_EXAMPLES, size
from univac_ttt.machine import arithmetic as ar
from univac_ttt.machine import fastarith as fa
from univac_ttt.machine.charset import MINUS
from univac_ttt.machine.word import MODULUS, from_int

codes = st.integers(min_value=0, max_value=63).map(chr)
raw = st.text(alphabet=codes, min_size=12, max_size=12)
digits = st.text(alphabet=[chr(3 + d) for d in range(10)], min_size=11, max_size=11)
edges = st.sampled_from([0, 1, -1, MODULUS - 1, -(MODULUS - 1), MODULUS // 2, 5 * 10**10])
numbers = st.one_of(st.integers(-(MODULUS - 1), MODULUS - 1), edges).map(from_int)
odd_signs = st.builds(lambda sign, body: sign + body, codes, digits)  # any sign character
negative_zero = st.just(MINUS + "\x03" * 11)
words = st.one_of(numbers, numbers, odd_signs, negative_zero, raw)
EXAMPLES = size(*FASTARITH_EXAMPLES)


def outcome(function, *args):
    try:
        return function(*args)
    except ar.AdderFault as fault:
        return ("fault", fault.position)


@settings(max_examples=EXAMPLES)
@given(words, words)
def test_add_matches_the_adder(a, b):
    """(S adds the negated word: the same function.)"""
    assert outcome(fa.add, a, b) == outcome(ar.add, a, b)


@settings(max_examples=EXAMPLES)
@given(words, words, st.booleans())
def test_multiply_matches_the_multiplier(l_word, x_word, negative):
    rounded = ar.multiply_rounded(l_word, x_word, negative)
    got = fa.multiply(l_word, x_word, negative, False)
    if rounded is None:
        assert got is None
        assert fa.multiply(l_word, x_word, False, True) is None
        return
    passes = ar.multiplier_passes(x_word)
    assert got == (rounded, x_word, ar.triple(l_word), passes)
    high, low = ar.multiply_full(l_word, x_word)
    assert fa.multiply(l_word, x_word, False, True) == (high, low, ar.triple(l_word), passes)


@settings(max_examples=EXAMPLES)
@given(words, words)
def test_divide_matches_the_divider(a, b):
    assert fa.divide(a, b) == ar.divide(a, b)


@given(st.integers(-(MODULUS - 1), MODULUS - 1))
def test_words_and_values_round_trip(number):
    word = fa.word_of(number)
    assert word == from_int(number)
    assert fa.value(word) == number


@given(st.integers(1, 4095), st.sampled_from([-1, 1]), st.sampled_from([-1, 1]))
def test_divide_rounds_exact_halves_as_the_divider(dividend, sign_a, sign_l):
    """2 x 10^11 = 2^12 x 5^11, so any dividend over 4096 leaves exactly half a unit."""
    a, l_word = from_int(sign_a * dividend), from_int(sign_l * 4096)
    assert fa.divide(a, l_word) == ar.divide(a, l_word)


@settings(max_examples=EXAMPLES)
@given(st.one_of(st.integers(-(MODULUS - 1), MODULUS - 1), edges), words)
def test_a_register_int_stands_for_the_word_of_its_value(value, multiplicand):
    """Compiled pairs keep rA, rX, rL as ints below 10^11 and rF as a triple (below
    3 x 10^11): each must stand for the word arithmetic.py would have left there."""
    assert fa.register_word(value) == from_int(value)
    assert fa._new_word(value) == from_int(value)
    assert fa.value(fa.register_word(value)) == value
    magnitude = ar._signed(multiplicand)
    if magnitude is not None:
        assert fa.register_word(3 * abs(magnitude)) == ar.triple(multiplicand)
    assert fa.passes_of(value) == ar.multiplier_passes(from_int(value))
