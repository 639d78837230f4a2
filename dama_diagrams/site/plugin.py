"""The MkDocs plugin: ``mkdocs serve`` and ``mkdocs build`` for one language.

It only calls the library: :func:`dama_diagrams.site.load_figures` and
:func:`dama_diagrams.site.generate_language` make the pages, diagrams and
settings, and the plugin hands them to MkDocs as in-memory files.  The page
templates and catalogs in the docs folder are sources, never published.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from ..errors import DamaError
from ._common import DIAGRAMS_DIR, SITE_MARKER
from ._mkdocs import root_404
from .build import LanguageSources, generate_language
from .cards import CARD_CACHE, draw_cards
from .config import BaseConfig, apply_language
from .figures import load_figures
from .nav import PAGES_DIR
from .output import MARKER_TEXT
from .translations import DEFAULT_LANGUAGE, LOCALES_DIR, available_languages

SOURCE_FOLDERS = ("pages/", "locales/")


class DamaDiagramsConfig(base.Config):  # type: ignore[no-untyped-call]
    lang = c.Type(str, default="")
    """The language to build; empty means ``theme.language``."""
    project_root = c.Type(str, default="")
    """The project folder; empty means the folder of ``mkdocs.yml``."""


class DamaDiagramsPlugin(BasePlugin[DamaDiagramsConfig]):  # type: ignore[no-untyped-call]
    """Generates one language of the rules site inside MkDocs."""

    def __init__(self) -> None:
        self.sources: LanguageSources | None = None
        self.root = Path()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(self.config.project_root or Path(config.config_file_path).parent)
        language = self.config.lang or str(config.theme.get("language") or DEFAULT_LANGUAGE)
        try:
            figures = load_figures(self.root)
            self.sources = generate_language(
                self.root,
                language,
                figures,
                base=BaseConfig.read(self.root),
                languages=available_languages(self.root),
            )
        except DamaError as exc:
            raise PluginError(str(exc)) from exc
        apply_language(config, self.sources.settings)
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.sources is not None
        for file in list(files):
            if file.src_uri.startswith(SOURCE_FOLDERS):
                files.remove(file)
        generated = {**self.sources.files, **draw_cards(self.sources.cards, self.root / CARD_CACHE)}
        for path, content in generated.items():
            files.append(File.generated(config, path, content=content))
        return files

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        for folder in (self.root / DIAGRAMS_DIR, self.root / PAGES_DIR, self.root / LOCALES_DIR):
            if folder.is_dir():
                server.watch(str(folder))
        return server

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """``mkdocs build`` writes ``site/<lang>/``: root its 404 page there, and mark ``site/``."""
        site = Path(config.site_dir)
        if self.sources is None or site.name != self.sources.language:
            return
        if not config.site_url:
            root_404(site / "404.html", self.sources.language)
        if {entry.name for entry in site.parent.iterdir()} <= {site.name, SITE_MARKER}:
            # site/ holds this build alone: mark it, so that `dama-diagrams build` may replace it.
            (site.parent / SITE_MARKER).write_text(MARKER_TEXT, encoding="utf-8")
