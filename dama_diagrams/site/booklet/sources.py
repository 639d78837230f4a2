"""What one language's book is made of, gathered from the site's own generated sources.

The book is printed from exactly what the site publishes: the Markdown pages
and SVG diagrams that :func:`..publish.language.generate_language` wrote for the language,
in the order of ``nav.yml``.  :class:`BookSources` holds them as plain data, so
that a worker process can turn them into a PDF.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.dates import format_date

from ..._book_text import glyph_problem
from ...diagram._yaml import load_yaml, read_utf8
from ...errors import DamaError, shorten
from .._common import SiteError
from ..i18n import DEFAULT_LANGUAGE, Catalog, load_catalog, native_name, translation_problems
from ..i18n.quality import QualityError
from ..messages import MESSAGES
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
    subtitle: str = ""
    """What the book is, under its title on the cover."""
    edition: str = ""
    """The cover's edition line, with its date."""
    colophon: tuple[str, ...] = ()
    """The colophon's lines, on the back of the cover: publisher, licence, sources, print
    date, where to report an error."""
    same_diagram: str = "{caption} (See the diagram on p. {page}.)"
    """What the book prints for a diagram it has printed before (``{caption}``, ``{page}``)."""
    said_once: str = ""
    """What every diagram's description says alike (how the turn is shown): said once."""
    solution: str = "Solution"
    """The words of an exercise's link to its answer at the back."""
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
    date = book_date(day, catalog.language)
    assets = {
        path: content.encode("utf-8") if isinstance(content, str) else content
        for path, content in files.items()
        if path.endswith(PICTURE_SUFFIX)
    }
    ours = author == MESSAGES["book.author"]  # this project's own name: said in the language
    return BookSources(
        language=catalog.language,
        title=catalog.text("site.name"),
        language_name=native_name(catalog.language),
        date=date,
        contents=catalog.text("book.contents"),
        solutions=catalog.text("book.solutions"),
        pages=tuple(pages.items()),
        assets=assets,
        games=games,
        epoch=epoch,
        reference=catalog.text("book.page_reference", reference="{reference}", page="{page}"),
        subject=catalog.text("book.subject"),
        author=catalog.text("book.author") if ours else author,
        subtitle=catalog.text("book.subtitle"),
        edition=catalog.text("book.edition", date=date),
        colophon=_colophon(catalog, author, date, ours=ours),
        same_diagram=catalog.text("book.same_diagram", caption="{caption}", page="{page}"),
        said_once=catalog.text("alt.turn"),
        solution=catalog.text("book.solution"),
        places=places or {},
    )


def book_date(day: datetime.date, language: str) -> str:
    """A day as the language writes it in full: "1er décembre 2025", "1º dicembre 2025"."""
    written = format_date(day, format="long", locale=language.replace("-", "_"))
    ordinal = _FIRST_OF_THE_MONTH.get(language.split("-", maxsplit=1)[0])
    if day.day == 1 and ordinal is not None and written.startswith("1 "):
        written = ordinal + written[1:]
    return written


_FIRST_OF_THE_MONTH = {"fr": "1er", "it": "1º"}
"""The languages that write the first of the month as an ordinal (CLDR's long date does not)."""


def _colophon(
    catalog: Catalog, author: str | None, date: str, *, ours: bool = False
) -> tuple[str, ...]:
    """The colophon's lines: who publishes the book, its licence, its sources, when it was
    printed and where to report an error; a fact the project does not give is left out."""
    facts = project_facts(catalog.path)
    if ours:
        lines = [catalog.text("book.published_by_author")]
    else:
        lines = [catalog.text("book.publisher", publisher=author)] if author else []
    if facts.licence:
        lines.append(catalog.text("book.licence", licence=facts.licence))
    unbroken = date.replace(" ", "\u00a0")  # a date read at a glance: never split by a line end
    lines.append(catalog.text("book.sources", date=unbroken))
    lines.append(catalog.text("book.printed", date=unbroken))
    if facts.report:
        lines.append(catalog.text("book.report", address=facts.report))
    return tuple(lines)


@dataclass(frozen=True)
class ProjectFacts:
    """What the colophon says of the project: its licence (``license`` of ``pyproject.toml``)
    and where to report an error (``repo_url`` of ``mkdocs.yml``, MkDocs' own key)."""

    licence: str | None = None
    report: str | None = None


def project_facts(catalog_path: Path) -> ProjectFacts:
    """The facts of the project that holds a catalog (the first folder above it with a
    ``mkdocs.yml``); none for a catalog of no project."""
    root = next(
        (folder for folder in catalog_path.parents if (folder / "mkdocs.yml").is_file()), None
    )
    if root is None:
        return ProjectFacts()
    licence = report = None
    with contextlib.suppress(OSError, ValueError):
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
        value = project.get("project", {}).get("license")
        value = value.get("text") if isinstance(value, dict) else value
        licence = " ".join(str(value).split()) or None if value else None
    with contextlib.suppress(OSError, DamaError):
        config, _ = load_yaml(
            read_utf8(root / "mkdocs.yml", "mkdocs.yml", SiteError), "mkdocs.yml", SiteError
        )
        value = config.get("repo_url") if isinstance(config, dict) else None
        report = " ".join(str(value).split()) or None if value else None
    return ProjectFacts(licence, report)


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
