"""What the compiled path keeps, for tests that look at it: its process-wide tables emptied
(a test starts from a known state, whatever ran before it in the worker) and the halves that
its blocks read at run time (blockvary.py)."""

from __future__ import annotations

from univac_ttt.machine import compiled


def forget_compiled() -> None:
    """Every block, sight and count dropped, for both overflow rules."""
    for tables in compiled.TABLES.values():
        tables.forget()


def read_at_run_time(address: int) -> set[int]:
    """The halves at ``address`` that some compiled block reads at run time."""
    halves = set()
    for table in compiled.TABLES[False].by_address:
        for block in table.values():
            for at, _, half in getattr(block, "__globals__", {}).get("STEPS", ()):
                if at == address and half is not None:
                    halves.add(half)
    return halves
