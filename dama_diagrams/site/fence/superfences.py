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

``validator`` speaks the site's ``theme.language`` when the fence speaks it,
else English; ``validator_nl`` … ``validator_es`` choose a language, and a
fence's own ``lang="fr"`` wins over all.  The Markdown extension of
:mod:`.extension` adds this fence to superfences by itself and refuses any
``dama`` fence superfences would not read.  A fence that does
not verify stops the conversion with a :class:`FenceError`: the page, the line
inside it and the message ``dama-diagrams verify`` gives.  It is superfences'
exception (so superfences lets it through instead of showing the fence as
code) and, where MkDocs is installed, a MkDocs ``BuildError`` (so ``mkdocs
build`` prints it as one line, without a traceback).

A formatter is told the fence's body, not where it is; so the page is found
from what MkDocs and Zensical attach to the Markdown converter
(:mod:`.context`), and the fence by its body among the page's ``dama`` fences
(:func:`locate`).
"""

from __future__ import annotations

import functools
import importlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..._files import relative_to_cwd
from ...diagram.markdown import OPTIONS, Fence, dama_fences, named_file, named_game, read_page
from ...errors import DamaError, DiagramError, shorten
from .context import (
    converter,
    shorten_zensical_errors,
    site_folder,
    site_language,
    watched_folders,
)
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


@dataclass(frozen=True, slots=True)
class Setting:
    """What a site or a program says about its fences: where ``file:`` is read, which page."""

    page: str | None = None
    root: Path | None = None


@dataclass
class PageState:
    """What the fence remembers during one page: its fences, which it showed, the assets."""

    text: str
    page: str
    root: Path | None
    fences: list[Fence]
    language: str | None = None
    """The site's language (``theme.language``), for fences that choose none."""
    zensical: bool = False
    watched: list[Path] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    shown: int = 0
    """How many fences the formatter drew: fewer than :attr:`expected` means one went unread."""
    expected: int = 0
    """How many ``dama`` fences the converter was given (other extensions may add or take some)."""
    ids: set[str] = field(default_factory=set)
    assets: bool = False


@dataclass(frozen=True, slots=True)
class Place:
    """Where a fence is: its page (as messages name it), its line, its number on the page."""

    page: str
    line: int
    number: int
    root: Path | None


def page_state(md: Any, setting: Setting = Setting()) -> PageState:
    """The page being converted: its text as written (front matter and all) and its fences."""
    lines = getattr(md, "lines", None) or []
    text = "\n".join(lines)
    state: PageState | None = getattr(md, "_dama_fence_page", None)
    if state is not None and state.text == text:
        return state
    site = converter(md)
    page, root, original = setting.page or NO_PAGE, setting.root, text
    if site.file is not None and site.file.is_file():
        page = setting.page or relative_to_cwd(site.file).as_posix()
        root = root or site.root
        try:
            original = read_page(site.file)
        except DamaError:
            original = text
    elif root is None:
        root = site_folder(Path.cwd())  # a program in its site's folder: file: reads from it
    state = PageState(
        text,
        page,
        root,
        dama_fences(original),
        language=site_language(site.config),
        zensical=site.zensical,
        watched=watched_folders(site.config, root) if root is not None else [],
    )
    if site.zensical:
        shorten_zensical_errors()
    md._dama_fence_page = state
    return state


def _same(body: str, source: str) -> bool:
    """Whether a fence's body is the source superfences gives (which trims the line ends)."""

    def normal(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.expandtabs(4).split("\n")).strip("\n")

    return normal(body) == normal(source)


def locate(md: Any, source: str, setting: Setting = Setting()) -> Place:
    """Where the fence with this body is on the page being converted.

    The first such fence not shown yet: fences come in page order.  One the
    page's text does not show as written (inside a block quote) is placed at
    the top of the page, its errors at their line inside the fence.
    """
    state = page_state(md, setting)
    for index, fence in enumerate(state.fences):
        if index not in state.used and _same(fence.body, source):
            state.used.add(index)
            return Place(state.page, fence.line, index + 1, state.root)
    return Place(state.page, 0, len(state.fences) + len(state.used) + 1, state.root)


