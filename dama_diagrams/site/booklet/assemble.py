"""One language's book as one HTML document: cover, contents, chapters, answers, glossary.

Each page's Markdown is rendered with Python-Markdown and the extensions that
``mkdocs.yml`` gives MkDocs, so the book says what the site says.  Then the
page becomes a chapter: its ids are prefixed with the page's name (two pages
may both have a heading "Examples"), links between pages become links inside
the book, each diagram stays on one page with its explanation table, the
exercises' answers move to a chapter at the back, and a game's diagram is
followed by every position of the game, move by move.  The glossary comes
last, as a book's does.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

import markdown

from .._common import DIAGRAM_DIR, step_folder
from .._markdown import SAFE_SCHEMES
from ..pages import EXERCISES_PAGE
from .sources import BookSources

GLOSSARY_PAGE = "glossary"
SOLUTIONS_ID = "solutions"
EXTENSIONS = (
    "admonition",
    "attr_list",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.highlight",
    "pymdownx.superfences",
)
"""The ``markdown_extensions`` of the project's ``mkdocs.yml``; ``toc`` without permalinks."""

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_TITLE = re.compile(r"<h1[^>]*>(.*?)</h1>", re.DOTALL)
_ID = re.compile(r'(\sid=")([^"]*)(")')
_HREF = re.compile(r'(\shref=")([^"]*)(")')
_HEADING = re.compile(r'<h2 id="([^"]*)">(.*?)</h2>', re.DOTALL)
_ANSWER = re.compile(
    r'<details class="dama-answer">\s*<summary>.*?</summary>(.*?)</details>', re.DOTALL
)
_FIGURE_WITH_TABLE = re.compile(
    r'(<figure class="dama-figure".*?</figure>)\s*(<div class="dama-explain">.*?</div>)',
    re.DOTALL,
)
_TAG = re.compile(r"<[^>]*>")
_FIGURE_TAG = re.compile(r'<figure class="dama-figure"[^>]*>')
"""A diagram's opening tag; md_in_html may write its attributes in any order."""
_STEPS = re.compile(r'\sdata-steps="([^"]*)"')


@dataclass(frozen=True)
class Chapter:
    """One chapter of the book: its id (the page's name), its title and its HTML."""

    id: str
    title: str
    body: str


def book_html(book: BookSources) -> str:
    """The whole book as one HTML document, for WeasyPrint and its print stylesheet."""
    names = {name for name, _ in book.pages}
    chapters: list[Chapter] = []
    answers: list[Chapter] = []
    for name, text in book.pages:
        body = page_html(text)
        body = _keep_tables_with_figures(body)
        body = _in_book(_game_steps(body, book.games), name, names)
        if name == EXERCISES_PAGE:
            body, answers = _answers_moved(body, book.solutions)
        chapters.append(Chapter(name, _title(body, name), body))
    if answers:
        chapters.append(_solutions_chapter(book.solutions, answers))
    chapters.sort(key=lambda chapter: chapter.id == GLOSSARY_PAGE)  # stable: the glossary last
    return _document(book, chapters)


def page_html(text: str) -> str:
    """One page's Markdown, front matter left out, as HTML."""
    renderer = markdown.Markdown(
        extensions=list(EXTENSIONS), extension_configs={"toc": {"permalink": False}}
    )
    return renderer.convert(_FRONT_MATTER.sub("", text, count=1))


def _title(body: str, name: str) -> str:
    found = _TITLE.search(body)
    return html.unescape(_TAG.sub("", found.group(1))).strip() if found else name


def _keep_tables_with_figures(body: str) -> str:
    """A diagram and the table that explains it are one block, never split by a page break."""
    return _FIGURE_WITH_TABLE.sub(r'<div class="dama-keep">\1\n\2</div>', body)


def _game_steps(body: str, games: Iterable[str]) -> str:
    """After a game's diagram, every position of the game with its move: the move list.

    The moves are the texts of the diagram's step controls (``data-steps``),
    each beside the step's picture.
    """
    for figure_id in games:
        opening = next(
            (
                tag
                for tag in _FIGURE_TAG.finditer(body)
                if f' id="figure-{figure_id}"' in tag[0] and _STEPS.search(tag[0])
            ),
            None,
        )
        if opening is None:
            continue
        steps_data = _STEPS.search(opening[0])
        assert steps_data is not None
        texts = json.loads(html.unescape(steps_data[1]))["texts"]
        steps = "".join(
            f'<figure class="dama-step"><img src="{DIAGRAM_DIR}/{step_folder(figure_id)}/'
            f'{index}.svg" alt="{html.escape(text)}"><figcaption>{html.escape(text)}'
            "</figcaption></figure>"
            for index, text in enumerate(texts)
        )
        end = body.index("</figure>", opening.end()) + len("</figure>")
        body = f'{body[:end]}\n<div class="dama-game-steps">{steps}</div>{body[end:]}'
    return body


