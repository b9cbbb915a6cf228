"""A served terminal's key lookups (serve/keys.py) find what prompt_toolkit's own combined
registry finds: the same bindings, in the same order, active and eager alike, for every
key and many sequences, in the console and the monitor; and the lookups kept are bounded."""

from __future__ import annotations

import contextlib
import string
from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.application.application import _CombinedRegistry
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.key_binding.key_bindings import Binding, _parse_key
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import DummyOutput

from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import WARM_KEYS, make_app
from univac_ttt.serve.keys import KEPT_LOOKUPS, ServedKeyBindings

SEQUENCES = ([(key,) for key in Keys] + [(ch,) for ch in string.printable]
             + [("escape", ch) for ch in "bfdv<>."] + [("c-x", "c-e"), ("c-x", "c-u"),
                                                       ("escape", "["), ("c-x",), ("5", "5"),
                                                       (Keys.Any, Keys.Any)])


def _seen(bindings: list[Binding]) -> list[tuple[object, ...]]:
    """What the key processor uses of each binding: its keys and handler, and whether it
    is active and eager now."""
    return [(b.keys, b.handler, b.filter(), b.eager()) for b in bindings]


@pytest.mark.parametrize("name", ["play", "monitor"])
def test_the_served_lookups_match_prompt_toolkits_combined_registry(name: str) -> None:
    with create_pipe_input() as keys:
        served = make_app(served_apps()[name], keys, DummyOutput(), authentic=False,
                          transcript=None)
        app = served.application
        ours = app.key_processor._bindings
        assert isinstance(ours, ServedKeyBindings)
        theirs = _CombinedRegistry(app)
        with set_app(app):
            for sequence in SEQUENCES:
                assert _seen(ours.get_bindings_for_keys(sequence)) == _seen(
                    theirs.get_bindings_for_keys(sequence)), sequence
                assert _seen(ours.get_bindings_starting_with_keys(sequence)) == _seen(
                    theirs.get_bindings_starting_with_keys(sequence)), sequence


def _used(matches: list[Binding]) -> tuple[object, ...]:
    """What the key processor takes from the active bindings: the eager ones, the last."""
    return ([(b.keys, b.handler) for b in matches if b.eager()],
            (matches[-1].keys, matches[-1].handler) if matches else None)


@pytest.mark.parametrize("name", ["play", "monitor"])
def test_the_matches_asked_of_fewer_filters_are_those_the_processor_would_use(
        name: str) -> None:
    with create_pipe_input() as keys:
        served = make_app(served_apps()[name], keys, DummyOutput(), authentic=False,
                          transcript=None)
        app = served.application
        theirs = _CombinedRegistry(app)
        front = getattr(served, "console", None)
        with set_app(app):
            for state in range(3):  # at rest; help shown; quitting armed
                if front is not None:
                    front.show_help, front.quit_armed = state == 1, state == 2
                for sequence in SEQUENCES:
                    presses = [KeyPress(_parse_key(key)) for key in sequence]
                    full = [b for b in theirs.get_bindings_for_keys(
                        tuple(p.key for p in presses)) if b.filter()]
                    assert _used(app.key_processor._get_matches(presses)) == _used(full), \
                        sequence


def test_the_lookups_kept_are_bounded_and_new_bindings_are_seen() -> None:
    with create_pipe_input() as keys:
        served = make_app(served_apps()["play"], keys, DummyOutput(), authentic=False,
                          transcript=None)
        app = served.application
        ours = app.key_processor._bindings
        with set_app(app):
            for code in range(0x4E00, 0x4E00 + 3 * KEPT_LOOKUPS):  # a flood of distinct keys
                ours.get_bindings_for_keys((chr(code),))
            assert len(ours._for) <= KEPT_LOOKUPS
            before = len(ours.get_bindings_for_keys(("f12",)))
            # the console's own table is the process's one (console_bindings): the binding
            # added is taken out again, or every console after this test in the worker had
            # its F12 (test_console_units' refusal of F12 failed after it, 2026-12-06)
            table = served.console.app.key_bindings.registries[-1]

            def added(event: object) -> None:
                pass
            table.add("f12")(added)
            try:
                assert len(ours.get_bindings_for_keys(("f12",))) == before + 1
            finally:
                table.remove(added)
            assert len(ours.get_bindings_for_keys(("f12",))) == before


