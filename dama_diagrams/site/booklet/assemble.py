"""One language's book as one Typst document: cover, contents, chapters, answers, glossary.

Each page's Markdown, written for print, is read into an element tree
(:mod:`.tree`), and each page becomes a chapter: its ids are prefixed with the
page's name (two pages may both have a heading "Examples"), links between
pages become links inside the book, the exercises' answers move to a chapter
at the back, and a game's diagram is followed by every position of the game,
move by move.  The glossary comes last, as a book's does.  :mod:`.markup`
writes the tree as Typst markup, after the layout of ``book.typ``.
"""

from __future__ import annotations

import json
import posixpath
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files

from ..._book_text import book_text
from ..._html_tree import ROOT
from .._common import DIAGRAM_DIR, step_folder
from ..i18n.safe_text import SAFE_SCHEMES
from ..pages.renderer import EXERCISES_PAGE
from .markup import (
    SOURCE_HREF,
    BookMarkup,
    classes,
    labelled_ids,
    string_literal,
    text_content,
    text_markup,
)
from .places import BookWarning
from .sources import BookSources
from .tree import page_tree

GLOSSARY_PAGE = "glossary"
SOLUTIONS_ID = "solutions"
PAGES_PER_SHEET = {"a5": 4}
"""The papers of a folded booklet (A5: A4 sheets folded once), padded to whole sheets."""
LAYOUT = files(__package__).joinpath("book.typ")
"""The book's page, type and blocks, which the generated document uses."""


@dataclass(frozen=True)
class BookDocument:
    """A book ready for Typst: its markup, the pictures it names, by name, and what it
    prints otherwise than the web pages, or leaves out."""

    markup: str
    images: dict[str, str]
    warnings: tuple[BookWarning, ...] = ()


def book_document(book: BookSources, *, paper: str = "a4") -> BookDocument:
    """The whole book of one language as Typst markup, with its pictures."""
    names = [name for name, _ in book.pages]
    chapters: list[tuple[str, ET.Element]] = []
    for name, text in book.pages:
        tree = page_tree(text)
        _in_book(tree, name, set(names))
        _add_game_steps(tree, book)
        chapters.append((name, tree))
    answers = [
        answer
        for name, tree in chapters
        if name == EXERCISES_PAGE
        for answer in _answers(tree, book.solution)
    ]
    if answers:
        chapters.append((SOLUTIONS_ID, _solutions_chapter(book.solutions, answers)))
    chapters.sort(key=lambda chapter: chapter[0] == GLOSSARY_PAGE)  # stable: the glossary last
    order = [name for name, _ in chapters]
    for name, tree in chapters:
        _lists_in_book_order(tree, order, book.solutions)
        if name == GLOSSARY_PAGE:
            _glossary_by_word(tree)
    labels = frozenset(identifier for _, tree in chapters for identifier in labelled_ids(tree))
    writer = BookMarkup(
        book.assets,
        labels,
        book.reference,
        same_diagram=book.same_diagram,
        said_once=book.said_once,
        places=book.places,
    )
    body = []
    for name, tree in chapters:
        writer.page = EXERCISES_PAGE if name == SOLUTIONS_ID else name  # whose template it is
        body.append(writer.blocks(tree))
    markup = _front(book, paper) + "\n\n".join(body) + "\n"
    return BookDocument(markup, writer.images, tuple(writer.warnings))


