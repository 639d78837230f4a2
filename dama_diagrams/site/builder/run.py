"""One strict MkDocs build of one language, from sources generated in memory."""

from __future__ import annotations

import importlib
import logging
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from .._common import SiteError
from ..pages.nav import PAGES_DIR, TEMPLATE_SUFFIX
from .config import LanguageSettings, apply_language


def write_files(files: Mapping[str, str | bytes], folder: Path) -> None:
    """Write generated files (relative path to content) into ``folder``."""
    for relative, content in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def write_config(config: Mapping[str, Any], path: Path) -> Path:
    path.write_text(yaml.safe_dump(dict(config), allow_unicode=True, sort_keys=False), "utf-8")
    return path


class _Collect(logging.Handler):
    """Keeps every MkDocs warning, so the first one can be reported clearly."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def run_mkdocs(config_file: Path, settings: LanguageSettings) -> list[str]:
    """Build one language with MkDocs in strict mode; return its warnings (none: success)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from .templates import share_theme

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # a banner, not a build problem
    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(config_file=str(config_file))
        apply_language(config, settings)
        share_theme(config.theme)
        build(config)
    except MkDocsException as exc:
        return handler.messages or [str(exc)]
    finally:
        logger.removeHandler(handler)
    return handler.messages


def preload(plugins: Iterable[str]) -> list[str]:
    """Import MkDocs, the named plugins and the compiled theme once, before forking.

    The workers start warm: :mod:`.compiled_theme` compiles Material's templates.

    Returns the modules imported, for a fork server to import them too (a
    process with threads cannot fork its workers, see ``publish.workers``).
    """
    from mkdocs.plugins import get_plugins

    modules = ["mkdocs.commands.build", "mkdocs.config", f"{__package__}.compiled_theme"]
    installed = get_plugins()
    for name in plugins:
        if name in installed:
            modules.append(installed[name].module)
    for module in modules:
        importlib.import_module(module)
    return modules


def mkdocs_error(language: str, message: str) -> SiteError:
    """A MkDocs warning, pointed at the page template it comes from."""
    page = re.search(r"'([\w/-]+)\.md'", message)
    path = (PAGES_DIR / f"{page.group(1)}{TEMPLATE_SUFFIX}").as_posix() if page else None
    return SiteError(f"{language}: MkDocs: {' '.join(message.split())}", path=path)


def root_404(path: Path, language: str) -> None:
    """Point the 404 page's absolute links into its language folder.

    MkDocs roots the 404 page at the path of ``site_url``, because it is served
    at any address.  Without a ``site_url`` that root is ``/``, which is wrong
    for ``site/<lang>/404.html``; this assumes the site is served from ``/``.
    """
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'(\s(?:href|src)=")/(?!/)', rf"\1/{language}/", text)
    text = text.replace('"base": "/"', f'"base": "/{language}/"')
    text = text.replace('"search": "/assets/', f'"search": "/{language}/assets/')
    path.write_text(text, encoding="utf-8")
