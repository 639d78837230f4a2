"""The editor's files: ``diagrams/<name>.yaml`` listed, opened, and saved whole or not at all.

Several tabs, or ``serve`` rebuilding meanwhile, lose nothing: a save writes a
temporary file beside the diagram and puts it in place in one step, so a
reader sees the old file or the new one, never half of either.  A new name
is taken only if no file has it (a hard link, which fails when the name
exists, even for another process); an opened file is replaced only if it
still holds the bytes it was opened with (their SHA-256), so a save never
silently overwrites another tab's.

Listing and opening go through the one door for project files
(:func:`~dama_diagrams._files.open_project_file`), bound to the project: a
``diagrams/`` that is a link out of the project, a file that leads out of it,
a FIFO or a device is neither listed nor read, as it is never written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..._files import WriteError, open_project_file, write_atomically
from ...diagram.schema import MAX_FILE_BYTES
from ...errors import DamaError
from .._common import DIAGRAMS_DIR
from .checks import EditorError, check_name

_SAVING = threading.Lock()
"""One save at a time in this editor: the check and the write go together."""


def digest(data: bytes) -> str:
    """What the page keeps of an opened file, to tell later whether it changed on disk."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class DiagramFiles:
    """The ``diagrams/`` folder of one project, the only folder the editor writes to."""

    folder: Path

    @classmethod
    def of(cls, project_root: Path) -> DiagramFiles:
        return cls(project_root.resolve() / DIAGRAMS_DIR)

    @property
    def root(self) -> Path:
        """The project: nothing the editor lists, reads or writes may lead out of it."""
        return self.folder.parent

    def names(self) -> list[str]:
        """The ids of the folder's diagram files that the editor can open, sorted."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.glob("*.yaml")):
            with contextlib.suppress(EditorError), self._opened(check_name(path.stem)):
                found.append(path.stem)  # opened, as the editor would: listed
        return found

    def path(self, name: str) -> Path:
        """``diagrams/<name>.yaml``, for a name :func:`check_name` accepts (else 400)."""
        return self.folder / f"{check_name(name)}.yaml"

    def shown(self, name: str) -> str:
        return f"{DIAGRAMS_DIR}/{name}.yaml"

    def read(self, name: str) -> bytes:
        """An existing diagram's bytes; 404 if there is none, 422 if it is no plain file."""
        with self._opened(name) as file:
            data = file.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise EditorError(422, f"{self.shown(name)} is larger than a diagram file can be")
        return data

    @contextlib.contextmanager
    def _opened(self, name: str) -> Iterator[BinaryIO]:
        """``diagrams/<name>.yaml`` opened through the one door, bound to the project.

        404 if there is none; 422 if it is a link (the editor saves no file
        through one), or if the door refuses it: it leads out of the project
        (``diagrams/`` itself may be the link), or it is a FIFO, a device or
        a folder.  Then it is not read, and no word of it is quoted.
        """
        path = self.path(name)
        shown = self.shown(name)
        if not os.path.lexists(path):
            raise EditorError(404, f"there is no {shown}")
        if path.is_symlink():
            raise EditorError(422, f"{shown} is not a plain file; the editor leaves it")
        try:
            with open_project_file(path, shown, DamaError, inside=self.root) as file:
                yield file
        except DamaError as error:
            raise EditorError(422, str(error)) from None

    def save(self, name: str, data: bytes, opened: str | None, replace: str | None = None) -> bool:
        """Write ``diagrams/<name>.yaml``; ``opened`` is the digest of the file as opened.

        Without ``opened`` the name must be new: 409 otherwise, and the refusal
        holds the existing file's digest as ``exists``.  ``replace``, that
        digest sent back, says the author replaces that file knowingly: it is
        replaced only if it still holds those bytes (409 otherwise, with its
        digest now), and written new if it is gone meanwhile.  With ``opened``,
        the file must still hold what was opened (409 otherwise).  Returns
        whether the file was written: an opened file whose text did not change
        is not.
        """
        path = self.path(name)
        shown = self.shown(name)
        twin = path.with_suffix(".yml")
        if self.folder.exists() and not self.folder.resolve().is_relative_to(self.root.resolve()):
            raise EditorError(
                422,
                f"{DIAGRAMS_DIR}/ is a link that leaves the project; the editor writes only in it",
            )
        if opened is not None and replace is not None:
            raise EditorError(400, "a save either edits the opened file or replaces one, not both")
        with _SAVING:
            if twin.exists():
                raise EditorError(
                    409, f"{DIAGRAMS_DIR}/{name}.yml has the same id; choose another name"
                )
            if opened is None and replace is None:
                self._create(path, data)
                return True
            try:
                current = self.read(name)
            except EditorError as error:
                if error.status != 404:
                    raise
                if replace is not None:  # gone since the author said to replace it: nothing lost
                    self._create(path, data)
                    return True
                raise EditorError(
                    409, f"{shown} was removed since you opened it; save under a new name"
                ) from None
            if replace is not None and digest(current) != replace:
                raise EditorError(
                    409,
                    f"{shown} changed on disk since the editor said it exists (another tab or "
                    "editor saved it); it is not replaced",
                    {"exists": digest(current)},
                )
            if opened is not None and digest(current) != opened:
                raise EditorError(
                    409,
                    f"{shown} changed on disk since you opened it (another tab or editor saved "
                    "it); open it again to see that version, or save yours under a new name",
                )
            if current == data:
                return False
            if path.is_symlink():
                raise EditorError(422, f"{shown} is a symbolic link; the editor leaves it")
            write_atomically(path, data)
            return True

    def _create(self, path: Path, data: bytes) -> None:
        """A new file, whole, under a name no file has: else 409, and nothing is written.

        The refusal holds the existing file's digest as ``exists``, which a
        save sends back as ``replace`` when the author confirms replacing it.
        """
        if path.exists() or path.is_symlink():
            raise self._taken(path.stem)
        try:
            write_atomically(path, data, exclusive=True)  # fails if the name was taken meanwhile
        except FileExistsError:
            raise self._taken(path.stem) from None
        except WriteError as error:
            raise EditorError(422, f"{self.shown(path.stem)}: {error.message}") from None

    def _taken(self, name: str) -> EditorError:
        """409: the name is another file's; with its digest, if the editor could replace it."""
        said = f"{self.shown(name)} already exists; open it to edit it, or choose another name"
        try:
            return EditorError(409, said, {"exists": digest(self.read(name))})
        except EditorError:  # a link, a FIFO…: the editor will not replace it either
            return EditorError(409, said)
