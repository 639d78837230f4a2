"""The pages of one language: Jinja page templates filled from a catalog.

Templates in ``docs/pages/*.md.j2`` are written once, in English: gettext's
``{% trans %}...{% endtrans %}`` and ``_("...", name=value)`` mark the text
that the PO catalogs translate.  A page names its ``title``, ``description``
and ``summary`` at the top (``{% set title = _("Capturing") %}``), and calls
helpers for the rest: ``figure(id)`` for a checked diagram,
``explain_table(id)`` for the engine's priority table, ``legend()``,
``link(page)``, ``summary(page)`` and ``glossary()`` (the entries of
``docs/terms.yaml``, :mod:`.glossary`).  The output is Markdown for MkDocs.

Templates run with ``StrictUndefined`` (:mod:`.page_templates`), so a typo in a template is an error
and not an empty string; catalog text goes in as HTML that nh3 has cleaned
(:mod:`._markdown`), and everything that lands inside HTML attributes or
Markdown syntax is escaped here.
"""

from __future__ import annotations

import json
import posixpath
import re
import traceback
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ..._markdown_text import is_paragraph, one_line
from ...errors import DamaError
from ...render.legend import LEGEND_KEYS
from .._common import DIAGRAM_DIR, LEGEND_DIR, SOCIAL_DIR, exercise_board
from ..i18n import Catalog, CatalogError
from ..i18n.safe_text import (
    attribute_html,
    board_image,
    catalog_html,
    printable,
    text_of,
)
from ..messages import MESSAGES
from .exercises import exercise_html, progress_html
from .figure_html import explain_markdown, figure_html, legend_block
from .figures import (
    DrawnFigure,
    FigureView,
)
from .glossary import glossary_entries
from .nav import PAGES_DIR, TEMPLATE_SUFFIX, PageError
from .page_templates import environment, page_meta, section_heading

DEFAULT_MAIN_DIAGRAM = "initial-position"
EXERCISES_PAGE = "exercises"
"""The page that :meth:`PageRenderer.exercise_links` links to."""
LEFTOVER = re.compile(r"\{\{|\{%|%\}|\}\}")
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
"""A fenced code block: template syntax shown there (from ``{% raw %}``) is meant."""


# --- rendering --------------------------------------------------------------


@dataclass
class RenderedPage:
    name: str
    markdown: str
    title: str
    main_diagram: str
    figures: list[str] = field(default_factory=list)


