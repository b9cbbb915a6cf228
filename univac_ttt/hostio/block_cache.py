"""The compiled blocks' code kept between runs of the command, in the user's cache folder.

A process that runs the machine compiles the source of each superblock it makes
(machine/compiled.py keeps the code objects in ``compiled.CODE``: a shape's by its text,
and, for the commands that keep them, each block's own by its plan's key, the words and
choices its source is written from, so a kept block is found without writing its source);
for ``univac-ttt verify`` that was about a third of its CPU time. Here the command fills
``CODE`` from a file written by an earlier run of the same command and Python, and writes
the file again when it compiled anything new. A code object's meaning is not only its
source text: how the machine calls it (a block, a shape to be given its constants) is the
machine's own code, so a file is stamped with a checksum of the machine package's sources'
names, sizes and modification times (what Python's own bytecode cache trusts for those
same modules) and a file written by any other build (another checkout, an older or newer
release, an edited source) is ignored; the machine's behaviour never depends on this file.

A cache must never cost a user anything: a missing, unreadable, truncated, foreign or
corrupt file is ignored; a read-only or full disk leaves no file (and no message); the file
is replaced whole by a rename, so a second process sees the old one or the new. Set
``UNIVAC_TTT_NO_CACHE`` to any value to neither read nor write it. The file is marshal
data in the user's own cache folder, trusted as Python trusts its ``__pycache__``.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from collections.abc import Callable
from types import CodeType

HEADER = b"univac-ttt compiled blocks 2\n"
CACHE_BYTES = 32_000_000  # a larger file is not read
KEPT = 1_024  # sources kept in a file: beyond it, only those the last run used
DISABLE = "UNIVAC_TTT_NO_CACHE"
DICT_CODES = (b"{", b"\xfb")  # marshal's dict, plain or with its reference flag


def cache_file(kind: str) -> str | None:
    """Where ``kind``'s blocks are kept (per Python: code objects are version-bound), or
    None when there is no home or cache folder to name or the cache is switched off."""
    if os.environ.get(DISABLE) is not None:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # the XDG rule: a relative path is to be ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    tag = sys.implementation.cache_tag or "python"
    return os.path.join(base, "univac-ttt", f"blocks-{kind}-{tag}.marshal")


def _magic() -> bytes:
    """The interpreter's bytecode magic: a file from another build of Python is foreign."""
    import _frozen_importlib_external  # loaded at every start already

    return _frozen_importlib_external.MAGIC_NUMBER


def generator_stamp(folder: str) -> bytes | None:
    """A checksum of the ``.py`` sources in ``folder`` (the machine package, whose code
    makes and calls the blocks): each one's name, size and modification time, as Python
    checks a module's bytecode against its source (reading and summing the sources cost
    each start 1.8 M instructions), so a cache written by a different machine is not read.
    None if they cannot be listed (then no cache is read or written)."""
    total = 0
    try:
        entries = sorted((entry.name, entry.stat()) for entry in os.scandir(folder)
                         if entry.name.endswith(".py"))
    except OSError:
        return None
    for name, status in entries:
        total = zlib.crc32(b"%s %d %d\n" % (name.encode(), status.st_size,
                                            status.st_mtime_ns), total)
    return b"%08x\n" % total


def read_codes(path: str, stamp: bytes = b"") -> dict[str, CodeType]:
    """The code objects kept in ``path``, or {} if it is missing or not a good cache (or
    one written under another ``stamp``)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(CACHE_BYTES + 1)
    except (OSError, ValueError):
        return {}
    head = HEADER + _magic() + stamp
    if (len(data) > CACHE_BYTES or not data.startswith(head)
            or data[len(head):len(head) + 1] not in DICT_CODES):
        return {}  # the body must open a dict: marshal reading a longer stamp as one (a
        # file read under a shorter stamp) can take a code or list length from its digits
        # and allocate gigabytes before it fails (10 s for one stamp)
    try:
        codes = marshal.loads(data[len(head):])
    except (ValueError, EOFError, TypeError, OverflowError, MemoryError):
        return {}
    if not isinstance(codes, dict) or not all(
            type(source) is str and type(code) is CodeType for source, code in codes.items()):
        return {}
    return codes


def write_codes(path: str, codes: dict[str, CodeType], stamp: bytes = b"") -> bool:
    """Replace ``path`` with ``codes`` whole; False (and nothing left behind) if it cannot."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        data = HEADER + _magic() + stamp + marshal.dumps(codes)
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, path)
        except BaseException:
            try:  # noqa: SIM105 - contextlib is not imported at start-up
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except (OSError, ValueError):
        return False
    return True


class BlockCache:
    """One command's kept blocks: ``load`` into ``codes`` (compiled.CODE) before the
    machine runs, ``save`` after it; ``compiled`` counts the sources compiled in this
    process (compiled.compiled_now), so an unchanged cache is not written again, and
    ``used`` (compiled.USED) names the sources the run made blocks of: when the file would
    hold more than KEPT (other programs' blocks, say), only those are kept. ``generator``
    is the folder of the code that makes and calls the blocks (generator_stamp)."""

    def __init__(self, kind: str, codes: dict[str, CodeType], used: set[str],
                 compiled: Callable[[], int], generator: str) -> None:
        self.path = cache_file(kind)
        self.generator = generator
        self.stamp: bytes | None = None  # known at load
        self.codes = codes
        self.used = used
        self.compiled = compiled
        self._compiled_before = compiled()

    def load(self) -> int:
        """Bring the kept code into ``codes``; how many sources it knows now."""
        if self.path is not None:
            self.stamp = generator_stamp(self.generator)
            if self.stamp is not None:
                self.codes.update(read_codes(self.path, self.stamp))
        self._compiled_before = self.compiled()
        return len(self.codes)

    def save(self) -> bool:
        """Keep the code when something new was compiled since ``load``; True if written."""
        if (self.path is None or self.stamp is None
                or self.compiled() == self._compiled_before):
            return False  # no cache, not loaded, an unreadable machine, or nothing new
        codes = self.codes
        if len(codes) > KEPT:
            codes = {source: code for source, code in codes.items() if source in self.used}
        return write_codes(self.path, codes, self.stamp)
