"""Where a project is: the nearest folder, upwards, that holds ``mkdocs.yml``.

Stage-neutral, like :mod:`.errors`: a diagram finds the games it names from it,
and the site and the command line find the project they work on.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_FILE = "mkdocs.yml"


def project_root(start: Path) -> Path | None:
    """The project that ``start`` (a file or folder) is in, or None outside any project."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder
    return None
