"""What a start imports (a rule, not a timing): plain play loads no full-screen toolkit, no
event loop, no server, and only the subcommand it runs; --help stays what argparse gives."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from univac_ttt.cli.commands import COMMANDS, SUMMARIES
from univac_ttt.cli.common import help_width
from univac_ttt.cli.main import build_parser

# Run a subcommand through the entry point as the installed command does, stdin at its end,
# then report every module the process had imported (by name, without json: it is one).
PROBE = """\
import sys
from univac_ttt.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""

# Never wanted by plain play: the full-screen console's toolkit and renderer, the servers'
# event loop and HTTP, the zip machinery of importlib.resources, TOML and the assembler
# (a shipped pack comes from its snapshot), dataclasses and what it imports (its records are
# named tuples and plain classes), the signal module's enums and threading (launch and the
# plain console take Ctrl-C through _signal; the desk's STOP is a flag), typing (the
# modules name it for the type checker only), contextlib (two suppresses were all of it),
# pathlib with urllib.parse, ipaddress and fnmatch (a shipped pack's paths are text; a Pack
# makes its folder a Path when asked), json (the snapshot is read by json's C scanner),
# termios (only a paced session on a terminal sets its echo), and the other subcommands'
# modules.
NOT_FOR_PLAIN_PLAY = (
    "prompt_toolkit", "rich", "asyncio", "aiohttp", "asyncssh", "zipfile", "lzma", "bz2",
    "importlib.resources", "tomllib", "shutil", "tempfile",
    "dataclasses", "inspect", "ast", "dis", "tokenize", "signal", "threading", "typing",
    "contextlib", "pathlib", "urllib", "ipaddress", "fnmatch", "json", "termios",
    "univac_ttt.program.assembler", "univac_ttt.tui.app", "univac_ttt.console.app",
    *(f"univac_ttt.cli.{name}" for name in COMMANDS if name not in ("play", "programs")),
)


def imported_by(*args: str, prelude: str = "") -> tuple[subprocess.CompletedProcess[str],
                                                        set[str]]:
    result = subprocess.run([sys.executable, "-c", prelude + PROBE, *args], input="",
                            capture_output=True, text=True, timeout=60)
    marker = result.stderr.rindex("MODULES ")
    return result, set(result.stderr[marker + len("MODULES "):].split())


def test_plain_play_imports_nothing_it_does_not_use():
    result, modules = imported_by("play", "--plain")
    assert result.returncode == 0 and "   7   8   9\n> " in result.stdout
    assert "univac_ttt.console.plain" in modules and "univac_ttt.machine.cpu" in modules
    unwanted = sorted(name for name in modules
                      if any(name == bad or name.startswith(bad + ".")
                             for bad in NOT_FOR_PLAIN_PLAY))
    assert unwanted == []


def test_verify_imports_no_terminal_toolkit_and_no_other_subcommand():
    result, modules = imported_by("verify")
    assert result.returncode == 0, result.stderr
    assert "PERFECT PLAY PROVED" in result.stdout
    assert "univac_ttt.cli.verify" in modules and "univac_ttt.verify.referee" in modules
    unwanted = sorted(name for name in modules
                      if name.split(".")[0] in ("prompt_toolkit", "rich", "asyncio")
                      or name in ("univac_ttt.cli.play", "univac_ttt.cli.serve"))
    assert unwanted == []


def test_verify_of_the_shipped_program_needs_no_assembler_toml_or_dataclasses():
    _, modules = imported_by("verify")
    unwanted = sorted(set(modules) & {"univac_ttt.program.assembler", "tomllib",
                                       "dataclasses", "inspect", "signal", "threading",
                                       "typing", "pathlib", "urllib.parse", "ipaddress",
                                       "json", "termios"})
    assert unwanted == []  # BRD and the words come from the pack's snapshot


def test_help_lists_every_subcommand_without_building_them():
    complete, named_only = build_parser(), build_parser(complete=())
    assert named_only.format_help() == complete.format_help()
    listing = " ".join(complete.format_help().split())
    for name in COMMANDS:
        assert f"{name} {SUMMARIES[name]}" in listing


def test_a_subcommand_built_alone_is_the_same_parser():
    every = build_parser()
    for name in COMMANDS:
        alone = build_parser(complete=[name])
        assert _sub(alone, name).format_help() == _sub(every, name).format_help()


def test_a_command_only_listed_gets_the_bare_parser_argparse_made():
    """build_parser makes the parser of a command it only lists when it is looked up: the
    one ``sub.add_parser(name, help=...)`` made, with its usage, help and refusals."""
    import argparse

    from univac_ttt.cli.common import Parser

    listed = build_parser(complete=())
    action = next(a for a in listed._actions if isinstance(a, argparse._SubParsersAction))
    assert list(action.choices) == list(COMMANDS)
    for name in COMMANDS:
        made = action.choices.get(name)
        assert made is action.choices[name] is dict(action.choices.items())[name]
        assert isinstance(made, Parser) and made.prog == f"univac-ttt {name}"
        assert made.format_help() == Parser(prog=f"univac-ttt {name}").format_help()
    assert action.choices.get("nothing") is None
    args, extra = build_parser(complete=()).parse_known_args(["run", "--speed", "x"])
    assert args.command == "run" and extra == ["--speed", "x"]


