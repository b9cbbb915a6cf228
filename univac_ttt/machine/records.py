"""Records compared by value, as dataclasses would be, without importing dataclasses (and
the inspect, ast and dis it brings) or paying for typing.NamedTuple at start-up."""

from __future__ import annotations

from collections import namedtuple


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


class _RecordType(type):
    """Makes each subclass of Record a collections.namedtuple of its annotated fields."""

    def __new__(mcls, name: str, bases: tuple[type, ...],
                namespace: dict[str, object]) -> type:
        if not bases:  # Record itself
            return super().__new__(mcls, name, bases, namespace)
        annotations = namespace.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = tuple(annotations)
        defaults = [namespace[field] for field in fields if field in namespace]
        module = namespace.get("__module__")
        made = namedtuple(name, fields, defaults=defaults,
                          module=module if isinstance(module, str) else None)
        for key, value in namespace.items():
            if key in _KEPT_BY_NAMEDTUPLE or key in annotations:
                continue
            if key in _REFUSED:
                raise AttributeError(f"a Record cannot set {key}")
            setattr(made, key, value)
        made.__annotations__ = annotations  # the strings as written, never evaluated
        made.__qualname__ = str(namespace.get("__qualname__", name))
        if "__doc__" in namespace:
            made.__doc__ = namespace["__doc__"]
        return made


_KEPT_BY_NAMEDTUPLE = frozenset({"__module__", "__qualname__", "__annotations__", "__doc__",
                                 "__slots__"})
_REFUSED = frozenset({"__new__", "__init__", "_make", "_fields", "_field_defaults",
                      "_replace", "_asdict", "__getnewargs__"})


class Record(metaclass=_RecordType):
    """``class Stop(Record)`` with annotated fields (and defaults) is what
    ``class Stop(typing.NamedTuple)`` gives, the same named tuple with the same methods,
    made by collections.namedtuple: typing.NamedTuple turns every field's annotation into
    a ForwardRef and compiles it, about 1.5 million host instructions a class at every
    start against 0.5 (issue 23). The annotations stay strings; a subclass is a tuple and
    a namedtuple, not an instance of Record."""
