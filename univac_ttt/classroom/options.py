"""What ``univac-ttt serve`` was asked to do, checked before anything listens."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"  # nobody outside this machine unless a host is named
PASSWORD_LIMIT = 4096  # bytes of a password file


class ServeOptionError(ValueError):
    """An option that cannot work; the message says which and why."""


class CannotListen(OSError):
    """A listening socket was refused (a port in use, an address not this machine's); its
    message names the endpoint, so a user with several listeners knows which."""


@dataclass(frozen=True)
class Endpoint:
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"

    def listen(self) -> socket.socket:
        """A listening, non-blocking socket on this endpoint, bound before a pool forks so
        that every worker serves it (the kernel hands each connection to one of them)."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listening = socket.socket(family, socket.SOCK_STREAM)
        try:
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listening.bind((self.host, self.port))
            listening.listen(128)
        except OSError as exc:
            listening.close()
            raise CannotListen(exc.errno, f"{self}: {exc.strerror or exc}") from None
        listening.setblocking(False)
        return listening


@dataclass
class ServeOptions:
    telnet: Endpoint | None = None
    ssh: Endpoint | None = None
    app: str = "play"  # or "monitor"
    max_clients: int = 40
    idle_seconds: float = 600.0
    password: str | None = None  # the class password for SSH; None: no authentication
    data: Path = Path(".")
    transcripts: bool = False
    authentic: bool = False  # typewriter speed on every terminal


def parse_endpoint(text: str) -> Endpoint:
    """'[HOST:]PORT' -> Endpoint; the host defaults to 127.0.0.1."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host = DEFAULT_HOST
    host = host.strip("[]") or DEFAULT_HOST
    if not port_text.isdigit() or not 0 <= int(port_text) < 65536:
        raise ServeOptionError(f"{text!r} is not [HOST:]PORT with a port from 0 (any free "
                               "port) to 65535")
    return Endpoint(host, int(port_text))


def read_password(path: Path) -> str:
    """The first line of the password file: the shared class password."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(PASSWORD_LIMIT + 1)
    except OSError as exc:
        raise ServeOptionError(f"cannot read the password file {path}: "
                               f"{exc.strerror or exc}") from None
    if len(raw) > PASSWORD_LIMIT:
        raise ServeOptionError(f"the password file {path} is longer than {PASSWORD_LIMIT} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ServeOptionError(f"the password file {path} is not UTF-8 text") from None
    password = text.split("\n", 1)[0].strip()
    if not password:
        raise ServeOptionError(f"the password file {path} has no password on its first line")
    return password
