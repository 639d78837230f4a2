"""One language's book as a job for a worker process: laid out, then written atomically.

``dama-diagrams booklet`` and ``build`` both hand these to their worker pool;
each PDF is written to a temporary file beside its target and renamed, so a
reader of ``booklet/en.pdf`` never sees half a book.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .._common import os_error, relative_to_cwd, write_atomically
from ..figures import Figure
from ..i18n import load_catalog
from ..nav import load_nav, page_names
from .pdf import book_pdf
from .sources import BookSources, book_sources

if TYPE_CHECKING:
    from ..build import LanguageSources


@dataclass(frozen=True)
class BookJob:
    """One language's book, for a worker: what to print, on which paper, into which file."""

    language: str
    book: BookSources
    paper: str
    target: Path


def write_book(job: BookJob) -> float:
    """Lay out one book and write it; the seconds it took."""
    started = time.perf_counter()
    pdf = book_pdf(job.book, paper=job.paper)
    try:
        write_atomically(job.target, pdf)
    except OSError as exc:
        raise os_error(exc, f"cannot write {relative_to_cwd(job.target)}") from exc
    return time.perf_counter() - started


def book_job(
    project_root: Path,
    sources: LanguageSources,
    figures: Mapping[str, Figure],
    target: Path,
    *,
    paper: str = "a4",
) -> BookJob:
    """The job that prints ``sources`` (a language generated for the site) into ``target``."""
    games = frozenset(
        figure_id for figure_id, figure in figures.items() if figure.verified.diagram.game_steps
    )
    pages = tuple(page_names(load_nav(project_root)))
    catalog = load_catalog(project_root, sources.language)
    book = book_sources(catalog, sources.files, pages, games)
    return BookJob(sources.language, book, paper, target)
