"""The Supervisory Control desk: the one place that runs the UNIVAC (docs/architecture.md)."""

from .desk import Desk, TapeUnitError, TapeUnitView, tape_unit
from .paper import Paper, PrintedChunk
from .run_limits import Limits

__all__ = ["Desk", "Limits", "Paper", "PrintedChunk", "TapeUnitError", "TapeUnitView",
           "tape_unit"]
