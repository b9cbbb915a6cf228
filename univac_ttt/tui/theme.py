"""The colours every full-screen front end shares: the title band, the paper, the key bar
and the help box. Each front end adds its own classes to these."""

from __future__ import annotations

from prompt_toolkit.styles import Style

PALETTE: dict[str, str] = {
    "title": "bg:#1c3a5e #f0e6c8 bold",
    "paper": "bg:#f4efe1 #202020",
    "bar": "bg:#303030 #e0e0e0",
    "help": "bg:#1c3a5e #f0e6c8",
}


def style(extra: dict[str, str]) -> Style:
    """The shared palette with a front end's own classes added."""
    return Style.from_dict({**PALETTE, **extra})
