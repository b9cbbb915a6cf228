"""How big the suite's randomised and long tests are: small by default, full under --long.

One place for hypothesis's example counts and the soaks' sizes, so the README's test
command stays within its minute while ``pytest --long`` runs every one at full size. The
conftest sets ``UNIVAC_TTT_TEST_LONG`` for the run, so xdist workers and the commands the
tests start see the same choice.
"""

from __future__ import annotations

import os

LONG_VARIABLE = "UNIVAC_TTT_TEST_LONG"


def long_run() -> bool:
    """True under ``pytest --long`` (read each time: the conftest sets it at configure)."""
    return os.environ.get(LONG_VARIABLE, "") not in ("", "0")


def size(default: int, long: int) -> int:
    """``default`` in the everyday run, ``long`` under ``--long``."""
    return long if long_run() else default


# hypothesis: examples a property test tries when it names no count of its own
EXAMPLES = (60, 2_000)
# the fast arithmetic against the adder, multiplier and divider (four properties)
FASTARITH_EXAMPLES = (100, 400)
# games in one plain console process (tests/console/test_plain_fuzz.py)
PLAIN_SOAK_GAMES = (120, 10_000)
# games through the kiosk's engine on a fake clock (tests/kiosk/test_kiosk_soak.py); 240 to
# warm up: a visitor woken from a demonstration plays on from the UNIVAC's own next game
# (not a fresh boot), whose variants the compiled blocks take some 200 games to learn
KIOSK_SOAK_GAMES = (340, 20_000)
# connect/disconnect cycles of served terminals (tests/serve/test_serve_cycles.py)
SERVE_CYCLES = (40, 1_000)
# games in one long served session (tests/serve/test_serve_long_session.py)
SERVED_SESSION_GAMES = (14, 60)
# arbitrary byte runs fed to each full-screen app (tests/tui/test_input_guard.py)
APP_FUZZ_EXAMPLES = (15, 400)
# reels merged (tests/packs/test_merge.py): examples, and records a reel
MERGE_EXAMPLES = (10, 300)
MERGE_RECORDS = (20, 60)
# random chains of followed blocks against the reference (tests/machine/test_block_formation.py)
FOLLOWED_BLOCK_EXAMPLES = (20, 400)
# random loops whose every written block's plan must rebuild its writer's namespace
RANDOM_KEYED_EXAMPLES = (40, 1_000)
# games before the first resize in the cheap screen's comparison with pyte, and whether a
# last game is played after the window is made whole again (tests/serve/test_screen_rows.py)
SCREEN_ROWS_GAMES = (1, 2)
SCREEN_ROWS_LAST_GAME = (0, 1)
