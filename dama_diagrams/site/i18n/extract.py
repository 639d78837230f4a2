"""Every message of the site, found where its English is written.

The English text is the source: page templates (``{% trans %}``, ``_()``),
diagram files (``title:``, ``caption:``) and the code's own words
(:mod:`.messages`).  ``babel.cfg`` at the project's top level says where each
kind lives, so ``pybabel extract -F babel.cfg`` finds exactly what a build
finds.  The result is a Babel catalog: the template (POT) that the PO
catalogs of every language are measured against.
"""

from __future__ import annotations

import configparser
import hashlib
import io
import os
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.frontend import parse_keywords, parse_mapping_cfg

from ..._files import read_project_file
from ..._markdown_text import english_problem
from ..._project import link_outside
from ...diagram._yaml import YamlError, compose_yaml, read_utf8
from .._common import SiteError
from .terms import TermsError, extract_terms

__all__ = [
    "BABEL_CFG",
    "CODE_MESSAGES",
    "TranslationSourceError",
    "extract_diagram",
    "extract_messages",
]

BABEL_CFG = "babel.cfg"
CODE_MESSAGES = "dama_diagrams/site/messages.py"
"""Where ``babel.cfg`` finds the code's own messages: in this repository, the module itself.

A project that is not this repository has no such file; its ``babel.cfg``
line then reads the installed package's module, so that the code's messages
(the legend, the engine's sentences) are never silently dropped from the
template, and their translations never turned obsolete by an update.
"""
EDITOR_SOURCES = "dama_diagrams/site/editor/"
"""Where ``babel.cfg`` finds the board editor's words: read from the installed package, as
:data:`CODE_MESSAGES` is, in a project that is not this repository (their translations are
shipped with the package, ``dama_diagrams/site/editor/words.json``)."""
_PACKAGE_PARENT = Path(__file__).resolve().parents[3]
"""The folder that holds the ``dama_diagrams`` package."""
COMMENT_TAGS = ("dama:",)
"""Source comments that go to the translators (``#.``): ``{# dama: allow unchanged #}``
just before a message accepts a quality finding in every language (see :mod:`.quality`)."""
DIAGRAM_MESSAGES = ("title", "caption")
"""The keys of a diagram file that readers see, in English."""


class TranslationSourceError(SiteError):
    """A template or diagram whose messages cannot be read."""