def test_a_new_terminal_scans_only_its_own_bindings_for_a_first_key(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The front end's merged registry (prompt_toolkit's basic bindings and the console's
    own, both one table for the process) is asked part by part: a second terminal's first
    key is answered from the shared parts' warm caches, nothing scanned."""
    from prompt_toolkit.key_binding import key_bindings

    scanned: list[int] = []
    lookup = key_bindings.KeyBindings.get_bindings_for_keys

    def counted(self, keys):  # type: ignore[no-untyped-def]
        if keys not in self._get_bindings_for_keys_cache._data:
            scanned.append(len(self.bindings))
        return lookup(self, keys)

    with create_pipe_input() as keys:
        terminals = [make_app(served_apps()["play"], keys, DummyOutput(), authentic=False,
                              transcript=None) for _ in range(2)]
        monkeypatch.setattr(key_bindings.KeyBindings, "get_bindings_for_keys", counted)
        for served in terminals:
            scanned.clear()
            with set_app(served.application):
                served.application.key_processor._bindings.get_bindings_for_keys(("5",))
        ones, twos = (t.console.app.key_bindings.registries for t in terminals)
        assert ones[-1] is twos[-1]  # the console's own bindings: the process's one table
        assert scanned == []


def _chosen(processor: object, key: object) -> object:
    """The binding prompt_toolkit's state machine takes for one key, asking every filter:
    the last eager active match, else (no longer active match) the last active match."""
    presses = [KeyPress(key)]  # type: ignore[arg-type]
    found = processor._get_matches(presses)  # type: ignore[attr-defined]
    eager = [b for b in found if b.eager()]
    if eager:
        return eager[-1]
    if not found or processor._is_prefix_of_longer_match(presses):  # type: ignore[attr-defined]
        return None
    return found[-1]


@pytest.mark.parametrize("name", ["play", "monitor"])
def test_a_key_s_sole_binding_is_the_state_machine_s_choice_in_every_state(name: str) -> None:
    """sole_binding (key_path.py's short cut past the filters) names, for every key it
    names one for, the binding the filters choose in the plain state, whatever else the
    console's state is; and it names one for a served console's digits, letters and Enter
    (else the short cut would never be taken)."""
    from prompt_toolkit.enums import EditingMode
    from prompt_toolkit.key_binding.vi_state import InputMode

    with create_pipe_input() as keys:
        served = make_app(served_apps()[name], keys, DummyOutput(), authentic=False,
                          transcript=None)
        app = served.application
        processor = app.key_processor
        ours = processor._bindings
        front = getattr(served, "console", None)
        single = [key for key in Keys] + list(string.printable)
        with set_app(app):
            named = 0
            for state in range(3):  # at rest; help shown; quitting armed
                if front is not None:
                    front.show_help, front.quit_armed = state == 1, state == 2
                for key in single:
                    sole = ours.sole_binding(_parse_key(key))
                    if sole is not None:
                        named += 1
                        assert sole is _chosen(processor, _parse_key(key)), key
            if name == "monitor":  # its line is prompt_toolkit's own: its filters choose
                return
            assert named > len(string.printable)
            for key in ["5", "x", "A", Keys.ControlM]:
                assert ours.sole_binding(key) is _chosen(processor, key) is not None
            # out of the plain state the filters choose otherwise (key_path.py asks them)
            sole = ours.sole_binding("5")
            app.quoted_insert = True
            assert _chosen(processor, "5") is not sole
            app.quoted_insert = False
            processor.arg = "3"
            assert _chosen(processor, "5") is not sole
            processor.arg = None
            app.editing_mode = EditingMode.VI
            app.vi_state.input_mode = InputMode.NAVIGATION
            assert _chosen(processor, "5") is not sole
            app.editing_mode = EditingMode.EMACS
            assert _chosen(processor, "5") is sole


@contextlib.contextmanager
def served_play() -> Iterator[tuple[Any, Any, Any]]:
    """A served console (play) in its application's context: the application, its key
    lookups and the process's one table of the console's own bindings."""
    with create_pipe_input() as keys:
        served = make_app(served_apps()["play"], keys, DummyOutput(), authentic=False,
                          transcript=None)
        app = served.application
        table = served.console.app.key_bindings.registries[-1]  # the process's one table
        with set_app(app):
            yield app, app.key_processor._bindings, table


def test_a_key_that_starts_a_longer_binding_has_no_sole_binding() -> None:
    """A binding added for ("5", "5") makes a lone 5 wait for the next key: the short cut
    stops naming a binding for it at once, and names it again once the binding goes."""
    with served_play() as (app, ours, table):
        assert ours.sole_binding("5") is not None

        def added(event: object) -> None:
            pass
        table.add("5", "5")(added)
        try:
            assert ours.sole_binding("5") is None
            assert _chosen(app.key_processor, "5") is None  # the state machine waits
        finally:
            table.remove(added)
        assert ours.sole_binding("5") is not None


