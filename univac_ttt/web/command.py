"""`univac-ttt serve --web [HOST:]PORT [--kiosk]`: the browser's listener from the options.

The listener (and aiohttp, the web extra) is imported only when --web is given: a telnet
or SSH class needs neither."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..classroom.options import ServeOptionError, ServeOptions, parse_endpoint
from ..museum.controller import KioskSettings, pin_refusal
from ..program.pack import Pack

if TYPE_CHECKING:
    from .server import WebListener

MUSEUM_IDLE = 60  # seconds without a key before the exhibit plays its demonstrations


def staff_pin(args: argparse.Namespace) -> str:
    pin = args.pin or os.environ.get("UNIVAC_TTT_STAFF_PIN", "")
    refusal = pin_refusal(pin)
    if refusal:
        raise ServeOptionError(refusal.replace("the kiosk needs", "museum mode needs"))
    return pin


def web_listeners(args: argparse.Namespace, data: Path, pack: Pack,
                  speed: str | None) -> Callable[[ServeOptions], list[WebListener]]:
    """What serve_from_args calls, once the common options are checked: the page for
    ``pack`` at ``speed`` (None: the typewriter's pace)."""

    def make(options: ServeOptions) -> list[WebListener]:
        if not args.web:
            if args.kiosk:
                raise ServeOptionError("--kiosk is the browser's museum mode: give --web too")
            return []
        from .program import WebProgram
        from .server import WebListener, WebSettings  # aiohttp: only for --web (checked)

        endpoint = parse_endpoint(args.web)
        program = WebProgram(pack)
        authentic = speed != "fast"  # the page types at the typewriter's pace
        museum = None
        if args.kiosk and pack.name != "tictactoe":
            raise ServeOptionError("museum mode (--kiosk) plays tic-tac-toe, the exhibit's "
                                   f"program, not {pack.name or 'an image'}")
        if args.kiosk:
            museum = KioskSettings(
                pin=staff_pin(args), printouts=data / "printouts", stats=data / "tally.json",
                idle_seconds=float(args.idle if args.idle is not None else MUSEUM_IDLE),
                authentic=authentic)
        return [WebListener(WebSettings(endpoint, program, authentic, museum))]

    return make