def _sub(parser, name):
    import argparse

    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


@pytest.mark.parametrize("columns", ["", "40", "200", "0", "-3", "wide"])
def test_help_is_wrapped_as_shutil_would(monkeypatch, columns):
    if columns:
        monkeypatch.setenv("COLUMNS", columns)
    else:
        monkeypatch.delenv("COLUMNS", raising=False)
    assert help_width() == shutil.get_terminal_size().columns


def test_argparse_messages_read_as_gettext_gives_them():
    import argparse
    import gettext

    messages = ["usage: ", "show this help message and exit", "positional arguments",
                "options", "the following arguments are required: %s", "invalid choice"]
    assert [argparse._(m) for m in messages] == [gettext.gettext(m) for m in messages]
    assert [argparse.ngettext("expected %s argument", "expected %s arguments", n)
            for n in (1, 2)] == [gettext.ngettext("expected %s argument",
                                                  "expected %s arguments", n) for n in (1, 2)]


def _catalogue(path, translations):
    """A GNU .mo catalogue holding ``translations`` (the format gettext reads)."""
    import struct

    keys = sorted(translations)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(translations[k].encode() + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    table, offset = [], start
    for key in keys:
        table += [len(key.encode()), offset]
        offset += len(key.encode()) + 1
    values, offset = [], start + len(ids)
    for key in keys:
        values += [len(translations[key].encode()), offset]
        offset += len(translations[key].encode()) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(header + struct.pack(f"{len(table)}i", *table)
                     + struct.pack(f"{len(values)}i", *values) + ids + strs)


def test_argparse_is_translated_where_a_catalogue_is_found(tmp_path, monkeypatch):
    import argparse
    import gettext

    from univac_ttt.cli import common

    monkeypatch.setattr(argparse, "_", argparse._)
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)
    monkeypatch.setenv("LANGUAGE", "xx")
    domain = gettext.textdomain()
    _catalogue(tmp_path / "xx" / "LC_MESSAGES" / f"{domain}.mo", {"usage: ": "utilisation : "})
    monkeypatch.setattr(gettext, "bindtextdomain", lambda _domain: str(tmp_path))
    common._translate_with_one_search()
    assert argparse._("usage: ") == "utilisation : "
    monkeypatch.setattr(gettext, "bindtextdomain", lambda _domain: str(tmp_path / "none"))
    common._translate_with_one_search()  # no folder of catalogues: no search, no locale
    assert argparse._("usage: ") == "usage: "


def test_no_locale_at_start_up_where_no_catalogue_can_be_found(tmp_path):
    """Gettext's folder of catalogues is made one that does not exist (as an interpreter
    built under pyenv has it), whatever this interpreter's is, so the check always runs."""
    prelude = f"import gettext\ngettext._default_localedir = {str(tmp_path / 'none')!r}\n"
    for command in (("play", "--plain"), ("verify",)):
        _, modules = imported_by(*command, prelude=prelude)
        assert "locale" not in modules and "univac_ttt.cli.main" in modules


def test_the_start_holds_the_collector_and_the_command_runs_with_it():
    """launch turns the collector off while the command starts and cli.main turns it on,
    with the start's objects frozen, before the command runs; a collector switched off by
    the caller stays off."""
    import gc

    from univac_ttt import launch

    assert gc.isenabled()
    try:
        launch._hold_the_collector()
        assert not gc.isenabled()
        launch.start_done()
        assert gc.isenabled() and gc.get_freeze_count() > 0
        gc.disable()
        launch._hold_the_collector()
        launch.start_done()
        assert not gc.isenabled()  # not launch's to turn on
    finally:
        gc.unfreeze()
        gc.enable()
    probe = ("import gc, sys\n"
             "import univac_ttt.cli.programs as programs\n"
             "programs.command = lambda args: print(gc.isenabled(), gc.get_freeze_count() > 0)"
             " or 0\n"
             "sys.argv = ['univac-ttt', 'programs']\n"
             "from univac_ttt.launch import main\n"
             "sys.exit(main())\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert (result.returncode, result.stdout) == (0, "True True\n"), result.stderr


@pytest.mark.parametrize(("argv", "takes_it"), [
    (["/usr/bin/univac-ttt"], True),  # the game, play by default
    (["/venv/bin/univac-ttt", "run", "x.img"], True),
    (["/src/univac_ttt/__main__.py", "--plain"], True),  # python -m univac_ttt
    (["/venv/bin/univac-ttt", "kiosk"], False),  # its own signals (lock_signals)
    (["/venv/bin/univac-ttt", "serve"], False),
    (["/venv/bin/pytest", "-n", "4"], False),  # a process that only imports the launcher
    (["-c"], False),
    ([], False),
])
def test_ctrl_backslash_is_taken_as_ctrl_c_only_by_the_game_s_own_commands(argv, takes_it):  # type: ignore[no-untyped-def]
    from univac_ttt import launch

    assert launch._quit_is_interrupt(argv) is takes_it
