"""Plain mutable records compared by value, as dataclasses would be, without importing
dataclasses (and the inspect, ast and dis it brings) at start-up."""

from __future__ import annotations


class SlotRecord:
    """A class whose ``__slots__`` are its fields: equality and repr read them in order;
    mutable, so unhashable."""

    __slots__ = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({shown})"
