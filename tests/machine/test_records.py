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


@pytest.mark.parametrize(("fields", "defaults"), [
    (("x",), []), (("x", "y"), [5]), (tuple("abcdefghij"), [1, 2]), (tuple("abcdefghijk"), [])])
def test_a_records_class_is_the_one_namedtuple_makes(fields, defaults):
    """records.named_tuple gives collections.namedtuple's class, its __new__ compiled with
    records.py rather than by eval (and namedtuple's own past ten fields)."""
    import copy
    import inspect
    from collections import namedtuple

    from univac_ttt.machine.records import named_tuple

    theirs = namedtuple("Point", fields, defaults=defaults, module=__name__)
    ours = named_tuple("Point", fields, defaults, __name__)
    assert set(vars(ours)) == set(vars(theirs))  # nothing a newer namedtuple adds is missed
    for name in ("__doc__", "_fields", "_field_defaults", "__match_args__", "__module__",
                 "__qualname__", "__slots__"):
        assert getattr(ours, name) == getattr(theirs, name), name
    for name in ("__new__", "_make", "_replace", "__repr__", "_asdict", "__getnewargs__"):
        mine, other = (getattr(getattr(made, name), "__func__", getattr(made, name))
                       for made in (ours, theirs))
        assert (mine.__qualname__, mine.__doc__, mine.__defaults__) == \
            (other.__qualname__, other.__doc__, other.__defaults__), name
    assert ours.__new__.__module__ == theirs.__new__.__module__
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert [getattr(ours, f).__doc__ for f in fields] == [getattr(theirs, f).__doc__
                                                          for f in fields]
    values = dict(zip(fields, range(len(fields)), strict=True))
    made = ours(**values)
    assert made == theirs(**values) and repr(made) == repr(theirs(**values))
    assert made._asdict() == values and made._replace(**{fields[0]: 9})[0] == 9
    assert copy.deepcopy(made) == made and ours._make(made) == made
    for wrong in ({"zz": 1}, {}):
        messages = []
        for made_by in (ours, theirs):
            with pytest.raises(TypeError) as raised:
                made_by(**wrong)
            messages.append(str(raised.value))
        assert messages[0] == messages[1]
