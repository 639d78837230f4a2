"""Every file the toolkit writes is whole: the new one, or the one from before.

Stage-neutral, like :mod:`.errors`: found diagrams, pictures, animations, PO
files and cards all go through :func:`write_atomically`.  The bytes go to a
temporary file in the same folder, are flushed to the disk, and then replace
the target in one rename, so neither a reader nor a crash, a full disk,
Ctrl-C or SIGTERM ever leaves half a file or a stray temporary one: for
bytes already in memory, Ctrl-C and SIGTERM wait the few milliseconds until
the file is in place.  Only a regular file is ever replaced: a device, a
FIFO, a socket, a folder or a symbolic link at the name is refused, and left
as it is (``--out /dev/null`` run as root would otherwise replace the
system's ``/dev/null`` by a file).
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import hmac
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ._interrupts import interrupts_held
from ._project import link_outside
from .errors import DamaError, visible


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


CACHE_FOLDER = "dama-diagrams"
"""This toolkit's folder in the user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``)."""
CACHE_KEY = "cache-key"
"""The file there that holds this machine's key for the caches (:func:`machine_key`)."""
_KEY_BYTES = 32


def user_cache_folder() -> Path | None:
    """``$XDG_CACHE_HOME/dama-diagrams``, else ``~/.cache/dama-diagrams``; None without a home.

    As the XDG base directory specification says, a relative ``XDG_CACHE_HOME`` is ignored.
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / CACHE_FOLDER


def machine_key(project: Path) -> bytes | None:
    """This user's secret key for the caches of ``project``; None: keep no cache.

    Made at random the first time, in :func:`user_cache_folder` (readable by
    this user alone), so outside every project: no repository can bring it,
    so no clone can bring a cache entry that passes for this machine's.  A key
    where a clone could have put it is never used, nor made there: inside
    ``project`` (a home folder that is the project), or inside the git work
    tree the project is in (a home folder that is a monorepo's root, the site
    in a subfolder).
    A key that is a link, not this user's, readable by others, or with other
    hard links is made again.  :func:`cache_key_warning` says either in one line.
    """
    return _machine_key(project)[0]


def cache_key_warning(project: Path) -> str | None:
    """Why the caches of ``project`` go unused, or start afresh: one line; None if all is well.

    For a command that uses the caches to say once (its workers read them
    without a word); it makes the key when there is none, as the first entry would.
    """
    return _machine_key(project)[1]


def _machine_key(project: Path) -> tuple[bytes | None, str | None]:
    """The key and its warning, read again for every entry (32 bytes): a new key is seen at once."""
    folder = user_cache_folder()
    if folder is None:
        return None, None  # no home: books and cards are made each time
    path = folder / CACHE_KEY
    shown = visible(str(path))
    where = _brought_in(path, project)
    if where is not None:
        return None, (
            f"the cache key {shown} is not used: it lies inside {where}, where a clone can "
            "bring one in; books and cards are made anew, and none is kept; set "
            "XDG_CACHE_HOME to a folder of your own outside every repository"
        )
    key, unfit = _read_key(path)
    if key is not None:
        return key, None
    try:
        _make_key(path, replace=unfit is not None)
    except OSError as exc:
        if unfit is None:
            return None, None  # no cache folder (a read-only home): made each time, as documented
        return None, (
            f"the cache key {shown} is not used: {unfit}, and no new one can be made there "
            f"({exc.strerror or exc}); books and cards are made anew, and none is kept"
        )
    key, _ = _read_key(path)  # what is there now, whoever made it
    if unfit is None or key is None:
        return key, None
    return key, (
        f"the cache key {shown} was not used: {unfit}; a new one is made, so the books and "
        "cards are made anew once"
    )


def _brought_in(path: Path, project: Path) -> str | None:
    """The project, or the git work tree it is in, that ``path`` lies in (links resolved).

    Only the project's own work tree counts: a clone of it could bring the key.
    A home folder kept in a repository of its own (dotfiles in ``~/.git``) holds
    a project kept in another repository, and its key is this user's.
    """
    real = Path(os.path.realpath(path))
    inside = project.resolve()
    if real.is_relative_to(inside):
        return f"the project {visible(str(project))}"
    for folder in (inside, *inside.parents):
        if os.path.lexists(folder / ".git"):  # a folder, or a file (a worktree, a submodule)
            return (
                f"the git work tree {visible(str(folder))}" if real.is_relative_to(folder) else None
            )
    return None


def _make_key(path: Path, *, replace: bool) -> None:
    """A new random key at ``path``, this user's alone, in place of one not fit to trust.

    Without ``replace`` (no key was there), a key another process makes
    meanwhile wins.  Raises :class:`OSError` when the cache folder cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        with os.fdopen(os.open(partial, flags, 0o600), "wb") as stream:
            os.fchmod(stream.fileno(), 0o600)  # whatever the umask
            stream.write(secrets.token_bytes(_KEY_BYTES))
            stream.flush()
            os.fsync(stream.fileno())
        if replace:
            os.replace(partial, path)  # a key not fit to trust: this one instead
        else:
            with contextlib.suppress(FileExistsError):  # another process made one: its key
                os.link(partial, path)
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()


