"""A prompt_toolkit renderer that writes only the rows that changed.

prompt_toolkit's own Renderer lays the whole layout out on a fresh Screen of Char cells and
diffs it against the last one on every redraw: its cost grows with the terminal's area, not
with what changed (10-15 ms at 80x24-120x40 on a served class's machine, two a move). A
front end that can say what its screen shows as rows of (style, text) fragments hands a
``compose`` function to this renderer instead: rows equal to the last frame's are skipped
(a tuple comparison), a changed row is rewritten whole (cursor to its start, erase of the
line, its fragments), and a frame with nothing new writes nothing at all.

The Application keeps everything else of prompt_toolkit: input parsing, key bindings,
focus, invalidation, the output (VT100 over a pty, telnet or ssh), the alternate screen,
mouse reporting and bracketed paste. What cells look like is decided as prompt_toolkit
decides it: style strings resolved by the (merged) style it is given, with the
application's style transformation, in its colour depth; as its renderer does, a row's
trailing blanks without a colour are left to the erase.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.layout.mouse_handlers import MouseHandler
from prompt_toolkit.layout.screen import Char
from prompt_toolkit.mouse_events import MouseEvent
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.renderer import Renderer
from prompt_toolkit.styles import Attrs, BaseStyle, Style
from prompt_toolkit.styles.style import _MergedStyle

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone
    from prompt_toolkit.layout import Layout

Fragment = tuple[str, str]  # (style string, text)
Row = tuple[Fragment, ...]


class MouseRegions:
    """Who handles the mouse where, read as prompt_toolkit's mouse bindings read a
    renderer's MouseHandlers (``mouse_handlers[y][x]``), for a few rectangles rather than
    a dictionary entry a cell (3,200 of them for a paper window at 120x40)."""

    def __init__(self, regions: Sequence[tuple[int, int, int, int, MouseHandler]] = ()) -> None:
        self._regions = tuple(regions)  # (x_min, x_max, y_min, y_max, handler), max excluded

    @property
    def mouse_handlers(self) -> MouseRegions:
        return self

    def __getitem__(self, y: int) -> _MouseRow:
        return _MouseRow(self._regions, y)


class _MouseRow:
    def __init__(self, regions: tuple[tuple[int, int, int, int, MouseHandler], ...],
                 y: int) -> None:
        self._regions, self._y = regions, y

    def __getitem__(self, x: int) -> MouseHandler:
        for x_min, x_max, y_min, y_max, handler in self._regions:
            if x_min <= x < x_max and y_min <= self._y < y_max:
                return handler
        return _ignored


def _ignored(_event: MouseEvent) -> NotImplementedOrNone:
    return NotImplemented


@dataclass
class Frame:
    """One screen: ``rows`` (at most the terminal's rows, each at most its columns wide),
    where the cursor stands (column, row; None hides it), who handles the mouse and, when
    the composer knows them, each row's ``parts``."""

    rows: list[Row]
    cursor: tuple[int, int] | None = None
    mouse: MouseRegions = field(default_factory=MouseRegions)
    # each row's parts, when the composer knows them (rows[y] must be their concatenation;
    # a row past the list's end is drawn as one part): a row is encoded part by part, so a
    # scrolled row (the paper's line of the row below beside the same panel row) is two
    # parts encoded before, on any terminal
    parts: list[tuple[Row, ...]] | None = None


class RowRenderer(Renderer):
    """prompt_toolkit's Renderer with its drawing replaced by ``compose``'s rows."""

    def __init__(self, style: BaseStyle, output: Output, compose: Callable[[Size], Frame],
                 mouse_support: bool = True) -> None:
        self._compose = compose
        self._rows: list[Row] | None = None  # what the terminal shows now (None: unknown)
        self._shown_cursor: tuple[int, int] | None = None
        self._encoded: dict[Fragment, str] = {}  # escape codes of fragments (shared)
        self._part_codes: dict[Row, tuple[str, str]] = {}  # and of rows' parts (shared)
        self._attrs: dict[str, Attrs] = {}
        self._attrs_key: tuple[Hashable, Hashable, ColorDepth] | None = None
        self._transform: Callable[[Attrs], Attrs] = lambda attrs: attrs
        self._fixed_style: BaseStyle | None = None  # the style whose hash never changes ...
        self._fixed_hash: Hashable = None  # ... and that hash (None: not such a style)
        super().__init__(style, output, full_screen=True, mouse_support=mouse_support)

    def reset(self, _scroll: bool = False, leave_alternate_screen: bool = True) -> None:
        self._rows = None  # the next frame is written whole
        self._shown_cursor = None
        super().reset(_scroll=_scroll, leave_alternate_screen=leave_alternate_screen)

    def erase(self, leave_alternate_screen: bool = True) -> None:
        output = self.output
        output.reset_attributes()
        output.cursor_goto(0, 0)
        output.erase_down()
        output.enable_autowrap()
        output.flush()
        self.reset(leave_alternate_screen=leave_alternate_screen)

    def render(self, app: Application[Any], layout: Layout, is_done: bool = False) -> None:
        output = self.output
        if is_done:  # leaving: the alternate screen goes, and with it the drawing
            output.reset_attributes()
            output.enable_autowrap()
            self.reset()
            return
        self._enter_modes()
        size = output.get_size()
        self._resolve_style(app)
        frame = self._compose(size)
        rows = frame.rows[:size.rows]
        previous = self._rows
        if previous is None or self._last_size != size:
            output.reset_attributes()
            output.disable_autowrap()
            output.hide_cursor()
            output.cursor_goto(0, 0)
            output.erase_down()
            previous = []
        shown = len(previous)
        changed = [y for y, row in enumerate(rows)  # a row kept from the last frame is the
                   if y >= shown or (row is not previous[y] and row != previous[y])]  # same
        gone = range(len(rows), len(previous))  # rows the new frame leaves blank
        cursor = frame.cursor
        if changed or gone or cursor != self._shown_cursor or self._rows is None:
            output.hide_cursor()
            self._write_rows(rows, changed, app.color_depth, frame.parts)
            for y in gone:
                output.cursor_goto(y + 1, 1)
                output.erase_end_of_line()
            if cursor is not None:
                column = min(max(0, cursor[0]), max(0, size.columns - 1))
                output.cursor_goto(min(cursor[1], size.rows - 1) + 1, column + 1)
                output.show_cursor()
            output.flush()
        self._rows = rows
        self._shown_cursor = cursor
        self._last_size = size
        self.mouse_handlers = frame.mouse  # type: ignore[assignment]

    def _write_rows(self, rows: list[Row], changed: list[int], depth: ColorDepth,
                    parts: list[tuple[Row, ...]] | None = None) -> None:
        """The changed rows in one write, each its line erased, then its fragments from the
        first column. The erase comes first: after a character in the last column a real
        terminal's cursor stays on that column, and an erase there (as prompt_toolkit
        writes it, after the text) took a full-width row's last character away."""
        written = []
        for y in changed:
            # a row the composer gave no parts for is its own one part
            code = self._row_code(parts[y] if parts is not None and y < len(parts)
                                  else (rows[y],), depth)
            written.append(f"\x1b[{y + 1};1H{_RESET}{_ERASE_LINE}{code}{_RESET}")
        self.output.write_raw("".join(written))

    def _row_code(self, parts: tuple[Row, ...], depth: ColorDepth) -> str:
        """A row's codes from its parts' (escape codes carry no state from one fragment to
        the next: each sets every attribute): the parts before the last one that shows
        anything whole, that one without its trailing blanks, those after it nothing (as
        ``_codes`` strips a whole row). Each part's two codes are kept, for every terminal
        drawing in this style: the paper's lines and the panel's rows repeat from row to
        row as the paper scrolls and from terminal to terminal."""
        known = self._part_codes
        end = len(parts)
        while end:
            end -= 1
            part = parts[end]
            entry = known.get(part)
            if entry is None:
                entry = self._part_code(part, depth)
            if entry[1]:
                if not end:
                    return entry[1]
                head = [known.get(each) or self._part_code(each, depth)
                        for each in parts[:end]]
                return "".join([each[0] for each in head]) + entry[1]
        return ""

    def _part_code(self, part: Row, depth: ColorDepth) -> tuple[str, str]:
        """A part's codes whole and with its trailing blanks left to the erase, kept."""
        known = self._part_codes
        if len(known) > _KEPT_PARTS:  # bounded whatever a long session shows
            known.clear()
        entry = known[part] = ("".join(self._codes(part, depth, strip=False)),
                               "".join(self._codes(part, depth)))
        return entry

    def _codes(self, row: Row, depth: ColorDepth, strip: bool = True) -> list[str]:
        """Each fragment's escape codes and text. As prompt_toolkit does, the row's
        trailing blanks without a colour are left to the erase (a copy from the terminal
        has no spaces at the ends of lines), unless ``strip`` is False (a part with more
        of the row after it). A fragment's codes are kept, for every terminal."""
        end = len(row)
        last: Fragment | None = None
        while end and strip:
            style, text = row[end - 1]
            if _shows(self._attrs_for(style)):
                break
            # a row's padding is all blanks: told by one comparison, where rstrip(" ")
            # looks the separator up again for every character it strips
            stripped = "" if text == _blanks(len(text)) else text.rstrip(" ")
            if stripped:
                last = (style, stripped)
                break
            end -= 1
        fragments = list(row[:end])
        if last is not None:
            fragments[-1] = last
        known = self._encoded
        if len(known) > _KEPT_FRAGMENTS:  # bounded whatever a long session shows
            known.clear()
        codes = []
        for fragment in fragments:
            code = known.get(fragment)
            if code is None:
                code = known[fragment] = self._encode(fragment, depth)
            codes.append(code)
        return codes

    def _encode(self, fragment: Fragment, depth: ColorDepth) -> str:
        """A fragment's escape codes and text, as the application's output writes them."""
        scratch, sink = _scratch()
        scratch.set_attributes(self._attrs_for(fragment[0]), depth)
        scratch.write(fragment[1])
        scratch.flush()
        encoded = sink.getvalue()
        sink.seek(0)
        sink.truncate()
        return encoded

    def _attrs_for(self, style: str) -> Attrs:
        found = self._attrs.get(style)
        if found is None:
            found = self._attrs[style] = self._transform(self.style.get_attrs_for_style_str(style))
        return found

    def _resolve_style(self, app: Application[Any]) -> None:
        """Forget resolved styles (and what the terminal shows) when the style, its
        transformation or the colour depth change, as prompt_toolkit's renderer does."""
        key = (self._style_hash(), app.style_transformation.invalidation_hash(),
               app.color_depth)
        if key != self._attrs_key:
            self._attrs, self._encoded, self._part_codes = _shared_tables((self.style, *key))
            self._attrs_key = key
            self._rows = None
            self._transform = app.style_transformation.transform_attrs

    def _style_hash(self) -> Hashable:
        """The style's invalidation hash; for a style made only of fixed styles (the
        console's: prompt_toolkit's defaults merged with its own) the same for ever, so
        found once instead of at every redraw through every style merged in it."""
        style = self.style
        if self._fixed_style is not style:
            self._fixed_hash = style.invalidation_hash() if _fixed(style) else None
            self._fixed_style = style
        return self._fixed_hash if self._fixed_hash is not None else style.invalidation_hash()

    def _enter_modes(self) -> None:
        """The alternate screen, bracketed paste, cursor keys and mouse reporting, once."""
        output = self.output
        if not self._in_alternate_screen:
            self._in_alternate_screen = True
            output.enter_alternate_screen()
        if not self._bracketed_paste_enabled:
            output.enable_bracketed_paste()
            self._bracketed_paste_enabled = True
        if not self._cursor_key_mode_reset:
            output.reset_cursor_key_mode()
            self._cursor_key_mode_reset = True
        wanted = self.mouse_support()
        if wanted and not self._mouse_support_enabled:
            output.enable_mouse_support()
            self._mouse_support_enabled = True
        elif not wanted and self._mouse_support_enabled:
            output.disable_mouse_support()
            self._mouse_support_enabled = False


_RESET, _ERASE_LINE = "\x1b[0m", "\x1b[K"  # what Vt100_Output writes for these
_KEPT_FRAGMENTS = 8192  # fragments kept encoded, for every terminal of the process
_KEPT_PARTS = 4096  # rows' parts kept encoded, for every terminal of the process (a scripted
# terminal used 200 of them, 32,000 characters, in 300 moves)
_KEPT_TABLES = 8  # styles in use at once (a front end's, in one or two colour depths)
_Tables = tuple[dict[str, Attrs], dict[Fragment, str], dict[Row, tuple[str, str]]]
_tables: dict[tuple[Hashable, ...], _Tables] = {}


def _shared_tables(key: tuple[Hashable, ...]) -> _Tables:
    """The resolved styles and the escape codes of fragments and of rows' parts for one
    style, transformation and colour depth, one set of tables for every renderer of the
    process that draws with them: a served class's terminals show the same program's
    lines, so a fragment or a paper line one terminal encoded is not encoded again for the
    next (each terminal resolved and encoded every fragment afresh; a new terminal's first
    replies were its dearest). The key holds
    the style itself (so its id-based hash cannot be reused by another) and the hashes
    prompt_toolkit's own renderer compares to know a drawing still holds."""
    tables = _tables.get(key)
    if tables is None:
        if len(_tables) >= _KEPT_TABLES:
            _tables.clear()  # bounded: renderers holding dropped tables keep using them
        tables = _tables[key] = ({}, {}, {})
    return tables


@lru_cache(maxsize=512)
def _blanks(width: int) -> str:
    return " " * width


@cache
def _scratch() -> tuple[Vt100_Output, io.StringIO]:
    """An output into memory that turns attributes into escape codes as every output of
    the process would (prompt_toolkit's own codes, for any colour depth asked)."""
    sink = io.StringIO()
    return Vt100_Output(sink, lambda: Size(rows=1, columns=1), term="xterm-256color",
                        enable_cpr=False), sink


_VISIBLE = str.maketrans(Char.display_mappings)


def visible(text: str) -> str:
    """Control characters as prompt_toolkit's screen shows them (``^[``, ``<9b>``): no
    text a row holds reaches the terminal as a control sequence."""
    return text.translate(_VISIBLE)


def visible_fragments(style: str, text: str) -> Row:
    """The text as fragments, its control characters shown as prompt_toolkit's screen
    shows them, in its ``control-character`` style."""
    if text.isprintable():
        return ((style, text),)
    fragments: list[Fragment] = []
    control = f"{style} class:control-character"
    for char in text:
        shown = Char.display_mappings.get(char)
        if shown is None:
            fragments.append((style, char))
        else:
            fragments.append((control if char != "\xa0" else style, shown))
    return tuple(fragments)


def chunks(row: Row, width: int) -> list[Row]:
    """The row cut into rows ``width`` columns wide (the last one as long as is left)."""
    rows: list[Row] = []
    current: list[Fragment] = []
    used = 0
    for style, text in row:
        while text:
            take = text[:width - used]
            current.append((style, take))
            used += len(take)
            text = text[len(take):]
            if used == width:
                rows.append(tuple(current))
                current, used = [], 0
    if current or not rows:
        rows.append(tuple(current))
    return rows


def _fixed(style: BaseStyle) -> bool:
    """Whether the style's rules can never change: a Style (its rules are fixed when it is
    made) or a merge of such styles, and nothing dynamic in it."""
    if type(style) is Style:
        return True
    return type(style) is _MergedStyle and all(_fixed(each) for each in style.styles)


def _shows(attrs: Attrs) -> bool:
    """A blank in these attributes is seen (prompt_toolkit's own test of a trailing cell)."""
    return bool(attrs.color or attrs.bgcolor or attrs.underline or attrs.strike or attrs.blink
                or attrs.reverse)


def cut(row: Row, width: int) -> Row:
    """The row's first ``width`` columns (one column a character)."""
    out: list[Fragment] = []
    left = width
    for style, text in row:
        if left <= 0:
            break
        if len(text) > left:
            text = text[:left]
        out.append((style, text))
        left -= len(text)
    return tuple(out)


def pad(row: Row, width: int, style: str = "") -> Row:
    """The row cut or padded (in ``style``) to exactly ``width`` columns."""
    length = sum(len(text) for _, text in row)
    if length >= width:
        return cut(row, width)
    return (*row, (style, " " * (width - length)))


def overlay(row: Row, x: int, patch: Row, width: int, style: str = "") -> Row:
    """``row`` (padded to ``x``) with ``patch`` (padded in ``style``) over its columns from
    ``x``, ``width`` wide."""
    head = pad(row, x)
    tail: list[Fragment] = []
    column = 0
    for kept, text in row:
        end = column + len(text)
        if end > x + width:
            start = max(0, x + width - column)
            tail.append((kept, text[start:]))
        column = end
    return (*head, *pad(patch, width, style), *tail)
