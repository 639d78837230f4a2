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
import hashlib
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ._interrupts import interrupts_held
from ._project import link_outside
from .errors import DamaError


class WriteError(DamaError):
    """A file could not be written; the previous one, if any, is as it was."""


MAX_TEXT_BYTES = 4_000_000
"""What :func:`read_project_file` reads at most, unless told: far more than any page,
list or configuration of a project needs, and a bound however the file lies about its size."""

_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFSOCK: "a socket"}


def read_project_file(
    path: Path,
    shown: str,
    error: type[DamaError],
    *,
    inside: Path | None = None,
    limit: int = MAX_TEXT_BYTES,
    prefix: str = "",
) -> bytes:
    """The bytes of a project file, read through the one door that every reader uses.

    So that no project can make the toolkit read, publish or quote a file of
    the machine, hang, or fill the memory: a path that leads (through a link)
    out of ``inside`` (else out of the project the link is in) is refused
    unread; so is anything but a regular file, found on the opened file (a
    FIFO opens without blocking); and at most ``limit`` + 1 bytes are read,
    whatever ``stat`` says.  Errors are ``error``s naming ``shown``, and never
    quote the file.
    """
    with open_project_file(path, shown, error, inside=inside, prefix=prefix) as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise error(
            f"{prefix}the file is larger than {_size(limit)}, far more than it can need; "
            "make it smaller",
            path=shown,
        )
    return data


@contextlib.contextmanager
def open_project_file(
    path: Path,
    shown: str,
    error: type[DamaError],
    *,
    inside: Path | None = None,
    prefix: str = "",
    links: bool = True,
) -> Iterator[BinaryIO]:
    """A project file opened for reading, checked as :func:`read_project_file` says; unbounded.

    ``links=False`` leaves the link check to a caller that made it already (a
    game named by a diagram), or that reads a file the user named themselves.
    """
    outside = _leaves(path, inside) if links else None
    if outside is not None:
        raise error(
            f"{prefix}is a symbolic link to a file outside {outside}; keep the file inside "
            f"{outside} (copy it in)",
            path=shown,
        )
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise error(f"{prefix}cannot read the file ({exc.strerror or exc})", path=shown) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "a device")
            raise error(
                f"{prefix}is {kind}, not a regular file; put the text file itself here",
                path=shown,
            )
        os.set_blocking(descriptor, True)
        stream = os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise
    with stream:
        try:
            yield stream
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise error(f"{prefix}cannot read the file ({reason})", path=shown) from None


def _leaves(path: Path, inside: Path | None) -> str | None:
    """Where reading ``path`` would lead out of (see :func:`link_outside`), or None."""
    if inside is None:
        return link_outside(path)
    if os.path.realpath(path) == os.path.abspath(path):
        return None  # no link on the way: where it is named
    return None if path.resolve().is_relative_to(inside.resolve()) else "the project"


def _size(limit: int) -> str:
    if limit % 1_000_000 == 0:
        return f"{limit // 1_000_000} MB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit:,} bytes"


def read_cache_entry(
    folder: Path, key: str, suffix: str, signature: bytes, *, depth: int
) -> bytes | None:
    """The bytes kept for ``key`` by :func:`write_cache_entry`; None: make them again.

    A cache holds what the toolkit made, never what a repository brought: an
    entry (``<key>-<sha256 of its bytes><suffix>``) is used only if it is a
    regular file, not a link, directly in ``folder`` (whose last ``depth``
    folders are no links either), starts with ``signature``, and its bytes
    have the hash its name promises.  So a clone that commits a link, or any
    other file, under ``.cache/`` publishes nothing it brought.
    """
    if not _plain_folder(folder, depth):
        return None
    for entry in sorted(folder.glob(f"{key}-*{suffix}")):
        promised = entry.name[len(key) + 1 : len(entry.name) - len(suffix)]
        data = _read_entry(entry)
        if (
            data is not None
            and data.startswith(signature)
            and hashlib.sha256(data).hexdigest() == promised
        ):
            return data
    return None


def write_cache_entry(folder: Path, key: str, suffix: str, data: bytes, *, depth: int) -> None:
    """Keep ``data`` for ``key``, named by its hash; any other entry for ``key`` is removed.

    Nothing is written when the cache folder leads elsewhere through a link.
    Raises :class:`WriteError` when the entry cannot be written.
    """
    if not _plain_folder(folder, depth):
        return
    kept = folder / f"{key}-{hashlib.sha256(data).hexdigest()}{suffix}"
    write_atomically(kept, data)
    for entry in folder.glob(f"{key}-*{suffix}"):
        if entry != kept:
            with contextlib.suppress(OSError):  # a bad entry (a link) goes; its target stays
                entry.unlink()


def _plain_folder(folder: Path, depth: int) -> bool:
    """Whether ``folder`` and its parents up to ``depth`` levels are real folders, not links."""
    return all(not part.is_symlink() for part in [folder, *folder.parents][:depth])


_MAX_ENTRY_BYTES = 200_000_000
"""No book or card is this large: an entry that is, is not one the toolkit wrote."""


def _read_entry(path: Path) -> bytes | None:
    """A regular file's bytes, never through a link; None for anything else."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        os.set_blocking(descriptor, True)
        try:
            data = stream.read(_MAX_ENTRY_BYTES + 1)
        except OSError:
            return None
    return data if len(data) <= _MAX_ENTRY_BYTES else None


def relative_to_cwd(path: Path) -> Path:
    """Messages name files as the user sees them: relative to where they stand."""
    try:
        return path.absolute().relative_to(Path.cwd())
    except ValueError:
        return path


def write_atomically(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Write ``path`` whole or not at all; raise :class:`WriteError` naming it when it fails.

    A symbolic link at ``path`` is replaced by the file, never followed: a
    write cannot land outside the folder it names.  An existing file keeps its
    permissions; a new one gets the usual ones (0666 less the umask).

    With ``exclusive``, the file only takes a name that nothing has, even if
    another process takes it meanwhile: :class:`FileExistsError` otherwise,
    and nothing is written.
    """
    with interrupts_held(drop=False), atomic_file(path, exclusive=exclusive) as stream:
        stream.write(data)  # in memory already: no interrupt ever meets a temporary file


@contextlib.contextmanager
def atomic_file(path: Path, *, exclusive: bool = False) -> Iterator[BinaryIO]:
    """A stream whose bytes become ``path`` when the block ends well, and never otherwise.

    For output made piece by piece (an animation's frames): the bytes go to
    the temporary file as they come, so memory stays flat.  Ctrl-C and SIGTERM
    are held only while the file is flushed and put in place; before that,
    they leave the previous file and remove the temporary one.  With
    ``exclusive``, the file is put in place by a hard link, which fails with
    :class:`FileExistsError` when the name exists: no file is ever replaced.
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
                    if exclusive:
                        os.link(partial, path)  # fails if the name exists, whoever took it
                        partial.unlink()
                    else:
                        os.replace(partial, path)
        except BaseException:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise
        _sync_folder(path.parent)
    except OSError as exc:
        if exclusive and isinstance(exc, FileExistsError):
            raise  # the name is taken: the caller says so in its own words
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
