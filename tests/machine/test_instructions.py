"""One test per C-10 instruction, written the way a 1953 programmer would set up memory."""

import pytest
from conftest import machine_with, n, w

from univac_ttt.machine import MachineOptions, StopKind
from univac_ttt.machine.word import from_int, to_int


def run(words, options=None, steps=100):
    m = machine_with(words, options)
    stop = m.run(steps)
    return m, stop


def test_B_brings_to_a_and_x():
    m, stop = run({0: w("B00100900000"), 100: n(42)})
    assert to_int(m.a) == 42 and to_int(m.x) == 42 and stop.kind is StopKind.HALT


def test_L_loads_l_and_x():
    m, _ = run({0: w("L00100900000"), 100: n(-7)})
    assert to_int(m.l) == -7 and to_int(m.x) == -7 and to_int(m.a) == 0


def test_F_and_G_move_the_extractor():
    m, _ = run({0: w("F00100G00101"), 1: w("900000000000"), 100: w("ABCDEFGHIJKL")})
    assert m.f == w("ABCDEFGHIJKL") and m.mem[101] == w("ABCDEFGHIJKL")


def test_H_holds_and_keeps_a():
    m, _ = run({0: w("B00100H00101"), 1: w("900000000000"), 100: n(5)})
    assert to_int(m.mem[101]) == 5 and to_int(m.a) == 5


def test_C_stores_and_clears_a():
    m, _ = run({0: w("B00100C00101"), 1: w("900000000000"), 100: n(5)})
    assert to_int(m.mem[101]) == 5 and m.a == n(0)


def test_J_stores_x():
    m, _ = run({0: w("L00100J00101"), 1: w("900000000000"), 100: n(9)})
    assert to_int(m.mem[101]) == 9


def test_K_moves_a_to_l_and_clears_a():
    m, _ = run({0: w("B00100K00000"), 1: w("900000000000"), 100: n(3)})
    assert to_int(m.l) == 3 and m.a == n(0)


def test_A_adds():
    m, _ = run({0: w("B00100A00101"), 1: w("900000000000"), 100: n(123), 101: n(-23)})
    assert to_int(m.a) == 100 and to_int(m.x) == -23


def test_S_subtracts_with_negated_operand_in_x():
    m, _ = run({0: w("B00100S00101"), 1: w("900000000000"), 100: n(10), 101: n(25)})
    assert to_int(m.a) == -15 and to_int(m.x) == -25


def test_X_adds_x_to_a():
    m, _ = run({0: w("B00100X00000"), 1: w("900000000000"), 100: n(21)})
    assert to_int(m.a) == 42


def test_M_multiplies_rounded():
    # 0.5 x 0.5 = 0.25 as fractions of 10^11
    half = 50_000_000_000
    m, _ = run({0: w("L00100M00100"), 1: w("900000000000"), 100: n(half)})
    assert to_int(m.a) == 25_000_000_000


def test_N_multiplies_negatively():
    half = 50_000_000_000
    m, _ = run({0: w("L00100N00100"), 1: w("900000000000"), 100: n(half)})
    assert to_int(m.a) == -25_000_000_000


def test_P_gives_the_full_product():
    m, _ = run({0: w("L00100P00101"), 1: w("900000000000"), 100: n(3), 101: n(4)})
    assert to_int(m.a) == 0 and to_int(m.x) == 12


def test_D_divides_as_fractions():
    m, _ = run({0: w("L00101D00100"), 1: w("900000000000"), 100: n(1), 101: n(3)})
    assert to_int(m.x) == 33_333_333_333 and to_int(m.a) == 33_333_333_333


def test_D_overflow_is_an_error_stop():
    m, stop = run({0: w("L00101D00100"), 1: w("900000000000"), 100: n(5), 101: n(3)})
    assert stop.kind is StopKind.ERROR and "divide overflow" in stop.reason
    assert (stop.address, stop.half) == (0, "right")


