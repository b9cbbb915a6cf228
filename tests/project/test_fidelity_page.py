"""docs/fidelity.md against the model: every table row carries an evidence tag, every option
it names exists, every machine option and every neon is on the page (issue 24)."""

import argparse
import re
from pathlib import Path

import pytest

from univac_ttt.cli import build_parser
from univac_ttt.desk.neons import FAULTS, label
from univac_ttt.machine import MachineOptions

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "fidelity.md").read_text()
TAGS = ("[P]", "[S]", "[R]", "[I]", "[C]", "[P,", "[S,")


def _sections() -> dict[str, str]:
    parts = re.split(r"^## ", PAGE, flags=re.M)
    return {part.split("\n", 1)[0].strip(): part for part in parts[1:]}


# Tables whose rows are claims about the machine (the legend, the timing figures' own
# columns and the front ends' sections excepted).
CLAIM_SECTIONS = ("The machine in one table", "The uncertainties U1-U15", "Character code",
                  "Tapes", "Second and third passes: the audits' findings")


@pytest.mark.parametrize("section", CLAIM_SECTIONS)
def test_every_claim_in_a_table_carries_an_evidence_tag(section):
    text = _sections()[section]
    rows = [line for line in text.splitlines()
            if line.startswith("| ") and not line.startswith(("| point |", "| id |",
                                                              "| octal |", "| tag |"))]
    assert rows, section
    for row in rows:
        evidence = row.rstrip(" |").rsplit(" | ", 1)[-1]
        assert any(tag in evidence for tag in TAGS) or "option" in evidence \
            or "command-line fix" in evidence, row


def test_the_old_tags_are_gone():
    assert "[V]" not in PAGE and "[A]" not in PAGE


def _parser_options() -> set[str]:
    options: set[str] = set()
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                for sub_action in sub._actions:
                    options.update(sub_action.option_strings)
    return options


def test_every_flag_the_page_names_exists():
    named = set(re.findall(r"`(--[a-z][a-z-]*)", PAGE))
    assert named - _parser_options() == set()
    assert {"--code-reading", "--typewriter", "--ten-word-unaligned"} <= named


def test_every_machine_option_is_on_the_page():
    missing = [name for name in MachineOptions._fields
               if name not in PAGE and name not in ("breakpoint_switch", "timing",
                                                    "typewriter_case")]
    assert missing == []  # breakpoint_switch, timing and the case appear as their flags


def test_the_desk_section_names_every_neon():
    desk = _sections()["The desk"]
    for name in [*FAULTS, "input_ready"]:
        assert label(name) in desk, label(name)
