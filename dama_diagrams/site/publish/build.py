"""The multilingual rules site: verify, render, write pages, run MkDocs.

:func:`build_site` is the whole pipeline of ``dama-diagrams build``::

    diagrams/*.yaml --verify--> figures --render per language--> SVG
    docs/pages/*.md.j2 + docs/locales/<lang>/LC_MESSAGES/messages.po --> Markdown per language
    one MkDocs build per language (in worker processes) --> site/<lang>/
    social cards (drawn here, meanwhile), site/index.html

Everything is generated into a staging folder next to ``site/`` and swapped
in at the end (:mod:`.output`), so a failed build (a false claim, a broken
translation, a MkDocs warning) leaves the previous site as it was.  The MkDocs
plugin (:mod:`..servers.plugin`) reuses :func:`.language.generate_language`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..._files import cache_key_warning
from ..._interrupts import terminate_as_interrupt
from ...errors import DamaError, counted, visible
from .._common import (
    SITE_DIR,
    SITE_MARKER,
    SiteError,
)
from ..booklet import PDF_NAME, TypstMissingError, book_job, typst_module
from ..booklet.jobs import PrintedBook, book_or_why
from ..booklet.places import BookWarning, warning_lines
from ..booklet.scripts import book_fonts_lack
from ..booklet.sources import unsettable_english
from ..builder.config import (
    BaseConfig,
    LanguageSettings,
    check_theme_language,
    language_config,
)
from ..builder.root import root_pages, site_path
from ..builder.run import mkdocs_error, preload, root_404, run_mkdocs, write_config, write_files
from ..i18n import (
    DEFAULT_LANGUAGE,
    CombinedCatalogError,
    available_languages,
    catalog_status,
    check_drafts,
    check_languages,
    load_catalog,
    native_name,
    translation_problems,
)
from ..pages.cards import CARD_CACHE, iter_cards
from ..pages.figures import Figure, load_figures
from ..pages.nav import load_nav, page_names
from .language import LanguageSources, generate_language, timed
from .output import (
    check_out,
    link_tree,
    make_parent,
    marker_text,
    publish,
    sealed_languages,
    staging_folder,
)
from .workers import worker_pool

# --- one language's MkDocs run, in a worker process ------------------------------


@dataclass(frozen=True)
class _MkDocsJob:
    language: str
    config_file: Path
    settings: LanguageSettings
    page_404: Path | None
    """The 404 page to root in its language folder, when the site has no ``site_url``."""


@dataclass(frozen=True)
class _MkDocsResult:
    warnings: list[str]
    timings: dict[str, float]
    cpu: dict[str, float]


def _run_mkdocs_job(job: _MkDocsJob) -> _MkDocsResult:
    timings: dict[str, float] = {}
    cpu: dict[str, float] = {}
    with timed("mkdocs", timings, cpu):
        warnings = run_mkdocs(job.config_file, job.settings)
        if not warnings and job.page_404 is not None:
            root_404(job.page_404, job.language)
    return _MkDocsResult(warnings, timings, cpu)


# --- the whole build ---------------------------------------------------------------


NO_SITE_URL = (
    "warning: mkdocs.yml sets no site_url, so the sitemaps are empty, pages have no canonical "
    "link or hreflang alternates, social cards (og:image) are relative, and the 404 pages "
    "work only at the domain root; set site_url: to the address the site is published at, "
    "such as https://example.org/rules/"
)


@dataclass
class BuildReport:
    """What a build made, how long each step took, and what to tidy up."""

    site_dir: Path
    languages: list[str]
    diagrams: int
    pages: int
    timings: dict[str, float]
    untranslated_pages: dict[str, list[str]]
    cpu: dict[str, float] = field(default_factory=dict)
    """Processor seconds of verify, render, pages, mkdocs and booklet, summed like ``timings``.

    What a benchmark compares: wall time grows with whatever else runs on
    the cores (the languages and books build in parallel); this far less.
    """
    translation_warnings: list[str] = field(default_factory=list)
    """Every outdated or missing message, as ``path:line: message``."""
    kept: list[str] = field(default_factory=list)
    """The languages of the earlier site that a partial build left as they were."""
    left_out: list[str] = field(default_factory=list)
    """One line for each language with a catalog that is not in the site: who, why, which flag."""
    partial: bool = False
    """Whether only some languages were asked for (``build --lang``)."""
    site_url: str | None = None
    books: bool = True
    """Whether each language's printed book went into its site."""

    books_missing: str | None = None
    """Why this machine made no books, when it could not: the site went out without them."""
    books_left_out: dict[str, str] = field(default_factory=dict)
    """The languages whose books were left out, and why: their script the book's fonts lack,
    or Typst refused the book.  Their sites have no book."""
    book_warnings: list[str] = field(default_factory=list)
    """Each English text that a book shows with a character its fonts lack, and each element
    of a page that a book prints otherwise than the web page, or leaves out: at its line."""
    not_kept: list[str] = field(default_factory=list)
    """The languages of the earlier site that a partial build left out: not built here."""
    cache_warning: str | None = None
    """Why the book and card caches went unused (:func:`..._files.cache_key_warning`)."""

    def warnings(self) -> list[str]:
        """What the reader must know besides the summary: languages left out, books missing."""
        lines = list(self.left_out)
        if self.cache_warning:
            lines.append(f"warning: {self.cache_warning}")
        if self.books_missing:
            lines.append(
                f"warning: no printed books: {self.books_missing}; the site is published "
                "without them and without their links"
            )
        lines += [
            f"warning: {code}: no printed book: {why}; its site is published without it"
            for code, why in self.books_left_out.items()
        ]
        return lines + [f"warning: {line}" for line in self.book_warnings]

    def summary(self) -> str:
        summed = ", ".join(
            f"{name} {seconds:.2f}s" for name, seconds in self.timings.items() if name != "total"
        )
        steps = f"{summed} (summed over the languages, which build in parallel); " + (
            f"total {self.timings.get('total', 0.0):.2f}s"
        )
        lines = [
            f"built {counted(len(self.languages), 'language')} ({', '.join(self.languages)}), "
            f"{counted(self.pages, 'page')} and {counted(self.diagrams, 'diagram')} each, "
            f"into {visible(str(self.site_dir))}",  # on its line, whatever the folder's name
        ]
        if self.kept:
            lines.append(f"kept {counted(len(self.kept), 'language')} ({', '.join(self.kept)})")
        elif self.partial and not self.not_kept:
            lines.append("no earlier site to keep other languages from: only these were built")
        lines.append(f"time: {steps}")
        if not self.books and not self.books_missing:
            lines.append(f"no printed books: {BOOKS_VARIABLE}=0 leaves them and their links out")
        if not self.site_url:
            lines.append(NO_SITE_URL)
        lines.extend(self.translation_warnings)
        for language, names in self.untranslated_pages.items():
            if names:
                lines.append(f"{language}: pages not fully translated: {', '.join(names)}")
        return "\n".join(lines)