def _front(book: BookSources, paper: str) -> str:
    """The layout, then the book's own settings: every text a string, escaped.

    What the book shows (its title, date, contents) shows a character its fonts
    lack as the replacement character; its metadata keeps every character.
    """
    settings = {
        "title": string_literal(book_text(book.title)),
        "subtitle": string_literal(book_text(book.subtitle)),
        "language": string_literal(book.language.split("-")[0]),
        "language-name": string_literal(book_text(book.language_name)),
        "edition": string_literal(book_text(book.edition or book.date)),
        "pdf-date": "auto" if book.epoch is not None else "none",
        "contents": string_literal(book_text(book.contents)),
        "subject": string_literal(book.subject),
        "author": f"({string_literal(book.author)},)" if book.author else "()",
        "colophon": "".join(f"[{_unbroken_addresses(line)}], " for line in book.colophon).join(
            "()"
        ),
        "paper": string_literal(paper),
        "pad-to": str(PAGES_PER_SHEET.get(paper, 1)),
    }
    arguments = ", ".join(f"{key}: {value}" for key, value in settings.items())
    layout = LAYOUT.read_text(encoding="utf-8")
    layout = f"#let book-paper = {string_literal(paper)}\n{layout}"
    return f"{layout}\n#show: dama-book.with({arguments})\n\n"


_ADDRESS = re.compile(r"(?:https?://)?(?:[\w-]+\.)+[a-z]{2,}(?:/\S*[\w/])?", re.IGNORECASE)
"""A web address written out (``www.federdama.org``): one line holds it whole, and links it."""


def _unbroken_addresses(text: str) -> str:
    """Text as Typst markup, each web address in it a link kept on one line."""
    parts, position = [], 0
    for found in _ADDRESS.finditer(text):
        parts.append(text_markup(text[position : found.start()]))
        address = found[0] if "://" in found[0] else f"https://{found[0]}"
        parts.append(f"#link({string_literal(address)})[#box[{text_markup(found[0])}]]")
        position = found.end()
    return "".join(parts) + text_markup(text[position:])


def _in_book(tree: ET.Element, name: str, names: set[str]) -> None:
    """Ids prefixed by the page's name, the title's id the name itself; links made the book's."""
    title = next(tree.iter("h1"), None)
    for element in tree.iter():
        identifier = element.get("id")
        if element is title:
            element.set("id", name)
        elif identifier:
            element.set("id", f"{name}--{identifier}")
        href = element.get("href")
        if element.tag == "a" and href is not None:
            element.set(SOURCE_HREF, href)  # as the template wrote it: what a warning quotes
            target = _book_target(href, name, names)
            if target is None:
                del element.attrib["href"]
            else:
                element.set("href", target)


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


def _lists_in_book_order(tree: ET.Element, order: list[str], solutions: str) -> None:
    """A list of the book's chapters (the first page's "All the rules") in the book's order,
    which moves the glossary to the end, with the chapter of answers the book adds.

    A list is one when each of its items starts with a link to a chapter.
    """
    for listing in tree.iter("ul"):
        items = [item for item in listing if item.tag == "li"]
        targets = [_chapter_linked(item, order) for item in items]
        if len(items) < 3 or None in targets or len(items) != len(listing):
            continue
        found = [target for target in targets if target is not None]
        if SOLUTIONS_ID in order and EXERCISES_PAGE in found and SOLUTIONS_ID not in found:
            item = ET.Element("li")
            ET.SubElement(item, "a", {"href": f"#{SOLUTIONS_ID}"}).text = solutions
            items.append(item)
            found.append(SOLUTIONS_ID)
        ranked = sorted(zip(found, items, strict=True), key=lambda pair: order.index(pair[0]))
        tail = listing[-1].tail if len(listing) else None
        for item in list(listing):
            listing.remove(item)
        listing.extend(item for _, item in ranked)
        listing[-1].tail = tail


def _glossary_by_word(tree: ET.Element) -> None:
    """The glossary's entries in the order of their words, as a reader looks one up.

    Each entry starts with its word in bold; accents and case count only to tell
    two words that are otherwise the same apart ("Dame" before "damé").
    """

    def word(item: ET.Element) -> tuple[str, str]:
        term = item.find("strong")
        shown = "" if term is None else text_content(term).strip()
        folded = unicodedata.normalize("NFKD", shown.casefold())
        return "".join(c for c in folded if not unicodedata.combining(c)), shown

    for listing in tree.iter("ul"):
        items = [item for item in listing if item.tag == "li"]
        if len(items) != len(listing) or not all(item.find("strong") is not None for item in items):
            continue
        tail = listing[-1].tail
        items.sort(key=word)
        for item in list(listing):
            listing.remove(item)
        listing.extend(items)
        listing[-1].tail = tail


