"""What a client sends is answered on its own connection and never printed on the server's
terminal: the libraries' log records about clients went there by logging's last resort,
over the class table. The installed command's real server process, raw sockets; every wait
bounded."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import socket
import subprocess
from pathlib import Path

from tests.support.command import read_line, univac_process

IAC, WONT, SB, SE, TTYPE, NAWS = 255, 252, 250, 240, 24, 31


def _receive_some(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    return sock.recv(65536)


def _receive_until(sock: socket.socket, needle: bytes) -> bytes:
    """Read until ``needle`` has come (each read at most 30 s) or the server closes."""
    seen = b""
    while needle not in seen:
        chunk = _receive_some(sock)
        assert chunk, f"closed before {needle!r}: {seen!r}"
        seen += chunk
    return seen


def test_malformed_clients_print_nothing_on_the_server_s_terminal(tmp_path: Path) -> None:
    process = univac_process(
        "serve", "--web", "127.0.0.1:0", "--telnet", "127.0.0.1:0", "--workers", "1",
        "--speed", "fast", "--data", str(tmp_path), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert process.stdout is not None
        ports = {}
        while len(ports) < 2:
            line = read_line(process)
            assert line, process.stderr.read() if process.stderr else ""
            if found := re.search(r"(web|telnet) on (?:http://)?127\.0\.0\.1:(\d+)", line):
                ports[found.group(1)] = int(found.group(2))
        with socket.create_connection(("127.0.0.1", ports["telnet"]), timeout=30) as telnet:
            _receive_some(telnet)  # the negotiation: the server is reading
            # A window size whose bytes are all IAC: six 255s read as three doubled ones;
            # then a refusal to name the terminal, so the console is drawn at once (not
            # after the 5 s handshake): once it is, the server has read the window size.
            telnet.sendall(bytes([IAC, SB, NAWS, *[255] * 6, IAC, SE, IAC, WONT, TTYPE])
                           + b"5\r")
            _receive_until(telnet, b"TIC-TAC-TOE")
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


def _record(error: BaseException | None) -> logging.LogRecord:
    exc_info = (type(error), error, None) if error is not None else None
    return logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1,
                             "Error handling request", None, exc_info)


def test_a_fault_of_the_server_s_own_is_still_printed() -> None:
    """aiohttp logs a failure in our web handler as it logs a malformed request: the
    client's faults are dropped, the server's own still reach its terminal."""
    from aiohttp.http_exceptions import LineTooLong

    from univac_ttt.serve.main import ServerFaultsOnly

    kept = ServerFaultsOnly().filter
    assert not kept(_record(LineTooLong(b"X-Long", "8190", "100000")))
    assert not kept(_record(ConnectionResetError()))
    assert not kept(_record(None))  # a warning about a client: "Wrong number of NAWS bytes"
    assert kept(_record(RuntimeError("a bug in the tab's key handling")))
    assert kept(_record(KeyError("tab")))


def test_the_quieted_loggers_print_a_server_fault_on_stderr(capsys) -> None:
    from univac_ttt.serve.main import CLIENT_LOGGERS, quiet_client_logs

    loggers = [logging.getLogger(name) for name in CLIENT_LOGGERS]
    saved = [(logger.propagate, list(logger.handlers)) for logger in loggers]
    try:
        quiet_client_logs()
        quiet_client_logs()  # once is enough: no second handler
        assert all(len(logger.handlers) == len(handlers) + 1
                   for logger, (_, handlers) in zip(loggers, saved, strict=True))
        server = logging.getLogger("aiohttp.server")
        try:
            raise RuntimeError("a bug in the tab's key handling")
        except RuntimeError:
            server.exception("Error handling request")
        server.warning("a client sent something odd")
        err = capsys.readouterr().err
        assert "a bug in the tab's key handling" in err and "odd" not in err
    finally:
        for logger, (propagate, handlers) in zip(loggers, saved, strict=True):
            logger.propagate, logger.handlers[:] = propagate, handlers
