"""One language's sources, generated in memory: pictures, pages, settings, cards, book pages.

The step between the rooms that make things (:mod:`..pages`, :mod:`..builder`,
:mod:`..booklet`) and those that publish or serve them: :func:`generate_language`
is what ``build``, ``booklet`` and the MkDocs plugin each run once per language.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ...render.legend import LEGEND_KEYS, legend_icon_svg
from .._common import (
    DIAGRAM_DIR,
    FAVICON,
    LEGEND_DIR,
    SCRIPTS,
    SOCIAL_DIR,
    STYLESHEET,
    TEMPLATES,
    exercise_board,
    step_folder,
)
from ..booklet import PDF_NAME, printed_pages
from ..builder.config import BaseConfig, LanguageSettings, language_settings
from ..i18n import load_catalog, native_name
from ..pages.cards import Card
from ..pages.figures import DrawnFigure, Figure
from ..pages.nav import load_nav, mkdocs_nav, page_names
from ..pages.renderer import PageRenderer


@dataclass
class LanguageSources:
    """Everything MkDocs needs for one language, still in memory."""

    language: str
    files: dict[str, str | bytes]
    """The generated docs folder: pages, diagrams, stylesheet, favicon."""
    settings: LanguageSettings
    cards: dict[str, Card]
    """The social cards to draw, by their path in the docs folder."""
    untranslated_pages: list[str]
    timings: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    """Processor seconds of each step (see :attr:`BuildReport.cpu`)."""
    book_pages: dict[str, str] = field(default_factory=dict)
    """The pages of the printed book, written for print (only when the book is wanted)."""


@contextmanager
def timed(step: str, wall: dict[str, float], cpu: dict[str, float]) -> Iterator[None]:
    """Add the block's wall time to ``wall[step]`` and its processor time to ``cpu[step]``."""
    wall_started, cpu_started = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        wall[step] = wall.get(step, 0.0) + time.perf_counter() - wall_started
        cpu[step] = cpu.get(step, 0.0) + time.process_time() - cpu_started


def generate_language(
    project_root: Path,
    language: str,
    figures: Mapping[str, Figure],
    *,
    base: BaseConfig,
    languages: Sequence[str],
    book: bool = False,
) -> LanguageSources:
    """Diagrams, pages, settings and social cards of one language.

    With ``book``, every page links the language's PDF (which only ``build`` writes),
    and the pages are also written for the book, with the wording of print.
    """
    catalog = load_catalog(project_root, language)
    timings: dict[str, float] = {}
    cpu: dict[str, float] = {}
    with timed("render", timings, cpu):
        drawn = {figure_id: figure.draw(catalog) for figure_id, figure in figures.items()}
        files: dict[str, str | bytes] = {
            f"{DIAGRAM_DIR}/{figure_id}.svg": one.picture.svg for figure_id, one in drawn.items()
        }
        boards: dict[str, DrawnFigure] = {}
        for figure_id, figure in figures.items():
            for index, step in enumerate(figure.step_pictures(catalog)):
                files[f"{DIAGRAM_DIR}/{step_folder(figure_id)}/{index}.svg"] = step.svg
            board = figure.draw_exercise(catalog)
            if board is not None:
                boards[figure_id] = board
                files[f"{DIAGRAM_DIR}/{exercise_board(figure_id)}"] = board.picture.svg
    with timed("pages", timings, cpu):  # it adds to the dicts as the sources are returned
        nav = load_nav(project_root)
        views = {figure_id: figure.view for figure_id, figure in figures.items()}
        renderer = PageRenderer(
            project_root, catalog, views, drawn, boards=boards, directory_urls=base.directory_urls
        )
        cards: dict[str, Card] = {}
        untranslated = []
        for name in page_names(nav):
            page = renderer.render(name)
            files[f"{name}.md"] = page.markdown
            if catalog.not_current():
                untranslated.append(name)
            main = figures.get(page.main_diagram)
            if main is not None:
                cards[f"{SOCIAL_DIR}/{name}.png"] = Card(main.verified)
        files[STYLESHEET] = (TEMPLATES / "dama.css").read_text(encoding="utf-8")
        for script in SCRIPTS:
            files[f"assets/{script}"] = (TEMPLATES / script).read_text(encoding="utf-8")
        files[FAVICON] = (TEMPLATES / "favicon.svg").read_text(encoding="utf-8")
        files.update({f"{LEGEND_DIR}/{key}.svg": legend_icon_svg(key) for key in LEGEND_KEYS})
        names = {code: native_name(code) for code in languages}
        settings = language_settings(
            base,
            catalog,
            names,
            mkdocs_nav(nav, catalog),
            pdf=PDF_NAME.format(language=language) if book else None,
        )
    book_pages: dict[str, str] = {}
    if book:
        with timed("booklet", timings, cpu):
            printer = PageRenderer(project_root, catalog, views, drawn, boards=boards, book=True)
            book_pages = printed_pages(printer, page_names(nav))
    return LanguageSources(language, files, settings, cards, untranslated, timings, cpu, book_pages)
