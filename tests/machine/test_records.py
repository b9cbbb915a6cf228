"""Record gives what typing.NamedTuple gave the records it replaced (machine/records.py)."""

from __future__ import annotations

import pickle
from typing import NamedTuple

import pytest

from univac_ttt.desk.paper import PrintedChunk
from univac_ttt.machine import MachineOptions, Stop, StopKind
from univac_ttt.machine.records import Record


class Typed(NamedTuple):
    """typed"""

    number: int
    name: str = "n"

    @property
    def twice(self) -> int:
        return self.number * 2


class Light(Record):
    """typed"""

    number: int
    name: str = "n"

    @property
    def twice(self) -> int:
        return self.number * 2


def test_a_record_is_the_named_tuple_typing_made():
    for made in (Typed, Light):
        record = made(3)
        assert record == (3, "n") and made(3, "n") == record and hash(record) == hash((3, "n"))
        assert record.twice == 6 and record._replace(number=4).twice == 8
        assert made._fields == ("number", "name") and made._field_defaults == {"name": "n"}
        assert repr(record) == f"{made.__name__}(number=3, name='n')"
        assert made.__doc__ == "typed" and made.__module__ == __name__
        assert made(number=1, name="x")._asdict() == {"number": 1, "name": "x"}
        with pytest.raises(AttributeError):
            record.number = 5  # type: ignore[misc]
        with pytest.raises(AttributeError):
            record.other = 5  # type: ignore[attr-defined]
    assert Light.__annotations__ == {"number": "int", "name": "str"}  # never evaluated


def test_records_pickle_and_keep_their_defaults():
    stop = Stop(StopKind.HALT, 12, "left", "halt")
    assert pickle.loads(pickle.dumps(stop)) == stop
    assert PrintedChunk("A", 5) == ("A", 5, 0, False)
    assert MachineOptions() == MachineOptions()._replace()


def test_a_record_may_not_replace_what_the_named_tuple_needs():
    with pytest.raises(AttributeError, match="_replace"):
        class Broken(Record):
            value: int

            def _replace(self, **changes: object) -> Broken:
                return self
