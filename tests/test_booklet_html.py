"""The book's HTML, before WeasyPrint: chapters in order, links kept inside the book, answers moved.

Small hand-written pages, so each expected value can be worked out by reading them.
"""

from __future__ import annotations

import re

from dama_diagrams.site.booklet import BookSources, book_html


def _book(pages: dict[str, str], games: frozenset[str] = frozenset()) -> str:
    return book_html(
        BookSources(
            language="en",
            title="Rules & more",
            language_name="English",
            date="November 14, 2023",
            contents="Contents",
            solutions="Solutions",
            pages=tuple(pages.items()),
            assets={},
            games=games,
        )
    )


def _chapters(document: str) -> list[str]:
    return re.findall(r'<section class="dama-chapter" id="([^"]*)">', document)


def test_chapters_follow_the_navigation_and_the_glossary_comes_last() -> None:
    document = _book(
        {
            "index": "# Home\n",
            "glossary": "# Glossary\n",
            "king": "---\ndescription: x\n---\n# The king\n",
        }
    )
    assert _chapters(document) == ["index", "king", "glossary"]
    contents = re.findall(r'<li><a href="#([^"]*)">([^<]*)</a></li>', document)
    assert contents == [("index", "Home"), ("king", "The king"), ("glossary", "Glossary")]
    assert "description: x" not in document  # front matter is not text
    assert "<title>Rules &amp; more</title>" in document  # escaped once


def test_links_between_pages_become_links_inside_the_book() -> None:
    document = _book(
        {
            "index": "# Home\n\nSee [the king](king/) and [moves](king/#moving).\n",
            "king": (
                "# The king\n\n## Moving\n\nBack [home](../), [up](#moving), "
                '[out](https://example.org/), <a href="javascript:alert(1)">bad</a>, '
                "[a file](../assets/x.zip).\n"
            ),
        }
    )
    assert 'href="#king"' in document
    assert 'href="#king--moving"' in document
    assert 'id="king--moving"' in document  # the heading's id, under its page's name
    assert 'href="#index"' in document
    assert 'href="https://example.org/"' in document
    assert "javascript" not in document
    assert "x.zip" not in document  # a file of the site that the book does not hold


def test_answers_move_to_the_back_each_linked_from_its_exercise() -> None:
    exercises = (
        "# Exercises\n\n"
        "## Exercise 1: First { #exercise-first }\n\n"
        '<div class="dama-exercise" markdown>\n<p>Which move?</p>\n\n'
        '<details class="dama-answer" markdown>\n<summary>Show the answer</summary>\n\n'
        "The answer is 23x14.\n\n</details>\n</div>\n"
    )
    document = _book({"exercises": exercises, "glossary": "# Glossary\n"})
    assert _chapters(document) == ["exercises", "solutions", "glossary"]
    asked, answers = document.split('<section class="dama-chapter" id="solutions">')
    assert "23x14" not in asked and "Show the answer" not in asked
    assert '<a href="#solutions--exercises--exercise-first">Solutions</a>' in asked
    assert 'id="solutions--exercises--exercise-first"' in answers
    assert '<a href="#exercises--exercise-first">Exercise 1: First</a>' in answers
    assert "The answer is 23x14." in answers.split('id="glossary"')[0]
