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
    """Where a symbolic link at ``path`` leads out of: "the project", "its folder", or None.

    A file reached through a link must stay inside the project the link is in
    (found without following any link), or, outside any project, inside the
    link's own folder; otherwise a diagram could read, publish and quote any
    file on the machine.  ``path`` that is not a link is None: it is where it is.
    """
    if not path.is_symlink():
        return None
    where = Path(os.path.abspath(path))  # the link's own place: no link followed
    root = next((folder for folder in where.parents if (folder / PROJECT_FILE).is_file()), None)
    bound, what = (root, "the project") if root else (where.parent, "its folder")
    return None if path.resolve().is_relative_to(bound.resolve()) else what
