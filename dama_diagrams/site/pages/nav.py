"""The site's pages: their names and order (``docs/pages/nav.yml``), and MkDocs' ``nav``."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from ...diagram._yaml import load_yaml, read_utf8
from ...errors import DamaError
from ..i18n import Catalog

PAGES_DIR = Path("docs") / "pages"
TEMPLATE_SUFFIX = ".md.j2"
PAGE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*(?:/[a-z0-9][a-z0-9-]*)*")
"""A page in nav.yml: lowercase words, with ``/`` between folders; never leaves docs/pages."""


class PageError(DamaError):
    """A page template is wrong, or asks for something that does not exist."""


NavItem = str | tuple[str, tuple[str, ...]]


def load_nav(project_root: Path) -> tuple[NavItem, ...]:
    """``docs/pages/nav.yml``: page names in order, and sections of pages."""
    path = project_root / PAGES_DIR / "nav.yml"
    shown = (PAGES_DIR / "nav.yml").as_posix()
    data, node = load_yaml(read_utf8(path, shown, PageError, inside=project_root), shown, PageError)
    if not isinstance(data, list) or not isinstance(node, SequenceNode):
        line = _line(node) if node is not None else None
        raise PageError(
            "the page list must be a YAML list of page names and {section: [pages]}",
            path=shown,
            line=line,
        )
    items: list[NavItem] = []
    for entry, entry_node in zip(data, _children(node, len(data)), strict=True):
        line = _line(entry_node)
        if isinstance(entry, str):
            items.append(_page_name(entry, shown, line))
        elif isinstance(entry, dict) and len(entry) == 1:
            ((section, pages),) = entry.items()
            if not (isinstance(pages, list) and all(isinstance(p, str) for p in pages)):
                raise PageError(f"section '{section}' must list page names", path=shown, line=line)
            value_node = (
                entry_node.value[0][1]
                if isinstance(entry_node, MappingNode) and len(entry_node.value) == 1
                else entry_node
            )
            names = tuple(
                _page_name(page, shown, _line(page_node))
                for page, page_node in zip(pages, _children(value_node, len(pages)), strict=True)
            )
            items.append((str(section), names))
        else:
            raise PageError(
                "each entry is a page name or {section: [pages]}", path=shown, line=line
            )
    return tuple(items)


def _page_name(name: str, shown: str, line: int) -> str:
    if not PAGE_NAME.fullmatch(name):
        raise PageError(
            f"{name!r} is not a page name: use lowercase letters, digits and '-', with '/' "
            "between folders (the page is docs/pages/<name>.md.j2)",
            path=shown,
            line=line,
        )
    return name


def _children(node: Node, count: int) -> Iterator[Node]:
    """The item nodes of a sequence node (or the node itself, for each of ``count`` items)."""
    if isinstance(node, SequenceNode) and len(node.value) == count:
        yield from node.value
    else:
        for _ in range(count):
            yield node


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1


def page_names(nav: tuple[NavItem, ...]) -> list[str]:
    names: list[str] = []
    for item in nav:
        names.extend([item] if isinstance(item, str) else item[1])
    return names


def mkdocs_nav(nav: tuple[NavItem, ...], catalog: Catalog) -> list[Any]:
    """The ``nav`` setting of MkDocs, with section titles from the catalog."""
    result: list[Any] = []
    for item in nav:
        if isinstance(item, str):
            result.append(f"{item}.md")
        else:
            section, pages = item
            # Material prints section titles as they are: escape them here, once.
            title = html.escape(catalog.text(f"nav.{section}"))
            result.append({title: [f"{page}.md" for page in pages]})
    return result
