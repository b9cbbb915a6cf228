"""A cheap terminal screen for the load benchmark's clients: rows of text, nothing else.

pyte keeps a character object (data and attributes) for every cell and parses its input
one character at a time in Python; three hundred such screens at 200x60 cost more CPU than
the server they measure. ``RowScreen`` keeps each row as one ``str`` and writes whole runs
of text with slices; colours are dropped. It understands what the class server sends
(prompt_toolkit's VT100 output: absolute cursor moves, erase to end of line and display,
SGR, private modes, autowrap switched off; the server's own lines with CR LF) and, to stay
honest, a few neighbours of those, each with pyte's semantics. Anything else it does not
guess at: it is counted in ``unknown``, which tests/serve/test_screen_rows.py holds empty
while it compares every row with pyte's over whole games at three sizes.

``PyteRows`` is pyte behind the same three members (``feed``, ``display``, ``resize``), the
reference the test compares with and the benchmark's ``--pyte`` option.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from typing import Protocol

from wcwidth import wcwidth

# One control token: a CSI (private marker, parameters, intermediates, final), an OSC
# (ended by BEL or ST), a two-character escape taking an argument, any other escape, or a
# C0/C1 control character. Text between tokens is drawn; an ESC left at the end of a chunk
# is the start of a sequence still on its way.
TOKEN = re.compile(
    r"\x1b\[([?>=]?)([0-9;]*)([ -/]*)([@-~])"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|\x1b([#%()])(.)"
    r"|\x1b([^\[\]#%()])"
    r"|([\x00-\x1a\x1c-\x1f\x7f-\x9f])", re.DOTALL)
LINEFEEDS = "\n\x0b\x0c"
IGNORED_CONTROLS = "\x00\x07\x0e\x0f\x7f"  # NUL, BEL, SO/SI (UTF-8), DEL: pyte ignores them
IGNORED_ESCAPES = "=>"  # keypad modes: no effect on the text
PENDING_LIMIT = 4096  # an unfinished sequence longer than this is not one


class Screen(Protocol):
    """What a telnet client needs of a screen."""

    @property
    def display(self) -> list[str]: ...

    def feed(self, data: bytes) -> None: ...

    def resize(self, columns: int, rows: int) -> None: ...


class RowScreen:
    """``rows`` strings of ``columns`` characters, a cursor, and the autowrap mode."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.columns, self.rows = columns, rows
        self.unknown: Counter[str] = Counter()  # sequences not understood, by their text
        self.version = 0  # counts feeds: a reader's cache of the rows is good while equal
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""
        self._narrow: set[str] = set()  # non-ASCII characters known to take one cell
        self.reset()

    def reset(self) -> None:
        """Blank rows, the cursor home, autowrap on (pyte's initial state and RIS)."""
        self.cells = [" " * self.columns for _ in range(self.rows)]
        self.x = self.y = 0
        self.autowrap = True
        self._saved: tuple[int, int, bool] | None = None

    @property
    def display(self) -> list[str]:
        return self.cells

    # ---- input ---------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        self.version += 1
        text = self._pending + self._decoder.decode(data)
        self._pending = ""
        at = 0
        for token in TOKEN.finditer(text):
            if token.start() > at:
                self._text(text[at:token.start()])
            at = token.end()
            self._control(token)
        if at < len(text):
            tail = text[at:]
            escape = tail.find("\x1b")
            if escape < 0:
                self._text(tail)
                return
            if escape:
                self._text(tail[:escape])
            if len(tail) - escape > PENDING_LIMIT:
                self.unknown[repr(tail[escape:escape + 16])] += 1
            else:
                self._pending = tail[escape:]

    def _text(self, text: str) -> None:
        if "\x1b" in text:  # an escape that no token matched (a malformed sequence)
            self.unknown[repr(text[text.find("\x1b"):][:16])] += 1
            text = text[:text.find("\x1b")]
        if not text.isascii():
            for char in set(text) - self._narrow:
                if wcwidth(char) != 1:
                    self.unknown[repr(char)] += 1
                    return  # wide, combining or unprintable: not this screen's business
                self._narrow.add(char)
        columns = self.columns
        while text:
            if self.x >= columns:
                if self.autowrap:
                    self.x = 0
                    self._linefeed()  # (which may scroll: a new list of rows)
                else:  # each further character overwrites the last column
                    self.x, text = columns - 1, text[-1]
            cells, x = self.cells, self.x
            n = min(len(text), columns - x)
            cells[self.y] = cells[self.y][:x] + text[:n] + cells[self.y][x + n:]
            self.x, text = x + n, text[n:]

    def _control(self, token: re.Match[str]) -> None:
        marker, params, intermediates, final, kind, argument, escape, control = token.groups()
        if final is not None:
            self._csi(marker, params, intermediates, final, token.group())
        elif control is not None:
            self._c0(control)
        elif escape is not None:
            self._escape(escape)
        elif kind is not None and kind not in "()" and not (kind == "%" and argument in "G8"):
            self.unknown[repr(token.group())] += 1  # DECALN, another character set
        # else an OSC (a window title) or a G0/G1 choice (ignored under UTF-8): no text

    def _c0(self, char: str) -> None:
        if char == "\r":
            self.x = 0
        elif char in LINEFEEDS:
            self._linefeed()
        elif char == "\b":
            self._back(1)
        elif char == "\t":
            stops = [stop for stop in range(8, self.columns, 8) if stop > self.x]
            self.x = stops[0] if stops else self.columns - 1
        elif char not in IGNORED_CONTROLS:
            self.unknown[repr(char)] += 1

    def _escape(self, char: str) -> None:
        if char == "7":
            self._saved = (self.x, self.y, self.autowrap)
        elif char == "8":
            if self._saved is None:
                self.x = self.y = 0
            else:
                self.x, self.y, self.autowrap = self._saved
                self.x = min(self.x, self.columns - 1)
        elif char == "D":
            self._linefeed()
        elif char == "E":
            self.x = 0
            self._linefeed()
        elif char == "M":
            if self.y == 0:
                self.cells = [" " * self.columns, *self.cells[:-1]]
            else:
                self.y -= 1
        elif char == "c":
            self.reset()
        elif char not in IGNORED_ESCAPES:
            self.unknown[repr("\x1b" + char)] += 1

    def _csi(self, marker: str, params: str, intermediates: str, final: str,
             whole: str) -> None:
        if intermediates:  # DECSCUSR (cursor shape) and the like: nothing on the screen
            return
        numbers = [min(int(p or 0), 9999) for p in params.split(";")]
        first = numbers[0]
        if marker == "?":
            if final in "hl":
                for mode in numbers:
                    if mode == 7:
                        self.autowrap = final == "h"
                    elif mode in (3, 6):  # 132 columns, origin mode: would move the text
                        self.unknown[repr(whole)] += 1
            else:
                self.unknown[repr(whole)] += 1
        elif marker:
            self.unknown[repr(whole)] += 1
        elif final in "Hf":
            self.y = min(max((first or 1) - 1, 0), self.rows - 1)
            column = numbers[1] if len(numbers) > 1 else 0
            self.x = min(max((column or 1) - 1, 0), self.columns - 1)
        elif final == "m":
            pass  # colours and attributes: this screen keeps only text
        elif final == "K":
            self._erase_in_line(first)
        elif final == "J":
            self._erase_in_display(first)
        elif final == "A":
            self.y = max(self.y - (first or 1), 0)
        elif final == "B":
            self.y = min(self.y + (first or 1), self.rows - 1)
        elif final == "C":
            self.x = min(self.x + (first or 1), self.columns - 1)
        elif final == "D":
            self._back(first or 1)
        elif final == "G":
            self.x = min(max((first or 1) - 1, 0), self.columns - 1)
        elif final == "d":
            self.y = min(max((first or 1) - 1, 0), self.rows - 1)
        elif final in "hl":
            if any(mode in (4, 20) for mode in numbers):  # insert mode, newline mode
                self.unknown[repr(whole)] += 1
        elif final not in "nqtc":  # reports and window operations: no text
            self.unknown[repr(whole)] += 1

    # ---- the operations, with pyte's semantics -------------------------------------------

    def _linefeed(self) -> None:
        if self.y == self.rows - 1:
            self.cells = [*self.cells[1:], " " * self.columns]
        else:
            self.y += 1

    def _back(self, count: int) -> None:
        if self.x == self.columns:
            self.x -= 1
        self.x = min(max(self.x - count, 0), self.columns - 1)

    def _erase_in_line(self, how: int) -> None:
        row, x, columns = self.cells[self.y], self.x, self.columns
        if how == 0:
            self.cells[self.y] = row[:x] + " " * (columns - min(x, columns))
        elif how == 1:
            end = min(x + 1, columns)
            self.cells[self.y] = " " * end + row[end:]
        elif how == 2:
            self.cells[self.y] = " " * columns

    def _erase_in_display(self, how: int) -> None:
        blank = " " * self.columns
        if how == 0:
            self.cells[self.y + 1:] = [blank] * (self.rows - self.y - 1)
            self._erase_in_line(0)
        elif how == 1:
            self.cells[:self.y] = [blank] * self.y
            self._erase_in_line(1)
        elif how in (2, 3):
            self.cells = [blank] * self.rows
        else:
            self.unknown[f"ED {how}"] += 1

    def resize(self, columns: int, rows: int) -> None:
        """As pyte does: fewer rows drop the top ones, fewer columns the right-hand cells."""
        if rows < self.rows:
            self.cells = self.cells[self.rows - rows:]
        else:
            self.cells += [" " * columns] * (rows - self.rows)
        self.cells = [(row + " " * columns)[:columns] for row in self.cells]
        self.columns, self.rows = columns, rows
        self.x, self.y = min(self.x, columns), min(self.y, rows - 1)
        self.version += 1


