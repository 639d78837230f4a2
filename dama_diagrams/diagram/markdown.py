"""Diagrams written in Markdown pages: ```` ```dama ```` fences, found and checked at their line.

A page of any site may hold a diagram in a fenced block whose language is
``dama``: its body is the YAML of a diagram file, or ``file: diagrams/x.yaml``,
which names one.  This module finds those fences (the same way for
``dama-diagrams verify`` and for the Markdown fence of :mod:`dama_diagrams.site.fence`)
and checks each one, so that an error names the page and the line inside it:
the fence's own line plus the line inside the YAML.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import yaml

from .._files import read_project_file
from .._project import project_root
from ..errors import DamaError, DiagramError, shorten
from ._yaml import YamlError, compose_yaml
from .claims import VerifiedDiagram, verify
from .schema import ID_PATTERN, MAX_FILE_BYTES, Diagram, load_diagram, parse_diagram

FENCE_LANGUAGE = "dama"
OPTIONS = ("lang", "id")
"""What a fence's header may set: ``lang="it"`` (the words around it) and ``id="name"``."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""Where Python-Markdown breaks lines: a page saved with CR alone is read as MkDocs reads it."""
_PREFIX = re.compile(r"[ \t>]*")
"""What may stand before a fence: an indent (a list, an admonition, a tab) and block quotes."""
_QUOTE = re.compile(r"[ \t]*> ?")
TAB = 4
"""Python-Markdown's tab width, with which superfences measures a fence's indent."""
_OPENING = re.compile(
    r"(?P<fence>`{3,}|~{3,})[ \t]*"
    r"(?:\{[ \t]*\.?(?P<class>(?i:dama))(?=[\s}])(?P<attributes>[^}]*)\}"
    r"|\.?(?P<language>(?i:dama))(?![\w#.+-])(?P<header>[^`]*))[ \t]*"
)
_READABLE_OPTIONS = re.compile(
    r"""(?:[ \t]*[a-zA-Z][a-zA-Z0-9_]*(?:=(?P<quote>["']).*?(?P=quote))?(?=[ \t]|$))*[ \t]*"""
)
"""The options ``pymdownx.superfences`` reads after a fence's language; it shows any other
header as code, so a fence whose header it cannot read would go out unchecked."""
_OPTION = re.compile(
    r"""(?P<key>[A-Za-z_][\w-]*)[ \t]*=[ \t]*(?:"(?P<q>[^"]*)"|'(?P<s>[^']*)'|(?P<v>\S+))"""
)


@dataclass(frozen=True, slots=True)
class Fence:
    """One ``dama`` fence of a page: where it opens, its options and its body."""

    line: int
    """The line of the opening ```` ``` ```` in the page (1-based); the body starts below it."""
    body: str
    options: Mapping[str, str]
    unknown: tuple[str, ...] = ()
    """Header words that are no option: refused when the fence is checked."""
    unquoted: tuple[str, ...] = ()
    """Options written without quotes (``lang=it``), which superfences does not read."""
    unreadable: str = ""
    """Why superfences would show the fence as code, not as a diagram; empty when it reads it."""


def dama_fences(text: str) -> list[Fence]:
    """Every ``dama`` fence of a Markdown text, in order (fences of other languages are skipped).

    A fence may be indented, inside an admonition, a list or a content tab,
    as ``pymdownx.superfences`` finds it there too; its body loses that indent.
    """
    lines = _LINE_BREAK.split(text)
    found: list[Fence] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        prefix = _PREFIX.match(line)
        rest = line[prefix.end() if prefix else 0 :]
        opening = _OPENING.fullmatch(rest)
        other = re.fullmatch(r"(`{3,}|~{3,}).*", rest)
        if opening is None and other is None:
            index += 1
            continue
        fence = opening["fence"] if opening else other[1] if other else ""
        quotes = prefix.group().count(">") if prefix else 0
        indent = _indent(_unquote(line, quotes))
        end = index + 1
        closing = re.compile(rf"[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*")
        while end < len(lines) and not closing.fullmatch(_unquote(lines[end], quotes)):
            end += 1
        if opening is not None:
            body = [_dedent(_unquote(part, quotes), indent) for part in lines[index + 1 : end]]
            header = opening["header"]
            options, unknown, unquoted = _options(opening["attributes"] or header or "")
            if header is None:  # { .dama lang=it }: attribute lists need no quotes
                unquoted = ()
            body_text = "\n".join(body) + "\n"
            problem = _unreadable(opening["language"] or opening["class"], header or "")
            if end >= len(lines) and not problem:
                problem = (
                    f"this dama fence is never closed: end it with a line of {fence}, "
                    "or the page shows it as text"
                )
            found.append(Fence(index + 1, body_text, options, unknown, unquoted, problem))
        index = end + 1
    return found


