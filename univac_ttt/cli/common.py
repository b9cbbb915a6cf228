"""What every subcommand shares: exit statuses, the parser class, one-line refusals."""

from __future__ import annotations

import argparse
import os
import sys

from ..hostio.text_files import TextFileError, check_write_target

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from typing import Any

EXIT_OK, EXIT_ERROR_STOP, EXIT_USAGE, EXIT_INTERNAL, EXIT_OUTPUT = 0, 1, 2, 70, 74
IDLE_LIMIT = 86_400  # --idle (kiosk, serve): one day


def help_width() -> int:
    """The columns help is wrapped to, as ``shutil.get_terminal_size`` finds them ($COLUMNS,
    else the terminal's, else 80), without importing shutil (and with it zlib, bz2 and
    lzma) at every start: argparse asks for a formatter at each ``add_argument``."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _translate_with_one_search() -> None:
    """argparse translates each of its messages with ``gettext.gettext``, which looks for the
    message catalogue afresh at every call: about 30 searches of the locale folders (170
    stat calls, 8 million instructions) at every start. Give argparse the same catalogue,
    found once: ``gettext`` would find this one for each message (the domain, its folder
    and the language variables do not change while the command runs), so every message
    reads as before, translated or not. Where the catalogues' folder does not exist (as
    for an interpreter built under pyenv) no catalogue can be found whatever the language:
    then the search, whose first step imports locale to normalise the language's name
    (5 M instructions), is not made."""
    import gettext

    domain = gettext.textdomain()
    folder = gettext.bindtextdomain(domain)
    if folder is not None and not os.path.isdir(folder):
        catalogue: gettext.NullTranslations = gettext.NullTranslations()
    else:
        catalogue = gettext.translation(domain, folder, fallback=True)
    argparse._ = catalogue.gettext  # type: ignore[attr-defined]
    argparse.ngettext = catalogue.ngettext  # type: ignore[attr-defined]


_translate_with_one_search()


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, its width found by ``help_width``."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         help_width() - 2 if width is None else width)


class Parser(argparse.ArgumentParser):
    """argparse that says what was wrong in one line and exits 2, never a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"univac-ttt: {message}\n")


def writable(what: str, path: str) -> bool:
    """False, after a message, if ``path`` exists and is not a regular file (a FIFO)."""
    try:
        check_write_target(path)
    except TextFileError as exc:
        sys.stderr.write(f"univac-ttt: {what} {path} {exc.reason}\n")
        return False
    return True