def _check_sources(state: PageState, fence: Fence) -> None:
    """Refuse a ``file:`` or a game the fence cannot read safely, or that a cache would not see.

    With no project folder (plain Python-Markdown, no ``mkdocs.yml``), a name
    would be read from wherever the program runs.  Under Zensical, a page is
    rebuilt only when it or a ``watch:`` path changes: a diagram file outside
    them could turn false and the old figure stay.
    """
    game = named_game(fence)
    if game is not None and state.root is None:
        raise DiagramError(
            "position: {game: ...} has no site folder to read the game from (no mkdocs.yml "
            "here or above): give one, as DamaFenceExtension(root=...) or dama_fence(root=...)",
            path=state.page,
            line=game,
        )
    named = named_file(fence, state.page)
    if named is None:
        return
    name, line = named
    if state.root is None:
        raise DiagramError(
            f"file: {shorten(name)} has no site folder to be read from (no mkdocs.yml here or "
            "above): give one, as DamaFenceExtension(root=...) or dama_fence(root=...), or "
            "write the diagram inside the fence",
            path=state.page,
            line=line,
        )
    if not state.zensical:
        return
    path = (state.root / name).resolve()
    if not any(path == folder or path.is_relative_to(folder) for folder in state.watched):
        folder = Path(name).parts[0] if len(Path(name).parts) > 1 else name
        raise DiagramError(
            f"Zensical rebuilds a page only when a file it watches changes, and it does not "
            f"watch {shorten(name)}: add it to mkdocs.yml as watch: [{folder}], so that "
            "a changed diagram is checked again",
            path=state.page,
            line=line,
        )
    _outlast_its_second(path)


def _outlast_its_second(path: Path) -> None:
    """Wait, if need be, until the second in which ``path`` was last written is over.

    Zensical knows a watched file by its time to the second: a file written
    again within the second this build read it in would look unchanged, and
    the page built from the old file would stay.  Once that second is over, a
    new write gets a new second.  Only a file written just now waits, at most 1 s.
    """
    try:
        written = path.stat().st_mtime
    except OSError:
        return  # the diagram reader says what is wrong with it
    wait = math.floor(written) + 1 - time.time()
    if wait > 0:
        time.sleep(wait)


def format(
    src: str,
    language: str,
    class_name: str,
    options: Mapping[str, str],
    md: Any,
    setting: Setting = Setting(),
    **kwargs: Any,
) -> str:
    """The figure of one ``dama`` fence; a diagram that does not verify stops the conversion."""
    place = locate(md, src, setting)
    state = page_state(md, setting)
    state.shown += 1
    chosen = dict(options)
    unknown = chosen.pop(UNKNOWN, "").split()
    identity = kwargs.get("id_value")
    if identity and "id" not in chosen:
        chosen["id"] = str(identity)
    try:
        _check_sources(state, Fence(place.line, src, chosen))
        figure = fence_html(
            src,
            language=chosen.pop("lang", "") or state.language or DEFAULT_LANGUAGE,
            page=place.page,
            line=place.line,
            number=place.number,
            options=chosen,
            unknown=unknown,
            root=place.root,
            assets=not state.assets,
            taken=state.ids,
        )
    except DamaError as error:
        raise FenceError(error.message, path=error.path, line=error.line) from None
    state.assets = True
    return figure


def validator_for(default: str | None) -> Callable[..., bool]:
    """A validator: its fences speak ``default`` unless they say ``lang="..."``."""

    def validate(
        language: str,
        inputs: Mapping[str, str],
        options: dict[str, str],
        attrs: dict[str, str],
        md: Any,
    ) -> bool:
        if default is not None:
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
        "" if default is None else f"_{default}"
    )
    return validate


validator = validator_for(None)
validator_nl = validator_for("nl")
validator_it = validator_for("it")
validator_en = validator_for("en")
validator_de = validator_for("de")
validator_fr = validator_for("fr")
validator_es = validator_for("es")
assert {DEFAULT_LANGUAGE, "nl", "it", "de", "fr", "es"} == set(LANGUAGES)


def dama_fence(
    language: str | None = None, *, page: str | None = None, root: str | Path | None = None
) -> dict[str, Any]:
    """The ``custom_fences`` entry of the ``dama`` fence, for Python-Markdown in Python.

    ``language`` is the figures' (else the site's, else English); ``page`` names
    the page in error messages; ``root`` is the folder ``file:`` and games are
    read from, which no name may leave (without it, both are refused).
    """
    if language is not None and language not in LANGUAGES:
        raise DamaError(f"the dama fence speaks {', '.join(LANGUAGES)}, not {language!r}")
    setting = Setting(page, None if root is None else Path(root).resolve())
    return {
        "name": "dama",
        "class": "dama",
        "format": functools.partial(format, setting=setting),
        "validator": validator_for(language),
    }