def _unreadable(language: str, header: str) -> str:
    """Why superfences would not read a fence's opening line as a ``dama`` fence, or ``""``."""
    if language != FENCE_LANGUAGE:
        return (
            f"write the fence's language as {FENCE_LANGUAGE}, in lower case, not "
            f"{shorten(language)}: superfences takes {shorten(language)} for another language "
            "and shows the fence as code"
        )
    if _READABLE_OPTIONS.fullmatch(header):
        return ""
    return (
        f"superfences cannot read the options {shorten(header.strip())} of this dama fence, "
        'and would show it as code: write each as lang="it" or id="name", with quotes and '
        "no spaces around '=', separated by spaces"
    )


def _unquote(line: str, quotes: int) -> str:
    """``line`` without the first ``quotes`` block-quote markers (``>``) in front of it."""
    for _ in range(quotes):
        marker = _QUOTE.match(line)
        if marker is None:
            break
        line = line[marker.end() :]
    return line


def _indent(line: str) -> int:
    """How far ``line`` is indented, its tabs counted as Python-Markdown counts them."""
    space = len(line) - len(line.lstrip(" \t"))
    return len(line[:space].expandtabs(TAB))


def _dedent(line: str, indent: int) -> str:
    """``line`` without up to ``indent`` columns of its indent (tabs expanded)."""
    space = len(line) - len(line.lstrip(" \t"))
    leading = line[:space].expandtabs(TAB)
    return leading[min(len(leading), indent) :] + line[space:]


def _options(header: str) -> tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]:
    """``lang="it" id="x"``: the options a header sets, the words that are none, the unquoted."""
    options: dict[str, str] = {}
    unknown: list[str] = []
    unquoted: list[str] = []
    for match in _OPTION.finditer(header):
        value = match["q"] if match["q"] is not None else match["s"] or match["v"] or ""
        if match["v"] is not None:
            unquoted.append(f"{match['key']}={match['v']}")
        if match["key"] in OPTIONS:
            options[match["key"]] = value
        else:
            unknown.append(match["key"])
    rest = _OPTION.sub("", header).split()
    unknown.extend(word for word in rest if not word.startswith("."))
    return options, tuple(unknown), tuple(unquoted)


def header_error(fence: Fence, page: str) -> DiagramError | None:
    """What is wrong with a fence's opening line, at its line; ``None`` when nothing is.

    A header superfences cannot read makes it show the fence as code, unchecked:
    the converter's guard (:mod:`dama_diagrams.site.fence`) and ``verify`` both
    refuse it here.
    """
    if fence.unquoted:
        key, _, value = fence.unquoted[0].partition("=")
        return DiagramError(
            f'write the option {shorten(fence.unquoted[0])} with quotes, as {key}="{value}": '
            "pymdownx.superfences reads only quoted options, and shows the fence as code",
            path=page,
            line=fence.line,
        )
    if fence.unreadable:
        return DiagramError(fence.unreadable, path=page, line=fence.line)
    if fence.unknown:
        known = ", ".join(f'{name}="..."' for name in OPTIONS)
        return DiagramError(
            f"unknown option {shorten(fence.unknown[0])} on the dama fence: it takes {known}",
            path=page,
            line=fence.line,
        )
    return None


def fence_diagram(fence: Fence, page: str, number: int, root: Path | None = None) -> Diagram:
    """The diagram of one fence of ``page``, every error at its line in the page.

    ``number`` counts the page's fences from 1 and names the diagram when the
    fence gives no ``id``.  ``file:`` is read relative to ``root`` (the
    project: the folder with mkdocs.yml, else the current folder), and may not
    leave it; its errors name that file, where they are to be fixed.
    """
    problem = header_error(fence, page)
    if problem is not None:
        raise problem
    wanted = fence.options.get("id")
    if wanted is not None and not ID_PATTERN.fullmatch(wanted):
        raise DiagramError(
            f"id={shorten(wanted)} is no diagram id: use lowercase letters, digits and '-'",
            path=page,
            line=fence.line,
        )
    named = named_file(fence, page)
    if named is not None:
        return _file_diagram(named, page, fence.line, root)
    identity = wanted or f"{_slug(page)}-{number}"
    try:
        diagram = parse_diagram(fence.body.encode("utf-8"), page, id=identity, base=root)
    except DamaError as error:
        raise _in_page(error, page, fence.line) from None
    shifted = {key: line + fence.line for key, line in diagram.lines.items()}
    return replace(diagram, lines=shifted)


