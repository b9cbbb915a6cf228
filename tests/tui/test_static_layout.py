"""The console's application on a static layout (tui/static_layout.py): after many redraws
its parent relations and attached invalidation events are what prompt_toolkit's own
after-redraw walks give, though those walks ran once."""

from __future__ import annotations

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import DummyOutput

from univac_ttt.cli.serve import served_apps
from univac_ttt.tui.static_layout import StaticLayout


def test_the_walks_run_once_and_give_prompt_toolkits_answer(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    walks: list[str] = []
    relations, events = Layout.update_parents_relations, Application._update_invalidate_events
    monkeypatch.setattr(Layout, "update_parents_relations",
                        lambda self: (walks.append("parents"), relations(self))[1])
    monkeypatch.setattr(Application, "_update_invalidate_events",
                        lambda self: (walks.append("events"), events(self))[1])
    with create_pipe_input() as keys:
        served = served_apps()["play"](keys, DummyOutput())
        app = served.application
        assert isinstance(app.layout, StaticLayout)
        with set_app(app):
            for _ in range(5):
                app.layout.update_parents_relations()
                app._update_invalidate_events()
            assert walks == ["parents", "events"]
            fresh = Layout(app.layout.container)
            relations(fresh)
            assert app.layout._child_to_parent == fresh._child_to_parent
            gathered = [e for c in app.layout.find_all_controls()
                        for e in c.get_invalidate_events()]
            assert app._invalidate_events == gathered
            assert all(app._invalidate_handler in e._handlers for e in gathered)
