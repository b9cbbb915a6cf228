"""The full-screen console's key bindings: each key is one of the console's actions
(type, paste, release, help, STOP, new game, scroll, speed, save, quit).

One table for the process: each handler acts on the console of the application the key
came to (``event.app.console``), so a server's hundreds of terminals share its bindings
(and their per-key caches, warm from every terminal) instead of each building its own 37
bindings, their closures and filters at every connection (0.4 ms, and about 150 objects
a terminal that every reclaim of a class walked).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

if TYPE_CHECKING:
    from .app import ConsoleApp

QUIT_KEYS = ("c-q", "c-d", "c-c")
# Control keys the UNIVAC keyboard lacks: refused as they are typed, like any missing key.
REFUSED_CONTROL_KEYS = tuple(f"c-{ch}" for ch in "abefgklnoprstuvwxyz@\\]^_")
# Other keys it lacks, which prompt_toolkit's own bindings took silently (a warning for the
# last refused key stayed on the hint line, naming a key not pressed): refused with a hint.
# The editing keys (Left, Right, Home, End, Delete, Backspace) edit the keyboard line.
REFUSED_NAMED_KEYS = {"tab": "Tab", "s-tab": "Shift-Tab", "insert": "Insert",
                      **{f"f{n}": f"F{n}" for n in range(5, 13)}}


def _console(event: KeyPressEvent) -> ConsoleApp:
    return event.app.console  # type: ignore[attr-defined, no-any-return]


@cache
def console_bindings() -> KeyBindings:
    kb = KeyBindings()

    def disarm(event: KeyPressEvent) -> ConsoleApp:
        """The key's console, its armed quit disarmed."""
        console = _console(event)
        if console.quit_armed:
            console.quit_armed = False
            console.say("")
        return console

    @kb.add(Keys.Any)
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        console.type_key(event.data)

    @kb.add(Keys.BracketedPaste)
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        console.paste(event.data)

    @kb.add("enter")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        if console.show_help:
            console.show_help = False
            return
        console.submit()

    @kb.add("f1")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        console.show_help, console.help_top = not console.show_help, 0

    @kb.add("escape", eager=True)
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        if not console.stop_run():
            console.show_help = False

    @kb.add("f2")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        console.new_game()

    @kb.add("pageup")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        if console.show_help:  # the help box scrolls while it is open
            console.help_top = max(0, console.help_top - console.layout.help_page())
        else:
            console.paper.page_up()

    @kb.add("pagedown")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        if console.show_help:  # help_shown keeps the last page in view
            console.help_top += console.layout.help_page()
        else:
            console.paper.page_down()

    for key in REFUSED_CONTROL_KEYS:
        name = "Ctrl-" + key[2:].upper()

        @kb.add(key)
        def _(event: KeyPressEvent, name: str = name) -> None:
            console = disarm(event)
            console.refuse(name)

    for key, name in REFUSED_NAMED_KEYS.items():

        @kb.add(key)
        def _(event: KeyPressEvent, name: str = name) -> None:
            console = disarm(event)
            console.refuse(name)

    @kb.add("f3")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        console.toggle_speed()

    @kb.add("f4")
    def _(event: KeyPressEvent) -> None:
        console = disarm(event)
        console.save_paper()

    for key in QUIT_KEYS:
        label = {"c-q": "Ctrl-Q", "c-d": "Ctrl-D", "c-c": "Ctrl-C"}[key]

        @kb.add(key)
        def _(event: KeyPressEvent, label: str = label) -> None:
            console = _console(event)
            if label != "Ctrl-C" or not console.stop_run():
                console.request_quit(label)

    return kb
