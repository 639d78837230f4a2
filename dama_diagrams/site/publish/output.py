"""Where the site goes: a folder that only a build made, replaced atomically.

A build writes everything into a staging folder next to the output folder and
swaps it in at the end, so a failed build leaves the previous site as it was.
A build only ever replaces a folder that carries :data:`SITE_MARKER`, and it
removes the staging folders of builds whose process is gone.  The marker also
seals each language folder with this machine's key (:func:`marker_text`), so
that a partial build keeps only a language that this machine built
(:func:`sealed_languages`), never one a clone brought.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import hmac
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..._files import machine_key, relative_to_cwd
from ..._interrupts import interrupts_held
from .._common import PROJECT_INPUTS, SITE_MARKER, SiteError, os_error

MARKER_TEXT = (
    "This folder was built by dama-diagrams. The next `dama-diagrams build` into it\n"
    "replaces it as a whole: keep nothing else here.\n"
)


def check_out(project_root: Path, out: Path) -> None:
    """Refuse an output folder that a build must not replace (both paths resolved).

    A build replaces ``out`` as a whole, so ``out`` may not be the project
    folder or one of its parents, may not overlap what the build reads
    (:data:`PROJECT_INPUTS`: ``diagrams/``, ``docs/``, ``mkdocs.yml``, the card
    cache), and may not be a file.  If it exists it must be an empty folder or
    a folder with the :data:`SITE_MARKER` file that every build writes:
    anything else is someone's data.
    """
    shown = relative_to_cwd(out)
    if out == project_root or out in project_root.parents:
        raise SiteError(
            f"cannot build into {shown}: it is the project folder or contains it, and the "
            f"build replaces its output folder; choose a new or empty folder such as site/"
        )
    for name in PROJECT_INPUTS:
        source = (project_root / name).resolve()
        if out == source or out in source.parents or source in out.parents:
            raise SiteError(
                f"cannot build into {shown}: it overlaps the project's {name}, which the "
                f"build reads; choose a folder outside it, such as site/"
            )
    if not out.exists():
        return
    if not out.is_dir():
        raise SiteError(
            f"cannot build into {shown}: it is a file, not a folder; "
            f"choose a new or empty folder such as site/"
        )
    try:
        empty = next(out.iterdir(), None) is None
    except OSError as exc:
        raise os_error(exc, f"cannot read the output folder {shown}") from exc
    if empty or (out / SITE_MARKER).is_file():
        return
    raise SiteError(
        f"cannot build into {shown}: it is not empty and was not made by dama-diagrams "
        f"(no {SITE_MARKER} file), and the build would replace everything in it; "
        f"choose a new or empty folder, or delete this one yourself"
    )


def make_parent(out: Path) -> None:
    """Create the folder that will hold ``out`` and its staging folder."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, f"cannot create the folder {relative_to_cwd(out.parent)}") from exc
    if not out.parent.is_dir():  # mkdir(exist_ok=True) accepts a symlink to a file
        raise SiteError(
            f"cannot create the folder {relative_to_cwd(out.parent)}: it is a file; "
            f"choose another --out"
        )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: another user's process
        return True
    return True


def sweep_stale(folder: Path, prefix: str) -> None:
    """Remove temporary folders ``<prefix><pid>-*`` in ``folder`` whose process is gone.

    A build names its staging folder with its PID, so a build killed by
    SIGKILL or a power cut leaves a folder that the next build removes.
    """
    pattern = re.compile(rf"{re.escape(prefix)}(\d+)-[a-z0-9_]+")
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if not match or not entry.is_dir() or entry.is_symlink():
            continue
        pid = int(match.group(1))
        if pid != os.getpid() and not _pid_alive(pid):
            shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def staging_folder(out: Path) -> Iterator[Path]:
    """A temporary folder beside ``out``, named with this PID; removed if the build fails.

    On success, :func:`publish` removes it.  A folder left by a build that was
    killed (SIGKILL cannot be caught) is removed by the next build.
    """
    sweep_stale(out.parent, f".{out.name}-build-")
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-build-{os.getpid()}-", dir=out.parent))
    except OSError as exc:
        where = f"cannot write into {relative_to_cwd(out.parent)}"
        raise os_error(exc, where, name_file=False) from exc
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def publish(new: Path, out: Path, staging: Path, *, marker: str = MARKER_TEXT) -> None:
    """Put ``new`` in place of ``out`` and remove ``staging``, which ``new`` is in.

    The old site goes only once the new one is in place, and no signal can
    come between the two: there is always exactly one site at ``out``.  An
    interrupt during the swap or the cleanup is dropped: it would otherwise
    leave no site, or the staging folder and a failure for a site in place.
    Where the system can (Linux), the two folders are exchanged in one step, so
    that ``out`` is never missing, and two builds that publish at once both
    succeed (the later one's site stays).  ``marker`` is what :data:`SITE_MARKER`
    says: :func:`marker_text`, for a site whose languages a partial build may keep.
    """
    (new / SITE_MARKER).write_text(marker, encoding="utf-8")
    with interrupts_held(drop=True):
        try:
            _swap_in(new, out, staging / "old")
        except OSError as exc:
            where = f"cannot put the site in place at {relative_to_cwd(out)}"
            raise os_error(exc, where) from exc
        shutil.rmtree(staging, ignore_errors=True)


