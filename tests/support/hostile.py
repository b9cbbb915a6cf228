"""Helpers for tests of hostile surroundings: the command as a real process with bytes in
and out, small file-size limits as a full disk, and no traceback on stderr."""

import os
import resource
import signal
import subprocess
import sys

from tests.support.command import univac_bytes

HUGE = "9" * 5000  # more digits than Python converts (4,300)
NO_BYTECODE = "PYTHONDONTWRITEBYTECODE"


def univac(*args, stdin=b"", env=None, timeout=60, preexec_fn=None, stdout=None):
    """The command with bytes in and out. A run with its own environment (a locale, an
    encoding) or its stdout on a file is a fresh interpreter, as those are read at start-up;
    any other is a fork of this one (support/command.py), which costs no start-up."""
    if env is None and stdout is None:
        return univac_bytes(*args, stdin=stdin, timeout=timeout, preexec_fn=preexec_fn)
    return subprocess.run([sys.executable, "-m", "univac_ttt", *args], input=stdin,
                          stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, env={**os.environ, **(env or {}), **(
                              {NO_BYTECODE: "1"} if preexec_fn is not None else {})},
                          preexec_fn=preexec_fn)


def small_files(limit=3000):
    """For a child process: files larger than ``limit`` bytes fail as on a full disk.

    The child writes no compiled modules: under the limit Python's own cache write is cut
    short without an error and the truncated .pyc is kept, so every later import of that
    module in the tree fails ("marshal data too short"; seen in clean clones)."""
    def limit_files():
        sys.dont_write_bytecode = True  # a fork of this interpreter
        os.environ[NO_BYTECODE] = "1"  # an interpreter started after this
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_files


def no_traceback(result):
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err
    return err
