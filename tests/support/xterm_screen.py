"""pyte's screen with one more of xterm's ways, the one a full-width row meets.

After a character is written in the last column, xterm (and tmux, VTE, the Linux console)
keeps the cursor on that column, with the wrap pending (or, autowrap off, simply there):
an erase to the end of the line then erases that last character. pyte moves its cursor
past the last column instead, so the same erase erases nothing and a screen read through
pyte looked whole where a real terminal lost its last column (found by a user trial in
tmux: the help's 80-column lines ended "the UNIVAC I t").
"""

from __future__ import annotations

import pyte


class XtermScreen(pyte.Screen):  # type: ignore[misc]
    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        if how == 0 and self.cursor.x >= self.columns:
            self.cursor.x = self.columns - 1  # where xterm's cursor is
        super().erase_in_line(how, private)
