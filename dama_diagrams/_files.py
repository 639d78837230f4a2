"""Every file the toolkit writes is whole: the new one, or the one from before.

Stage-neutral, like :mod:`.errors`: found diagrams, pictures, animations, PO
files and cards all go through :func:`write_atomically`.  The bytes go to a
temporary file in the same folder, are flushed to the disk, and then replace
the target in one rename, so neither a reader nor a crash, a full disk,
Ctrl-C or SIGTERM ever leaves half a file or a stray temporary one: for
bytes already in memory, Ctrl-C and SIGTERM wait the few milliseconds until
the file is in place.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ._interrupts import interrupts_held
from .errors import DamaError


class WriteError(DamaError):
    """A file could not be written; the previous one, if any, is as it was."""


def relative_to_cwd(path: Path) -> Path:
    """Messages name files as the user sees them: relative to where they stand."""
    try:
        return path.absolute().relative_to(Path.cwd())
    except ValueError:
        return path


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all; raise :class:`WriteError` naming it when it fails.

    A symbolic link at ``path`` is replaced by the file, never followed: a
    write cannot land outside the folder it names.  An existing file keeps its
    permissions; a new one gets the usual ones (0666 less the umask).
    """
    with interrupts_held(drop=False), atomic_file(path) as stream:
        stream.write(data)  # in memory already: no interrupt ever meets a temporary file


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[BinaryIO]:
    """A stream whose bytes become ``path`` when the block ends well, and never otherwise.

    For output made piece by piece (an animation's frames): the bytes go to
    the temporary file as they come, so memory stays flat.  Ctrl-C and SIGTERM
    are held only while the file is flushed and put in place; before that,
    they leave the previous file and remove the temporary one.
    """
    partial = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            mode = _mode_of(path)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            with os.fdopen(os.open(partial, flags, 0o666), "wb") as stream:
                if mode is not None:
                    os.fchmod(stream.fileno(), mode)
                yield stream
                with interrupts_held(drop=False):
                    stream.flush()
                    os.fsync(stream.fileno())
                    os.replace(partial, path)
        except BaseException:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise
        _sync_folder(path.parent)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise WriteError(f"cannot write ({reason})", path=str(relative_to_cwd(path))) from None


def write_text_atomically(path: Path, text: str) -> None:
    """:func:`write_atomically` for UTF-8 text."""
    write_atomically(path, text.encode("utf-8"))


def _mode_of(path: Path) -> int | None:
    """The permissions of the regular file at ``path`` (not a link's target), if there is one."""
    try:
        status = path.lstat()
    except OSError:
        return None
    return stat.S_IMODE(status.st_mode) if stat.S_ISREG(status.st_mode) else None


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; a folder that cannot be opened is left to the OS."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)
