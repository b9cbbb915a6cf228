"""A port already taken: ``serve`` says which endpoint could not be had, prints nothing
else first (no class table for a class that never opened) and exits with the usage status,
whichever listener it was and whether one process serves or a pool."""

from __future__ import annotations

import socket

import pytest

from tests.support.command import univac


@pytest.fixture
def taken_port():  # type: ignore[no-untyped-def]
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    yield holder.getsockname()[1]
    holder.close()


@pytest.mark.parametrize("listener, workers", [
    ("--telnet", "1"), ("--telnet", "2"), ("--ssh", "1"), ("--ssh", "2"), ("--web", "1"),
    ("--web", "2")])
def test_a_port_in_use_is_named_and_nothing_else_is_printed(taken_port, tmp_path,
                                                            listener, workers) -> None:  # type: ignore[no-untyped-def]
    where = f"127.0.0.1:{taken_port}"
    done = univac("serve", listener, where, "--workers", workers, "--data", str(tmp_path),
                  timeout=30)
    assert done.returncode == 2
    assert done.stdout == ""  # no announcement, no table
    assert done.stderr == f"univac-ttt: cannot listen on {where}: Address already in use\n"
