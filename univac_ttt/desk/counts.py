"""Named counts: a ``collections.Counter`` whose few declared keys also read and write as
attributes, so that ``tally.games += 1`` and ``tally[name] += 1`` are one count and no
counter is bumped by ``setattr`` with its name as a string."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Counts(Counter):
    """A Counter of the keys in ``NAMES``; each is an attribute too, 0 until counted."""

    NAMES: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in cls.NAMES:
            setattr(cls, name, property(lambda self, key=name: self[key],
                                        lambda self, value, key=name: self.__setitem__(
                                            key, value)))

    def __init__(self, *args: int | Mapping[str, int], **counts: int) -> None:
        """Counts by position in ``NAMES``, by name, or from a mapping of names (as
        Counter's copy gives); any other key is refused."""
        super().__init__()
        if len(args) == 1 and isinstance(args[0], Mapping):
            given = dict(args[0])
        elif len(args) <= len(self.NAMES):
            given = dict(zip(self.NAMES, args, strict=False))
        else:
            raise TypeError(f"{type(self).__name__} takes at most {len(self.NAMES)} counts")
        for name, value in counts.items():
            if name in given:
                raise TypeError(f"{type(self).__name__} got {name!r} twice")
            given[name] = value
        unknown = set(given) - set(self.NAMES)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no count {sorted(unknown)[0]!r}")
        for name in self.NAMES:
            self[name] = given.get(name, 0)

    def as_dict(self) -> dict[str, int]:
        """Every named count, in ``NAMES`` order (zeros included): for a file."""
        return {name: self[name] for name in self.NAMES}

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self[name]}" for name in self.NAMES)
        return f"{type(self).__name__}({shown})"
