"""Where a command runs: the project around the current folder, and how paths are shown."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import DamaError

Handler = Callable[[argparse.Namespace, TextIO], int]

if TYPE_CHECKING:
    from typing import TypeAlias

    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


SITE_EXTRA = {
    "cairocffi": "cairocffi",
    "cairosvg": "CairoSVG",
    "material": "Material for MkDocs",
    "mkdocs": "MkDocs",
    "PIL": "Pillow",
    "typst": "Typst",
}
"""The modules of ``pip install 'dama-diagrams[site]'``, by the name a user knows them by.

The core install (the engine, ``verify``, the fence, SVG) needs none of them; a
command that does says which is missing and how to install it.
"""


def missing_extra(command: str, module: str) -> DamaError:
    """One line: ``command`` needs ``module`` of the site extra, and the ``pip`` that brings it."""
    return DamaError(
        f"{command} needs {SITE_EXTRA[module]}, which is not installed; it comes with the "
        "site extra: pip install 'dama-diagrams[site]'"
    )


def need_site_extra(command: str, *modules: str) -> None:
    """Stop ``command`` before it reads or writes anything when the site extra is missing."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise missing_extra(command, module)


def project_root() -> Path:
    """The project the command runs in, from any folder inside it."""
    from ..site._common import find_project_root

    return find_project_root(Path.cwd())


def project_root_or_none() -> Path | None:
    """The project, for commands that also work on plain folders of diagrams."""
    try:
        return project_root()
    except DamaError:
        return None


def shown(path: Path) -> Path:
    """``path`` as the user would type it where they stand (``../diagrams``)."""
    return Path(os.path.relpath(path))


def errors_of(out: TextIO) -> TextIO:
    """Where refusals go: stderr when output is stdout, else the same stream (as tests pass)."""
    return sys.stderr if out is sys.stdout else out


def default_diagrams() -> list[Path]:
    """``diagrams/`` of the project, or of the current folder outside any project.

    A ``diagrams/`` that is a link out of the project (or out of the current
    folder) is refused before anything in it is listed or read, as the one
    door for project files refuses such a file.
    """
    from ..diagram.report import folder_outside

    root = project_root_or_none()
    folder = shown(root / "diagrams") if root else Path("diagrams")
    refused = folder_outside(folder)
    if refused is not None:
        raise refused
    return [folder]
