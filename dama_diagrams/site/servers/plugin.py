"""The MkDocs plugin: ``mkdocs serve`` and ``mkdocs build`` for one language.

It only calls the library: :func:`dama_diagrams.site.load_figures` and
:func:`dama_diagrams.site.generate_language` make the pages, diagrams and
settings, and the plugin hands them to MkDocs as in-memory files.  The page
templates and catalogs in the docs folder are sources, never published.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files

from ...errors import DamaError
from .._common import DIAGRAMS_DIR, GAMES_DIR, SITE_MARKER
from ..builder.config import BaseConfig, apply_language
from ..builder.run import root_404
from ..i18n import DEFAULT_LANGUAGE, LOCALES_DIR, available_languages
from ..pages.cards import CARD_CACHE, draw_cards
from ..pages.figures import load_figures
from ..pages.nav import PAGES_DIR
from ..publish.language import LanguageSources, generate_language
from ..publish.output import marker_text
from .preview import servable
from .rebuild import failure_text, with_banner

SOURCE_FOLDERS = ("pages/", "locales/")
log = logging.getLogger("mkdocs.plugins.dama-diagrams")


def _refuse_bad_paths(app: Any) -> Any:
    """A 404, not a crash (500), for a request path that no file can have (``/%00``).

    As in ``preview``: a control character, a name too long for any file, bytes
    that are not UTF-8, or a ``..`` (which browsers never send) is a 404.
    """

    def guarded(environ: dict[str, Any], start_response: Any) -> Any:
        path = str(environ.get("PATH_INFO", ""))  # decoded once by the WSGI server (latin-1)
        try:
            words = path.encode("latin-1").decode("utf-8").split("/")
        except UnicodeError:
            words = ["\x00"]
        if ".." in words or not all(map(servable, words)):
            start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"Not found"]
        return app(environ, start_response)

    return guarded


def _never_stuck(builder: Callable[[], None]) -> Callable[[], None]:
    """MkDocs' rebuild, never failing: a failed one would hold every request until the next.

    What the plugin's own work raises is on the pages already; this catches the
    rest (MkDocs itself, a full disk under its temporary site), which is logged
    while the pages from before stay served.
    """

    def rebuild() -> None:
        try:
            builder()
        except Exception as exc:
            log.error(
                "the last change does not build: %s; serving what was built", failure_text(exc)
            )

    return rebuild


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
        self.serving = False
        self.error: str | None = None
        """While serving: why the last rebuild failed (the pages shown are the last good ones)."""
        self.cards: dict[str, bytes] = {}
        """The social cards of the last good build, kept while serving."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Also what keeps this plugin (and its last good pages) alive across rebuilds."""
        self.serving = command == "serve"

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
            self.error = None
        except Exception as exc:
            if not self.serving and not isinstance(exc, DamaError):
                raise  # mkdocs build: a bug shows its traceback
            if not self.serving or self.sources is None:
                raise PluginError(failure_text(exc)) from exc
            # A broken file while serving: keep showing the last good pages, with the error.
            self._failed(exc)
        # A preview serves one language: the menu says so of the others, instead of a 404.
        served = {self.sources.language} if self.serving else None
        apply_language(config, self.sources.settings, served=served)
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.sources is not None
        for file in list(files):
            if file.src_uri.startswith(SOURCE_FOLDERS):
                files.remove(file)
        try:
            self.cards = draw_cards(self.sources.cards, self.root / CARD_CACHE)
        except Exception as exc:
            if not self.serving:
                raise
            self._failed(exc)  # a full disk under the card cache: the cards from before
        generated = {**self.sources.files, **self.cards}
        for path, content in generated.items():
            files.append(File.generated(config, path, content=content))
        return files

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        watched = (DIAGRAMS_DIR, PAGES_DIR, LOCALES_DIR, GAMES_DIR)
        for folder in (self.root / name for name in watched):
            if folder.is_dir():
                server.watch(str(folder))
        server.set_app(_refuse_bad_paths(server.get_app()))
        server.builder = _never_stuck(server.builder)
        return server

    def _failed(self, exc: Exception) -> None:
        self.error = failure_text(exc)
        # Not a warning: MkDocs' strict mode would abort the build it keeps serving.
        log.info("the last change does not build: %s; serving the pages from before it", self.error)

    def on_post_page(self, output: str, *, page: Any, config: MkDocsConfig) -> str:
        """While a file is broken, every page says which and where, above its content."""
        return output if self.error is None else with_banner(output, self.error)

    @event_priority(-100)  # after every other plugin's files (search's index): all are sealed
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """``mkdocs build`` writes ``site/<lang>/``: root its 404 page there, and mark ``site/``."""
        site = Path(config.site_dir)
        if self.sources is None or site.name != self.sources.language:
            return
        if not config.site_url:
            root_404(site / "404.html", self.sources.language)
        if {entry.name for entry in site.parent.iterdir()} <= {site.name, SITE_MARKER}:
            # site/ holds this build alone: mark it, so that `dama-diagrams build` may replace it
            # (and, sealed as built here, keep it in a build of other languages).
            marker = marker_text(site.parent, [site.name], self.root)
            (site.parent / SITE_MARKER).write_text(marker, encoding="utf-8")
