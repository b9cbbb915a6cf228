"""A paste in the full-screen console, typed as the class page types one: its characters
are keys, each line end is WORD RELEASE, and the next line waits for the UNIVAC's answer
and INPUT READY (a release while it types is refused), so `5`, `9`, `2` on three lines play
three moves; at most PASTE_KEYS keys. What was not typed, and why, is said once at the end.

The console typed only a paste's first line (a user trial found the page and the console
doing different things with the same clipboard). It is this module's account; the console
(app.py) types the lines and releases them.
"""

from __future__ import annotations

from collections import deque

from ..machine.charset import KEYBOARD_KEYS

PASTE_KEYS = 200  # keys a paste may type, line ends included (the page's PASTE_KEYS)


class Paste:
    """What is left of a paste to type, and what became of what was typed."""

    def __init__(self, data: str) -> None:
        text = data.replace("\r\n", "\n").replace("\r", "\n")
        self.total = len(text)  # the characters pasted, each line end one
        self.cut = len(text) > PASTE_KEYS
        parts = text[:PASTE_KEYS].split("\n")
        self.lines: deque[tuple[str, bool]] = deque(  # (keys, released by a line end)
            (part, index < len(parts) - 1) for index, part in enumerate(parts)
            if part or index < len(parts) - 1)
        self.used = 0  # characters typed into the line, and line ends released
        self.lacking: list[str] = []  # keys the UNIVAC keyboard lacks, once each
        self.full = False  # the keyboard line was full
        self.ended = False  # the game ended with lines still to type
        self.refused = ""  # why a release was refused
        self.own = False  # the player typed or edited meanwhile: the rest was dropped
        # the keyboard line as the paste last left it: a line found otherwise when the paste
        # goes on was edited by the player (a key, Up's recall, Backspace), who has taken over
        self.left: str | None = None

    def type_line(self, keys: str, room: int) -> str:
        """The keys of a line the UNIVAC keyboard has, at most ``room`` of them; what was
        left out is noted."""
        typed = []
        for ch in keys:
            if ch not in KEYBOARD_KEYS:
                if ch not in self.lacking:
                    self.lacking.append(ch)
            elif len(typed) == room:
                self.full = True
            else:
                typed.append(ch)
        self.used += len(typed)
        return "".join(typed).upper()

    def note(self, line_keys: int) -> str:
        """What became of the paste, once it is done ("" when all of it was typed)."""
        if self.used >= self.total:
            return ""
        why = []
        if self.full:
            why.append(f"the keyboard line holds {line_keys} keys")
        if self.lacking:
            keys = ", ".join(repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
                             for ch in self.lacking[:3])
            why.append(f"the UNIVAC keyboard has no {keys} key"
                       + ("s" if len(self.lacking) > 1 else ""))
        if self.cut:
            why.append(f"a paste types at most {PASTE_KEYS} characters")
        if self.ended:
            why.append("the rest was for the game that ended")
        if self.refused:
            why.append(self.refused.rstrip("."))
        if self.own:
            why.append("a key of your own came first, and the rest was dropped")
        typed = ("none was" if self.used == 0 else "1 was" if self.used == 1
                 else f"{self.used} were")
        plural = "" if self.total == 1 else "s"
        return (f"Of the {self.total} character{plural} pasted, {typed} typed: "
                f"{'; '.join(why) or 'the rest was not taken'}.")