def named_file(fence: Fence, page: str) -> tuple[str, int] | None:
    """``file: diagrams/x.yaml`` alone in the body: the name and its line in the page."""
    if len(fence.body) > MAX_FILE_BYTES:
        return None  # the diagram reader refuses it, as it refuses such a file
    try:
        root = compose_yaml(fence.body)
    except (YamlError, yaml.YAMLError):
        return None  # the diagram reader says what is wrong, at its line
    if root is None or not isinstance(root.data, dict) or "file" not in root.data:
        return None
    others = [key for key in root.data if key != "file"]
    if others:
        raise DiagramError(
            f"a dama fence with file: takes no other key, but has {shorten(others[0])}: "
            "give the file, or write the diagram in the fence",
            path=page,
            line=fence.line + root.data[others[0]].line,
        )
    value = root.data["file"]
    line = fence.line + value.line
    if not isinstance(value.data, str) or not value.data.strip():
        raise DiagramError(
            "file: must name a diagram file of the project, such as diagrams/man-move.yaml",
            path=page,
            line=line,
        )
    return value.data.strip(), line


def named_game(fence: Fence) -> int | None:
    """The line of ``position: {game: ...}`` in a fence's body, if it names a game file."""
    if len(fence.body) > MAX_FILE_BYTES:
        return None
    try:
        root = compose_yaml(fence.body)
    except (YamlError, yaml.YAMLError):
        return None
    if root is None or not isinstance(root.data, dict):
        return None
    position = root.data.get("position")
    if position is None or not isinstance(position.data, dict) or "game" not in position.data:
        return None
    return fence.line + position.data["game"].line


def _file_diagram(named: tuple[str, int], page: str, line: int, root: Path | None) -> Diagram:
    """The diagram file a fence names, which must stay inside the project."""
    name, at = named
    project = (root or project_root(Path(page).parent) or Path.cwd()).resolve()
    relative = PurePosixPath(name.replace("\\", "/"))
    if relative.is_absolute() or re.match(r"[A-Za-z]:", name) or ".." in relative.parts:
        raise DiagramError(
            f"file: {shorten(name)} leaves the project: name the file from the project's "
            "folder, without '..' or a leading '/', such as diagrams/man-move.yaml",
            path=page,
            line=at,
        )
    path = project / relative
    if not path.resolve().is_relative_to(project):
        raise DiagramError(
            f"file: {shorten(name)} leads outside the project (through a link): "
            "keep diagram files inside it",
            path=page,
            line=at,
        )
    if not path.is_file():
        raise DiagramError(
            f"file: {shorten(name)} is no file of the project ({project}); "
            "name it from the folder that holds mkdocs.yml",
            path=page,
            line=at,
        )
    return load_diagram(_shown(path))


def _shown(path: Path) -> str:
    """A path as messages show it: from the current folder when it is below it."""
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _slug(page: str) -> str:
    """A page's name as the start of a diagram id: ``Rules 2.md`` becomes ``rules-2``."""
    stem = re.sub(r"[^a-z0-9]+", "-", PurePosixPath(page).stem.lower()).strip("-")
    return stem or "page"


def _in_page(error: DamaError, page: str, line: int) -> DamaError:
    """An error about the fence's YAML, moved to its line in the page."""
    if error.path != page:
        return error
    return error.located(page, line + (error.line or 0))


@dataclass(frozen=True, slots=True)
class FenceResult:
    """A fence of a page: its diagram verified, or the error that refuses it."""

    page: str
    fence: Fence
    verified: VerifiedDiagram | None
    error: DamaError | None
    diagram: Diagram | None = None


def read_page(page: Path) -> str:
    """A Markdown page's text, read through the project's one door (no FIFO, no huge file)."""
    shown = str(page)
    data = read_project_file(page, shown, DiagramError)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        message = "the page is not UTF-8 text; save it as UTF-8"
        raise DiagramError(message, path=shown, line=line) from None


def check_page(page: Path, text: str | None = None, root: Path | None = None) -> list[FenceResult]:
    """Every ``dama`` fence of one page, each verified or refused; none stops the others."""
    shown = str(page)
    text = read_page(page) if text is None else text
    results = []
    named: dict[str, int] = {}  # id="..." options, and the line that first gave each
    for number, fence in enumerate(dama_fences(text), start=1):
        diagram = None
        try:
            diagram = fence_diagram(fence, shown, number, root)
            wanted = fence.options.get("id")  # checked by fence_diagram: a diagram id
            if wanted is not None and named.setdefault(wanted, fence.line) != fence.line:
                raise DiagramError(
                    f'id="{wanted}" is already the id of the figure on line {named[wanted]}: '
                    "give each figure its own id",
                    path=shown,
                    line=fence.line,
                )
            results.append(FenceResult(shown, fence, verify(diagram), None, diagram))
        except DamaError as error:
            results.append(FenceResult(shown, fence, None, error, diagram))
    return results
