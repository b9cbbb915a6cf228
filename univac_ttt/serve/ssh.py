"""prompt_toolkit's SSH server (on asyncssh): a terminal and nothing else.

No shell, no commands, no subsystems (so no SFTP), no forwarding; authentication is off or
one shared class password, never a system login. The host key is made at first start in the
data folder.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import socket
import warnings
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from prompt_toolkit.data_structures import Size

from ..classroom.connection_limits import InputBucket, bounded_size
from ..classroom.options import Endpoint

with warnings.catch_warnings():
    # asyncssh still names DSA keys, and cryptography warns at their import: ten lines of
    # CryptographyDeprecationWarning on the lecturer's terminal at every `serve --ssh`,
    # about a key type this server never uses (its host key is Ed25519)
    warnings.filterwarnings("ignore", message="DSA is deprecated")
    import asyncssh
    from prompt_toolkit.contrib.ssh.server import PromptToolkitSSHServer, PromptToolkitSSHSession

HOST_KEY_NAME = "ssh_host_ed25519_key"
Interact = Callable[["ServedSSHSession"], Coroutine[Any, Any, None]]


def host_key(data: Path) -> Path:
    """The server's key, made once and kept (owner-only) in the data folder."""
    path = data / HOST_KEY_NAME
    if not path.exists():
        data.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(key.export_private_key())
    return path


class ServedSSHSession(PromptToolkitSSHSession):
    """One SSH terminal: input paced by the cap; a lost connection ends its application."""

    def __init__(self, interact: Interact) -> None:
        super().__init__(interact, enable_cpr=False)  # type: ignore[arg-type]
        self.bucket = InputBucket()
        self.on_input: Callable[[], None] = lambda: None
        self._resume: asyncio.TimerHandle | None = None
        self.peer = "?"

    def connection_made(self, chan: Any) -> None:
        super().connection_made(chan)
        peer = chan.get_extra_info("peername") or ("?", 0)
        self.peer = f"{peer[0]}:{peer[1]}"

    def _get_size(self) -> Size:
        size = super()._get_size()
        return bounded_size(size.rows, size.columns)

    def exec_requested(self, command: str) -> bool:
        return False  # no commands: the only thing here is the UNIVAC's terminal

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def data_received(self, data: str, datatype: object) -> None:
        self.on_input()
        super().data_received(data, datatype)
        pause = self.bucket.take(len(data.encode("utf-8", "replace")))
        if pause and self._chan is not None and self._resume is None:
            self._chan.pause_reading()
            self._resume = asyncio.get_running_loop().call_later(pause, self._resume_reading)

    def _resume_reading(self) -> None:
        self._resume = None
        if self._chan is not None:
            self._chan.resume_reading()

    def write_line(self, text: str) -> None:
        self.stdout.write(f"\n{text}\n")

    def connection_lost(self, exc: Exception | None) -> None:
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        if self.app_session is not None:
            self.app_session.input.close()  # the application sees end of input and finishes


class ServedSSHServer(PromptToolkitSSHServer):
    def __init__(self, interact: Interact, password: str | None) -> None:
        super().__init__(interact, enable_cpr=False)  # type: ignore[arg-type]
        self.password = password

    def begin_auth(self, username: str) -> bool:
        return self.password is not None

    def password_auth_supported(self) -> bool:
        return self.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        expected = (self.password or "").encode()
        return hmac.compare_digest(password.encode(), expected)

    def session_requested(self) -> ServedSSHSession:
        return ServedSSHSession(self.interact)  # type: ignore[arg-type]


async def listen(host: str, port: int, interact: Interact, password: str | None,
                 data: Path, sock: socket.socket | None = None) -> asyncssh.SSHAcceptor:
    """Start listening (on ``sock`` if given, a pool's socket); the caller closes it."""
    key = str(host_key(data))
    if sock is None:
        sock = Endpoint(host, port).listen()  # a refusal names host:port
    return await asyncssh.create_server(
        lambda: ServedSSHServer(interact, password), sock=sock,
        server_host_keys=[key], agent_forwarding=False,
        x11_forwarding=False, allow_pty=True, sftp_factory=None, allow_scp=False,
        keepalive_interval=30, keepalive_count_max=4, login_timeout=30)
