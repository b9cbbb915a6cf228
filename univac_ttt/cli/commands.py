"""The subcommands by name, in the order ``univac-ttt --help`` lists them, each with the
one line it is listed with. The module ``univac_ttt.cli.NAME`` adds the rest of its parser
and is imported only when its command is chosen (or every parser is built), so a start
imports what it runs and nothing else."""

from __future__ import annotations

SUMMARIES: dict[str, str] = {
    "play": "play tic-tac-toe against the UNIVAC (the default)",
    "run": "load an image or a sheet, or boot a tape, and run it",
    "monitor": "step through memory: the lecture monitor",
    "kiosk": "unattended museum kiosk",
    "serve": "a UNIVAC for every terminal or browser tab of a class (telnet/SSH/web)",
    "verify": "prove the program plays perfectly",
    "assemble": "assemble a coding sheet into a memory image",
    "tape": "make, list and compare tape reels",
    "programs": "list the shipped programs (for --program)",
}
COMMANDS = tuple(SUMMARIES)
