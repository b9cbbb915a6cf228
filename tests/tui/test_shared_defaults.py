"""A served terminal's application is constructed with the process's one copy of
prompt_toolkit's default bindings (tui/shared.py): its constructor builds none of its own,
and the constructor's builders are prompt_toolkit's again afterwards."""

from __future__ import annotations

import pytest
from prompt_toolkit.application import application as module
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from univac_ttt.cli.serve import served_apps
from univac_ttt.serve.apps import make_app
from univac_ttt.tui.shared import shared_defaults


@pytest.mark.parametrize("name", ["play", "monitor"])
def test_a_terminal_builds_no_default_bindings_of_its_own(name: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    shared_defaults()  # the process's copy exists before the terminal comes
    built: list[str] = []
    load_keys, load_pages = module.load_key_bindings, module.load_page_navigation_bindings

    def counted_keys():  # type: ignore[no-untyped-def]
        built.append("keys")
        return load_keys()

    def counted_pages():  # type: ignore[no-untyped-def]
        built.append("pages")
        return load_pages()

    monkeypatch.setattr(module, "load_key_bindings", counted_keys)
    monkeypatch.setattr(module, "load_page_navigation_bindings", counted_pages)
    with create_pipe_input() as keys:
        served = make_app(served_apps()[name], keys, DummyOutput(), authentic=False,
                          transcript=None)
    app = served.application
    assert built == []
    assert (app._default_bindings, app._page_navigation_bindings) == shared_defaults()
    assert module.load_key_bindings is counted_keys  # given back after construction
    assert module.load_page_navigation_bindings is counted_pages