def _chapter_linked(item: ET.Element, order: list[str]) -> str | None:
    """The chapter that a list item starts with a link to, if it does."""
    if (item.text or "").strip() or not len(item) or item[0].tag != "a":
        return None
    target = item[0].get("href", "").removeprefix("#")
    return target if target in order else None


def _add_game_steps(tree: ET.Element, book: BookSources) -> None:
    """After a game's diagram, every position of the game with its move: the move list.

    The moves are the texts of the diagram's step controls (``data-steps``);
    each picture is read aloud by its own description.
    """
    for parent in list(tree.iter()):
        for index, figure in enumerate(list(parent)):
            figure_id = figure.get("id", "").rpartition("--figure-")[2]
            if figure_id not in book.games or "data-steps" not in figure.attrib:
                continue
            texts = json.loads(figure.get("data-steps", "{}")).get("texts", [])
            steps = ET.Element("div", {"class": "dama-game-steps"})
            for number, text in enumerate(texts):
                path = f"{DIAGRAM_DIR}/{step_folder(figure_id)}/{number}.svg"
                step = ET.SubElement(steps, "figure", {"class": "dama-step"})
                alt = _description(book.assets.get(path)) or str(text)
                ET.SubElement(step, "img", {"src": path, "alt": alt})
                ET.SubElement(step, "figcaption").text = str(text)
            steps.tail = figure.tail
            figure.tail = None
            parent.insert(index + 1, steps)


def _description(svg: bytes | None) -> str | None:
    """What a step's picture shows, from its own ``<desc>``: the words the site reads aloud."""
    if svg is None:
        return None
    found = re.search(rb"<desc[^>]*>(.*?)</desc>", svg, re.DOTALL)
    if found is None:
        return None
    return text_content(ET.fromstring(b"<d>" + found[1] + b"</d>")).strip() or None


@dataclass(frozen=True)
class _Answer:
    exercise_id: str
    heading: ET.Element
    body: list[ET.Element]


def _answers(tree: ET.Element, solution: str) -> Iterable[_Answer]:
    """The exercises' answers, taken out; each exercise links to its answer at the back.

    Each answer belongs to the exercise heading before it, whose id (already
    in the book's form) it keeps under the solutions chapter's.
    """
    heading: ET.Element | None = None
    for element in list(tree):
        if element.tag == "h2":
            heading = element
        if "dama-exercise" not in classes(element):
            continue
        for details in [d for d in element if "dama-answer" in classes(d)]:
            element.remove(details)
            exercise_id = (heading.get("id") if heading is not None else None) or "answer"
            link = ET.SubElement(element, "p", {"class": "dama-to-answer"})
            to_answer = ET.SubElement(link, "a", {"href": f"#{SOLUTIONS_ID}--{exercise_id}"})
            to_answer.text = solution
            title = heading if heading is not None else ET.Element("h2")
            body = [child for child in details if child.tag != "summary"]
            yield _Answer(exercise_id, title, body)


def _solutions_chapter(title: str, answers: list[_Answer]) -> ET.Element:
    chapter = ET.Element(ROOT)
    ET.SubElement(chapter, "h1", {"id": SOLUTIONS_ID}).text = title
    for answer in answers:
        heading = ET.SubElement(chapter, "h2", {"id": f"{SOLUTIONS_ID}--{answer.exercise_id}"})
        back = ET.SubElement(heading, "a", {"href": f"#{answer.exercise_id}"})
        back.text = text_content(answer.heading).strip()
        chapter.extend(answer.body)
    return chapter