def _answers_moved(body: str, solutions: str) -> tuple[str, list[Chapter]]:
    """The exercises without their answers, which go to the back, each linked from its exercise.

    Each answer belongs to the exercise heading before it, whose id (already
    in the book's form) it keeps under the solutions chapter's.
    """
    answers: list[Chapter] = []
    parts: list[str] = []
    position = 0
    for found in _ANSWER.finditer(body):
        before = body[position : found.start()]
        headings = _HEADING.findall(body, 0, found.start())
        exercise_id, heading = headings[-1] if headings else (f"answer-{len(answers)}", "")
        answers.append(Chapter(exercise_id, heading, found.group(1)))
        link = (
            f'<p class="dama-to-answer"><a href="#{SOLUTIONS_ID}--{exercise_id}">'
            f"{html.escape(solutions)}</a></p>"
        )
        parts += [before, link]
        position = found.end()
    parts.append(body[position:])
    return "".join(parts), answers


def _solutions_chapter(title: str, answers: list[Chapter]) -> Chapter:
    body = [f"<h1>{html.escape(title)}</h1>"]
    for answer in answers:
        heading = (
            f'<h2 id="{SOLUTIONS_ID}--{answer.id}"><a href="#{answer.id}">{answer.title}</a></h2>'
        )
        body.append(f'<section class="dama-answer">{heading}{answer.body}</section>')
    return Chapter(SOLUTIONS_ID, title, "\n".join(body))


def _in_book(body: str, name: str, names: set[str]) -> str:
    """Ids prefixed by the page's name; links to pages of the site made links inside the book."""
    body = _ID.sub(lambda found: f"{found[1]}{name}--{found[2]}{found[3]}", body)

    def link(found: re.Match[str]) -> str:
        target = _book_target(html.unescape(found[2]), name, names)
        return f"{found[1]}{html.escape(target)}{found[3]}" if target is not None else ""

    return _HREF.sub(link, body)


def _book_target(href: str, page: str, names: set[str]) -> str | None:
    """Where a link of ``page`` goes in the book; None for a file of the site that it lacks."""
    scheme = re.match(r"^([a-z][a-z0-9+.-]*):", href, re.IGNORECASE)
    if scheme:  # https:, mailto: go out of the book as they are; nothing else does
        return href if scheme[1].lower() in SAFE_SCHEMES else None
    path, _, fragment = href.partition("#")
    if not path:
        return f"#{page}--{fragment}" if fragment else f"#{page}"
    folder = "" if page == "index" else f"{page}/"  # MkDocs' directory URLs
    target = posixpath.normpath(posixpath.join(folder, path)).strip("/")
    target = re.sub(r"(/index)?\.html$", "", target) or "index"
    target = "index" if target in {".", ""} else target
    if target not in names:
        return None
    return f"#{target}--{fragment}" if fragment else f"#{target}"


def _document(book: BookSources, chapters: list[Chapter]) -> str:
    language = html.escape(book.language)
    contents = "".join(
        f'<li><a href="#{chapter.id}">{html.escape(chapter.title)}</a></li>' for chapter in chapters
    )
    sections = "\n".join(
        f'<section class="dama-chapter" id="{chapter.id}">\n{chapter.body}\n</section>'
        for chapter in chapters
    )
    title = html.escape(book.title)
    return (
        f'<!DOCTYPE html>\n<html lang="{language}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n"
        f'<meta name="description" content="{html.escape(book.language_name)}">\n'
        "</head>\n<body>\n"
        f'<section class="dama-cover"><p class="dama-cover-title">{title}</p>'
        f'<p class="dama-cover-language">{html.escape(book.language_name)}</p>'
        f'<p class="dama-cover-date">{html.escape(book.date)}</p></section>\n'
        f'<nav class="dama-contents"><p class="dama-contents-title">'
        f"{html.escape(book.contents)}</p><ol>{contents}</ol></nav>\n"
        f"{sections}\n</body>\n</html>\n"
    )
