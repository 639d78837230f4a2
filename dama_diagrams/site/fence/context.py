"""What a Markdown converter tells the fence about the page it converts, and the site around it.

A ``pymdownx.superfences`` formatter is given a fence's body, not its page.
MkDocs (and ProperDocs) and Zensical each attach an object to the converter
that knows the page's file and the site's configuration; this module reads
them, so that errors name the page, ``file:`` is read from the project, and a
fence speaks the site's language when it does not choose one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from ...errors import visible
from .words import LANGUAGES


@dataclass(frozen=True, slots=True)
class Converter:
    """The page a converter converts, as its site tells it: nothing when it tells nothing."""

    file: Path | None = None
    root: Path | None = None
    """The site's folder, which holds its configuration file: ``file:`` is read from it."""
    config: Mapping[str, Any] | None = None
    zensical: bool = False


CONFIG_FILES = ("mkdocs.yml", "zensical.toml")


def converter(md: Any) -> Converter:
    """The page being converted and its site's configuration, from MkDocs' or Zensical's hooks."""
    for processor in (*getattr(md, "treeprocessors", ()), *getattr(md, "preprocessors", ())):
        config = getattr(processor, "config", None)
        file = getattr(processor, "file", None)  # MkDocs' relative-path processor
        source = getattr(file, "abs_src_path", None)
        if isinstance(source, str):
            settings = config if isinstance(config, Mapping) else None
            configured = _get(settings, "config_file_path")
            root = Path(configured).parent if configured else site_folder(Path(source).parent)
            return Converter(Path(source), root, settings)
        page = getattr(processor, "page", None)  # Zensical's rendering context
        path = getattr(page, "path", None)
        if isinstance(path, str) and isinstance(config, Mapping) and "docs_dir" in config:
            docs = Path(str(config["docs_dir"]))
            return Converter(docs / path, site_folder(docs), config, zensical=True)
    return Converter()


def site_folder(start: Path) -> Path | None:
    """The nearest folder, upwards from ``start``, that holds a site's configuration file."""
    here = start.resolve()
    for folder in (here, *here.parents):
        if any((folder / name).is_file() for name in CONFIG_FILES):
            return folder
    return None


def site_language(config: Mapping[str, Any] | None) -> str | None:
    """The site's ``theme.language`` or ``theme.locale``, if the fence has it."""
    if config is None:
        return None
    theme = _get(config, "theme")
    for key in ("language", "locale"):
        value = _get(theme, key)
        language = str(value).replace("-", "_").split("_")[0].lower() if value else ""
        if language in LANGUAGES:
            return language
    return None


def watched_folders(config: Mapping[str, Any] | None, root: Path) -> list[Path]:
    """The ``watch:`` paths of ``mkdocs.yml``, as folders and files of the project."""
    watched = _get(config, "watch") if config is not None else None
    if not isinstance(watched, Iterable) or isinstance(watched, str | bytes):
        return []
    return [(root / str(path)).resolve() for path in watched]


def _get(container: Any, key: str) -> Any:
    """``container[key]``, for a mapping or MkDocs' theme object alike; ``None`` when absent."""
    try:
        return container[key]
    except (KeyError, TypeError, IndexError):
        return None


_MARKER = "FenceError: "


def shorten_zensical_errors() -> None:
    """Make Zensical print a fence's error as its one line, not inside two tracebacks.

    Zensical turns a Python error of a page into a ``RuntimeError`` that
    Python prints with its traceback; this hook prints only the fence's
    ``path:line: message`` for those, and leaves every other error as it was.
    """
    previous = sys.excepthook
    if getattr(previous, "dama_fence", False):
        return

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        text = str(error)
        if _MARKER in text:
            line = text.split(_MARKER, 1)[1].split("\n", 1)[0]
            print(f"Error: {visible(line)}", file=sys.stderr)  # a page's name may hold anything
            return
        previous(kind, error, trace)

    hook.dama_fence = True  # type: ignore[attr-defined]
    sys.excepthook = hook