def test_the_sole_bindings_kept_are_bounded_with_the_lookups() -> None:
    """A flood of distinct keys (a paste sent as keys, a hostile client) keeps no more
    sole bindings than lookups: they are cleared together."""
    with served_play() as (_app, ours, _table):
        for code in range(0x4E00, 0x4E00 + 3 * KEPT_LOOKUPS):
            assert ours.sole_binding(chr(code)) is not None  # the console's Any key
            assert len(ours._sole) <= KEPT_LOOKUPS


def test_a_binding_whose_filter_reads_the_console_s_state_cancels_the_short_cut() -> None:
    """Only filters that are off in the plain state are trusted: a binding for the key
    whose filter reads anything else (here the app's own Condition, after the console's
    bindings) sends the key back through the filters, whatever that filter says now."""
    from prompt_toolkit.filters import Condition

    with served_play() as (app, ours, table):
        assert ours.sole_binding("5") is not None
        shown = [False]

        def when_shown(event: object) -> None:
            pass
        table.add("5", filter=Condition(lambda: shown[0]))(when_shown)
        try:
            assert ours.sole_binding("5") is None
            shown[0] = True
            assert _chosen(app.key_processor, "5").handler is when_shown
        finally:
            table.remove(when_shown)
        assert ours.sole_binding("5") is not None


def test_terminals_with_the_same_registries_share_their_lookups(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Served consoles collect the same registries (all the process's): a key one
    terminal looked up is answered for the next without asking any registry, and the
    answer is the same. Monitors each have bindings of their own: tables of their own."""
    from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase

    asked: list[object] = []
    with create_pipe_input() as keys:
        consoles = [make_app(served_apps()["play"], keys, DummyOutput(), authentic=False,
                             transcript=None) for _ in range(2)]
        monitors = [make_app(served_apps()["monitor"], keys, DummyOutput(), authentic=False,
                             transcript=None) for _ in range(2)]
        with set_app(consoles[0].application):
            first = consoles[0].application.key_processor._bindings
            chosen = first.sole_binding("5")
            found = first.get_bindings_for_keys(("5",))
        assert chosen is not None
        for part in {type(p) for p in first._parts}:
            for name in ("get_bindings_for_keys", "get_bindings_starting_with_keys"):
                method = getattr(part, name)

                def counted(self: KeyBindingsBase, keys_: Any, method: Any = method) -> Any:
                    asked.append(self)
                    return method(self, keys_)
                monkeypatch.setattr(part, name, counted)
        with set_app(consoles[1].application):
            second = consoles[1].application.key_processor._bindings
            assert second.sole_binding("5") is chosen
            assert second.get_bindings_for_keys(("5",)) == found
        assert asked == []
        assert second._lookups is first._lookups
        ours = [m.application.key_processor._bindings for m in monitors]
        for served, lookups in zip(monitors, ours, strict=True):
            with set_app(served.application):
                lookups.get_bindings_for_keys(("5",))
        assert ours[0]._lookups is not ours[1]._lookups
        assert ours[0]._lookups is not first._lookups


WARMED = """
import gc
from prompt_toolkit.input import DummyInput
from prompt_toolkit.key_binding import key_bindings
from prompt_toolkit.output import DummyOutput
from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import WARM_KEYS, make_app, warm_terminal

factory = served_apps()["play"]
warm_terminal(factory)
gc.collect()  # as the heap does once the server has started (heap.py)
made = []
init = key_bindings.Binding.__init__
key_bindings.Binding.__init__ = lambda self, *a, **k: (made.append(1), init(self, *a, **k))[1]
served = make_app(factory, DummyInput(), DummyOutput(), authentic=False, transcript=None)
lookups = served.application.key_processor._bindings
lookups._registries()
ready = sum(key in lookups._sole for key in WARM_KEYS)  # looked up before the first key
for key in WARM_KEYS:
    lookups.sole_binding(key)
print(len(made), sum(lookups.sole_binding(key) is not None for key in [*"0123456789", "c-m"]),
      ready)
"""


def test_the_server_s_warm_terminal_builds_the_first_key_s_tables() -> None:
    """In a fresh process (the tables are the process's), after the server's warm-up a
    class's keys build no binding: prompt_toolkit's conditional copies of its defaults (1,072
    bindings with their filters) were built before the heap froze start-up's objects, not
    at the first student's first key."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", WARMED], capture_output=True, text=True,
                          timeout=60, check=True)
    made, sole, ready = done.stdout.split()
    assert (int(made), int(sole)) == (0, 11)
    assert int(ready) == len(WARM_KEYS)  # the warm terminal's lookups outlived it