def build_site(
    project_root: Path,
    *,
    languages: list[str] | None = None,
    out: Path | None = None,
    drafts: bool = False,
    strict_translations: bool = False,
    books: bool | None = None,
) -> BuildReport:
    """Build the whole site into ``out`` (default ``site/``), atomically.

    ``out`` is replaced as a whole, so it must be a folder that a build made
    (see :func:`.output.check_out`): the project, its inputs, a file or a
    folder of other things are refused before any work is done.  On SIGTERM,
    as on Ctrl-C, the workers are stopped and the staging folder is removed.

    ``timings`` holds the wall time of verify and of the whole build, and for
    render, pages and mkdocs the time summed over the languages.

    Every broken translation of every chosen language is reported at once, as
    one error of ``path:line: message`` lines; ``strict_translations`` (for
    releases) also refuses outdated and missing ones.  A language translated
    that is a draft (see :func:`choose_languages`) is built only with ``drafts``.

    With ``books`` (the default, unless ``DAMA_DIAGRAMS_BOOKS=0``), each
    language's printed book goes into its site and every page links it.
    """
    with terminate_as_interrupt():
        return _build_site(
            project_root,
            languages=languages,
            out=out,
            drafts=drafts,
            strict_translations=strict_translations,
            books=books_wanted() if books is None else books,
        )


