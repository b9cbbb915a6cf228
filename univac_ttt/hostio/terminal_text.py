"""Text from files and programs shown on a terminal as text, never as terminal commands.

A saved state's paper, a remark in an image or a script line may hold escape sequences
that would move the cursor, retitle the window or hide what follows. Control characters
are shown as visible escapes (``\\x1b``) instead; a tab (the printer's tabulate) stays.
"""

from __future__ import annotations

import re

# Compiled at the first use (re keeps it): a start that shows nothing of the kind is spared
# the compiling, about 3 million instructions.
_CONTROL = r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"


def visible(text: str) -> str:
    """``text`` with every control character (including newlines) shown as an escape."""
    return re.sub(_CONTROL, lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                  else f"\\u{ord(m.group()):04x}", text)