def _read_key(path: Path) -> tuple[bytes | None, str | None]:
    """The key at ``path`` if it is fit to trust; else None, and why not (None: no key there).

    Fit to trust: a regular file, no link, this user's alone, with no other
    name (a hard link could be a repository's file) than the temporary one
    that :func:`_make_key` gives it for a moment.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if os.path.islink(path):
            return None, "it is a symbolic link"
        return None, f"it cannot be read ({exc.strerror or exc})"
    with os.fdopen(descriptor, "rb") as stream:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return None, "it is not a regular file"
        if status.st_uid != os.geteuid():
            return None, "it belongs to another user"
        if status.st_mode & 0o077:
            return None, "others may read or change it"
        if not _only_name(path, descriptor):
            return None, "it has other hard links, one of which may be a repository's file"
        try:
            key = stream.read(_KEY_BYTES + 1)
        except OSError as exc:
            return None, f"it cannot be read ({exc.strerror or exc})"
    if len(key) != _KEY_BYTES:
        return None, f"it holds {len(key)} bytes, not {_KEY_BYTES}"
    return key, None


def _only_name(path: Path, descriptor: int) -> bool:
    """Whether the open key has no name but ``path`` and a new key's temporary one."""
    status = os.fstat(descriptor)
    if status.st_nlink <= 1:
        return True
    ours = 0
    with contextlib.suppress(OSError):
        for entry in path.parent.glob(f"{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                ours += os.path.samestat(entry.lstat(), status)
    return os.fstat(descriptor).st_nlink <= 1 + ours  # the temporary name may go meanwhile


def read_cache_entry(
    folder: Path, key: str, suffix: str, signature: bytes, *, depth: int
) -> bytes | None:
    """The bytes kept for ``key`` by :func:`write_cache_entry`; None: make them again.

    A cache holds what this machine made, never what a repository brought: an
    entry is named ``<key>-<its seal><suffix>``, the seal being an HMAC of the
    key and the bytes under :func:`machine_key`, which no repository holds.
    It is used only if that seal is right, it is a regular file, not a link,
    directly in ``folder`` (whose last ``depth`` folders are no links either,
    and the folder above them is the project), and starts with ``signature``.
    So a clone that commits any file under ``.cache/`` (a forged PDF named
    with its hash, another machine's genuine entry, a link) publishes nothing
    it brought: the book or card is made again.
    """
    secret = _cache_key(folder, depth)
    if secret is None or not _plain_folder(folder, depth):
        return None
    for entry in sorted(folder.glob(f"{key}-*{suffix}")):
        promised = entry.name[len(key) + 1 : len(entry.name) - len(suffix)]
        data = _read_entry(entry)
        if (
            data is not None
            and data.startswith(signature)
            and hmac.compare_digest(_seal(secret, key, suffix, data), promised)
        ):
            return data
    return None


def write_cache_entry(folder: Path, key: str, suffix: str, data: bytes, *, depth: int) -> None:
    """Keep ``data`` for ``key``, sealed by this machine; any other entry for ``key`` is removed.

    Nothing is written when the cache folder leads elsewhere through a link,
    or when this machine has no key (no writable cache folder of its own).
    Raises :class:`WriteError` when the entry cannot be written.
    """
    secret = _cache_key(folder, depth)
    if secret is None or not _plain_folder(folder, depth):
        return
    kept = folder / f"{key}-{_seal(secret, key, suffix, data)}{suffix}"
    write_atomically(kept, data, replace_link=True)  # a link there is a bad entry: it goes
    for entry in folder.glob(f"{key}-*{suffix}"):
        if entry != kept:
            with contextlib.suppress(OSError):  # a bad entry (a link) goes; its target stays
                entry.unlink()


def _cache_key(folder: Path, depth: int) -> bytes | None:
    """:func:`machine_key` for the project that holds ``folder``, ``depth`` folders up."""
    return machine_key(folder.parents[depth - 1] if depth else folder)


def _seal(secret: bytes, key: str, suffix: str, data: bytes) -> str:
    """What names an entry: this machine's HMAC-SHA256 of its key, suffix and bytes."""
    sealed = hmac.new(secret, f"{key}\0{suffix}\0".encode(), hashlib.sha256)
    sealed.update(data)
    return sealed.hexdigest()


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


def write_atomically(
    path: Path, data: bytes, *, exclusive: bool = False, replace_link: bool = False
) -> None:
    """Write ``path`` whole or not at all; raise :class:`WriteError` naming it when it fails.

    Only a regular file (or nothing) at ``path`` is replaced: anything else is
    refused and left as it is (:func:`atomic_file`).  A symbolic link is never
    followed: a write cannot land outside the folder it names.  An existing
    file keeps its permissions; a new one gets the usual ones (0666 less the
    umask).

    With ``exclusive``, the file only takes a name that nothing has, even if
    another process takes it meanwhile: :class:`FileExistsError` otherwise,
    and nothing is written.
    """
    with (
        interrupts_held(drop=False),
        atomic_file(path, exclusive=exclusive, replace_link=replace_link) as stream,
    ):
        stream.write(data)  # in memory already: no interrupt ever meets a temporary file


@contextlib.contextmanager
def atomic_file(
    path: Path, *, exclusive: bool = False, replace_link: bool = False
) -> Iterator[BinaryIO]:
    """A stream whose bytes become ``path`` when the block ends well, and never otherwise.

    For output made piece by piece (an animation's frames): the bytes go to
    the temporary file as they come, so memory stays flat.  Ctrl-C and SIGTERM
    are held only while the file is flushed and put in place; before that,
    they leave the previous file and remove the temporary one.  With
    ``exclusive``, the file is put in place by a hard link, which fails with
    :class:`FileExistsError` when the name exists: no file is ever replaced.

    A rename replaces whatever has the name, so what is there is looked at
    first, and again just before the rename: a device (``/dev/null``), a
    FIFO, a socket, a folder, or a symbolic link (to a file, or to
    ``/proc/self/fd/1``) is a :class:`WriteError`, one line, and stays as it
    is.  ``replace_link`` lets the file replace a link (never its target): for
    a cache entry, and for ``find --force``, which the user asked for.
    """
    partial = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        try:
            make_output_folder(path.parent)
            mode = _mode_to_keep(path, replace_link)  # before the first byte is written
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
                        _mode_to_keep(path, replace_link)  # nothing else took the name meanwhile
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


def write_text_atomically(path: Path, text: str, *, replace_link: bool = False) -> None:
    """:func:`write_atomically` for UTF-8 text."""
    write_atomically(path, text.encode("utf-8"), replace_link=replace_link)


_NOT_FILES = {
    **_KINDS,
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFLNK: "a symbolic link",
}


def refuse_unless_replaceable(path: Path) -> None:
    """Raise the :class:`WriteError` that writing ``path`` would: for a caller that checks first.

    A command that makes a file in a worker (a book) or at length asks here
    before it starts, so that its refusal is one line, and nothing is made for naught.
    """
    _mode_to_keep(path, replace_link=False)


def make_output_folder(path: Path) -> None:
    """Make the folder ``path`` (and its parents) for output; a :class:`WriteError` if it cannot be.

    A name that is already something else (a file, a FIFO, a device) is
    refused in one line, and left as it is.
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        shown = str(relative_to_cwd(path))
        try:
            kind = stat.S_IFMT(path.lstat().st_mode)
        except OSError:
            kind = None
        if kind is not None and kind != stat.S_IFDIR:
            what = _NOT_FILES.get(kind, "a regular file")
            message = f"is {what}, not a folder; name a folder, or a new one"
            raise WriteError(message, path=shown) from None
        reason = exc.strerror or str(exc)
        raise WriteError(f"cannot make the folder ({reason})", path=shown) from None


def _mode_to_keep(path: Path, replace_link: bool) -> int | None:
    """The permissions of the regular file at ``path``, None if there is none to keep.

    Anything but a regular file there (a link only with ``replace_link``) is a
    :class:`WriteError`: it is never replaced, and nothing is written.
    """
    try:
        status = path.lstat()
    except OSError:
        return None
    kind = stat.S_IFMT(status.st_mode)
    if kind == stat.S_IFREG:
        return stat.S_IMODE(status.st_mode)
    if kind == stat.S_IFLNK and replace_link:
        return None
    fix = (
        "name the file it points to, or put a regular file in its place"
        if kind == stat.S_IFLNK
        else "name a regular file, or a new one"
    )
    raise WriteError(
        f"is {_NOT_FILES.get(kind, 'not a file')}, not a regular file, and is left as it is; {fix}",
        path=str(relative_to_cwd(path)),
    )


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
