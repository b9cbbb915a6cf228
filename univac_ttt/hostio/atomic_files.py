"""Writing files so that a crash, a full disk or a second writer never leaves a broken one.

One helper for the whole project (tally, printouts, the monitor's save, reels): the data go
to a uniquely named temporary file in the same folder (``tempfile.mkstemp``: created with
O_EXCL, so a link planted at a predictable name is never followed), are flushed to disk,
then renamed over the target. On any failure the temporary file is removed, so a full disk
leaves the old file whole and no empty temporary behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path


def _fsync_folder(folder: Path) -> None:
    """Make a rename durable; some file systems cannot, which is harmless."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def _fill(handle: int, path: str | Path, data: bytes) -> None:
    """Write ``data`` through the open ``handle`` and flush it to disk; on any failure the
    half-written file at ``path`` is removed before the error goes on."""
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


def _write_temporary(folder: Path, name: str, data: bytes, mode: int = 0o644) -> str:
    """A new temporary file beside ``name`` holding ``data``, flushed to disk; its path.

    mkstemp makes it private (0600); it gets ``mode`` (the old file's, or 0644) before it
    takes the real name, so a replaced tally or a printout stays readable as before."""
    import tempfile  # here, not at the top: most runs read reels and sheets, few write

    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    with contextlib.suppress(OSError):
        os.fchmod(handle, mode)
    _fill(handle, temporary, data)
    return temporary


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` whole, or leave it as it was (OSError says why)."""
    target = Path(path)
    try:
        kind = os.stat(target).st_mode
    except OSError:
        kind = stat.S_IFREG | 0o644
    if stat.S_ISDIR(kind):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", str(target))
    if not stat.S_ISREG(kind):  # a rename would put a file in place of /dev/null or a FIFO
        raise OSError(errno.EINVAL, "Not a regular file", str(target))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent
    mode = kind & 0o777
    temporary = _write_temporary(folder, target.name, raw, mode)
    try:
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(folder)


def create_new(folder: Path, stem: str, suffix: str, data: str | bytes,
               attempts: int = 1000) -> Path:
    """Write ``data`` to a new file ``stem[-n]suffix`` that no other writer has taken.

    The file appears whole (a hard link from a flushed temporary file, which fails if the
    name exists); on file systems without hard links it is created with O_EXCL instead.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    names = (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}"
             for n in range(1, attempts + 1))
    temporary = _write_temporary(folder, stem + suffix, raw)
    try:
        for name in names:
            path = folder / name
            try:
                os.link(temporary, path, follow_symlinks=False)
            except FileExistsError:
                continue
            except OSError:  # no hard links here (FAT, some network shares)
                if _create_exclusive(path, raw):
                    return path
                continue
            _fsync_folder(folder)
            return path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    raise FileExistsError(17, f"no free name for {stem}{suffix} after {attempts} tries",
                          str(folder))


def _create_exclusive(path: Path, raw: bytes) -> bool:
    """Create ``path`` only if it does not exist (never through a link); False if taken."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        handle = os.open(path, flags, 0o644)
    except FileExistsError:
        return False
    _fill(handle, path, raw)
    return True