class PageRenderer:
    """Renders every page of one language; keeps the Jinja environment warm."""

    def __init__(
        self,
        project_root: Path,
        catalog: Catalog,
        figures: Mapping[str, FigureView],
        drawn: Mapping[str, DrawnFigure],
        *,
        boards: Mapping[str, DrawnFigure] | None = None,
        directory_urls: bool = True,
        book: bool = False,
    ) -> None:
        """``drawn`` holds each figure's picture in this language, and its alt text;
        ``boards`` each exercise's board.

        With ``book``, the pages are written for the printed book: templates
        see ``book`` true and choose print wording, and a link to an exercise
        names it by its number ("Exercise 3"), which the book follows with its
        page.  Number the exercises first (:meth:`number_exercises`).

        ``directory_urls`` is MkDocs' ``use_directory_urls``: links between
        pages are written as the final addresses, since MkDocs does not rewrite
        the links inside HTML.
        """
        self.root = project_root
        self.directory_urls = directory_urls
        self._page = "index"
        self.catalog = catalog
        self.figures = figures
        self.drawn = drawn
        self.boards = boards or {}
        self.env = environment(project_root)
        self._page_figures: list[str] = []
        self._exercises = 0
        self.book = book
        self.exercise_numbers: dict[str, int] = {}
        """Each exercise's number on the exercises page, once that page is rendered."""

    def render(self, name: str) -> RenderedPage:
        own = f"{name}{TEMPLATE_SUFFIX}"
        template_path = (PAGES_DIR / own).as_posix()
        folder = (self.root / PAGES_DIR).resolve()
        self._page_figures = []
        self._exercises = 0
        self._page = name
        self.catalog.used = set()
        try:
            template = self.env.get_template(own)
            body = template.render(self._helpers())
        except jinja2.TemplateSyntaxError as exc:
            message = exc.message or "syntax error"
            path = _shown_template(exc.filename, folder) or template_path
            raise PageError(message, path=path, line=exc.lineno) from exc
        except jinja2.TemplateNotFound as exc:
            if exc.name == own:
                message = f"page '{name}' is in nav.yml but has no template"
                raise PageError(message, path=template_path) from exc
            message = f"template '{exc.name}' not found in {PAGES_DIR.as_posix()}/"
            raise _located(exc, message, template_path, folder) from exc
        except (DamaError, jinja2.UndefinedError) as exc:
            if isinstance(exc, PageError) and exc.path is not None:
                raise  # already names its file (a template that is not UTF-8)
            message = exc.message if isinstance(exc, DamaError) else str(exc)
            raise _located(exc, message, template_path, folder) from exc
        except RecursionError as exc:
            message = "the templates include or call each other without end"
            raise _located(exc, message, template_path, folder) from None
        except Exception as exc:  # anything a template expression can raise: 1/0, figure()
            message = f"{type(exc).__name__}: {exc}"
            raise _located(exc, message, template_path, folder) from exc
        leftover = LEFTOVER.search(FENCED.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), body))
        if leftover:
            line = body.count("\n", 0, leftover.start()) + 1
            raise PageError(
                f"{self.catalog.language}: template braces left in the output (line {line})",
                path=template_path,
            )
        title = text_of(catalog_html(self.page_text(name, "title"), inline=True))
        main = self._page_figures[0] if self._page_figures else DEFAULT_MAIN_DIAGRAM
        front_matter = self._front_matter(name, main)
        meta = page_meta(self.env, name)
        # The page's own description and summary are not on it: they do not count.
        self.catalog.used -= {
            (None, meta[key]) for key in ("description", "summary") if key in meta
        }
        markdown = front_matter + _after_title(body, self._notice())
        return RenderedPage(name, markdown, title, main, list(self._page_figures))

    def _helpers(self) -> dict[str, Any]:
        return {
            "_": self.text,
            "gettext": self.text,
            "pgettext": self.text_in_context,
            "figure": self.figure,
            "exercise": self.exercise,
            "exercise_links": self.exercise_links,
            "exercise_progress": lambda: progress_html(self.catalog),
            "explain_table": self.explain_table,
            "legend": self.legend,
            "link": self.link,
            "summary": self.summary,
            "glossary": lambda: glossary_entries(self.root, self.catalog),
            "book": self.book,
        }

    def text(self, english: str, **params: str) -> str:
        """A message in this language as clean HTML, its placeholders filled with ``params``.

        A message whose English is one paragraph goes in inline, so it can sit
        in a heading or a list item; longer ones are blocks of their own.
        """
        return self.text_in_context(None, english, **params)

    def text_in_context(self, context: str | None, english: str, **params: str) -> str:
        """``pgettext``: a message whose English alone is ambiguous, with its context."""
        message = self.catalog.message(english, context, **params)
        return catalog_html(message, inline=is_paragraph(english))

    def code_text(self, key: str, **params: str) -> str:
        """A message of the code (:mod:`.messages`) by its key, as clean HTML."""
        return self.text_in_context(key, MESSAGES[key], **params)

    def page_text(self, page: str, name: str) -> str:
        """A page's ``title``, ``description`` or ``summary``, in this language."""
        english = page_meta(self.env, page).get(name)
        if english is None:
            raise PageError(
                f'the page sets no {name}: add {{% set {name} = _("...") %}} at its top',
                path=(PAGES_DIR / f"{page}{TEMPLATE_SUFFIX}").as_posix(),
            )
        return self.catalog.message(english)

    def link(self, page: str, section: str | None = None) -> str:
        """A link to another page, titled in this language; with ``section``, to that heading.

        The section is a heading's own id (``## Title { #section }``), the same in
        every language: the link bears the heading's words, and it and the book's
        page number lead to the heading itself rather than to the page's start.
        """
        url = page_url(page, self._page, directory_urls=self.directory_urls)
        if section is None:
            words = self.page_text(page, "title")
        else:
            words = self.catalog.message(section_heading(self.env, page, section))
            url += f"#{section}"
        return f'<a href="{attribute_html(url)}">{catalog_html(words, inline=True)}</a>'

    def summary(self, page: str) -> str:
        """What another page is about, in a few words, as clean HTML."""
        return catalog_html(self.page_text(page, "summary"), inline=True)

    def legend(self) -> str:
        """The full legend of markers, for the home page."""
        return self._legend(LEGEND_KEYS)

    def _legend(self, keys: Collection[str], hidden: Collection[str] = ()) -> str:
        """The legend's HTML (the book draws each icon itself, from the entry's key)."""
        return legend_block(
            self.catalog, keys, hidden, icons=not self.book, icon_folder=self._icon_folder()
        )

    def _icon_folder(self) -> str:
        """The legend's icons seen from the page: MkDocs leaves the links in HTML as they are."""
        return site_address(LEGEND_DIR, self._page, directory_urls=self.directory_urls)

    def _figure_view(self, diagram_id: str) -> FigureView:
        view = self.figures.get(diagram_id)
        if view is None:
            raise PageError(f"no verified diagram '{diagram_id}' (diagrams/{diagram_id}.yaml)")
        return view

    def figure(self, diagram_id: str) -> str:
        """One checked diagram: picture, caption, move, legend and the engine's line."""
        view = self._figure_view(diagram_id)
        self._page_figures.append(diagram_id)
        return self._figure_html(view)

    def _figure_html(self, view: FigureView) -> str:
        drawn = self.drawn[view.id]
        width, height = drawn.picture.width, drawn.picture.height
        image = board_image(drawn.alt, f"{DIAGRAM_DIR}/{view.id}.svg", width, height)
        return figure_html(
            view, self.catalog, image, icons=not self.book, icon_folder=self._icon_folder()
        )

    def exercise(self, diagram_id: str) -> str:
        """An exercise, numbered on its page: heading, question, board, and the answer to open."""
        view = self._exercise_view(diagram_id)
        exercise = view.exercise
        assert exercise is not None  # _exercise_view makes sure
        board = self.boards[diagram_id]
        self._exercises += 1
        self.exercise_numbers[diagram_id] = self._exercises
        title = self._exercise_title(view)
        heading = self.code_text("exercise.heading", number=str(self._exercises), title=title)
        block = exercise_html(
            diagram_id,
            exercise,
            self.catalog,
            board=board_image(
                board.alt,
                f"{DIAGRAM_DIR}/{exercise_board(diagram_id)}",
                board.picture.width,
                board.picture.height,
                css=".dama-board .dama-exercise-board",
            ),
            # Not a page figure: the page's picture (its social card) would give the answer away.
            answer=self._figure_html(view),
            playable=not self.book,
        )
        return f"## {heading} {{ #{diagram_id} }}\n\n{block}"

    def exercise_links(self, *diagram_ids: str) -> str:
        """Links to exercises on the ``exercises`` page, titled, joined with "and"."""
        url = page_url(EXERCISES_PAGE, self._page, directory_urls=self.directory_urls)
        links = []
        for diagram_id in diagram_ids:
            title = self._exercise_title(self._exercise_view(diagram_id))
            number = self.exercise_numbers.get(diagram_id) if self.book else None
            if number is not None:  # print: a number to find, not a title to click
                title = self.code_text("book.exercise", number=str(number))
            links.append(f'<a href="{attribute_html(f"{url}#{diagram_id}")}">{title}</a>')
        return self.catalog.join(links)

    def _exercise_view(self, diagram_id: str) -> FigureView:
        view = self._figure_view(diagram_id)
        if view.exercise is None or diagram_id not in self.boards:
            raise PageError(
                f"diagram '{diagram_id}' is no exercise: add exercise: {{ask: move, "
                f'question: "..."}} to diagrams/{diagram_id}.yaml, or show it with figure()'
            )
        return view

    def _exercise_title(self, view: FigureView) -> str:
        if view.title is None:
            raise PageError(
                f"exercise '{view.id}' has no title: add title: \"...\" to diagrams/{view.id}.yaml"
            )
        return catalog_html(self.catalog.message(view.title), inline=True)

    def explain_table(self, diagram_id: str) -> str:
        """The engine's table of every candidate capture, as a Markdown table."""
        view = self._figure_view(diagram_id)
        if not view.explain:
            raise PageError(f"diagram '{diagram_id}' has no captures to explain")
        return explain_markdown(view.explain, self.catalog)

    def _front_matter(self, name: str, main: str) -> str:
        """YAML front matter: plain text on one line, in JSON quotes (which YAML reads).

        The page template (``overrides/main.html``) escapes these values for HTML.
        """
        description = one_line(printable(self.page_text(name, "description")))
        meta = {"description": description, "og_image": f"{SOCIAL_DIR}/{name}.png"}
        lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in meta.items()]
        return "---\n" + "\n".join(lines) + "\n---\n\n"

    def _notice(self) -> str:
        """The note that some passages are not translated for the current English."""
        count = self.catalog.not_current()
        if not count:
            return ""
        notice = self.catalog.text("notice.untranslated", count=str(count))
        return f'!!! note ""\n\n    {catalog_html(notice, inline=True)}\n\n'