def _build_site(
    project_root: Path,
    *,
    languages: list[str] | None,
    out: Path | None,
    drafts: bool,
    strict_translations: bool,
    books: bool,
) -> BuildReport:
    project_root = project_root.resolve()
    out = (out or project_root / SITE_DIR).resolve()
    check_out(project_root, out)
    base = BaseConfig.read(project_root)
    # A release check looks at every language: none is left out as a draft.
    chosen, left_out = choose_languages(
        project_root, base, languages, drafts=drafts or strict_translations
    )
    problems, warnings = translation_problems(project_root, chosen, strict=strict_translations)
    if problems:
        raise CombinedCatalogError(problems)
    books_missing = None
    if books:
        try:
            typst_module()
        except TypstMissingError as exc:  # the machine, not the sources: warn, publish the site
            books, books_missing = False, exc.message
    started = time.perf_counter()
    timings: dict[str, float] = {}
    cpu: dict[str, float] = {}
    with timed("verify", timings, cpu):
        figures = load_figures(project_root)
    with timed("pages", timings, cpu):
        nav = load_nav(project_root)
        for code in chosen:
            load_catalog(project_root, code)

    make_parent(out)
    cache_warning = cache_key_warning(project_root)  # said once; the workers use the caches
    # Only some languages asked for: the others of the existing site stay as they are, if
    # this machine built them; one a clone brought, or changed since, is left out.
    earlier = built_languages(project_root, out, besides=chosen) if languages else []
    kept = sealed_languages(out, earlier, project_root)
    not_kept = [code for code in earlier if code not in kept]
    listed = [code for code in available_languages(project_root) if code in {*chosen, *kept}]
    if languages:
        left_out += [
            _not_asked_for(code, chosen, not_built_here=code in not_kept)
            for code in _absent(project_root, listed)
        ]
    # A script the book's fonts lack: that language's site goes out without a book.
    books_left_out = {
        code: why for code in chosen if books and (why := book_fonts_lack(code)) is not None
    }
    printed = [code for code in chosen if books and code not in books_left_out]
    # A translation's character the fonts lack is a translation warning; an English one, this.
    book_warnings = unsettable_english(load_catalog(project_root, code) for code in printed)
    noted: dict[str, Sequence[BookWarning]] = {}
    with staging_folder(out) as staging:
        built = _build_languages(
            project_root,
            base,
            chosen,
            figures,
            staging,
            menu=listed,
            books=frozenset(printed),
            timings=timings,
            cpu=cpu,
            refused=books_left_out,
            noted=noted,
        )
        for step in ("render", "pages", "mkdocs", "booklet"):
            timings[step] = timings.get(step, 0.0) + sum(s.timings.get(step, 0.0) for s in built)
        for step in ("render", "pages", "mkdocs", "booklet"):
            cpu[step] = cpu.get(step, 0.0) + sum(s.cpu.get(step, 0.0) for s in built)
        new_site = staging / "site"
        for code in kept:
            link_tree(out / code, new_site / code)
        default = DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in listed else listed[0]
        pages = root_pages(project_root, listed, default, base=site_path(base.site_url))
        write_files(pages, new_site)
        # Each language sealed, so that the next partial build knows this machine built it.
        publish(new_site, out, staging, marker=marker_text(new_site, listed, project_root))
    timings["total"] = time.perf_counter() - started
    book_warnings += warning_lines(noted)
    return BuildReport(
        site_dir=out,
        languages=chosen,
        diagrams=len(figures),
        pages=len(page_names(nav)),
        timings=timings,
        cpu=cpu,
        untranslated_pages={s.language: s.untranslated_pages for s in built},
        translation_warnings=[str(warning) for warning in warnings],
        kept=kept,
        left_out=left_out,
        partial=bool(languages),
        site_url=base.site_url,
        books=books,
        books_missing=books_missing,
        books_left_out=books_left_out,
        book_warnings=book_warnings,
        not_kept=not_kept,
        cache_warning=cache_warning,
    )


BOOKS_VARIABLE = "DAMA_DIAGRAMS_BOOKS"


def books_wanted() -> bool:
    """Whether a build prints the books: yes, unless ``DAMA_DIAGRAMS_BOOKS=0``.

    The test suite sets it for its many small builds, and builds the books
    where it checks them (tests/test_booklet.py).
    """
    return os.environ.get(BOOKS_VARIABLE, "1").strip() != "0"


def _absent(project_root: Path, listed: Sequence[str]) -> list[str]:
    return [code for code in available_languages(project_root) if code not in listed]


def _not_asked_for(code: str, chosen: Sequence[str], *, not_built_here: bool) -> str:
    asked = " ".join(f"--lang {language}" for language in chosen)
    why = (
        f"the earlier site's {code}/ was not built on this machine, or was changed since (a "
        "clone or a copy brings such a folder), so it is not published"
        if not_built_here
        else "the earlier site had no such language to keep"
    )
    return (
        f"{code} ({native_name(code)}) is not in the site: the build asked only for {asked}, "
        f"and {why}; build without --lang, or add --lang {code}, to include it"
    )


def built_languages(project_root: Path, out: Path, *, besides: Sequence[str]) -> list[str]:
    """The languages of an earlier build in ``out``, other than ``besides``, that have a catalog."""
    if not (out / SITE_MARKER).is_file():
        return []
    return [
        code
        for code in available_languages(project_root)
        if code not in besides and (out / code / "index.html").is_file()
    ]


