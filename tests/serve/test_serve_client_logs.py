"""What a client sends is answered on its own connection and never printed on the server's
terminal: the libraries' log records about clients went there by logging's last resort,
over the class table. The installed command's real server process, raw sockets; every wait
bounded."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

IAC, SB, SE, NAWS = 255, 250, 240, 31


def _receive_some(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    return sock.recv(65536)


def test_malformed_clients_print_nothing_on_the_server_s_terminal(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "univac_ttt", "serve", "--web", "127.0.0.1:0", "--telnet",
         "127.0.0.1:0", "--workers", "1", "--speed", "fast", "--data", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        ports = {}
        while len(ports) < 2:
            line = process.stdout.readline()
            assert line, process.stderr.read() if process.stderr else ""
            if found := re.search(r"(web|telnet) on (?:http://)?127\.0\.0\.1:(\d+)", line):
                ports[found.group(1)] = int(found.group(2))
        with socket.create_connection(("127.0.0.1", ports["telnet"]), timeout=30) as telnet:
            _receive_some(telnet)  # the negotiation: the server is reading
            # A window size whose bytes are all IAC: six 255s read as three doubled ones.
            telnet.sendall(bytes([IAC, SB, NAWS, *[255] * 6, IAC, SE]) + b"5\r")
            _receive_some(telnet)
        with socket.create_connection(("127.0.0.1", ports["web"]), timeout=30) as web:
            web.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 100_000 + b"\r\n\r\n")
            assert _receive_some(web).split(b" ")[1] == b"400"
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert "Traceback" not in err and "NAWS" not in err and "Error handling" not in err
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
