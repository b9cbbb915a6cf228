"""What every prompt_toolkit application in the process can share: prompt_toolkit's own
key bindings and the merged style, built once.

Each Application builds its default bindings (Emacs, Vi, mouse, CPR: about 4,600 objects
and 0.4 MiB) and its page navigation bindings in its constructor, though they hold no
state of their own: their filters ask the application running at the time (``get_app``).
A server seats hundreds of applications in one process; handing each the same tables
saves that much for every seated terminal. The application reads them at each key press
(its combined registry), so replacing them after construction is all it takes, and
constructing it with them (``built_with_shared_defaults``) saves building them at all. Likewise
each application merges prompt_toolkit's default styles with its own into a table of its
own (1,100 objects) the first time a renderer asks; a front end whose style is a module's
constant draws with ``merged_style``'s one table instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindingsBase
from prompt_toolkit.key_binding.bindings.basic import load_basic_bindings
from prompt_toolkit.key_binding.bindings.page_navigation import load_page_navigation_bindings
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.styles import BaseStyle, default_pygments_style, default_ui_style, merge_styles


@cache
def basic_bindings() -> KeyBindingsBase:
    """prompt_toolkit's basic bindings (editing a line), one table for the process."""
    return load_basic_bindings()


@cache
def shared_defaults() -> tuple[KeyBindingsBase, KeyBindingsBase]:
    """prompt_toolkit's default bindings and page navigation bindings, one copy each for
    the process (never changed after they are built)."""
    return load_key_bindings(), load_page_navigation_bindings()


def share_default_bindings(app: Application[Any]) -> None:
    """Give ``app`` the process's one copy of prompt_toolkit's default bindings."""
    app._default_bindings, app._page_navigation_bindings = shared_defaults()  # noqa: SLF001


@contextmanager
def built_with_shared_defaults() -> Iterator[None]:
    """Applications constructed in this block are handed the process's one copy of the
    default bindings by their constructor, instead of building their own (about 8 ms of
    CPU and 4,600 objects a served terminal's connection) to be replaced at once by
    ``share_default_bindings``. The constructor's two builders are swapped for the block
    and given back after it."""
    from prompt_toolkit.application import application as module

    built = module.load_key_bindings, module.load_page_navigation_bindings
    defaults, navigation = shared_defaults()
    module.load_key_bindings = lambda: defaults  # type: ignore[assignment]
    module.load_page_navigation_bindings = lambda: navigation  # type: ignore[assignment]
    try:
        yield
    finally:
        module.load_key_bindings, module.load_page_navigation_bindings = built


@cache
def merged_style(style: BaseStyle) -> BaseStyle:
    """What an Application merges for ``style`` (prompt_toolkit's UI and pygments
    defaults under it), one for the process."""
    return merge_styles([default_ui_style(), default_pygments_style(), style])
