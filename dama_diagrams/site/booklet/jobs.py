"""One language's book as a job for a worker process: laid out, then written atomically.

``dama-diagrams booklet`` and ``build`` both hand these to their worker pool;
each PDF is written to a temporary file beside its target and renamed, so a
reader of ``booklet/en.pdf`` never sees half a book.  Each PDF is also kept in
the project's cache by the hash of all that makes it (its sources, the paper,
the code and layout that make it, Typst's version), in a file sealed by this
machine's key (:func:`..._files.read_cache_entry`, checked on reading): a
build whose sources did not change lays out no book, and an entry this
machine did not write (one a clone brought) is never used.  The book's markup
is made all the same, for its warnings (what it prints otherwise than the web
pages, at each template's line), which every build says again.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields
from importlib.metadata import version
from pathlib import Path
from typing import Protocol

from ..._files import (
    WriteError,
    read_cache_entry,
    relative_to_cwd,
    write_atomically,
    write_cache_entry,
)
from .._common import os_error
from ..i18n import load_catalog
from ..pages.figures import Figure
from .pdf import BookRefusedError, book_pdf, printable_document
from .places import BookWarning
from .sources import BookSources, book_sources, template_places


class GeneratedLanguage(Protocol):
    """What a book is printed from: a language as generated for the site.

    :class:`..publish.language.LanguageSources` is one; the book needs no more of it.
    """

    @property
    def language(self) -> str: ...
    @property
    def files(self) -> Mapping[str, str | bytes]: ...
    @property
    def book_pages(self) -> Mapping[str, str]: ...


BOOK_CACHE = Path(".cache") / "dama-diagrams" / "books"
"""Books by the hash of all that makes them: a build with unchanged sources lays out none."""
BOOK_REVISION = 1
"""Raise it when something outside this package changes the books' bytes."""
_HERE = Path(__file__).parent
_BOOK_TEXT = (_HERE.parents[1] / "_book_text.py", _HERE.parents[1] / "_book_glyph_table.py")
"""What the book sets for a character its fonts lack: its bytes change with them."""


@dataclass(frozen=True)
class BookJob:
    """One language's book, for a worker: what to print, on which paper, into which file."""

    language: str
    book: BookSources
    paper: str
    target: Path
    cache: Path | None = None
    """A folder of books laid out before, by their hash; None: always lay it out."""


@dataclass(frozen=True)
class PrintedBook:
    """A book written: its wall and processor seconds, and what it prints otherwise than the
    web pages, or leaves out."""

    wall: float
    processor: float
    warnings: tuple[BookWarning, ...] = ()


def write_book(job: BookJob) -> PrintedBook:
    """Lay out one book, or take it from the cache, and write it.

    A book that cannot be made is a :class:`.pdf.BookRefusedError`, whatever the
    cause; a file that cannot be written, an error of the machine's.
    """
    started, processor = time.perf_counter(), time.process_time()
    document = printable_document(job.book, paper=job.paper)
    key, depth = _digest(job), len(BOOK_CACHE.parts)
    # an entry is trusted only if this machine wrote it: its seal, a regular file, a PDF
    pdf = (
        None
        if job.cache is None
        else read_cache_entry(job.cache, key, ".pdf", b"%PDF-", depth=depth)
    )
    if pdf is None:
        pdf = book_pdf(job.book, paper=job.paper, document=document)
        if job.cache is not None:
            with contextlib.suppress(WriteError):  # a cache that cannot be written is no error
                write_cache_entry(job.cache, key, ".pdf", pdf, depth=depth)
    try:
        write_atomically(job.target, pdf)
    except OSError as exc:
        raise os_error(exc, f"cannot write {relative_to_cwd(job.target)}") from exc
    wall, processor = time.perf_counter() - started, time.process_time() - processor
    return PrintedBook(wall, processor, document.warnings)


def book_or_why(job: BookJob) -> PrintedBook | str:
    """:func:`write_book`, for a worker: the book written, or why it could not be made, in
    one line (``build`` publishes the site without it; ``booklet`` says so and fails)."""
    try:
        return write_book(job)
    except BookRefusedError as exc:
        return exc.message


_NOT_IN_THE_BYTES = ("places", "assets")
"""BookSources' fields the hash leaves out: where warnings point (no byte of the book), and
the pictures, hashed by their bytes below."""


def _digest(job: BookJob) -> str:
    """The hash of everything the book's bytes depend on: every field of its sources, so a
    field added later (a colophon line, a subtitle) is never left out of the cache's key."""
    book = job.book
    digest = hashlib.sha256()
    digest.update(repr((BOOK_REVISION, version("typst"), job.paper)).encode())
    for item in fields(book):
        if item.name not in _NOT_IN_THE_BYTES:
            value = getattr(book, item.name)
            shown = sorted(value) if isinstance(value, frozenset) else value
            digest.update(f"\n{item.name}={shown!r}".encode())
    for path in [*sorted(_HERE.glob("*.py")), *sorted(_HERE.glob("*.typ")), *_BOOK_TEXT]:
        digest.update(path.read_bytes())
    for name in sorted(book.assets):
        digest.update(f"\n{name}\n{len(book.assets[name])}\n".encode())
        digest.update(book.assets[name])
    return digest.hexdigest()


def book_job(
    project_root: Path,
    sources: GeneratedLanguage,
    figures: Mapping[str, Figure],
    target: Path,
    *,
    paper: str = "a4",
    author: str | None = None,
) -> BookJob:
    """The job that prints ``sources`` (a language generated for the site) into ``target``.

    ``author`` is the publisher the PDF names: ``site_author`` of the ``BaseConfig``
    the caller read already.
    """
    games = frozenset(
        figure_id for figure_id, figure in figures.items() if figure.verified.diagram.game_steps
    )
    catalog = load_catalog(project_root, sources.language)
    places = template_places(project_root, catalog, sources.book_pages)
    book = book_sources(
        catalog, sources.files, sources.book_pages, games, author=author, places=places
    )
    return BookJob(sources.language, book, paper, target, project_root / BOOK_CACHE)