def page_url(target: str, current: str, *, directory_urls: bool = True) -> str:
    """The address of page ``target`` on page ``current``, relative, as MkDocs writes it.

    With directory URLs each page but an index is a folder of its own
    (``king/``, ``guide/first-steps/``), else a file (``king.html``).
    """
    relative = site_address(
        _page_address(target, directory_urls), current, directory_urls=directory_urls
    )
    return f"{relative}/" if directory_urls else relative


def site_address(path: str, current: str, *, directory_urls: bool = True) -> str:
    """The address of ``path`` (a folder or file of the built site) on page ``current``."""
    here = _page_address(current, directory_urls)
    folder = here.rstrip("/") if directory_urls else posixpath.dirname(here)
    return posixpath.relpath(path or ".", folder or ".")


def _page_address(page: str, directory_urls: bool) -> str:
    if not directory_urls:
        return f"{page}.html"
    if page == "index" or page.endswith("/index"):
        return page.removesuffix("index")
    return f"{page}/"


def _located(
    exc: BaseException, message: str, template_path: str, folder: Path | None = None
) -> PageError:
    """The error at the template line that raised it (Jinja rewrites tracebacks so).

    The innermost template frame wins, so an error in an included template
    names that template, not the page.
    """
    line = None
    path = template_path
    for frame in traceback.extract_tb(exc.__traceback__):
        shown = _shown_template(frame.filename, folder)
        if shown is not None or frame.filename.endswith(TEMPLATE_SUFFIX):
            line = frame.lineno
            path = shown or template_path
    if isinstance(exc, CatalogError | PageError | RecursionError | jinja2.TemplateNotFound):
        return PageError(message, path=path, line=line)
    return PageError(f"{message} (a template helper or variable is wrong)", path=path, line=line)


def _shown_template(filename: str | None, folder: Path | None) -> str | None:
    """``docs/pages/<name>`` for a template file in the pages folder, else None."""
    if not filename or folder is None:
        return None
    try:
        relative = Path(filename).resolve().relative_to(folder)
    except (ValueError, OSError):
        return None
    return (PAGES_DIR / relative).as_posix()


def _after_title(body: str, notice: str) -> str:
    """The notice goes after the page's first heading, so that the heading stays its title."""
    if not notice:
        return body
    match = re.search(r"^# .*\n", body, flags=re.MULTILINE)
    if match is None:
        return notice + body
    return f"{body[: match.end()]}\n{notice}{body[match.end() :]}"
