"""Huge numbers on a coding sheet are refused with their line (issue 16, part A).
"""


import pytest

from tests.support.hostile import HUGE
from univac_ttt.program.assembler import AssemblyError, assemble


@pytest.mark.parametrize("line, why", [
    (f"RESERVE {HUGE}", "digits"), ("RESERVE 2²", "not a whole"), (f"= {HUGE}", "fit"),
    (f"= -{HUGE}", "fit"), (f"B0 {HUGE} 00 000", "digits"), (f"B0 1+{HUGE} 00 000", "digits"),
    (f"= 1+{HUGE}", "digits"),
])
def test_huge_numbers_on_a_coding_sheet_name_their_line(line, why):
    with pytest.raises(AssemblyError, match=why) as caught:
        assemble(f"# sheet\n{line}\n")
    assert caught.value.line == 2