def test_E_extracts():
    m, _ = run({0: w("B00100F00101"), 1: w("E00102900000"),
                100: w("ABCDEFGHIJKL"), 101: w("111111111110"), 102: w("00000000000Z")})
    assert m.a == w("ABCDEFGHIJKZ")


def test_V_and_W_move_two_words():
    m, _ = run({0: w("V00100W00200"), 1: w("900000000000"), 100: n(1), 101: n(2)})
    assert m.mem[200:202] == [n(1), n(2)]


def test_Y_and_Z_move_ten_words():
    words = {100 + i: n(i + 1) for i in range(10)}
    m, _ = run({0: w("Y00100Z00200"), 1: w("900000000000"), **words})
    assert m.mem[200:210] == [n(i + 1) for i in range(10)]


def test_Q_transfers_when_equal():
    m, _ = run({0: w("B00100L00100"), 1: w("Q00005000000"), 2: w("900000000000"),
                5: w("B00101900000"), 100: n(1), 101: n(77)})
    assert to_int(m.a) == 77


def test_Q_goes_on_when_unequal():
    m, stop = run({0: w("B00100L00101"), 1: w("Q00005000000"), 2: w("900000000000"),
                   100: n(1), 101: n(2)})
    assert stop.address == 2


def test_T_transfers_when_a_is_greater():
    m, stop = run({0: w("B00100L00101"), 1: w("T00005000000"), 2: w("900000000000"),
                   5: w("900000000000"), 100: n(2), 101: n(-3)})
    assert stop.address == 5


def test_T_does_not_transfer_when_equal():
    m, stop = run({0: w("B00100L00100"), 1: w("T00005000000"), 2: w("900000000000"),
                   5: w("900000000000"), 100: n(2)})
    assert stop.address == 2


def test_U_transfers():
    m, stop = run({0: w("000000U00007"), 7: w("900000000000")})
    assert stop.address == 7


def test_R_records_a_return_link():
    # R 100 in the left half, U 050 on the right; the subroutine returns through 100.
    m, stop = run({0: w("R00100U00050"), 1: w("900000000000"),
                   50: w("B00099U00100"), 99: n(6)})
    assert m.mem[100] == w("000000U00001")
    assert stop.address == 1 and to_int(m.a) == 6


@pytest.mark.parametrize("op,result", [
    (".2", "00-123456789"), (";2", "234567890100"), ("-3", "-00012345678"),
    ("03", "-45678901000")])
def test_shift_instructions(op, result):
    m, _ = run({0: w(f"B00100{op}0000"), 1: w("900000000000"), 100: w("-12345678901")})
    assert m.a == w(result)


def test_skip_does_nothing():
    m, stop = run({0: w("000000000000"), 1: w("900000000000")})
    assert stop.address == 1 and m.instructions == 3


def test_stop_then_start_goes_on():
    m = machine_with({0: w("900000B00100"), 1: w("900000000000"), 100: n(8)})
    first = m.run(10)
    assert first.kind is StopKind.HALT and (first.address, first.half) == (0, "left")
    second = m.run(10)
    assert to_int(m.a) == 8 and second.address == 1


def test_breakpoint_stop_obeys_the_switch():
    program = {0: w(",00000B00100"), 1: w("900000000000"), 100: n(8)}
    off = machine_with(program)
    assert off.run(10).kind is StopKind.HALT
    on = machine_with(program, MachineOptions(breakpoint_switch=True))
    assert on.run(10).kind is StopKind.BREAKPOINT


def test_keyboard_input_waits_then_stores_the_word():
    m = machine_with({0: w("100100B00100"), 1: w("900000000000")})
    stop = m.run(10)
    assert stop.kind is StopKind.KEYBOARD and (stop.address, stop.half) == (0, "left")
    assert m.instructions == 0  # the stalled instruction has not executed
    m.keyboard.type_line("42")
    assert m.run(10).kind is StopKind.HALT
    assert to_int(m.mem[100]) == 42 and to_int(m.a) == 42


