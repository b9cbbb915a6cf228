"""Operations written as a body in the table (ops.py) are stated once: the interpreter's
executor and the compiled pairs' inline form are both generated from that row."""

from __future__ import annotations

from univac_ttt.machine import blockgen, blockops, ops
from univac_ttt.machine.ops import BY_CODE, OPERATIONS


def test_every_operation_compiled_inline_is_written_as_a_body():
    """What compiled code does not call as the row's own executor (the devices: keyboard,
    tapes) it writes from the row's body: there is no second, hand-written form."""
    compiled = {code for code in blockgen._CODE_OF.values() if code != "device"}
    assert compiled == {op.code for op in OPERATIONS if op.body or op.code == "00"} - {"10"}
    assert all(op.body for op in OPERATIONS if op.code not in compiled | {"00"}
               and op.code[0] not in "12345678")  # every row but the tapes' is a body
    assert compiled >= set("BLFKEVWURHCGJQTYZASXMNPD") | {".n", ";n", "-n", "0n", "90", ",0",
                                                          "50"}
    called = {op.code for op in OPERATIONS if blockgen._CODE_OF.get(op.execute) == "device"}
    assert called == {"10", "1n", "2n", "30", "3n", "40", "4n", "5n", "6n", "7n", "8n"}


def test_rows_written_as_bodies_feed_the_executor_and_the_compiled_form():
    written = [op for op in OPERATIONS if op.body]
    assert BY_CODE["10"] in written  # the keyboard: its executor is its body, called as is
    for op in written:
        rebuilt = ops._executor("again", op.body)
        assert rebuilt.__code__.co_code == op.execute.__code__.co_code, op.code
        if op.device:
            continue
        for stop in (False, True):
            names = blockops._names(stop, False)
            assert blockops._PLAIN_BY[stop, False][op.code] == blockops._live(
                ops.expand(op.body, names, blockops._FAIL))


def test_a_changed_body_changes_what_the_interpreter_does():
    """The executor is the body: a row with another body does another thing."""

    class Box:
        def __init__(self) -> None:
            self.mem = ["w0", "w1", "w2"]
            self._a = self._x = "old"

    box = Box()
    BY_CODE["B"].execute(box, 2)  # type: ignore[arg-type]
    assert (box._a, box._x) == ("w2", "w2")
    other = ops._executor("bring_a_only", ("m._a = {M}",))
    box._x = "old"
    other(box, 1)  # type: ignore[arg-type]
    assert (box._a, box._x) == ("w1", "old")


def test_the_executors_module_is_the_source_the_table_writes_now():
    """executors.py (kept compiled by Python's bytecode cache) is what ops.py writes from the
    table: after a change to a body, write it again with ``ops.write_executors()``."""
    from pathlib import Path

    from univac_ttt.machine import executors

    assert Path(executors.__file__).read_text(encoding="utf-8") == ops.executors_module(
        ops._ROWS)
    assert ops.executors_source(ops._ROWS) == executors.SOURCE
    assert BY_CODE["B"].execute.__globals__ is vars(executors)
    assert all(op.execute.__module__ == executors.__name__ for op in OPERATIONS if op.body)


def test_rows_whose_bodies_the_module_does_not_hold_are_compiled_from_them():
    """A row changed since executors.py was written runs its own body, not the module's."""

    class Box:
        def __init__(self) -> None:
            self.mem = ["w0", "w1", "w2"]
            self._a = self._x = "old"

    (changed,) = ops._with_executors((ops._op("B", "bring", "(m) to rA only",
                                              ("m._a = {M}",), 2),))
    from univac_ttt.machine import executors

    assert changed.execute.__globals__ is not vars(executors)
    box = Box()
    changed.execute(box, 2)  # type: ignore[arg-type]
    assert (box._a, box._x) == ("w2", "old")
