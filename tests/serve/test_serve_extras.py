"""serve without the optional libraries: a telnet class needs neither the web extra
(aiohttp) nor the ssh extra (asyncssh); asking for --web or --ssh without them says which
extra to install. Each run is a fresh interpreter in which the library cannot be found."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.support.command import read_line

_WITHOUT = r'''
import sys
sys.modules[sys.argv.pop(1)] = None  # import fails, importlib.util.find_spec gives None
from univac_ttt.launch import main
sys.exit(main())
'''


def _start(missing: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _WITHOUT, missing, "serve", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "UNIVAC_TTT_DATA": os.devnull + "-none"})


@pytest.mark.parametrize("missing", ["aiohttp", "asyncssh"])
def test_a_telnet_class_needs_no_optional_library(missing):
    server = _start(missing, "--telnet", "127.0.0.1:0", "--workers", "1")
    try:
        line = ""
        while "telnet on" not in line:  # the listener's announcement: it is serving
            line = read_line(server)
            assert line, server.stderr.read()
        server.send_signal(signal.SIGINT)
        _out, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0 and "Error" not in err and missing not in err, err


@pytest.mark.parametrize(("missing", "option", "extra"),
                         [("aiohttp", "--web", "web"), ("asyncssh", "--ssh", "ssh")])
def test_web_or_ssh_without_its_library_says_which_extra_to_install(missing, option, extra):
    server = _start(missing, option, "127.0.0.1:0", "--workers", "1")
    out, err = server.communicate(timeout=60)
    assert server.returncode == 2 and out == ""
    # the install that works where the README's `pip install .` was run: pip would look
    # 'univac-ttt[web]' up on the package index, not in the folder
    assert err == (f"univac-ttt: {option} needs {missing}: in univac-ttt's source folder, "
                   f"pip install '.[{extra}]'\n")


def test_a_missing_page_file_is_named_not_blamed_on_the_data_folder(tmp_path, capsys):
    """An installed copy without the page's files once said it could not make the data
    folder; the message names the file instead."""
    import argparse

    from univac_ttt.serve.main import serve_from_args

    def listeners(_options):
        raise FileNotFoundError(2, "No such file or directory", "/x/web/static/index.html")

    args = argparse.Namespace(telnet=None, ssh=None, web="127.0.0.1:0", app="play",
                              max_clients=1, idle=None, password_file=None,
                              transcripts=False, speed=None, workers=1)
    assert serve_from_args(args, tmp_path / "data", {"play": object()}, listeners) == 2
    assert capsys.readouterr().err == ("univac-ttt: cannot read the browser page's files: "
                                       "No such file or directory: /x/web/static/index.html\n")
    assert not (tmp_path / "data").exists()
