"""Redraw the README's picture of the console playing tic-tac-toe (docs/console.svg):

    python3 -m univac_ttt.packs.tictactoe.picture docs/console.svg [moves...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from ...console.capture import DEFAULT_MOVES, capture
from . import tictactoe_pack

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("console.svg")
    capture(tictactoe_pack(), target, tuple(sys.argv[2:]) or DEFAULT_MOVES)
    print(f"wrote {target}")
