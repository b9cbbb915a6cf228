"""Records compared by value, as dataclasses would be, without importing dataclasses (and
the inspect, ast and dis it brings) or paying for typing.NamedTuple at start-up."""

from __future__ import annotations

import sys
from collections import _tuplegetter, namedtuple  # type: ignore[attr-defined]
from types import FunctionType


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
        made = named_tuple(name, fields, defaults, module if isinstance(module, str) else None)
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
    as collections.namedtuple makes it (``named_tuple``): typing.NamedTuple turns every
    field's annotation into a ForwardRef and compiles it, about 1.5 million host
    instructions a class at every start against 0.5, and 0.25 now (issue 23). The
    annotations stay strings; a subclass is a tuple and a namedtuple, not an instance of
    Record."""


# A record's __new__, by its number of fields, compiled with this module: collections.
# namedtuple compiles its own with eval for each class (0.24 M instructions, about 20
# classes at every start). Each is given the record's field names as its parameters.
_tuple_new = tuple.__new__


def _new1(_cls, a):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a,))


def _new2(_cls, a, b):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b))


def _new3(_cls, a, b, c):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c))


def _new4(_cls, a, b, c, d):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d))


def _new5(_cls, a, b, c, d, e):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d, e))


def _new6(_cls, a, b, c, d, e, f):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d, e, f))


def _new7(_cls, a, b, c, d, e, f, g):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d, e, f, g))


def _new8(_cls, a, b, c, d, e, f, g, h):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d, e, f, g, h))


def _new9(_cls, a, b, c, d, e, f, g, h, i):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d, e, f, g, h, i))


def _new10(_cls, a, b, c, d, e, f, g, h, i, j):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
    return _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j))


_NEW = {1: _new1, 2: _new2, 3: _new3, 4: _new4, 5: _new5, 6: _new6, 7: _new7, 8: _new8,
        9: _new9, 10: _new10}


def named_tuple(typename: str, fields: tuple[str, ...], defaults: list[object],
                module: str | None) -> type:
    """``collections.namedtuple(typename, fields, defaults=defaults, module=module)``: the
    same class, its ``__new__`` one of the functions above with the fields' names (for
    more than ten fields, or a name namedtuple would refuse, namedtuple itself)."""
    template = _NEW.get(len(fields)) if sys.version_info < (3, 12) else None  # (3.11's
    # class is what _finish writes; a later Python's namedtuple makes its own until checked)
    if template is None or any(not name.isidentifier() or name.startswith("_")
                               for name in (typename, *fields)) \
            or len(set(fields)) != len(fields) or len(defaults) > len(fields):
        return namedtuple(typename, fields, defaults=defaults, module=module)
    typename = sys.intern(typename)
    field_names = tuple(map(sys.intern, fields))
    arg_list = ", ".join(field_names) + ("," if len(field_names) == 1 else "")
    code = template.__code__.replace(co_varnames=("_cls", *field_names),
                                     co_name="<lambda>", co_qualname="<lambda>")
    namespace = {"_tuple_new": _tuple_new, "__builtins__": {},
                 "__name__": f"namedtuple_{typename}"}
    __new__ = FunctionType(code, namespace, "__new__", tuple(defaults))
    __new__.__doc__ = f"Create new instance of {typename}({arg_list})"
    field_defaults = dict(zip(field_names[len(field_names) - len(defaults):], defaults,
                              strict=True))
    return _finish(typename, field_names, field_defaults, __new__, arg_list, module)


def _finish(typename: str, field_names: tuple[str, ...], field_defaults: dict[str, object],
            __new__: FunctionType, arg_list: str, module: str | None) -> type:
    """The class collections.namedtuple (Python 3.11) makes around ``__new__``: its
    methods and namespace as namedtuple writes them."""
    num_fields = len(field_names)
    repr_fmt = "(" + ", ".join(f"{name}=%r" for name in field_names) + ")"
    tuple_new = tuple.__new__
    _dict, _tuple, _len, _map, _zip = dict, tuple, len, map, zip

    @classmethod  # type: ignore[misc]
    def _make(cls, iterable):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        result = tuple_new(cls, iterable)
        if _len(result) != num_fields:
            raise TypeError(f"Expected {num_fields} arguments, got {len(result)}")
        return result

    _make.__func__.__doc__ = f"Make a new {typename} object from a sequence or iterable"

    def _replace(self, /, **kwds):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN003, ANN202
        result = self._make(_map(kwds.pop, field_names, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    _replace.__doc__ = f"Return a new {typename} object replacing specified fields with new values"

    def __repr__(self):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        "Return a nicely formatted representation string"
        return self.__class__.__name__ + repr_fmt % self

    def _asdict(self):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        "Return a new dict which maps field names to their values."
        return _dict(_zip(self._fields, self))

    def __getnewargs__(self):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        "Return self as a plain tuple.  Used by copy and pickle."
        return _tuple(self)

    for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"

    class_namespace: dict[str, object] = {
        "__doc__": f"{typename}({arg_list})",
        "__slots__": (),
        "_fields": field_names,
        "_field_defaults": field_defaults,
        "__new__": __new__,
        "_make": _make,
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": field_names,
    }
    for index, name in enumerate(field_names):
        doc = sys.intern(f"Alias for field number {index}")
        class_namespace[name] = _tuplegetter(index, doc)
    result = type(typename, (tuple,), class_namespace)
    if module is not None:
        result.__module__ = module
    return result
