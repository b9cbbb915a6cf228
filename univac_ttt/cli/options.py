"""Option groups and argparse types that several subcommands take (one spelling each)."""

from __future__ import annotations

import argparse
import os

from ..hostio.text_files import TextFileError, check_path

TYPE_CHECKING = False  # typing's flag without importing typing (16 M instructions a start)
if TYPE_CHECKING:
    from pathlib import Path

    from ..machine import MachineOptions


def path(text: str) -> str:
    """An argparse type: a file name that can exist (not empty, no NUL)."""
    try:
        check_path(text)
    except TextFileError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} {exc.reason}") from None
    return text


def add_machine_options(parser: argparse.ArgumentParser) -> None:
    """The machine's switches (docs/fidelity.md): play, run, monitor and verify take them."""
    group = parser.add_argument_group("machine options (docs/fidelity.md explains each)")
    group.add_argument("--transfer-skips-right", action="store_true",
                       help="a transfer in the left half skips the right half (U1; "
                            "default: the right half still runs)")
    group.add_argument("--overflow", choices=["transfer", "stop"], default="transfer",
                       help="on adder overflow transfer to 000 (default) or stop (U9)")
    group.add_argument("--timing", choices=["latency", "average"], default="latency",
                       help="operand waits from delay-line positions (default) or 222 us each")
    group.add_argument("--breakpoint-switch", action="store_true",
                       help="set the console switch that makes ,0 stop")
    group.add_argument("--tape-write-unaligned", action="store_true",
                       help="5n/7n write from m as written (default: the last digit of m "
                            "is ignored, as for the rI transfers)")
    group.add_argument("--tape-overwrite", choices=["truncate", "keep"], default="truncate",
                       help="a write ends the tape there (default) or keeps the blocks "
                            "after it readable")
    group.add_argument("--code-reading", choices=["stand-in", "label"], default="stand-in",
                       help="the reading of the disputed codes 37, 62, 76 in the printer "
                            "code table (default stand-in: 76 fast feed IV, 62 prints =; "
                            "label: 37 fast feed IV, 76 prints =)")
    group.add_argument("--typewriter", choices=["capitals", "lower"], default="lower",
                       dest="typewriter_case",
                       help="the typewriter's case when a program starts: lower (default: "
                            "small letters until the program types the upper-case shift, as "
                            "the one source describes it) or capitals (shifted up)")
    group.add_argument("--ten-word-unaligned", action="store_true",
                       help="Y and Z move m ... m+9 as written (default: the last digit of m "
                            "is ignored and the whole channel moves, U7)")


def machine_options(args: argparse.Namespace) -> MachineOptions:
    """The MachineOptions that the options of ``add_machine_options`` chose; the whole
    process reads the disputed codes as ``--code-reading`` says."""
    from ..machine import MachineOptions, charset

    charset.use_reading(args.code_reading)
    return MachineOptions(
        right_half_after_transfer=not args.transfer_skips_right,
        overflow=args.overflow,
        timing=args.timing,
        breakpoint_switch=args.breakpoint_switch,
        tape_write_aligned=not args.tape_write_unaligned,
        tape_overwrite=args.tape_overwrite,
        ten_word_aligned=not args.ten_word_unaligned,
        typewriter_case=args.typewriter_case,
    )


def data_folder(args: argparse.Namespace) -> Path:
    """--data, else $UNIVAC_TTT_DATA, else the XDG data folder (kiosk and serve)."""
    from pathlib import Path  # here: play and verify never ask (pathlib is 17 M instructions)

    if args.data is not None:
        return Path(args.data)
    if os.environ.get("UNIVAC_TTT_DATA"):
        return Path(os.environ["UNIVAC_TTT_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "univac-ttt"
