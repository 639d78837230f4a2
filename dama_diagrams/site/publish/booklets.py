"""``dama-diagrams booklet``: one PDF per language, built in parallel worker processes.

The languages are those ``build`` would publish (:func:`.build.choose_languages`,
drafts held back the same way), each generated as for the site and handed to a
worker that lays it out (:mod:`..booklet.jobs`, which ``build`` uses too, to put each
language's PDF into its site).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..._files import cache_key_warning, refuse_unless_replaceable, relative_to_cwd
from ..._interrupts import terminate_as_interrupt
from ...errors import DamaError, counted, visible
from .._common import SiteError, os_error
from ..booklet.jobs import PrintedBook, book_job, book_or_why
from ..booklet.pdf import PAPERS, typst_module
from ..booklet.places import warning_lines
from ..booklet.scripts import book_fonts_lack
from ..booklet.sources import book_text_warnings, source_date_epoch
from ..builder.config import BaseConfig
from ..i18n import available_languages
from ..pages.figures import Figure, load_figures
from .build import choose_languages
from .language import generate_language
from .workers import worker_pool

BOOKLET_DIR = "booklet"


@dataclass
class BookletReport:
    """The books written, how long they took, and the languages left out (with why)."""

    files: list[Path]
    timings: dict[str, float]
    """Processor seconds: ``verify`` (reading the diagrams), ``pages`` (each language's
    pages and its book's markup, made here), ``booklet`` (the books laid out by Typst in
    the workers, summed over them) and ``total`` (this process and its workers: at least
    the sum of the others); ``wall``, the time that went by."""
    left_out: list[str] = field(default_factory=list)

    def summary(self) -> str:
        shown = ", ".join(visible(str(relative_to_cwd(path))) for path in self.files)
        steps = ", ".join(
            f"{name} {seconds:.2f}s" for name, seconds in self.timings.items() if name != "wall"
        )
        wall = self.timings.get("wall", 0.0)
        return (
            f"wrote {counted(len(self.files), 'book')}: {shown}\n"
            f"time in processor seconds, the workers' summed with this process's: {steps}; "
            f"{wall:.2f}s went by"
        )


def build_booklets(
    project_root: Path,
    *,
    languages: Sequence[str] | None = None,
    out: Path | None = None,
    paper: str = "a4",
    drafts: bool = False,
) -> BookletReport:
    """Write ``out/<lang>.pdf`` (default ``booklet/``) for each language the site builds."""
    if paper not in PAPERS:
        raise SiteError(f"no paper size '{paper}': choose {' or '.join(PAPERS)}")
    source_date_epoch()  # a bad SOURCE_DATE_EPOCH fails before any page is made
    with terminate_as_interrupt():
        project_root = project_root.resolve()
        out = (out or project_root / BOOKLET_DIR).resolve()
        if out.exists() and not out.is_dir():
            raise SiteError(f"{relative_to_cwd(out)} is a file, not a folder: choose another --out")
        typst_module()  # this command's one job: no Typst, one line saying what to install
        base = BaseConfig.read(project_root)
        chosen, left_out = choose_languages(project_root, base, languages, drafts=drafts)
        unprintable = {code: why for code in chosen if (why := book_fonts_lack(code)) is not None}
        if languages and unprintable:  # asked for by name: refused, not skipped
            code, why = next(iter(unprintable.items()))
            raise SiteError(f"{code}: no printed book can be made: {why}")
        left_out += [f"{code}: no printed book: {why}" for code, why in unprintable.items()]
        chosen = [code for code in chosen if code not in unprintable]
        left_out += [f"warning: {line}" for line in book_text_warnings(project_root, chosen)]
        if (unused := cache_key_warning(project_root)) is not None:  # the workers say nothing
            left_out.append(f"warning: {unused}")
        started, processor = time.perf_counter(), time.process_time()
        figures = load_figures(project_root)
        timings = {"verify": time.process_time() - processor}
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_error(exc, f"cannot make the folder {relative_to_cwd(out)}") from exc
        printed = _print_books(project_root, base, chosen, figures, out, paper, timings)
        timings["booklet"] = sum(book.processor for book in printed.values())
        notes = {code: book.warnings for code, book in printed.items()}
        left_out += [f"warning: {line}" for line in warning_lines(notes)]
        timings["total"] = time.process_time() - processor + timings["booklet"]
        timings["wall"] = time.perf_counter() - started
    return BookletReport([out / f"{code}.pdf" for code in chosen], timings, left_out)


def _print_books(
    project_root: Path,
    base: BaseConfig,
    languages: list[str],
    figures: Mapping[str, Figure],
    out: Path,
    paper: str,
    timings: dict[str, float],
) -> dict[str, PrintedBook]:
    """Generate each language here and lay it out in a worker; the first failure is raised.

    The processor time of making the pages here is added to ``timings["pages"]``.
    """
    errors: dict[str, DamaError] = {}
    waiting: dict[str, Callable[[], PrintedBook | str]] = {}
    menu = available_languages(project_root)
    for code in languages:  # a device or a link in the way: one line before any book is made
        refuse_unless_replaceable(out / f"{code}.pdf")
    with worker_pool(len(languages), [book_or_why.__module__]) as pool:
        for code in languages:
            processor = time.process_time()
            try:
                sources = generate_language(
                    project_root, code, figures, base=base, languages=menu, book=True
                )
            except DamaError as exc:
                errors[code] = exc
                continue
            job = book_job(
                project_root,
                sources,
                figures,
                out / f"{code}.pdf",
                paper=paper,
                author=base.site_author,
            )
            timings["pages"] = timings.get("pages", 0.0) + time.process_time() - processor
            waiting[code] = pool.submit(f"{code}.pdf", book_or_why, job)
        printed = {code: result() for code, result in waiting.items()}
    for code in languages:
        book = printed.get(code)
        if code in errors or isinstance(book, str):  # this command's one job: an error
            raise errors.get(code) or SiteError(str(book))
    return {code: book for code, book in printed.items() if not isinstance(book, str)}
