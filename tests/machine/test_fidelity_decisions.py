"""Second-pass fidelity decisions that are not covered elsewhere: address stand-ins and the
letter in the sign position of an addition (docs/fidelity.md, "Second pass")."""

import pytest

from univac_ttt.machine import arithmetic as ar
from univac_ttt.machine.cpu import Machine
from univac_ttt.machine.ops import decode
from univac_ttt.machine.word import from_int, from_text, to_int, to_text


@pytest.mark.parametrize("stand_in, digit", [
    (";", 0), ("A", 1), ("I", 9), (")", 0), ("J", 1), ("R", 9), ("+", 0), ("/", 1), ("S", 2),
    ("Z", 9)])
def test_address_characters_count_by_their_low_four_bits(stand_in, digit):
    op, address = decode(from_text(f"B00{stand_in}00000000")[:6])
    assert op.code == "B" and address == 100 * digit


@pytest.mark.parametrize("bad", [",", ".", "-", "Δ", "#", "%", "$"])
def test_other_address_characters_stop_with_a_text_naming_every_stand_in(bad):
    m = Machine()
    m.mem[0] = from_text(f"B00{bad}00900000")
    stop = m.run()
    assert stop.is_error
    assert stop.reason.startswith("bad address character")
    assert ";A-I )J-R +/S-Z" in stop.reason


def test_a_letter_in_the_sign_position_is_read_as_plus_and_not_kept():
    # Decision: the sign is set by the sign circuits (BN-158: the comparator fixes the
    # sign), not carried through the adder, so a letter there is lost.
    total, overflow = ar.add(from_text("A00000000000"), from_int(1))
    assert to_text(total) == "000000000001" and not overflow
    # Letters in positions 2-12 do ride through the adder unaltered (S-PV).
    total, _ = ar.add(from_text("000000B00400"), from_int(5))
    assert to_text(total) == "000000B00405"
    assert to_int(from_text("A00000000007")) == 7
