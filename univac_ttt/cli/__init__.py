"""The ``univac-ttt`` command: one module a subcommand (play, run, monitor, kiosk, serve,
verify, assemble, tape), each adding its parser and ``set_defaults(func=...)``; the
options several share in ``options.py``; the entry point ``main`` in ``main.py``."""

from .main import build_parser, main
from .serve import served_apps

__all__ = ["build_parser", "main", "served_apps"]
