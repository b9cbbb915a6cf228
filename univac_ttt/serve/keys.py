"""Key lookups for a served terminal, from tables that are warm for the whole process.

For every key press prompt_toolkit's KeyProcessor asks the application's combined registry
twice which bindings match; that registry walks the whole layout to make its cache key,
then asks a merged copy of every binding (prompt_toolkit's ~700 defaults, the page
navigation, the front end's own), which first recurses through the version of every
registry nested in it. Each application holds such a copy, with per-key caches of its
own, cold for every new terminal: a third of a served move's CPU went to key handling.

``ServedKeyBindings`` answers the same questions with the same bindings in the same order:
the registries prompt_toolkit would merge, found again only when the focus moves to another
window, each asked for its own matches (the process's one copy of the defaults has its
per-key caches warm from every terminal), combined as a merged registry orders them
(prompt_toolkit sorts a merged list by the number of ``Keys.Any`` in a binding's keys, a
stable sort: so do the concatenated lists here), and kept per key, bounded. Bindings
added to the front end's own registry after it started are seen (its version is checked:
a small registry); prompt_toolkit's shared defaults are never changed. Terminals that
collect the same registries (every served console: all of them are the process's) share
these per-key answers (``_Lookups``): a terminal's first digit was a cold lookup for each
terminal (about 36 us, the sort and the filters' kinds read again; nine keys a player),
and is now warm from the first terminal that typed it.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from functools import cache
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Always, Condition, Filter, Never, has_arg, vi_mode
from prompt_toolkit.filters.base import _AndList
from prompt_toolkit.key_binding.bindings.basic import in_quoted_insert
from prompt_toolkit.key_binding.key_bindings import (
    Binding,
    ConditionalKeyBindings,
    GlobalOnlyKeyBindings,
    KeyBindingsBase,
    KeysTuple,
    _MergedKeyBindings,
)
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import walk

from ..tui.shared import share_default_bindings, shared_defaults

KEPT_LOOKUPS = 256  # distinct key sequences remembered a terminal (a typist uses a few dozen)


@cache
def _page_navigation() -> KeyBindingsBase:
    """The page navigation bindings under each application's own switch, one table for
    the process (prompt_toolkit wraps a fresh copy for every application)."""
    return ConditionalKeyBindings(
        shared_defaults()[1], Condition(lambda: get_app().enable_page_navigation_bindings()))


def _any_count(binding: Binding) -> int:
    return sum(1 for key in binding.keys if key == Keys.Any)


def _flat(registry: KeyBindingsBase) -> list[KeyBindingsBase]:
    """A merged registry's own registries, in its order (recursively), or the registry.

    A merged registry keeps a merged copy with per-key caches of its own, so the front end's
    merge (prompt_toolkit's basic bindings, the process's one copy, and its own) was asked
    cold at every terminal's first use of each key: its 155 bindings scanned twice. Asked
    part by part, the shared part answers from caches warm for the process and only the
    terminal's own few are scanned; concatenated, the answers are the merged copy's (its
    bindings are its registries' in order; the sort by ``Keys.Any`` is stable)."""
    if type(registry) is _MergedKeyBindings:
        return [part for inner in registry.registries for part in _flat(inner)]
    return [registry]


class _Lookups:
    """The answers for one tuple of registries (``ServedKeyBindings._parts``), shared by
    every terminal whose focus collects the same ones: a served console's are all the
    process's (prompt_toolkit's defaults, the page navigation, prompt_toolkit's basic
    bindings, the console's own table), so a key one terminal looked up is warm for every
    terminal after it; a front end with bindings of its own per terminal (the monitor's)
    has tables of its own, as before. Every answer depends on the registries alone (the
    bindings, in order; whether a binding may be eager; the sole binding, read from the
    filters' kinds, never from what they say now)."""

    __slots__ = ("parts", "versions", "for_keys", "may_be_eager", "starting", "sole",
                 "__weakref__")

    def __init__(self, parts: tuple[KeyBindingsBase, ...]) -> None:
        self.parts = parts  # held: no id below is reused while these tables live
        self.versions: tuple[Hashable, ...] | None = None  # the watched registries' when made
        self.for_keys: dict[KeysTuple, list[Binding]] = {}
        self.may_be_eager: dict[KeysTuple, tuple[bool, ...]] = {}
        self.starting: dict[KeysTuple, list[Binding]] = {}
        self.sole: dict[Hashable, Binding | None] = {}

    def clear(self) -> None:
        self.for_keys.clear()
        self.may_be_eager.clear()
        self.starting.clear()
        self.sole.clear()


# The tables in use, by their registries' ids: kept while a terminal uses them.
_shared: weakref.WeakValueDictionary[tuple[int, ...], _Lookups] = (
    weakref.WeakValueDictionary())


def _lookups_for(parts: tuple[KeyBindingsBase, ...]) -> _Lookups:
    key = tuple(map(id, parts))
    found = _shared.get(key)
    if found is None:
        found = _shared[key] = _Lookups(parts)
    return found


class ServedKeyBindings(KeyBindingsBase):
    """What ``Application``'s ``_CombinedRegistry`` answers, without its per-key layout
    walk and merged copy."""

    def __init__(self, app: Application[Any]) -> None:
        self.app = app
        self._window: object = None
        self._parts: tuple[KeyBindingsBase, ...] = ()
        self._watched: tuple[KeyBindingsBase, ...] = ()  # registries that may change
        self._use(_Lookups(()))

    @property
    def _version(self) -> Hashable:
        raise NotImplementedError  # never nested in another registry (as _CombinedRegistry)

    @property
    def bindings(self) -> list[Binding]:
        return [b for part in self._registries() for b in part.bindings]

    def _registries(self) -> tuple[KeyBindingsBase, ...]:
        app = self.app
        window = app.layout.current_window
        if window is not self._window:
            self._window = window
            self._collect(window)
        versions = tuple(part._version for part in self._watched)  # noqa: SLF001
        lookups = self._lookups
        if versions != lookups.versions:  # (a terminal sharing them may have seen it first)
            lookups.versions = versions
            lookups.clear()
        return self._parts

    def _use(self, lookups: _Lookups) -> None:
        self._lookups = lookups
        self._for, self._may_be_eager = lookups.for_keys, lookups.may_be_eager
        self._starting, self._sole = lookups.starting, lookups.sole

    def _collect(self, window: Any) -> None:
        """The registries ``_CombinedRegistry._create_key_bindings`` merges, in its order:
        the defaults, the page navigation, the application's, the other containers'
        (global ones only), the focused window's and its parents' (which win)."""
        app, own, seen = self.app, [], set()
        container = window
        while True:
            seen.add(container)
            kb = container.get_key_bindings()
            if kb is not None:
                own.append(kb)
            if container.is_modal():
                break
            parent = app.layout.get_parent(container)
            if parent is None:
                break
            container = parent
        for other in walk(container):
            if other not in seen:
                kb = other.get_key_bindings()
                if kb is not None:
                    own.append(GlobalOnlyKeyBindings(kb))
        if app.key_bindings:
            own.append(app.key_bindings)
        own.reverse()
        defaults = app._default_bindings  # noqa: SLF001 - the process's one copy, shared
        self._parts = (defaults, _page_navigation(), *(p for kb in own for p in _flat(kb)))
        self._watched = tuple(own)
        self._use(_lookups_for(self._parts))

    def get_bindings_for_keys(self, keys: KeysTuple) -> list[Binding]:
        parts = self._registries()
        found = self._for.get(keys)
        if found is None:
            merged = [b for part in parts for b in part.get_bindings_for_keys(keys)]
            merged.sort(key=lambda b: -_any_count(b))  # stable, as a merged registry's
            if len(self._for) >= KEPT_LOOKUPS:
                self._for.clear()
                self._may_be_eager.clear()
                self._sole.clear()
            found = self._for[keys] = merged
        return found

    def matches(self, key_presses: list[KeyPress]) -> list[Binding]:
        """``KeyProcessor._get_matches`` for these keys, asking fewer filters. The processor
        uses of the active bindings only the eager ones (if any, the last of them wins) and
        the last one: so the filters are asked from the last binding back to the first
        active one, and before it only those of bindings that may be eager (prompt_toolkit's
        defaults have a few). The list returned has those bindings in their order."""
        keys = tuple(k.key for k in key_presses)
        bindings = self.get_bindings_for_keys(keys)
        may_be_eager = self._may_be_eager.get(keys)
        if may_be_eager is None:
            may_be_eager = self._may_be_eager[keys] = tuple(
                not isinstance(b.eager, Never) for b in bindings)
        for last in range(len(bindings) - 1, -1, -1):
            if bindings[last].filter():
                break
        else:
            return []
        active = [b for b, eager in zip(bindings[:last], may_be_eager, strict=False)
                  if eager and b.filter()]
        active.append(bindings[last])
        return active

    def sole_binding(self, key: Hashable) -> Binding | None:
        """The binding the key processor chooses for this one key whatever its filters
        say, in the plain state (serve/key_path.py: Emacs mode, no repeat argument) and
        out of quoted insert; None if the filters could choose another (then ``matches``
        asks them). That is so when a binding for the key always applies and is not
        eager, every binding after it (the state machine takes the last match) and every
        binding before it that may be eager (an eager match goes first) is off in that
        state (``_off_when_plain``: Vi's, the Emacs repeat argument's digits,
        prompt_toolkit's quoted insert), and so is every binding that starts with the key
        (no longer match to wait for: Vi's text objects). Worked out once a key, with the
        lookups above; for a served console's digits, letters and Enter it is the
        console's own binding, and a key asks no filter at all (about a dozen a key)."""
        self._registries()  # a change of focus or of the front end's bindings: asked again
        if key in self._sole:
            return self._sole[key]
        keys = (key,)
        bindings = self.get_bindings_for_keys(keys)
        sole = None
        if all(_off_when_plain(b.filter) for b in self.get_bindings_starting_with_keys(keys)):
            for index in range(len(bindings) - 1, -1, -1):
                binding = bindings[index]
                if isinstance(binding.filter, Always) and isinstance(binding.eager, Never):
                    if all(isinstance(b.eager, Never) or _off_when_plain(b.filter)
                           for b in bindings[:index]):
                        sole = binding
                    break
                if not _off_when_plain(binding.filter):
                    break
        self._sole[key] = sole
        return sole

    def get_bindings_starting_with_keys(self, keys: KeysTuple) -> list[Binding]:
        parts = self._registries()
        found = self._starting.get(keys)
        if found is None:
            found = [b for part in parts for b in part.get_bindings_starting_with_keys(keys)]
            if len(self._starting) >= KEPT_LOOKUPS:
                self._starting.clear()
            self._starting[keys] = found
        return found


_OFF_WHEN_PLAIN = (in_quoted_insert, vi_mode, has_arg)


def _off_when_plain(condition: Filter) -> bool:
    """Whether the filter is false in Emacs mode with no repeat argument and out of quoted
    insert: prompt_toolkit's ``vi_mode``, ``has_arg`` or ``in_quoted_insert``, alone or
    as one of an And's terms."""
    if any(condition is off for off in _OFF_WHEN_PLAIN):
        return True
    return isinstance(condition, _AndList) and any(
        part is off for part in condition.filters for off in _OFF_WHEN_PLAIN)


def serve_keys(app: Application[Any]) -> None:
    """Give ``app`` the shared default bindings and key lookups from them."""
    share_default_bindings(app)
    served = ServedKeyBindings(app)
    processor = app.key_processor
    processor._bindings = served  # noqa: SLF001
    processor._get_matches = served.matches  # type: ignore[method-assign]  # noqa: SLF001
