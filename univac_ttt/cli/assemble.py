"""``univac-ttt assemble``: a coding sheet's listing, and with -o its memory image."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..hostio.wording import count
from .commands import SUMMARIES
from .common import EXIT_OK, EXIT_USAGE, writable
from .options import path

NAME = "assemble"


def add_parser(sub: argparse._SubParsersAction) -> None:
    assemble = sub.add_parser(NAME, help=SUMMARIES[NAME],
                              description="Assemble a coding sheet (docs/coding-sheet.md) and "
                                          "print its listing: address, word, the two "
                                          "instructions, label and remark. With -o, also "
                                          "write the memory image (docs/image-format.md). "
                                          "Exit status 2 on the first error, with its line.")
    assemble.add_argument("sheet", type=path, help="coding sheet")
    assemble.add_argument("-o", "--output", metavar="IMAGE", type=path,
                          help="write the memory image to IMAGE (replaced atomically)")
    assemble.add_argument("--quiet", action="store_true", help="no listing")
    assemble.set_defaults(func=command, reads_stdin=False)


def command(args: argparse.Namespace) -> int:
    from ..hostio.atomic_files import atomic_write
    from ..program.image import format_image
    from ..program.listing import listing_lines
    from ..program.sources import ProgramFileError, read_sheet

    try:
        program = read_sheet(args.sheet).program
    except ProgramFileError as exc:
        sys.stderr.write(f"univac-ttt: {exc}\n")
        return EXIT_USAGE
    assert program is not None
    if not args.quiet:
        for line in listing_lines(program):
            sys.stdout.write(line + "\n")
    if args.output is not None:
        if not writable("the image", args.output):
            return EXIT_USAGE
        header = f"memory image assembled from {Path(args.sheet).name} by univac-ttt assemble"
        try:
            atomic_write(args.output, format_image(program.image, header))
        except OSError as exc:
            sys.stderr.write(f"univac-ttt: cannot write {args.output}: "
                             f"{exc.strerror or exc}\n")
            return EXIT_USAGE
        sys.stderr.write(f"univac-ttt: wrote {count(len(program.image.words), 'word')} to "
                         f"{args.output}\n")
    return EXIT_OK
