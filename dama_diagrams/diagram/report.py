"""Many diagram files at once: every failure collected, none hidden behind the first.

What ``dama-diagrams verify`` and the site build check: the files of a folder
(or as given), each loaded and verified, plus the mistakes that only show
across files (two files with one id, a folder with no diagrams).  A Markdown
page that holds no ``dama`` fence has nothing to check, and is no mistake.

A folder brings its Markdown pages and its diagram files (:func:`folder_files`).
The ``*.yaml`` files of a ``diagrams/`` folder are diagram files, and so is any
file named; a folder's own YAML files are diagram files too unless the folder
is a project's root or holds Markdown pages, where YAML files are configuration
(``mkdocs.yml``, ``docs/terms.yaml``, a club's ``docs/api.yaml``).  Those are
left out, and the report says how many and why (:class:`LeftOut`), so that no
diagram file is skipped unsaid.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .._files import MAX_TEXT_BYTES, open_project_file
from .._project import PROJECT_FILE, link_outside
from ..errors import DamaError, DiagramError, counted, visible
from ._fence_bytes import first_fence_line, reads_past
from .claims import VerifiedDiagram, verify
from .markdown import check_page
from .schema import Diagram, diagram_id, load_diagram


@dataclass(frozen=True, slots=True)
class Failure:
    """A file that did not load, or whose claim the engine refused."""

    path: str
    error: DamaError
    diagram: Diagram | None = None

    @property
    def id(self) -> str:
        return self.diagram.id if self.diagram else diagram_id(self.path)

    @property
    def claim(self) -> str:
        return self.diagram.claim.value if self.diagram else "?"

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A folder's own YAML files that were not taken as diagram files, and why."""

    folder: str
    files: tuple[str, ...]
    why: str
    """Why the folder's YAML files are configuration: it holds pages, or is a project's root."""

    def line(self) -> str:
        """One line of the summary: the folder, how many files, why, and how to check one."""
        return (
            f"{visible(self.folder)}: {counted(len(self.files), 'YAML file')} left out, taken "
            f"for configuration: {self.why}; to verify a diagram file there, name it, or move "
            f"it into a {DIAGRAMS_FOLDER}/ folder"
        )


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """Every file checked, in order: each is verified or a failure."""

    results: tuple[VerifiedDiagram | Failure, ...]
    pages_without_fences: tuple[str, ...] = ()
    """The Markdown pages looked at that hold no ``dama`` fence, so no diagram."""
    left_out: tuple[LeftOut, ...] = ()
    """The YAML files of each folder given that are configuration, not diagram files."""

    def __iter__(self) -> Iterator[VerifiedDiagram | Failure]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    @property
    def verified(self) -> tuple[VerifiedDiagram, ...]:
        return tuple(result for result in self.results if isinstance(result, VerifiedDiagram))

    @property
    def failures(self) -> tuple[Failure, ...]:
        return tuple(result for result in self.results if isinstance(result, Failure))

    @property
    def ok(self) -> bool:
        """Every claim holds, and something was looked at: a diagram, or a page without one.

        Nothing at all (no path, or only folders without diagrams, which are
        failures) is not ok: a check that saw nothing must not pass for one.
        """
        return bool(self.results or self.pages_without_fences) and not self.failures

    def totals(self) -> str:
        """One line: how many diagrams were checked and how many hold."""
        count = len(self.results)
        checked = counted(count, "diagram")
        if not count and self.pages_without_fences:
            pages = len(self.pages_without_fences)
            looked = f"{counted(pages, 'Markdown page')} looked at"
            none = "it holds no dama fence" if pages == 1 else "none holds a dama fence"
            return f"{looked}, {none}: 0 diagrams checked, nothing to verify."
        if self.ok:
            return f"{checked} checked: every claim holds."
        return f"{checked} checked: {len(self.verified)} hold, {len(self.failures)} failed."


