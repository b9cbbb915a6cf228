"""The ``univac-ttt`` command: one module a subcommand (play, run, monitor, kiosk, serve,
verify, assemble, tape, programs), each adding its parser and ``set_defaults(func=...)``,
listed in ``commands.py`` and imported only when chosen; the options several share in
``options.py``; the entry point ``main`` in ``main.py``."""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["build_parser", "main", "served_apps"]


def __getattr__(name: str) -> object:
    """``served_apps`` from serve.py, imported when asked for (the command's start does
    not need the server's module)."""
    if name == "served_apps":
        from .serve import served_apps

        return served_apps
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
