"""The one set of limits every run at the desk obeys: an instruction cap and the STOP key.

A front end sets ``interrupt`` from a key binding, a signal handler or another thread; the
desk looks at it between chunks of ``check_every`` instructions, never inside the CPU's
hot loop, so a runaway program stops within a fraction of a second and can be resumed.
"""

from __future__ import annotations

from ..machine.records import SlotRecord

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    import threading

DEFAULT_CAP = 5_000_000  # a reply that runs longer than this is a runaway program
DEFAULT_CHECK_EVERY = 10_000  # about 0.03 s of the CPU core between looks at STOP


class StopFlag:
    """What ``Limits.interrupt`` holds by default: set, cleared and read as a
    threading.Event is (a front end may pass one), without importing threading at every
    start. Setting and reading one attribute is atomic between threads and safe in a
    signal handler."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set


class Limits(SlotRecord):
    """How far one run may go: ``cap`` instructions, or until ``interrupt`` is set.
    (Compared by value, as the dataclass it was.)"""

    __slots__ = ("cap", "check_every", "interrupt")

    def __init__(self, cap: int = DEFAULT_CAP, check_every: int = DEFAULT_CHECK_EVERY,
                 interrupt: StopFlag | threading.Event | None = None) -> None:
        self.cap = cap
        self.check_every = check_every
        self.interrupt = StopFlag() if interrupt is None else interrupt

    def stop(self) -> None:
        """The desk's STOP key: the run in progress ends at its next check."""
        self.interrupt.set()
