"""Where a project is: the nearest folder, upwards, that holds ``mkdocs.yml``.

Stage-neutral, like :mod:`.errors`: a diagram finds the games it names from it,
and the site and the command line find the project they work on.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_FILE = "mkdocs.yml"


def project_root(start: Path) -> Path | None:
    """The project that ``start`` (a file or folder) is in, or None outside any project."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder
    return None


def link_outside(path: Path) -> str | None:
    """Where a symbolic link on the way to ``path`` leads out of: "the project", "its folder".

    A file reached through a link (the file itself, or a folder on its way such
    as a linked ``diagrams/``) must stay inside the project the link is in (found
    without following any link), or, outside any project, inside the first
    link's own folder; otherwise a diagram could read, publish and quote any file
    on the machine.  None when no link on the way leads out, or there is none.
    """
    where = Path(os.path.abspath(path))  # its own place: no link followed
    if os.path.realpath(where) == str(where):
        return None  # no link on the way: it is where it is
    root = next((folder for folder in where.parents if (folder / PROJECT_FILE).is_file()), None)
    if root is not None:
        bound, what = root, "the project"
    else:
        first = next(
            (part for part in (*reversed(where.parents), where) if part.is_symlink()), where
        )
        bound, what = first.parent, "its folder"
    return None if where.resolve().is_relative_to(bound.resolve()) else what
