"""What every part of the site build shares: its error, its file layout, its paths in messages.

The modules of :mod:`dama_diagrams.site` import each other in one direction
only; the names that several of them need live here, so that none of them has
to import a sibling it would otherwise not need.
"""

from __future__ import annotations

import errno
from pathlib import Path

from .._files import relative_to_cwd
from .._project import PROJECT_FILE, project_root
from ..errors import DamaError

BASE_CONFIG = PROJECT_FILE
DIAGRAMS_DIR = "diagrams"
SITE_DIR = "site"
TEMPLATES = Path(__file__).parent / "templates"
OVERRIDES = TEMPLATES / "overrides"
STYLESHEET = "assets/dama.css"
FAVICON = "assets/favicon.svg"
SCRIPTS = ("dama-pages.js", "dama-steps.js", "dama-exercises.js")
"""The site's scripts, in ``templates/``, copied to ``assets/`` (``main.html`` loads them)."""
DIAGRAM_DIR = "assets/diagrams"
SOCIAL_DIR = "assets/social"
LEGEND_DIR = "assets/legend"
"""The legend's icons, one SVG file per entry: every figure of a language shares them."""
DIAGRAM_SIZE = 400
PLUGIN_NAME = "dama-diagrams"
SITE_MARKER = ".dama-diagrams-site"
"""A file in every built site: the folder is ours, and the next build may replace it."""
GAMES_DIR = "games"
SOURCES = (DIAGRAMS_DIR, "docs", GAMES_DIR, BASE_CONFIG)
"""What a build reads: an edit to any of them changes the site."""
PROJECT_INPUTS = (*SOURCES, ".cache")
"""What a build reads, and its card cache: the output folder may not overlap any of them."""


class SiteError(DamaError):
    """The site cannot be built; the message says where and why."""


def find_project_root(start: Path) -> Path:
    """The project that ``start`` is in: the nearest folder, upwards, that holds mkdocs.yml."""
    root = project_root(start)
    if root is not None:
        return root
    here = start.resolve()
    raise SiteError(
        f"no {BASE_CONFIG} in {here} or any folder above it: run dama-diagrams inside a "
        f"project, in the folder that holds {BASE_CONFIG} or in one below it"
    )


_HINTS = {
    errno.ENOTDIR: "a part of the path is a file",
    errno.EEXIST: "a part of the path is a file",
    errno.EACCES: "you may not write there",
    errno.EPERM: "you may not write there",
    errno.EROFS: "the disk is read-only",
    errno.ENOSPC: "the disk is full",
    errno.ENOENT: "the folder cannot hold new files",
}


def os_error(exc: OSError, what: str, *, name_file: bool = True) -> SiteError:
    """An OSError as one line: what failed, where (unless ``what`` says), why, and a hint."""
    reason = exc.strerror or str(exc)
    shown = str(relative_to_cwd(Path(exc.filename))) if exc.filename else ""
    where = f" ({shown})" if name_file and shown and shown not in what else ""
    hint = _HINTS.get(exc.errno or 0)
    fix = f"{hint}; choose another --out" if hint else "choose another --out"
    return SiteError(f"{what}{where}: {reason}; {fix}")


def step_folder(diagram_id: str) -> str:
    """Where a diagram's step pictures go, next to it: ``<id>.steps/<n>.svg``.

    Ids never hold a dot, so no diagram's own file can be in the way.
    """
    return f"{diagram_id}.steps"


def exercise_board(diagram_id: str) -> str:
    """An exercise's board picture, next to its diagram: ``<id>.exercise.svg``."""
    return f"{diagram_id}.exercise.svg"
