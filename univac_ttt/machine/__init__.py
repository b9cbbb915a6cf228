"""The UNIVAC I itself: character code, words, memory, registers, C-10 code, timing."""

from .cpu import Machine, MachineState
from .devices import KeyboardEntryError, PaperPrinter, QueueKeyboard, Typewriter, keys_to_word
from .options import MachineOptions
from .stops import Stop, StopKind
from .word import MEMORY_WORDS

__all__ = [
    "MEMORY_WORDS", "Machine", "MachineOptions", "MachineState", "Stop", "StopKind",
    "KeyboardEntryError", "PaperPrinter", "QueueKeyboard", "Typewriter", "keys_to_word",
]
