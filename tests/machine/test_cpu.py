"""The control unit: stepping, stops as values, self-modifying code, state, timing."""

from conftest import machine_with, n, w

from univac_ttt.machine import Machine, MachineOptions, StopKind
from univac_ttt.machine.timing import MINOR_CYCLE_PULSES, pulses_to_us
from univac_ttt.machine.word import to_int

COUNT_LOOP = {  # count rA up by one, 100 times, then stop
    0: w("B00100L00102"),
    1: w("A00101Q00003"),
    2: w("000000U00001"),
    3: w("900000000000"),
    100: n(0), 101: n(1), 102: n(100),
}


def test_step_executes_one_instruction_at_a_time():
    m = machine_with(COUNT_LOOP)
    assert m.next_instruction_address() == (0, "left")
    m.step()
    assert m.next_instruction_address() == (0, "right") and to_int(m.a) == 0
    m.step()
    assert m.next_instruction_address() == (1, "left")
    assert m.instructions == 2


def test_run_to_the_stop():
    m = machine_with(COUNT_LOOP)
    stop = m.run()
    assert stop.kind is StopKind.HALT and to_int(m.a) == 100


def test_step_limit_leaves_the_machine_running_state():
    m = machine_with(COUNT_LOOP)
    stop = m.run(7)
    assert stop.kind is StopKind.STEP_LIMIT and m.instructions == 7
    m.run()
    assert to_int(m.a) == 100


def test_stepping_and_running_agree():
    stepped = machine_with(COUNT_LOOP)
    while stepped.step() is None:
        pass
    ran = machine_with(COUNT_LOOP)
    ran.run()
    assert stepped.snapshot() == ran.snapshot()


def test_self_modifying_code_is_fetched_fresh():
    # word 0 writes a new instruction into word 1 before it is fetched
    m = machine_with({0: w("B00100H00001"), 1: w("900000000000"), 100: w("B00101900000"),
                      101: n(55)})
    m.run()
    assert to_int(m.a) == 55


def test_snapshot_and_restore_return_the_exact_state():
    m = machine_with(COUNT_LOOP)
    m.run(11)
    saved = m.snapshot()
    m.run()
    assert m.snapshot() != saved
    m.restore(saved)
    assert m.snapshot() == saved
    m.run()
    assert to_int(m.a) == 100


def test_timing_counts_latency_from_the_channel_position():
    m = machine_with({0: w("B00109900000")})  # operand in position 9 of its channel
    m.run()
    latency = m.pulses
    m2 = machine_with({0: w("B00102900000")})  # operand in position 2
    m2.run()
    assert latency != m2.pulses
    assert m.pulses % MINOR_CYCLE_PULSES == 0


def test_average_timing_charges_222_us_per_access():
    m = Machine(MachineOptions(timing="average"))
    m.load({0: w("B00100B00100"), 1: w("900000000000")})
    m.run()
    # Two pair fetches and two operands at 222 us each (wait and read), B's two cycles
    # twice, the stop's one.
    expected_pulses = 2 * 500 + 2 * (2 * 91 + 500) + 1 * 91
    assert m.pulses == expected_pulses


def test_typical_speed_is_near_1905_operations_a_second():
    m = machine_with(COUNT_LOOP)
    m.run()
    per_instruction_us = pulses_to_us(m.pulses) / m.instructions
    assert 150 < per_instruction_us < 900  # REFERENCE 7: about 525 us on average


def test_error_stop_can_be_resumed_after_the_operator_fixes_memory():
    m = machine_with({0: w("I00000900000")})
    stop = m.run()
    assert stop.kind is StopKind.ERROR
    m.mem[0] = w("000000900000")
    assert m.run().kind is StopKind.HALT


def test_keyboard_wait_in_the_right_half():
    m = machine_with({0: w("B00100100101"), 1: w("900000000000"), 100: n(1)})
    stop = m.run()
    assert stop.kind is StopKind.KEYBOARD and stop.half == "right"
    m.keyboard.type_line("7")
    m.run()
    assert to_int(m.mem[101]) == 7 and to_int(m.a) == 1


def test_return_link_uses_the_control_counter():
    m = machine_with({5: w("R00050000000")})
    m.cc = 5
    m.run(1)
    assert m.mem[50] == w("000000U00006")
