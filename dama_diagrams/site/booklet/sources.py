"""What one language's book is made of, gathered from the site's own generated sources.

The book is printed from exactly what the site publishes: the Markdown pages
and SVG diagrams that :func:`..publish.language.generate_language` wrote for the language,
in the order of ``nav.yml``.  :class:`BookSources` holds them as plain data, so
that a worker process can turn them into a PDF.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from babel.dates import format_date

from .._common import DIAGRAM_DIR, SiteError
from ..i18n import Catalog, native_name
from ..pages.page_templates import page_in_book
from ..pages.renderer import EXERCISES_PAGE, PageRenderer

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
    """The diagrams, by their path in the docs folder (``assets/diagrams/x.svg``)."""
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


def book_sources(
    catalog: Catalog,
    files: Mapping[str, str | bytes],
    pages: Mapping[str, str],
    games: frozenset[str],
    *,
    author: str | None = None,
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
        if path.startswith(f"{DIAGRAM_DIR}/")
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
    )


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
