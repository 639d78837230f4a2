"""What one language's book is made of, gathered from the site's own generated sources.

The book is printed from exactly what the site publishes: the Markdown pages
and SVG diagrams that :func:`..publish.language.generate_language` wrote for the language,
in the order of ``nav.yml``.  :class:`BookSources` holds them as plain data, so
that a worker process can turn them into a PDF.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.dates import format_date

from ..._book_text import glyph_problem
from ...diagram._yaml import read_utf8
from ...errors import DamaError, shorten
from .._common import SiteError
from ..i18n import DEFAULT_LANGUAGE, Catalog, load_catalog, native_name, translation_problems
from ..i18n.quality import QualityError
from ..pages.nav import PAGES_DIR, TEMPLATE_SUFFIX, PageError
from ..pages.page_templates import page_in_book
from ..pages.renderer import EXERCISES_PAGE, PageRenderer
from .markup import PICTURE_SUFFIX
from .places import TemplatePlaces

EPOCH_VARIABLE = "SOURCE_DATE_EPOCH"


@dataclass(frozen=True)
class BookSources:
    """One language's book, before it is laid out: texts, pages and pictures."""

    language: str
    title: str
    language_name: str
    date: str
    """The cover's date, written the language's way."""
    contents: str
    """The heading of the table of contents."""
    solutions: str
    """The heading of the chapter of answers at the back."""
    pages: tuple[tuple[str, str], ...]
    """(page name, Markdown written for print) in the order of the navigation."""
    assets: Mapping[str, bytes]
    """The site's pictures, by their path in the docs folder: the diagrams
    (``assets/diagrams/x.svg``), the legend's icons, the favicon."""
    games: frozenset[str]
    """The diagrams that replay a game: the book prints each of their steps."""
    epoch: int | None = None
    """``SOURCE_DATE_EPOCH``, for the PDF's dates: the same sources give the same bytes."""
    reference: str = "{reference}, p. {page}"
    """How a cross-reference names the page it leads to, in the language."""
    subject: str = ""
    """What the book is about, for its metadata."""
    author: str | None = None
    """Who publishes it: ``site_author`` of ``mkdocs.yml``."""
    places: Mapping[str, TemplatePlaces] = field(default_factory=dict)
    """Each page's template, by the page's name: where a warning about the book says an
    element is written.  Nothing in the PDF depends on it."""


def book_sources(
    catalog: Catalog,
    files: Mapping[str, str | bytes],
    pages: Mapping[str, str],
    games: frozenset[str],
    *,
    author: str | None = None,
    places: Mapping[str, TemplatePlaces] | None = None,
) -> BookSources:
    """The book of ``catalog``'s language: its pages written for print, the site's diagrams."""
    epoch = source_date_epoch()
    day = (
        datetime.datetime.fromtimestamp(epoch, datetime.UTC).date()
        if epoch is not None
        else datetime.datetime.now(datetime.UTC).date()
    )
    assets = {
        path: content.encode("utf-8") if isinstance(content, str) else content
        for path, content in files.items()
        if path.endswith(PICTURE_SUFFIX)
    }
    return BookSources(
        language=catalog.language,
        title=catalog.text("site.name"),
        language_name=native_name(catalog.language),
        date=format_date(day, format="long", locale=catalog.language.replace("-", "_")),
        contents=catalog.text("book.contents"),
        solutions=catalog.text("book.solutions"),
        pages=tuple(pages.items()),
        assets=assets,
        games=games,
        epoch=epoch,
        reference=catalog.text("book.page_reference", reference="{reference}", page="{page}"),
        subject=catalog.text("book.subject"),
        author=author,
        places=places or {},
    )


def template_places(
    project_root: Path, catalog: Catalog, names: Iterable[str]
) -> dict[str, TemplatePlaces]:
    """The template of each page of ``names``, read through the one door as the pages were,
    with the line of each of its messages in ``catalog``'s language."""
    places = {}
    for name in names:
        path = (PAGES_DIR / f"{name}{TEMPLATE_SUFFIX}").as_posix()
        try:
            lines = tuple(
                read_utf8(project_root / path, path, PageError, inside=project_root).splitlines()
            )
        except DamaError:  # read a moment ago to make the page: only a warning's line is lost
            lines = ()
        messages = tuple(
            (entry.shown, line)
            for entry in catalog.entries.values()
            for source, line in entry.sources
            if source == path
        )
        places[name] = TemplatePlaces(path, lines, messages)
    return places


def printed_pages(renderer: PageRenderer, names: Sequence[str]) -> dict[str, str]:
    """The pages of the book, written for print; a page for the site's authors is left out.

    The exercises page goes first, so that every link to an exercise can name
    it by its number.
    """
    if EXERCISES_PAGE in names:
        renderer.render(EXERCISES_PAGE)
    return {
        name: renderer.render(name).markdown for name in names if page_in_book(renderer.env, name)
    }


def source_date_epoch() -> int | None:
    """``SOURCE_DATE_EPOCH`` as whole seconds since 1970, or None when it is unset."""
    value = os.environ.get(EPOCH_VARIABLE, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 11:  # 11: until year 5138
        raise SiteError(
            f"{EPOCH_VARIABLE}={value[:40]!r} is not a time: set it to the whole seconds since "
            "1970 (such as the last commit's: git log -1 --format=%ct), or unset it"
        )
    return int(value)


def unsettable_english(catalogs: Iterable[Catalog]) -> list[str]:
    """Each English text the books of ``catalogs`` show with a character their fonts lack.

    One ``path:line: ...`` line per text, where its English is written (a
    diagram's caption, a page's template), naming the books that show the
    replacement character in its place.  A translation with such a
    character is a warning of ``status`` and the build already (the ``glyphs``
    check), at its line of the PO file.
    """
    books: dict[tuple[str, int], list[str]] = {}
    english: dict[tuple[str, int], str] = {}
    for catalog in catalogs:
        for entry in catalog.entries.values():
            translated = entry.state == "translated" and catalog.language != DEFAULT_LANGUAGE
            if translated or not entry.sources:
                continue
            if glyph_problem(entry.english) is not None:
                books.setdefault(entry.sources[0], []).append(catalog.language)
                english[entry.sources[0]] = entry.english
    lines = []
    for (path, line), languages in sorted(books.items()):
        problem = glyph_problem(english[path, line])
        shown = ", ".join(languages)
        lines.append(
            f"{path}:{line}: {shorten(english[path, line])} {problem} (the books of {shown}); "
            "write it another way: the web pages show it"
        )
    return lines


def book_text_warnings(project_root: Path, languages: Sequence[str]) -> list[str]:
    """For ``booklet``: each text of these books that their fonts cannot set whole, or that
    shows nothing, one ``path:line: ...`` line each (``build`` says so among the translations).
    """
    _, warnings = translation_problems(project_root, languages)
    lines = [
        str(warning)
        for warning in warnings
        if isinstance(warning, QualityError) and warning.finding.check in {"glyphs", "blank"}
    ]
    return lines + unsettable_english(load_catalog(project_root, code) for code in languages)