def diagram_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files as given, each once; a folder becomes the files :func:`folder_files` lists."""
    return _listed(paths)[0]


@dataclass(frozen=True, slots=True)
class FolderFiles:
    """What a folder brings to ``verify``: see :func:`folder_files`."""

    diagrams: list[Path]
    pages: list[Path]
    left_out: LeftOut | None = None


def folder_files(folder: Path) -> FolderFiles:
    """The diagram files and the Markdown pages of ``folder``, each list sorted.

    Pages: every ``.md`` file in the folder and below it.  Diagram files: the
    ``*.yaml`` files of every ``diagrams/`` folder in it or below it, the ones
    the pre-commit hook's ``files:`` pattern takes, and the folder's own when
    it is a folder of diagrams: one named ``diagrams``, or one that is neither
    a project's root (it holds ``mkdocs.yml`` or a ``diagrams/`` folder) nor a
    folder of pages (it holds Markdown pages, in it or below it).  The own YAML
    files of those two are configuration (``mkdocs.yml``, ``docs/terms.yaml``,
    a club's ``docs/api.yaml``): left out, and said (:class:`LeftOut`).
    Beside each ``*.yaml`` file its ``*.yml`` ones, so that they are reported
    rather than silently skipped.  Hidden files and folders (``.git``,
    ``.venv``, ``.pre-commit-hooks.yaml``) are left out unsaid, and no linked
    folder is walked into; a linked ``diagrams/`` folder is listed, for
    :func:`verify_paths` to check where it leads.
    """
    pages: list[Path] = []
    holders: list[Path] = []
    for where, folders, files in os.walk(folder):
        here = Path(where)
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        pages.extend(here / name for name in files if name.endswith(".md") and _shown(name))
        holders.extend(here / name for name in folders if name == DIAGRAMS_FOLDER)
    why = _configuration(folder, pages)
    diagrams = [file for holder in dict.fromkeys(holders) for file in _yaml_files(holder)]
    if why is None:
        return FolderFiles([*_yaml_files(folder), *diagrams], sorted(pages))
    own = tuple(str(file) for file in _yaml_files(folder))
    return FolderFiles(diagrams, sorted(pages), LeftOut(str(folder), own, why) if own else None)


DIAGRAMS_FOLDER = "diagrams"
"""Where a project's diagram files live, as the site and the pre-commit hook have it."""


def _yaml_files(folder: Path) -> list[Path]:
    """A folder's own ``*.yaml`` files, then its ``*.yml`` ones (hidden ones left out)."""
    return [
        file
        for suffix in ("yaml", "yml")
        for file in sorted(folder.glob(f"*.{suffix}"))
        if _shown(file.name) and not file.is_dir()
    ]


def _is_diagrams_folder(folder: Path) -> bool:
    """Whether ``folder`` is named ``diagrams`` (``.`` too, when that is where one stands)."""
    return Path(os.path.abspath(folder)).name == DIAGRAMS_FOLDER


def _configuration(folder: Path, pages: list[Path]) -> str | None:
    """Why the folder's own YAML files are configuration; None when they are diagram files."""
    if _is_diagrams_folder(folder):
        return None
    if (folder / PROJECT_FILE).is_file() or (folder / DIAGRAMS_FOLDER).is_dir():
        return f"the folder is a project's root (it holds {PROJECT_FILE} or {DIAGRAMS_FOLDER}/)"
    if pages:
        return "the folder holds Markdown pages"
    return None


def _shown(name: str) -> bool:
    """Whether a file is one that a listing takes: hidden ones are not."""
    return not name.startswith(".")


def _listed(paths: Iterable[Path | str]) -> tuple[list[Path], list[Failure], list[LeftOut]]:
    """The files of ``paths``, each once; a failure for each folder that leads outside; and
    each folder's YAML files left out as configuration.

    A folder named, or found, that is a link out of the project (or, outside
    any project, out of its own folder) is refused before any of its files is
    listed: nothing there is read or quoted.
    """
    found: dict[Path, None] = {}
    refused: list[Failure] = []
    left_out: list[LeftOut] = []
    for path in map(Path, paths):
        if not path.is_dir():
            found[path] = None
            continue
        brought = folder_files(path)
        folders = dict.fromkeys([path, *(file.parent for file in brought.diagrams)])
        outside = {folder: folder_outside(folder) for folder in folders}
        refused.extend(Failure(str(f), error) for f, error in outside.items() if error is not None)
        found.update(dict.fromkeys(f for f in brought.diagrams if outside[f.parent] is None))
        if outside[path] is None:
            found.update(dict.fromkeys(brought.pages))
            if brought.left_out is not None:
                left_out.append(brought.left_out)
    return list(found), refused, left_out


def folder_outside(folder: Path) -> DiagramError | None:
    """The refusal of a folder that is a link out of the project (else of its own folder).

    The rule of the one door for project files (:func:`~dama_diagrams._project.link_outside`),
    for a folder, before any of its files is listed or read.
    """
    where = link_outside(folder)
    if where is None:
        return None
    return DiagramError(
        f"is a symbolic link to a folder outside {where}; keep the diagram files inside {where} "
        "(copy them in)",
        path=str(folder),
    )


def check_file(path: Path | str) -> VerifiedDiagram | Failure:
    """Load and verify one file; a problem becomes a Failure, never an exception."""
    name = str(path)
    if name.endswith(".yml"):
        message = "diagram files end in .yaml; rename this file"
        return Failure(name, DiagramError(message, path=name))
    diagram = None
    try:
        diagram = load_diagram(name)
        return verify(diagram)
    except DamaError as error:
        return Failure(name, error, diagram)


def page_files(folder: Path) -> list[Path]:
    """The Markdown pages in ``folder`` and below it (hidden ones, and ``.git``, left out)."""
    return folder_files(folder).pages


def check_markdown(path: Path | str) -> list[VerifiedDiagram | Failure]:
    """Every ``dama`` fence of a Markdown page, each verified or a failure at its line.

    A page whose bytes hold no fence's opening line gives none, however large
    it is and whatever its encoding; one that does is read whole, as UTF-8
    text of at most 4 MB.
    """
    name = str(path)
    try:
        with open_project_file(Path(path), name, DiagramError) as stream:
            opening = first_fence_line(stream)
            too_large = opening is not None and reads_past(stream, MAX_TEXT_BYTES)
        if opening is None:
            return []
        if too_large:
            size = f"{MAX_TEXT_BYTES // 1_000_000} MB"
            message = (
                f"a dama fence opens here, but the page is larger than {size}, more than "
                "dama-diagrams reads; split it into smaller pages"
            )
            return [Failure(name, DiagramError(message, path=name, line=opening))]
        fences = check_page(Path(path))
    except DamaError as error:
        return [Failure(name, error)]
    return [
        result.verified
        if result.verified is not None
        else Failure(name, result.error or DiagramError("not verified", path=name), result.diagram)
        for result in fences
    ]


def verify_paths(paths: Iterable[Path | str]) -> VerifyReport:
    """Check every file, collecting every failure rather than stopping at the first.

    A Markdown file (``.md``) brings the diagrams of its ``dama`` fences, each
    checked at its line in the page.
    """
    given = list(paths)
    files, refused, left_out = _listed(given)
    results: list[VerifiedDiagram | Failure] = list(refused)
    pages_with_fences: list[Path] = []
    pages_without: list[Path] = []
    for path in files:
        if path.suffix == ".md":
            found = check_markdown(path)
            results.extend(found)
            (pages_with_fences if found else pages_without).append(path)
        else:
            results.append(check_file(path))
    yaml_files = [path for path in files if path.suffix != ".md"]
    looked_at = [*yaml_files, *(Path(failure.path) for failure in refused)]
    results.extend(_empty_folders(given, looked_at, pages_with_fences, pages_without))
    without = tuple(map(str, pages_without))
    return VerifyReport(tuple(_flag_duplicate_ids(results)), without, tuple(left_out))


def verify_directory(path: Path | str = "diagrams") -> VerifyReport:
    """Check every ``*.yaml`` file of a folder (by default ``diagrams/``)."""
    return verify_paths([path])


def _empty_folders(
    given: list[Path | str], files: list[Path], with_fences: list[Path], without: list[Path]
) -> list[Failure]:
    """A failure for each folder given that brought nothing to check.

    A folder of pages (:func:`folder_files`) brought its pages, even without a
    fence, as pages given by name do; a ``diagrams/`` folder, only diagrams.
    """
    empty = []
    for folder in map(Path, given):
        if not folder.is_dir() or any(file.is_relative_to(folder) for file in files):
            continue
        looked_at = with_fences if _is_diagrams_folder(folder) else [*with_fences, *without]
        if not any(page.is_relative_to(folder) for page in looked_at):
            message = "this folder holds no diagram files (*.yaml) and no page with a dama fence"
            empty.append(Failure(str(folder), DiagramError(message, path=str(folder))))
    return empty


def _flag_duplicate_ids(
    results: list[VerifiedDiagram | Failure],
) -> list[VerifiedDiagram | Failure]:
    """Two files with one id would overwrite each other on the site."""
    first: dict[str, str] = {}
    flagged: list[VerifiedDiagram | Failure] = []
    for result in results:
        path = result.diagram.path if isinstance(result, VerifiedDiagram) else result.path
        if path.endswith(".md"):  # a page's diagrams are drawn in the page, under no file name
            flagged.append(result)
            continue
        if result.id in first and first[result.id] != path:
            message = f"the id {result.id!r} is also the id of {first[result.id]}; rename one"
            diagram = result.diagram if isinstance(result, VerifiedDiagram) else None
            flagged.append(Failure(path, DiagramError(message, path=path, line=1), diagram))
            continue
        first.setdefault(result.id, path)
        flagged.append(result)
    return flagged
