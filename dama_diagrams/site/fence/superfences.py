"""The ``dama`` fence for ``pymdownx.superfences``: a formatter and its validators.

Enabled by a few lines of ``mkdocs.yml`` (MkDocs, Zensical) or of
``extension_configs`` (plain Python-Markdown)::

    markdown_extensions:
      - pymdownx.superfences:
          custom_fences:
            - name: dama
              class: dama
              format: !!python/name:dama_diagrams.fence.format
              validator: !!python/name:dama_diagrams.fence.validator_it

``validator`` speaks English; ``validator_nl`` … ``validator_es`` the other
languages, and a fence's own ``lang="fr"`` wins over both.  A fence that does
not verify stops the conversion with a :class:`FenceError`: the page, the line
inside it and the message ``dama-diagrams verify`` gives.  It is superfences'
exception (so superfences lets it through instead of showing the fence as
code) and, where MkDocs is installed, a MkDocs ``BuildError`` (so ``mkdocs
build`` prints it as one line, without a traceback).

A formatter is told the fence's body, not where it is; so the page is found
from what MkDocs and Zensical attach to the Markdown converter, and the fence
by its body among the page's ``dama`` fences (:func:`locate`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..._files import relative_to_cwd
from ..._project import project_root
from ...diagram.markdown import OPTIONS, Fence, dama_fences, read_page
from ...errors import DamaError, DiagramError
from .figure import DEFAULT_LANGUAGE, fence_html
from .words import LANGUAGES

UNKNOWN = "unknown"
"""Where the validator keeps the header's words that are no option, for the formatter to refuse."""
NO_PAGE = "<string>"
"""The page's name in messages when the converter does not say which page it converts."""


def _fence_error() -> type[DiagramError]:
    """:class:`DiagramError`, superfences' exception and, with MkDocs, its ``BuildError``."""
    bases: list[type[BaseException]] = [DiagramError]
    for module, name in (
        ("pymdownx.superfences", "SuperFencesException"),
        ("mkdocs.exceptions", "BuildError"),
    ):
        try:
            bases.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            continue
    doc = "A dama fence that does not verify: its page, its line and why."
    error: type[DiagramError] = type("FenceError", tuple(bases), {"__doc__": doc})
    return error


FenceError = _fence_error()


@dataclass
class _PageState:
    """What the formatter remembers during one page: its fences, which it showed, the assets."""

    text: str
    page: str
    root: Path | None
    fences: list[Fence]
    used: set[int] = field(default_factory=set)
    assets: bool = False


@dataclass(frozen=True, slots=True)
class Place:
    """Where a fence is: its page (as messages name it), its line, its number on the page."""

    page: str
    line: int
    number: int
    root: Path | None


def _page_file(md: Any) -> Path | None:
    """The Markdown file being converted, as MkDocs or Zensical tell their converter."""
    for processor in (*getattr(md, "treeprocessors", ()), *getattr(md, "preprocessors", ())):
        file = getattr(processor, "file", None)  # MkDocs' relative-path processor
        source = getattr(file, "abs_src_path", None)
        if isinstance(source, str):
            return Path(source)
        page = getattr(processor, "page", None)  # Zensical's rendering context
        config = getattr(processor, "config", None)
        path = getattr(page, "path", None)
        if isinstance(path, str) and isinstance(config, Mapping) and "docs_dir" in config:
            return Path(str(config["docs_dir"])) / path
    return None


def _state(md: Any) -> _PageState:
    """The page being converted: its text as written (front matter and all) and its fences."""
    lines = getattr(md, "lines", None) or []
    text = "\n".join(lines)
    state: _PageState | None = getattr(md, "_dama_fence_page", None)
    if state is not None and state.text == text:
        return state
    file = _page_file(md)
    page, root, original = NO_PAGE, None, text
    if file is not None and file.is_file():
        page = relative_to_cwd(file).as_posix()
        root = project_root(file.parent)
        try:
            original = read_page(file)
        except DamaError:
            original = text
    state = _PageState(text, page, root, dama_fences(original))
    md._dama_fence_page = state
    return state


def _same(body: str, source: str) -> bool:
    """Whether a fence's body is the source superfences gives (which trims the line ends)."""

    def normal(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.expandtabs(4).split("\n")).strip("\n")

    return normal(body) == normal(source)


def locate(md: Any, source: str) -> Place:
    """Where the fence with this body is on the page being converted.

    The first such fence not shown yet: fences come in page order.  One the
    page's text does not show as written (inside a block quote) is placed at
    the top of the page, its errors at their line inside the fence.
    """
    state = _state(md)
    for index, fence in enumerate(state.fences):
        if index not in state.used and _same(fence.body, source):
            state.used.add(index)
            return Place(state.page, fence.line, index + 1, state.root)
    return Place(state.page, 0, len(state.fences) + len(state.used) + 1, state.root)


def format(
    src: str, language: str, class_name: str, options: Mapping[str, str], md: Any, **kwargs: Any
) -> str:
    """The figure of one ``dama`` fence; a diagram that does not verify stops the conversion."""
    place = locate(md, src)
    state = _state(md)
    chosen = dict(options)
    unknown = chosen.pop(UNKNOWN, "").split()
    identity = kwargs.get("id_value")
    if identity and "id" not in chosen:
        chosen["id"] = str(identity)
    try:
        figure = fence_html(
            src,
            language=chosen.pop("lang", DEFAULT_LANGUAGE),
            page=place.page,
            line=place.line,
            number=place.number,
            options=chosen,
            unknown=unknown,
            root=place.root,
            assets=not state.assets,
        )
    except DamaError as error:
        raise FenceError(error.message, path=error.path, line=error.line) from None
    state.assets = True
    return figure


def _validator_for(default: str) -> Callable[..., bool]:
    """A validator whose fences speak ``default`` unless they say ``lang="..."``."""

    def validate(
        language: str,
        inputs: Mapping[str, str],
        options: dict[str, str],
        attrs: dict[str, str],
        md: Any,
    ) -> bool:
        options["lang"] = default
        unknown = []
        for key, value in inputs.items():
            if key in OPTIONS:
                options[key] = value
            else:
                unknown.append(key)
        if unknown:
            options[UNKNOWN] = " ".join(unknown)
        return True

    validate.__name__ = validate.__qualname__ = "validator" + (
        "" if default == DEFAULT_LANGUAGE else f"_{default}"
    )
    return validate


validator = _validator_for(DEFAULT_LANGUAGE)
validator_nl = _validator_for("nl")
validator_it = _validator_for("it")
validator_de = _validator_for("de")
validator_fr = _validator_for("fr")
validator_es = _validator_for("es")
assert {DEFAULT_LANGUAGE, "nl", "it", "de", "fr", "es"} == set(LANGUAGES)


def dama_fence(language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The ``custom_fences`` entry of the ``dama`` fence, for Python-Markdown in Python."""
    if language not in LANGUAGES:
        raise DamaError(f"the dama fence speaks {', '.join(LANGUAGES)}, not {language!r}")
    return {
        "name": "dama",
        "class": "dama",
        "format": format,
        "validator": _validator_for(language),
    }
