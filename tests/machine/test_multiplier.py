"""The multiplier as Bell and Newell ch. 8 p. 158 describes it: 3 x the multiplicand is built
and left in rF, and each multiplier digit costs its adder passes."""

from hypothesis import given
from hypothesis import strategies as st

from univac_ttt.machine import arithmetic as ar
from univac_ttt.machine.cpu import Machine
from univac_ttt.machine.timing import MINOR_CYCLE_PULSES
from univac_ttt.machine.word import from_int, from_text, instruction, to_int, to_text


def _multiply(op: str, l_value: int, x_value: int, f_text: str = "ABCDEFGHIJKL") -> Machine:
    m = Machine()
    m.l = from_int(l_value)
    m.f = from_text(f_text)
    m.mem[100] = from_int(x_value)
    m.mem[0] = instruction(op, 100) + instruction("90", 0)
    m.run()
    return m


def test_multiply_leaves_three_times_the_multiplicand_in_rf():
    m = _multiply("M", 20_000_000_000, 30_000_000_000)  # 0.2 x 0.3
    assert to_text(m.f) == "060000000000"
    assert to_int(m.a) == 6_000_000_000


def test_three_times_a_large_multiplicand_keeps_its_twelfth_digit_in_the_sign_position():
    m = _multiply("P", -99_999_999_999, 1)
    assert to_text(m.f) == "299999999997"


def test_negative_multiply_and_product_also_overwrite_rf():
    for op in ("N", "P"):
        m = _multiply(op, -12_345, 2)
        assert to_text(m.f) == "000000037035"


def test_rx_holds_the_multiplier_after_m_and_the_low_product_after_p():
    assert to_int(_multiply("M", 5, 7).x) == 7
    assert to_int(_multiply("P", 5, 7).x) == 35


def test_passes_per_digit_follow_the_seven_is_f_f_l_example():
    word = from_int(7)
    assert ar.multiplier_passes(word) == 3  # F, F, L
    assert ar.multiplier_passes(from_int(0)) == 0
    assert ar.multiplier_passes(from_int(99_999_999_999)) == 33
    assert ar.multiplier_passes(from_int(88_888_888_888)) == 44
    # Over all ten digits: 0 1 2 1 2 3 2 3 4 3 passes, 21 in all.
    assert sum(ar.multiplier_passes(from_int(d)) for d in range(10)) == 21


def test_multiply_time_follows_the_multiplier_digits():
    cheap = _multiply("M", 12_345, 0)
    dear = _multiply("M", 12_345, 88_888_888_888)
    assert dear.pulses - cheap.pulses == 44 * MINOR_CYCLE_PULSES


def test_a_faulty_multiply_leaves_rf_alone():
    m = Machine()
    m.l = from_text("ABC000000000")
    m.f = from_text("ABCDEFGHIJKL")
    m.mem[100] = from_int(3)
    m.mem[0] = instruction("M", 100) + instruction("90", 0)
    assert m.run().is_error
    assert to_text(m.f) == "ABCDEFGHIJKL"


ELEVEN_DIGITS = st.integers(-(10**11) + 1, 10**11 - 1)


@given(ELEVEN_DIGITS, ELEVEN_DIGITS)
def test_any_multiply_leaves_three_times_the_multiplicand_and_charges_its_passes(l, x):
    base = _multiply("M", l, 0)
    m = _multiply("M", l, x)
    assert int(to_text(m.f)) == 3 * abs(l)
    passes = sum(d // 3 + d % 3 for d in map(int, f"{abs(x):011d}"))
    assert m.pulses - base.pulses == passes * MINOR_CYCLE_PULSES
