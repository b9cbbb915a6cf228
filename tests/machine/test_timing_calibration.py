"""The model's add, multiply and divide times against the quoted figures, and the table in
docs/fidelity.md that reports both: it fails if the model and the table drift apart."""

import re
from pathlib import Path

import pytest

from tests.support.timing_probe import average_us

ROOT = Path(__file__).resolve().parents[2]
OPS = {"add": "A", "multiply": "M", "divide": "D"}


def _table() -> dict[str, tuple[int, int, int]]:
    """operation -> (quoted us, model latency us, model average us) from docs/fidelity.md."""
    text = (ROOT / "docs" / "fidelity.md").read_text()
    section = text.split("## Timing against the quoted figures", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = cells[0].split(" ")[0] if cells else ""
        if name in OPS and len(cells) == 5:
            numbers = [int(re.sub(r"[^0-9]", "", cells[i])) for i in (1, 3, 4)]
            rows[name] = (numbers[0], numbers[1], numbers[2])
    return rows


def test_the_table_names_every_operation():
    assert set(_table()) == set(OPS)


@pytest.mark.parametrize("name", sorted(OPS))
def test_model_average_is_within_ten_percent_of_the_quoted_figure(name):
    quoted, latency_doc, average_doc = _table()[name]
    for timing, documented in (("latency", latency_doc), ("average", average_doc)):
        measured = average_us(OPS[name], timing=timing)
        assert abs(measured - quoted) <= 0.10 * quoted, (name, timing, measured)
        assert abs(measured - documented) <= 0.01 * documented, (name, timing, measured)