def test_printer_output_types_the_word():
    m, _ = run({0: w("500100500101"), 1: w("900000000000"),
                100: w("HELLOΔWORLD⏎"), 101: w("ιιιιιιιιιι42")})
    assert m.printer.paper == "hello world\n42"  # at rest the typewriter is in small letters


def test_the_shift_codes_switch_the_typewriters_case():
    m, _ = run({0: w("500100500101"), 1: w("900000000000"),
                100: w("⇑HELLOΔιιιιι"), 101: w("⇓WORLDιιιιιι")})
    assert m.printer.paper == "HELLO world"


def test_tape_instruction_without_a_reel_is_a_clear_stop():
    m, stop = run({0: w("120100000000")})
    assert stop.kind is StopKind.ERROR and "Uniservo 2 has no reel" in stop.reason


def test_invalid_operation_stops():
    m, stop = run({0: w("I00100000000")})
    assert stop.kind is StopKind.ERROR and "invalid instruction" in stop.reason


def test_bad_address_character_stops():
    m, stop = run({0: w("B00Δ00000000")})  # Δ: low four bits 0001, not a digit
    assert stop.kind is StopKind.ERROR and "bad address" in stop.reason


def test_letters_S_to_Z_stand_for_address_digits():
    m, _ = run({0: w("B00SSS900000"), 222: n(9)})  # S decodes as 2
    assert to_int(m.a) == 9


def test_overflow_transfers_to_000():
    big = from_int(99_999_999_999)
    m = machine_with({0: w("000000U00005"), 5: w("B00100A00100"), 6: w("900000000000"),
                      100: big})
    m.run(4)  # skip, U, B, A (overflows)
    assert m.cc == 0 and m.overflows == 1


def test_overflow_can_stop_instead():
    big = from_int(99_999_999_999)
    m = machine_with({0: w("B00100A00100"), 100: big}, MachineOptions(overflow="stop"))
    stop = m.run(10)
    assert stop.kind is StopKind.ERROR and "overflow" in stop.reason
    # The stop changes rX only: Start runs the A again from the same rA (and stops again).
    assert (m.a, m.x, m.overflows) == (big, big, 0)
    assert m.run(10) == stop and m.a == big


def test_adder_fault_stops():
    m, stop = run({0: w("B00100A00101"), 100: w("00000000000A"), 101: w("00000000000B")})
    assert stop.kind is StopKind.ERROR and "adder fault" in stop.reason


def test_right_half_runs_after_a_left_transfer_by_default():
    program = {0: w("U00005B00100"), 5: w("900000000000"), 100: n(1)}
    default, _ = run(program)
    assert to_int(default.a) == 1
    skipping, _ = run(program, MachineOptions(right_half_after_transfer=False))
    assert to_int(skipping.a) == 0


def test_a_superscript_glyph_is_not_a_shift_count():
    # Found by fuzzing: fast feed IV shows as "⁴", which Python calls a digit. It is not one.
    m, stop = run({0: w("000000-⁴ιιιι")})  # a skip, then "-" with variant "⁴"
    assert stop.kind is StopKind.ERROR and "invalid instruction" in stop.reason
    assert (stop.address, stop.half) == (0, "right")


def test_Y_and_Z_move_the_channel_of_m_unless_unaligned():
    """U7: the last digit of m is ignored, as for the 60-word rI transfers (S-PROG53);
    --ten-word-unaligned keeps m ... m+9 as written."""
    from univac_ttt.machine import Machine, MachineOptions

    words = {100 + i: n(i + 1) for i in range(20)}
    program = {0: w("Y00105Z00203"), 1: w("900000000000"), **words}
    m, _ = run(program)
    assert m.mem[200:210] == [n(i + 1) for i in range(10)] and m.mem[210] == n(0)
    loose = Machine(MachineOptions(ten_word_aligned=False))
    loose.load(program)
    loose.run()
    assert loose.mem[203:213] == [n(i + 6) for i in range(10)]