def _build_languages(
    project_root: Path,
    base: BaseConfig,
    languages: list[str],
    figures: Mapping[str, Figure],
    staging: Path,
    *,
    menu: Sequence[str],
    books: frozenset[str],
    timings: dict[str, float],
    cpu: dict[str, float],
    refused: dict[str, str],
    noted: dict[str, Sequence[BookWarning]],
) -> list[LanguageSources]:
    """Generate each language here and hand it to a worker for MkDocs; draw the cards meanwhile.

    ``menu`` is every language of the finished site, for the language menus.
    A book that cannot be made is left out: its language is made again without
    it (no page links it), and ``refused`` says why; ``noted`` gets what each
    book made prints otherwise than its web pages.

    The first language that fails, in the order given, is the error raised, as
    if the languages had been built one after the other.  The social cards'
    time is added to ``timings`` and ``cpu`` as render time.
    """
    errors: dict[str, DamaError] = {}
    built: dict[str, LanguageSources] = {}
    waiting: dict[str, Callable[[], _MkDocsResult]] = {}
    printing: dict[str, Callable[[], PrintedBook | str]] = {}
    warm = [__name__, *preload(base.plugin_names())]  # __name__: the jobs' own module

    def generated(code: str, book: bool) -> LanguageSources:
        """The language's sources, written for MkDocs, whose job is queued."""
        sources = generate_language(
            project_root, code, figures, base=base, languages=menu, book=book
        )
        folder = staging / "src" / code
        write_files(sources.files, folder / "docs")
        site_dir = staging / "site" / code
        config = language_config(base, code, folder / "docs", site_dir)
        page_404 = None if base.site_url else site_dir / "404.html"
        job = _MkDocsJob(
            code, write_config(config, folder / "mkdocs.yml"), sources.settings, page_404
        )
        waiting[code] = pool.submit(code, _run_mkdocs_job, job)
        return sources

    with worker_pool(2 * len(languages), warm) as pool:
        with pool.sharing_the_cores():  # this process generates and draws meanwhile
            for code in languages:
                book = code in books
                try:
                    sources = generated(code, book)
                except DamaError as exc:
                    errors[code] = exc
                    continue
                if book:
                    job_of_book = book_job(
                        project_root,
                        sources,
                        figures,
                        staging / "books" / code,
                        author=base.site_author,
                    )
                    printing[code] = pool.submit(f"{code}: the book", book_or_why, job_of_book)
                built[code] = sources
            cards = {
                f"{code}/{path}": card
                for code, sources in built.items()
                for path, card in sources.cards.items()
            }
            drawn: dict[str, bytes] = {}
            with timed("render", timings, cpu):
                for key, png in iter_cards(cards, project_root / CARD_CACHE):
                    drawn[key] = png
                    pool.poll()  # a worker that is done gets its next language at once
        for code, book_result in list(printing.items()):
            printed = book_result()
            if isinstance(printed, str):  # no book: the site goes out without it
                refused[code] = printed.removeprefix(f"{code}: the book: ")
                del printing[code]
                waiting[code]()  # its MkDocs run, which links the book, is done before the next
                built[code] = generated(code, book=False)
                continue
            noted[code] = printed.warnings
            timing, cpu_time = built[code].timings, built[code].cpu
            timing["booklet"] = timing.get("booklet", 0.0) + printed.wall
            cpu_time["booklet"] = cpu_time.get("booklet", 0.0) + printed.processor
        for code, result in waiting.items():
            outcome = result()
            if outcome.warnings:
                errors[code] = mkdocs_error(code, outcome.warnings[0])
            built[code].timings.update(outcome.timings)
            built[code].cpu.update(outcome.cpu)
    for code in languages:
        if code in errors:
            raise errors[code]  # it names its file and line
    write_files(drawn, staging / "site")
    for code in printing:  # MkDocs empties its site folder first: the books go in after it
        pdf = PDF_NAME.format(language=code)
        (staging / "books" / code).replace(staging / "site" / code / pdf)
    return [built[code] for code in languages]


def choose_languages(
    project_root: Path,
    base: BaseConfig,
    languages: Sequence[str] | None,
    *,
    drafts: bool = False,
) -> tuple[list[str], list[str]]:
    """The languages to build (default: every catalog that is not a draft), and what is left out.

    A draft is a language that ``mkdocs.yml`` lists as one, or a new one with
    nothing translated yet; it is built only with ``drafts``.  Returns the
    chosen languages and one line for each draft left out.  Each language must
    be one Material can print.
    """
    found = available_languages(project_root)
    check_drafts(project_root, base.drafts, line=base.drafts_line)
    if languages:
        check_languages(project_root, languages)
    chosen = list(dict.fromkeys(languages)) if languages else found
    broken, _ = translation_problems(project_root, chosen)
    if broken:  # every broken catalog at once, before any is measured
        raise CombinedCatalogError(broken)
    left_out: list[str] = []
    if not drafts:
        held = [
            status
            for status in catalog_status(project_root, chosen, drafts=base.drafts)
            if status.draft is not None
        ]
        if languages and held:
            raise SiteError(
                f"{held[0].language} is a draft: {held[0].draft}; build it with --drafts"
            )
        left_out = [status.left_out() for status in held]
        chosen = [code for code in chosen if code not in {status.language for status in held}]
    for code in chosen:
        check_theme_language(base, code)
    return chosen, left_out