_TRIES = 20
"""Publishes racing for one ``out`` folder: each try but the last finds it taken anew."""


def _swap_in(new: Path, out: Path, old: Path) -> None:
    """``new`` at ``out``; what was at ``out``, if anything, ends up inside the staging folder."""
    for _ in range(_TRIES):
        if out.exists() and _exchange(new, out):
            return  # the old site is now at new's place, inside the staging folder
        try:
            if out.exists():
                out.rename(old)
            try:
                new.rename(out)
                return
            except OSError as exc:
                if old.exists() and not out.exists():
                    old.rename(out)
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
        except FileNotFoundError:
            pass  # another build moved out away a moment ago: try again
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)  # a site another build replaced meanwhile
    raise OSError(errno.EBUSY, "other builds keep publishing into it", str(out))


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2``); False where that cannot be done."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    done = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code == errno.ENOENT:
        return False  # second is gone meanwhile: a plain rename will do
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EPERM):
        return False  # an older kernel or a file system without it
    raise OSError(code, os.strerror(code), str(second))


def link_tree(source: Path, target: Path) -> None:
    """A copy of ``source`` made of hard links: a language a partial build keeps costs nothing.

    Where the file system cannot link, the files are copied.
    """

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    try:
        shutil.copytree(source, target, copy_function=link, symlinks=True)
    except OSError as exc:
        raise os_error(exc, f"cannot keep {relative_to_cwd(source)} from the earlier site") from exc


# --- which languages this machine built -------------------------------------------------

_SEALED = re.compile(r"^sealed (\S+) ([0-9a-f]{64})$", re.MULTILINE)
"""A marker's line that seals one language folder (:func:`marker_text`)."""
_MARKER_BYTES = 64 * 1024
"""A marker is a few hundred bytes: a larger one is not this toolkit's, and is not read."""


def marker_text(site: Path, languages: Sequence[str], project_root: Path) -> str:
    """:data:`MARKER_TEXT`, and a seal for each of ``languages`` in ``site``, as built here.

    A seal is an HMAC, under this machine's key (:func:`..._files.machine_key`),
    of the language's code and of every file in its folder, names and bytes: no
    repository holds the key, so a folder that a clone brings, or that was
    changed after the build, has no seal that holds.  Without a key (no cache
    folder of this user's), nothing is sealed.
    """
    secret = machine_key(project_root)
    seals = [
        f"sealed {code} {seal}\n"
        for code in languages
        if secret is not None and (seal := _seal(secret, site, code)) is not None
    ]
    return MARKER_TEXT + "".join(seals)


def sealed_languages(out: Path, languages: Sequence[str], project_root: Path) -> list[str]:
    """Those of ``languages`` whose folder in the site at ``out`` this machine built, as it was.

    A language whose seal in the marker does not hold (a site a clone brought,
    a folder changed since, a marker another machine wrote) is not among them,
    nor is any without a seal.
    """
    secret = machine_key(project_root)
    if secret is None or not languages:
        return []
    seals = dict(_SEALED.findall(_read_marker(out / SITE_MARKER)))
    return [
        code
        for code in languages
        if code in seals and (seal := _seal(secret, out, code)) is not None
        if hmac.compare_digest(seal, seals[code])
    ]


def _read_marker(path: Path) -> str:
    """The marker's text; empty when it is not a small regular file (a link, a FIFO...)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return ""
        try:
            data = stream.read(_MARKER_BYTES + 1)
        except OSError:
            return ""
    return "" if len(data) > _MARKER_BYTES else data.decode("utf-8", "replace")


def _seal(secret: bytes, site: Path, code: str) -> str | None:
    """This machine's HMAC of ``site/<code>``; None if it holds anything a build never makes."""
    sealed = hmac.new(secret, f"dama-diagrams site\0{code}\0".encode(), hashlib.sha256)
    top = site / code
    try:
        if not stat.S_ISDIR(top.lstat().st_mode):
            return None  # a link, a file
        return sealed.hexdigest() if _add_tree(sealed, top) else None
    except OSError:
        return None


def _add_tree(sealed: hmac.HMAC, top: Path) -> bool:
    """Add each name and file under ``top`` to ``sealed``, in order; False at a link or device."""
    folders = [("", top)]
    while folders:
        prefix, folder = folders.pop()
        with os.scandir(folder) as found:
            entries = sorted(found, key=lambda entry: entry.name)
        for entry in entries:
            name = f"{prefix}{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                sealed.update(f"d\0{name}\0".encode("utf-8", "surrogateescape"))
                folders.append((f"{name}/", Path(entry.path)))
            elif entry.is_file(follow_symlinks=False):
                sealed.update(f"f\0{name}\0".encode("utf-8", "surrogateescape"))
                if not _add_file(sealed, entry.path):
                    return False
            else:
                return False  # MkDocs writes neither links, FIFOs nor devices
    return True


def _add_file(sealed: hmac.HMAC, path: str) -> bool:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    with os.fdopen(os.open(path, flags), "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            return False
        sealed.update(hashlib.file_digest(stream, "sha256").digest())
    return True
