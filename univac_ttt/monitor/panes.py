"""Which panes the full-screen monitor shows, and where: a pure plan from the screen size.

A lecturer chooses what the class sees (F2 memory wide/narrow/off, F3 registers, F4 board,
F6 paper, or the ``pane`` command). The plan then fits the chosen panes to the screen. The
memory view comes first: when the screen is too narrow for it and the rest, board and paper
and then the registers make room, and the state line says so. With the memory view off,
registers, board and paper all fit 80x24 and 100x30; on a narrower screen they make room in
the same order, so no pane is ever given fewer columns than it needs.
"""

from __future__ import annotations

from dataclasses import dataclass

REGISTERS_WIDTH = 38  # the compact register lines
SIDE_WIDTH = 41  # board and paper at least (80x24 with the registers); wider paper wraps less
PAPER_WIDTH = 45  # board and paper when there is room: the paper's 43-character lines whole
MEMORY_MIN = 30  # narrower than this, a memory line shows too little to read
MEMORY_NARROW = 57  # a memory line without its remark: address, word, instructions, label
# A wide memory line at most: the narrow line and a 64-character remark (the longest in the
# shipped sheets). Wider, the registers stood 150 columns from the addresses at 200x60.
MEMORY_WIDE = MEMORY_NARROW + 64
STACK_ROWS = 36  # from this height board and paper go under the registers
FIXED_ROWS = 5  # title, state line, rule, command line, key bar
OUTPUT_MIN = 5  # the command output keeps at least this many rows
MEMORY_MODES = ("wide", "narrow", "off")


@dataclass
class Panes:
    """The lecturer's choices."""

    memory: str = "wide"
    registers: bool = True
    board: bool = True
    paper: bool = True

    def cycle_memory(self) -> str:
        self.memory = MEMORY_MODES[(MEMORY_MODES.index(self.memory) + 1) % len(MEMORY_MODES)]
        return self.memory

    def describe(self) -> str:
        """Every pane and its state, shown or not."""
        states = [f"{name} {'on' if getattr(self, name) else 'off'}"
                  for name in ("registers", "board", "paper")]
        return "panes: " + ", ".join([f"memory {self.memory}", *states])


@dataclass(frozen=True)
class Plan:
    memory_width: int  # 0: the memory view is not shown
    memory_wide: bool  # a remark column on each memory line (narrow has none)
    squeezed: tuple[str, ...]  # panes chosen but left out for want of room
    registers: bool
    side: bool  # a column of board and paper beside the registers
    stacked: bool  # board and paper under the registers, in one column
    board: bool
    paper: bool
    top_rows: int  # rows of the pane area (0: no pane, the output has the screen)
    side_width: int = SIDE_WIDTH  # the column that holds board and paper


def plan(panes: Panes, columns: int, rows: int) -> Plan:
    registers, board, paper = panes.registers, panes.board, panes.paper
    squeezed: list[str] = []
    while True:
        stacked = registers and (board or paper) and rows >= STACK_ROWS
        side = (board or paper) and not stacked
        used = ((SIDE_WIDTH if stacked else REGISTERS_WIDTH) + 1 if registers else 0) \
            + (SIDE_WIDTH + 1 if side else 0)
        left = columns - used
        # each pane counts the rule before it; with no memory view the first has none
        if used == 0 or (left >= MEMORY_MIN if panes.memory != "off" else left >= -1):
            break
        if board or paper:  # the memory view first: board and paper make room
            squeezed += [name for name, on in (("board", board), ("paper", paper)) if on]
            board = paper = False
        else:
            squeezed.append("registers")
            registers = False
    memory_width = max(1, left) if panes.memory != "off" else 0
    if panes.memory == "narrow":
        memory_width = min(memory_width, MEMORY_NARROW)
    # Board and paper widen (up to the paper's whole lines) into what the memory view
    # leaves: all of it when narrow or off, what is beyond a narrow view when wide.
    spare = left - (memory_width if panes.memory != "wide" else min(left, MEMORY_NARROW))
    widen = max(0, min(PAPER_WIDTH - SIDE_WIDTH, spare)) if (board or paper) else 0
    if panes.memory == "wide":
        memory_width = min(memory_width - widen, MEMORY_WIDE)
    free = rows - FIXED_ROWS
    output_rows = max(OUTPUT_MIN, free // 3)  # the command output keeps a third
    # The panes take the rest, however tall the screen: a projector's 200x60 once showed
    # 24 memory words above 29 rows of mostly empty output.
    top_rows = max(4, free - output_rows)
    if not (memory_width or registers or side):
        top_rows = 0  # every pane off: the output has the screen
    return Plan(memory_width, panes.memory == "wide", tuple(squeezed), registers, side,
                stacked, board, paper, top_rows, SIDE_WIDTH + widen)


def fit(parts: list[str], width: int, separator: str = "  ") -> str:
    """As many of ``parts`` (most important first) as fit in ``width``; the first is cut
    with an ellipsis if even it alone does not fit."""
    line = ""
    for part in parts:
        candidate = part if not line else line + separator + part
        if len(candidate) <= width:
            line = candidate
        elif not line:
            return part[:max(0, width - 1)] + "…" if width > 0 else ""
    return line
