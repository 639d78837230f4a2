"""Every message of the site, found where its English is written.

The English text is the source: page templates (``{% trans %}``, ``_()``),
diagram files (``title:``, ``caption:``) and the code's own words
(:mod:`.messages`).  ``babel.cfg`` at the project's top level says where each
kind lives, so ``pybabel extract -F babel.cfg`` finds exactly what a build
finds.  The result is a Babel catalog: the template (POT) that the PO
catalogs of every language are measured against.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.frontend import parse_mapping_cfg

from ..diagram._yaml import YamlError, compose_yaml
from ._common import SiteError

__all__ = ["BABEL_CFG", "TranslationSourceError", "extract_diagram", "extract_messages"]

BABEL_CFG = "babel.cfg"
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
    """A Babel extraction method for diagram files: their title and caption.

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
    for key in DIAGRAM_MESSAGES:
        value = root.data.get(key)
        if value is not None and isinstance(value.data, str) and value.data.strip():
            yield value.line, "gettext", value.data.strip(), [f"diagram {key}"]


def _mapping(project_root: Path) -> list[tuple[str, str, dict[str, str]]]:
    """``babel.cfg``: which extraction method reads which files, with its options."""
    path = project_root / BABEL_CFG
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TranslationSourceError(
            f"cannot read {BABEL_CFG} ({exc.strerror}); it says where the site's English text "
            "lives",
            path=BABEL_CFG,
        ) from None
    method_map, options_map = parse_mapping_cfg(io.StringIO(text), BABEL_CFG)  # type: ignore[no-untyped-call]
    return [(pattern, method, dict(options_map.get(pattern, {}))) for pattern, method in method_map]


def extract_messages(project_root: Path) -> BabelCatalog:
    """The template catalog: every message with the files and lines that use it.

    Files are read in a fixed order (by pattern, then by path), so the
    template, and the PO files written from it, come out the same every time.
    """
    template = BabelCatalog(project="dama-diagrams", fuzzy=False)
    for pattern, method, options in _mapping(project_root):
        for path in sorted(project_root.glob(pattern.replace("**", "*"))):
            if not path.is_file():
                continue
            shown = path.relative_to(project_root).as_posix()
            try:
                found = extract_from_file(
                    _method(method), path, keywords=DEFAULT_KEYWORDS, options=options
                )
            except Exception as exc:
                raise _source_error(exc, shown) from None
            for line, message, comments, context in found:
                template.add(
                    message, locations=[(shown, line)], auto_comments=comments, context=context
                )
    return template


def _method(name: str) -> Any:
    """Our own extractor by its function, so it works before the package is installed."""
    return extract_diagram if name == "dama_diagram" else name


def _source_error(exc: Exception, shown: str) -> TranslationSourceError:
    line = getattr(exc, "lineno", None)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return TranslationSourceError(
        f"the English text cannot be read: {message}; fix the template", path=shown, line=line
    )
