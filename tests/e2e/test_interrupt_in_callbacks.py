"""A Ctrl-C that lands inside a callback whose exceptions CPython ignores (a weak
reference's callback, a ``__del__``: importlib drops every module's lock through one) still
ends the command politely, at any stage of its start and while it runs.

tests/e2e/test_interrupt_at_start.py sends real Ctrl-Cs at moments of the start, and once
in a while one landed in importlib's callback: "Exception ignored in: <function
_get_module_lock.<locals>.cb>", a traceback, and the command went on. Here the moment is
made, not waited for: a weak reference whose callback raises SIGINT in the process (as the
terminal would), dropped just after launch.py is imported, during ``main``'s imports, and
during the subcommand's own."""

from __future__ import annotations

import subprocess
import sys

import pytest

TRAP = '''
import signal, sys, weakref

class Held:
    pass

def ctrl_c_here(_ref):
    signal.raise_signal(signal.SIGINT)  # its handler runs at once, inside this callback

held = [Held()]
trap = weakref.ref(held[0], ctrl_c_here)

class DropOnImport:
    """Drops the trap's object when ``name`` is first imported."""
    def find_spec(self, fullname, path=None, target=None):
        if fullname == {name!r} and held:
            held.clear()
        return None

sys.meta_path.insert(0, DropOnImport())
sys.argv = ["univac-ttt", "play", "--plain"]
from univac_ttt.launch import main
if {name!r} == "":
    held.clear()  # between launch.py's import and main(): the installed script's lines
sys.exit(main())
'''


@pytest.mark.parametrize("name", [
    "",  # before main
    "univac_ttt.cli.main",  # main's imports
    "univac_ttt.console.plain",  # the subcommand's own imports, under cli.main's guard
])
def test_a_ctrl_c_inside_an_ignored_callback_still_ends_the_command(name: str) -> None:
    result = subprocess.run([sys.executable, "-c", TRAP.format(name=name)], input="",
                            capture_output=True, text=True, timeout=60)
    assert "Exception ignored" not in result.stderr, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 130, (result.returncode, result.stderr)
    assert "univac-ttt: interrupted" in result.stderr


WRAPPED = '''
import signal, sys

class CtrlCWhenNamed:
    def __set_name__(self, owner, name):
        signal.raise_signal(signal.SIGINT)  # CPython wraps it: RuntimeError from it

class MakeAClassOnImport:
    """Makes a class whose making is Ctrl-C'd when ``name`` is first imported (as
    ipaddress's classes are made while pathlib is imported)."""
    done = False
    def find_spec(self, fullname, path=None, target=None):
        if fullname == {name!r} and not self.done:
            self.done = True
            type("Made", (), {{"part": CtrlCWhenNamed()}})
        return None

sys.meta_path.insert(0, MakeAClassOnImport())
sys.argv = ["univac-ttt", "play", "--plain"]
from univac_ttt.launch import main
sys.exit(main())
'''


@pytest.mark.parametrize("name", [
    "univac_ttt.cli.main",  # main's imports
    "univac_ttt.console.plain",  # the subcommand's own imports, under cli.main's guard
])
def test_a_ctrl_c_wrapped_by_cpython_in_a_class_being_made_still_ends_politely(
        name: str) -> None:
    """Seen in CI: a Ctrl-C inside functools.cached_property.__set_name__ reached the user
    as "RuntimeError: Error calling __set_name__" and a traceback."""
    result = subprocess.run([sys.executable, "-c", WRAPPED.format(name=name)], input="",
                            capture_output=True, text=True, timeout=60)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, (
        result.stderr)
    assert result.returncode == 130, (result.returncode, result.stderr)
    assert result.stderr.endswith("univac-ttt: interrupted\n")