def pyte_row(screen, y: int, width=wcwidth) -> str:
    """Row ``y`` of a pyte screen exactly as ``pyte.Screen.display`` renders it (a stub cell
    after a wide character skipped); a row of one-cell ASCII characters joined at once."""
    line = screen.buffer[y]
    cells = [line[x].data for x in range(screen.columns)]
    text = "".join(cells)
    if len(text) == screen.columns and text.isascii():
        return text  # every cell one character, none of them wide or combining
    out, wide = [], False
    for char in cells:
        if wide:  # the stub after a wide character
            wide = False
            continue
        assert sum(map(width, char[1:])) == 0
        wide = width(char[0]) == 2
        out.append(char)
    return "".join(out)


class PyteDisplay:
    """pyte's ``display``, rendering again only the rows changed since the last read.

    pyte renders every cell of every row in Python on each read, which a test polling the
    screen pays for 50 times a second (and the cheap screen's comparison after every
    piece); pyte's own record of changed rows (``dirty``) says which to render again. The
    row above each changed one is rendered too: pyte does not mark it when a combining
    character at column 0 joins that row's last cell."""

    def __init__(self, screen) -> None:
        from pyte.screens import wcwidth as pyte_width  # pyte's own (cached) widths

        self.screen = screen
        self.width = pyte_width
        self.rows: list[str] = []
        self.shape: tuple[int, int] | None = None

    def read(self) -> list[str]:
        screen = self.screen
        lines = screen.lines
        if self.shape != (screen.columns, lines):
            self.shape = (screen.columns, lines)
            self.rows = [pyte_row(screen, y, self.width) for y in range(lines)]
        else:
            changed = {y for dirty in screen.dirty for y in (dirty - 1, dirty)
                       if 0 <= y < lines}
            for y in changed:
                self.rows[y] = pyte_row(screen, y, self.width)
        screen.dirty.clear()
        return list(self.rows)


class PyteRows:
    """pyte's screen behind ``RowScreen``'s members: the reference, and ``--pyte``."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        import pyte

        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.rendered = PyteDisplay(self.screen)
        self.version = 0

    @property
    def display(self) -> list[str]:
        return self.rendered.read()

    def feed(self, data: bytes) -> None:
        self.version += 1
        self.stream.feed(data)

    def resize(self, columns: int, rows: int) -> None:
        self.version += 1
        self.screen.resize(rows, columns)
