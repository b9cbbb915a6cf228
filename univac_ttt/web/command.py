"""`univac-ttt serve --web [HOST:]PORT [--kiosk]`: the browser's listener from the options."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

from ..museum.controller import KioskSettings, pin_refusal
from ..program.shipped import ProgramError
from ..serve.options import ServeOptionError, ServeOptions, parse_endpoint
from .program import shipped_program
from .server import WebListener, WebSettings

MUSEUM_IDLE = 60  # seconds without a key before the exhibit plays its demonstrations


def staff_pin(args: argparse.Namespace) -> str:
    pin = args.pin or os.environ.get("UNIVAC_TTT_STAFF_PIN", "")
    refusal = pin_refusal(pin)
    if refusal:
        raise ServeOptionError(refusal.replace("the kiosk needs", "museum mode needs"))
    return pin


def web_listeners(args: argparse.Namespace,
                  data: Path) -> Callable[[ServeOptions], list[WebListener]]:
    """What serve_from_args calls, once the common options are checked."""

    def make(options: ServeOptions) -> list[WebListener]:
        if not args.web:
            if args.kiosk:
                raise ServeOptionError("--kiosk is the browser's museum mode: give --web too")
            return []
        endpoint = parse_endpoint(args.web)
        try:
            program = shipped_program()
        except ProgramError as exc:
            raise ServeOptionError(str(exc)) from None
        authentic = args.speed != "fast"  # the page types at the typewriter's pace
        museum = None
        if args.kiosk:
            museum = KioskSettings(
                pin=staff_pin(args), printouts=data / "printouts", stats=data / "tally.json",
                idle_seconds=float(args.idle if args.idle is not None else MUSEUM_IDLE),
                authentic=authentic)
        return [WebListener(WebSettings(endpoint, program, authentic, museum))]

    return make