def extract_diagram(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method for diagram files: their title, caption and exercise question.

    Registered as the Babel extractor ``dama_diagram`` (in ``pyproject.toml``)
    and named so in ``babel.cfg``, so that ``pybabel extract`` uses it too.
    A file that is not a diagram mapping yields nothing here; ``verify``
    reports it.
    """
    try:
        root = compose_yaml(fileobj.read().decode("utf-8"))
    except (YamlError, UnicodeDecodeError, ValueError):
        return
    if root is None or not isinstance(root.data, dict):
        return
    exercise = root.data.get("exercise")
    asked = exercise.data if exercise is not None and isinstance(exercise.data, dict) else {}
    for key, value in (
        *((key, root.data.get(key)) for key in DIAGRAM_MESSAGES),
        ("exercise question", asked.get("question")),
    ):
        if value is not None and isinstance(value.data, str) and value.data.strip():
            yield value.line, "gettext", value.data.strip(), [f"diagram {key}"]


def _mapping(project_root: Path) -> list[tuple[str, str, dict[str, str]]]:
    """``babel.cfg``: which extraction method reads which files, with its options."""
    path = project_root / BABEL_CFG
    if not os.path.lexists(path):
        raise TranslationSourceError(
            f"there is no {BABEL_CFG}; it says where the site's English text lives", path=BABEL_CFG
        )
    text = read_utf8(path, BABEL_CFG, TranslationSourceError, inside=project_root)
    try:
        method_map, options_map = parse_mapping_cfg(io.StringIO(text), BABEL_CFG)  # type: ignore[no-untyped-call]
    except configparser.Error as exc:
        line = getattr(exc, "lineno", None)
        errors = getattr(exc, "errors", None)
        if errors:  # ParsingError: (line, repr of the line)
            line, text = errors[0]
            problem = f"cannot read the line {str(text)[:60]}"
        else:
            problem = exc.message.splitlines()[0] if exc.message else type(exc).__name__
        raise TranslationSourceError(
            f"not a Babel mapping ([method: pattern] sections): {problem}",
            path=BABEL_CFG,
            line=line,
        ) from None
    return [(pattern, method, dict(options_map.get(pattern, {}))) for pattern, method in method_map]


def extract_messages(project_root: Path) -> BabelCatalog:
    """The template catalog: every message with the files and lines that use it.

    Files are read in a fixed order (by pattern, then by path), so the
    template, and the PO files written from it, come out the same every time.
    Sources with the same bytes give the very same template, in this project
    or in a copy of it, so what is measured against it
    (:func:`.reading.load_catalog`) is found again too.  While no source's
    modification time or size changed, none is read again.
    """
    root = project_root.resolve()
    try:
        listed: list[tuple[Path, str, str, dict[str, str]]] | None = _sources(project_root)
    except TranslationSourceError:  # reported below, when it is read again
        listed = None
    stamp = _source_stamp([project_root / BABEL_CFG, *(entry[0] for entry in listed or ())])
    known = _STAMPS.get(root)
    if known is not None and known[0] == stamp and known[1] in _EXTRACTED:
        return _remember(known[1], _EXTRACTED[known[1]])
    sources = tuple(
        (path, shown, method, options, _read_source(project_root, path, shown))
        for path, shown, method, options in (
            listed if listed is not None else _sources(project_root)
        )
        if method != "ignore"
    )
    digest = hashlib.sha256()
    for _, shown, method, options, data in sources:
        for part in (shown, method, repr(sorted(options.items()))):
            digest.update(part.encode() + b"\0")
        digest.update(len(data).to_bytes(8, "big") + data)
    key = digest.digest()
    template = _EXTRACTED[key] if key in _EXTRACTED else _extract(project_root, sources)
    _STAMPS[root] = (stamp, key)
    return _remember(key, template)


_EXTRACTED: dict[bytes, BabelCatalog] = {}
"""The templates of the last sources read, by a digest of their paths (as shown), methods
and bytes: one template for each content, which is what keeps measured catalogs found."""
_EXTRACTED_KEPT = 8
_STAMPS: dict[Path, tuple[tuple[tuple[str, int, int], ...], bytes]] = {}
"""Each project's sources as last read: their (path, mtime, size), and their digest."""


def _remember(key: bytes, template: BabelCatalog) -> BabelCatalog:
    _EXTRACTED.pop(key, None)
    _EXTRACTED[key] = template  # the newest last
    while len(_EXTRACTED) > _EXTRACTED_KEPT:
        del _EXTRACTED[next(iter(_EXTRACTED))]
    return template


def _source_stamp(files: list[Path]) -> tuple[tuple[str, int, int], ...]:
    stamps = []
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            continue
        stamps.append((path.as_posix(), stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


def _read_source(project_root: Path, path: Path, shown: str) -> bytes:
    # the one door, rather than Babel's open(): no link out, no FIFO, a bound on the size
    inside = _inside(project_root, shown)
    return read_project_file(path, shown, TranslationSourceError, inside=inside)


def _inside(project_root: Path, shown: str) -> Path | None:
    """The folder a source must stay in: the project, or none for the package's own files."""
    if shown == CODE_MESSAGES or (
        shown.startswith(EDITOR_SOURCES) and not (project_root / shown).is_file()
    ):
        return None
    return project_root


def _extract(
    project_root: Path, sources: tuple[tuple[Path, str, str, dict[str, str], bytes], ...]
) -> BabelCatalog:
    template = BabelCatalog(project="dama-diagrams", fuzzy=False)
    for path, shown, method, options, data in sources:
        keywords, rest = _keywords(options)
        try:
            found = list(
                extract(
                    _method(method),
                    io.BytesIO(data),
                    keywords=keywords,
                    comment_tags=COMMENT_TAGS,
                    options=_options(method, rest),
                )
            )
        except TermsError as exc:  # the terminology file says what is wrong itself
            raise TranslationSourceError(exc.message, path=shown, line=exc.line) from None
        except Exception as exc:
            if isinstance(exc, UnicodeDecodeError):
                inside = _inside(project_root, shown)
                read_utf8(path, shown, TranslationSourceError, inside=inside)  # names the line
            if str(exc).startswith("Unknown extraction method"):
                raise TranslationSourceError(f"{exc} for {shown}", path=BABEL_CFG) from None
            raise _source_error(exc, shown) from None
        for line, message, comments, context in found:
            if method not in _CHECKED_BY_THEIR_READER:
                _check_english(message, shown, line)
            template.add(
                message,
                locations=[(shown, line)],
                auto_comments=[_tagged(comment, method) for comment in comments],
                context=context,
            )
    return template


_CHECKED_BY_THEIR_READER = frozenset({"dama_diagram", "dama_terms"})
"""Methods whose files are checked where they are read (:mod:`...diagram.schema`, :mod:`.terms`)."""


def _check_english(message: str | tuple[str, ...], shown: str, line: int) -> None:
    """A template's English goes into Markdown as every text does: within the same limits.

    The English page shows it as written, and it bounds its translations
    (:mod:`.limits`), so it is bound by fixed numbers, as a caption is
    (:func:`..._markdown_text.english_problem`), at its line.
    """
    for english in (message,) if isinstance(message, str) else message:
        problem = english_problem(english, inline=None) if english else None
        if problem is not None:
            raise TranslationSourceError(f"the English text {problem}", path=shown, line=line)


def _sources(project_root: Path) -> list[tuple[Path, str, str, dict[str, str]]]:
    """(file, its path as shown, extraction method, options) in a fixed order."""
    found = []
    for pattern, method, options in _mapping(project_root):
        paths = [
            path
            for path in sorted(project_root.glob(pattern.replace("**", "*")))
            if path.is_file() and link_outside(path) is None  # verify refuses those, unread
        ]
        if paths:
            found += [
                (path, path.relative_to(project_root).as_posix(), method, options) for path in paths
            ]
        elif pattern == CODE_MESSAGES:
            found.append(
                (Path(__file__).parent.parent / "messages.py", CODE_MESSAGES, method, options)
            )
        elif pattern.startswith(EDITOR_SOURCES):
            # the board editor's words, as the installed package has them
            found += [
                (path, path.relative_to(_PACKAGE_PARENT).as_posix(), method, options)
                for path in sorted(_PACKAGE_PARENT.glob(pattern))
                if path.is_file()
            ]
    return found


def _tagged(comment: str, method: str) -> str:
    """A source comment with its ``dama:`` tag, which Jinja's extractor cuts off."""
    jinja = method == "jinja2" or method.startswith("jinja2.")
    tag = COMMENT_TAGS[0]
    return f"{tag} {comment.strip()}" if jinja and not comment.startswith(tag) else comment


def _keywords(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Babel's keywords with a section's own (``keywords = t`` in ``babel.cfg``), and the rest.

    ``pybabel extract`` adds a section's keywords to the default ones; so does the
    extraction here.  Babel parses them when it reads the file (a string before 2.15).
    """
    extra = options.get("keywords") or {}
    if isinstance(extra, str):
        extra = parse_keywords(extra.split())
    rest = {key: value for key, value in options.items() if key != "keywords"}
    return {**DEFAULT_KEYWORDS, **extra}, rest


def _options(method: str, options: dict[str, str]) -> dict[str, str]:
    """Jinja's extractor skips a template it cannot parse unless told not to be silent.

    Skipped, the template's messages would vanish from the template catalog:
    ``status`` would not count them and ``update-translations`` would make
    their translations obsolete.  The syntax error is reported instead.
    """
    if (method == "jinja2" or method.startswith("jinja2.")) and "silent" not in options:
        return {**options, "silent": "false"}
    return options


def _method(name: str) -> Any:
    """Our own extractor by its function, so it works before the package is installed."""
    return {"dama_diagram": extract_diagram, "dama_terms": extract_terms}.get(name, name)


def _source_error(exc: Exception, shown: str) -> TranslationSourceError:
    line = getattr(exc, "lineno", None)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return TranslationSourceError(
        f"the English text cannot be read: {message}; fix the template", path=shown, line=line
    )
