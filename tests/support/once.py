"""A command's result run once for the whole test run, whichever xdist worker asks first.

A module-scoped fixture runs again in every worker that is handed one of its module's
tests (worksteal moves tests between workers), so an expensive command a module's tests
share was run by each of them: ``univac-ttt verify --search``, ~1.2 s of CPU, ran twice in
the integrator's per-test record of 2026-12-06. The first worker to ask runs it and
leaves its answer in the run's shared temporary folder (pytest's base folder, whose
``popen-gwN`` folders are the workers'); the others wait on a lock and read it.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from collections.abc import Callable

import pytest


def run_once(factory: pytest.TempPathFactory, name: str,
             run: Callable[[], subprocess.CompletedProcess[str]],
             ) -> subprocess.CompletedProcess[str]:
    """``run()``'s result, run by one worker of this test run and read by the others."""
    folder = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = folder.parent  # the run's folder, shared by its workers
    answer = folder / f"{name}.json"
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if answer.exists():
            args, code, out, err = json.loads(answer.read_text(encoding="utf-8"))
            return subprocess.CompletedProcess(args, code, out, err)
        result = run()
        answer.write_text(json.dumps([result.args, result.returncode, result.stdout,
                                      result.stderr]), encoding="utf-8")
        return result
