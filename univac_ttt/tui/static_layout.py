"""An application whose layout's tree of containers never changes after it is built (the
console's: its parts are shown or hidden by conditions, never added or removed).

After every redraw prompt_toolkit walks the whole layout twice: to map each container to
its parent (``Layout.update_parents_relations``, every child whatever is shown) and to
gather and re-attach every control's invalidation events (``_update_invalidate_events``,
every control whatever is shown). For a tree that never changes both give the same answer
each time; a served console paid about 0.2 ms a redraw for them, two redraws a move.
Here each is done once, at the first redraw, as prompt_toolkit does it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from prompt_toolkit.application import Application
from prompt_toolkit.layout import Layout

_Result = TypeVar("_Result")


class StaticLayout(Layout):
    """A layout whose containers are fixed: the parent relations are mapped once."""

    _mapped = False

    def update_parents_relations(self) -> None:
        if not self._mapped:
            super().update_parents_relations()
            self._mapped = True


class StaticLayoutApplication(Application[_Result]):
    """An application on a StaticLayout: its controls' invalidation events are attached
    once, after the first redraw (they are the same controls' same events ever after)."""

    _events_attached = False

    def __init__(self, *args: Any, layout: StaticLayout, **kwargs: Any) -> None:
        super().__init__(*args, layout=layout, **kwargs)

    def _update_invalidate_events(self) -> None:
        if not self._events_attached:
            super()._update_invalidate_events()
            self._events_attached = True
