"""The printed book as a player and a printer read it: real PDFs, read back by poppler, pikepdf.

Expected values come from outside the code: the eight markers of the site's legend
(each drawn in colour beside its words), the book's language as ``/Lang``, a
measure of at most 90 characters, the publisher of ``mkdocs.yml`` and the licence
of ``pyproject.toml``, ISO 216's A5 and the four pages of a folded sheet, the
French "1er" and the Italian "1º" for the first of the month.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import subprocess
import sys
import tomllib
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from pypdf import PdfReader

from .conftest import ROOT, made_once, run_cli
from .test_booklet import COVER_DATES, EPOCH, LANGUAGES, make_books, structure_elements

pytestmark = pytest.mark.slow

FIRST_OF_DECEMBER = "1764547200"
"""2025-12-01 00:00 UTC: the A5 books' date, a first of the month."""
FIRST_DATES = {
    "en": "December 1, 2025",
    "nl": "1 december 2025",
    "it": "1º dicembre 2025",
    "de": "1. Dezember 2025",
    "fr": "1er décembre 2025",
    "es": "1 de diciembre de 2025",
}
A5 = (419.53, 595.28)
"""ISO 216 A5, 148 by 210 mm, in points."""
MM = 72 / 25.4
LEGEND_MESSAGES = (
    # the site's legend, one message per marker (docs/locales/*/messages.po)
    *("legend.start", "legend.landing", "legend.order", "legend.captured", "legend.king"),
    *("legend.rejected", "legend.white_to_move", "legend.black_to_move"),
)
PAGE_WORDS = {"en": "p.", "nl": "p.", "it": "p.", "de": "S.", "fr": "p.", "es": "p."}


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The six A4 books of ``dama-diagrams booklet``, shared with tests/test_booklet.py."""
    return made_once(tmp_path_factory, "books", make_books)


@pytest.fixture(scope="module")
def letter_books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(out: Path) -> None:
        result = run_cli(
            "booklet", "--paper", "letter", "--out", out, cwd=ROOT, env={"SOURCE_DATE_EPOCH": EPOCH}
        )
        assert result.returncode == 0, result.stderr

    return made_once(tmp_path_factory, "books-letter", make)


_PRINT_A5 = """
import sys
from pathlib import Path
from dama_diagrams.site.booklet import book_document, book_pdf
from dama_diagrams.site.booklet.jobs import book_job
from dama_diagrams.site.builder.config import BaseConfig
from dama_diagrams.site.i18n import available_languages
from dama_diagrams.site.pages.figures import load_figures
from dama_diagrams.site.publish.language import generate_language

root, out = Path(sys.argv[1]), Path(sys.argv[2])
base, figures, menu = BaseConfig.read(root), load_figures(root), available_languages(root)
for code in sys.argv[3:]:
    sources = generate_language(root, code, figures, base=base, languages=menu, book=True)
    target = out / f"{code}.pdf"
    job = book_job(root, sources, figures, target, paper="a5", author=base.site_author)
    target.write_bytes(book_pdf(job.book, document=book_document(job.book, paper="a5")))
"""
"""The six books on A5, laid out as ``booklet --paper a5`` lays them out, in a process of
their own."""


@pytest.fixture(scope="module")
def a5_books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The six books on A5, the booklet a club folds from A4 sheets, dated a first of the month."""

    def make(out: Path) -> None:
        subprocess.run(
            [sys.executable, "-c", _PRINT_A5, ROOT, out, *LANGUAGES],
            check=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": FIRST_OF_DECEMBER},
            timeout=600,
        )

    return made_once(tmp_path_factory, "books-a5", make)


@functools.cache
def _pages(pdf: Path) -> tuple[str, ...]:
    """Each page's text as pdftotext reads it (reading order, one line per printed line)."""
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True, check=True
    ).stdout
    return tuple(text.split("\f")[:-1])


def _words(pdf: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """(word, xMin, yMin, xMax, yMax) of each word on a page (1-based), in points."""
    found = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), pdf, "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pattern = (
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
    )
    return [
        (word, float(x0), float(y0), float(x1), float(y1))
        for x0, y0, x1, y1, word in re.findall(pattern, found)
    ]


def _chapters(pdf: Path) -> list[tuple[str, int]]:
    """(title, page index) of each bookmark: one per chapter."""
    reader = PdfReader(pdf)
    return [
        (str(entry.title), reader.get_destination_page_number(entry)) for entry in reader.outline
    ]


def _structure(pdf: Path) -> Iterator[Any]:
    import pikepdf

    document = pikepdf.open(pdf)  # kept open while the walk reads it
    yield from structure_elements(document.Root.StructTreeRoot)


# --- the key to the diagrams --------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_engines_verdict_in_its_table_takes_at_most_two_lines(
    books: Path, language: str
) -> None:
    """A capture ruled out by a rule, in words: it wrapped to four lines in a column as narrow
    as the figures' (es: "descartada por / la regla 4 / (primero la / dama)")."""
    from dama_diagrams.site.i18n import load_catalog
    from dama_diagrams.site.pages.figures import RULE_IDS, rule_label

    catalog = load_catalog(ROOT, language)
    pdf = books / f"{language}.pdf"
    found = set()
    for rule in RULE_IDS:
        verdict = catalog.text("explain.rejected", rule=rule_label(rule, catalog)).split()
        for index, text in enumerate(_pages(pdf), start=1):
            if verdict[-1] not in text:
                continue
            words = _words(pdf, index)
            for start in range(len(words) - len(verdict) + 1):
                run = words[start : start + len(verdict)]
                if [word[0] for word in run] == verdict:
                    found.add(rule)
                    assert len({round(word[2]) for word in run}) <= 2, (index, verdict)
    assert found == set(RULE_IDS)  # each rule's example has its table


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_key_shows_each_markers_symbol_beside_its_words(books: Path, language: str) -> None:
    """ "How to read the diagrams": each of the eight markers drawn, in colour, before its name."""
    from PIL import Image

    from dama_diagrams.site.i18n import load_catalog

    catalog = load_catalog(ROOT, language)
    labels = [catalog.text(key) for key in LEGEND_MESSAGES]
    pdf = books / f"{language}.pdf"
    index = next(
        number
        for number, text in enumerate(_pages(pdf), start=1)
        if all(f"\n{label}\n" in f"\n{text}\n" for label in labels)
    )
    lines: dict[float, list[tuple[str, float, float, float, float]]] = {}
    for word in _words(pdf, index):
        lines.setdefault(word[2], []).append(word)
    prefix = Path(f"/dev/shm/key-{os.getpid()}-{language}")  # 72 dpi: a pixel is a point
    subprocess.run(
        ["pdftoppm", "-r", "72", "-png", "-singlefile", "-f", str(index), "-l", str(index),
         pdf, prefix],
        check=True,
    )  # fmt: skip
    with Image.open(f"{prefix}.png") as image:
        picture = image.convert("RGB")
    Path(f"{prefix}.png").unlink()
    for label in labels:
        line = next(words for words in lines.values() if " ".join(w[0] for w in words) == label)
        left, top, bottom = line[0][1], min(w[2] for w in line), max(w[4] for w in line)
        # The 3.6 mm icon sits just before the words: count its coloured pixels.
        box = (int(left - 6 * MM), int(top - 2), int(left - 0.5), int(bottom + 2))
        pixels = picture.crop(box).tobytes()
        coloured = sum(
            1
            for at in range(0, len(pixels), 3)
            if max(pixels[at : at + 3]) - min(pixels[at : at + 3]) > 40
        )
        assert coloured >= 20, (language, label, coloured)


# --- tags -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_element_is_tagged_in_another_language(books: Path, language: str) -> None:
    """Moves, table bodies, everything: a screen reader reads it all in the book's voice."""
    other = [
        (str(node["/S"]), str(node["/Lang"]))
        for node in _structure(books / f"{language}.pdf")
        if "/Lang" in node and str(node["/Lang"]) != language
    ]
    assert other == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cover_title_heads_the_structure_and_links_are_trimmed(
    books: Path, language: str
) -> None:
    roles = [str(node["/S"]) for node in _structure(books / f"{language}.pdf")]
    assert roles.index("/Title") < roles.index("/H1")  # the cover's title, before any chapter
    assert roles[roles.index("/TOC") - 1] == "/H1"  # "Contents" is a heading
    reader = PdfReader(books / f"{language}.pdf")
    texts = [
        str(annotation.get_object().get("/Contents", ""))
        for page in reader.pages
        for annotation in page.get("/Annots", [])
    ]
    assert texts and all(text == text.strip() and text for text in texts)


# --- each diagram once ----------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_diagram_is_printed_twice(books: Path, language: str) -> None:
    """Every picture shows a position of its own: its description is nowhere else."""
    alts = [
        " ".join(str(node["/Alt"]).split())
        for node in _structure(books / f"{language}.pdf")
        if str(node["/S"]) == "/Figure"
    ]
    assert len(alts) > 50
    assert sorted(alt for alt in set(alts) if alts.count(alt) > 1) == []


def test_a_diagram_printed_before_names_its_page(books: Path) -> None:
    """Where a page shows a diagram again, it gives its caption and the page that shows it."""
    pdf = books / "en.pdf"
    pages = [" ".join(text.split()) for text in _pages(pdf)]
    found = [
        (caption, int(page))
        for text in pages
        for caption, page in re.findall(r"([^()]{12})\s?\(See the diagram on p\. (\d+)\.\)", text)
    ]
    assert len(found) >= 7  # the starting position, and the diagrams of "Other draughts games"
    for caption, page in found:
        assert caption.strip() in pages[page - 1], (caption, page)


# --- cover, colophon, metadata ------------------------------------------------------------------


PUBLISHED = {
    "en": "Published by the dama-diagrams contributors.",
    "nl": "Uitgegeven door de bijdragers aan dama-diagrams.",
    "it": "Pubblicato dai collaboratori di dama-diagrams.",
    "de": "Herausgegeben von den Mitwirkenden von dama-diagrams.",
    "fr": "Publié par les contributeurs de dama-diagrams.",
    "es": "Publicado por los colaboradores de dama-diagrams.",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cover_has_a_subtitle_and_the_edition_and_its_back_the_colophon(
    books: Path, language: str
) -> None:
    pdf = books / f"{language}.pdf"
    cover, colophon = _pages(pdf)[0], " ".join(_pages(pdf)[1].split())
    reader = PdfReader(pdf)
    assert reader.metadata is not None
    title = str(reader.metadata["/Title"])
    lines = [line for line in cover.splitlines() if line.strip()]
    shown = " ".join(cover.split())
    assert shown.startswith(title)  # the title, then what the book is, its language, edition
    assert len(shown) > len(title) + 60 and COVER_DATES[language] in lines[-1]
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["site_author"] == "The dama-diagrams contributors"  # this project's own
    assert PUBLISHED[language] in colophon  # the publisher, in the book's language (G20)
    assert project["project"]["license"] in colophon  # the licence
    assert "FID" in colophon and "federdama.org" in colophon  # the source
    assert COVER_DATES[language] in colophon  # printed on
    if language != "en":
        assert "Published by" not in colophon and "Printed on" not in colophon


@pytest.mark.parametrize("language", ["fr", "it", "de", "en"])
def test_the_first_of_the_month_is_written_as_the_language_writes_it(
    a5_books: Path, language: str
) -> None:
    assert FIRST_DATES[language] in " ".join(_pages(a5_books / f"{language}.pdf")[0].split())


def test_the_french_first_of_the_month_raises_its_letters(a5_books: Path) -> None:
    """French typography prints the first of the month 1\u1d49\u02b3, its letters raised: on the
    cover and in the colophon the ink of "er" ends well above the line the 1 stands on."""
    from PIL import Image

    for pdf in (a5_books / "fr.pdf",):  # dated the first of December
        raised = []
        for page in (1, 2):
            for _, left, top, right, bottom in (w for w in _words(pdf, page) if w[0] == "1er"):
                prefix = Path(f"/dev/shm/first-{os.getpid()}-{page}")  # 288 dpi: 4 px a point
                subprocess.run(
                    ["pdftoppm", "-r", "288", "-gray", "-png", "-singlefile", "-f", str(page),
                     "-l", str(page), "-x", str(int(left * 4)), "-y", str(int(top * 4)),
                     "-W", str(int((right - left) * 4)), "-H", str(int((bottom - top) * 4)),
                     pdf, prefix],
                    check=True,
                )  # fmt: skip
                with Image.open(f"{prefix}.png") as image:
                    ink = image.convert("L").point(lambda value: 255 if value < 128 else 0)
                Path(f"{prefix}.png").unlink()
                one = ink.crop((0, 0, ink.width // 3, ink.height)).getbbox()
                letters = ink.crop((ink.width // 2, 0, ink.width, ink.height)).getbbox()
                assert one is not None and letters is not None
                raised.append((letters[3] - one[3]) / (one[3] - one[1]))  # in the 1's heights
        assert len(raised) == 3 and max(raised) < -0.3, raised  # cover, colophon twice


def _lines(words: Any) -> list[list[tuple[str, float, float, float, float]]]:
    """Words in printed lines (by baseline), each line from left to right."""
    lines: dict[int, list[tuple[str, float, float, float, float]]] = {}
    for word in words:
        lines.setdefault(round(word[4]), []).append(word)
    return [sorted(lines[bottom], key=lambda word: word[1]) for bottom in sorted(lines)]


@pytest.mark.parametrize("paper", ["a4", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contents_entries_have_room_between_them(
    books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """A book's contents is more open than its text: its lines further apart than the first
    chapter's (the most common distance between two lines on either page)."""
    pdf = {"a4": books, "a5": a5_books}[paper] / f"{language}.pdf"

    def pitch(page: int) -> float:
        lines = _lines(_book_words(pdf)[page])
        gaps = [round(lower[0][4] - upper[0][4], 1) for upper, lower in itertools.pairwise(lines)]
        return max(set(gaps), key=gaps.count)

    assert pitch(2) > 1.15 * pitch(_chapters(pdf)[0][1])


@pytest.mark.parametrize("paper", ["a4", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_colophon_breaks_no_word(
    books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """Its few lines ragged, no word in them hyphenated: not "el 1 de di- / ciembre"; and no
    date broken at a line's end: not "December / 1, 2025"."""
    colophon = _pages({"a4": books, "a5": a5_books}[paper] / f"{language}.pdf")[1]
    lines = [line.replace("\xa0", " ") for line in colophon.splitlines() if line.strip()]
    assert len(lines) >= 4 and not any(line.endswith("\xad") for line in lines), lines
    date = {"a4": COVER_DATES, "a5": FIRST_DATES}[paper][language]
    assert sum(date in line for line in lines) == 2, lines  # checked on, printed on


@pytest.mark.parametrize("paper", ["a4", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cover_title_is_set_in_lines_of_even_length(
    books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """Not "Italian draughts / rules": moving one word to the next line or back would make
    the longest of two lines no shorter than it is."""
    pdf = {"a4": books, "a5": a5_books}[paper] / f"{language}.pdf"
    words = _book_words(pdf)[0]
    size = max(word[4] - word[2] for word in words)
    title = _lines([word for word in words if word[4] - word[2] > 0.9 * size])
    assert len(title) >= 2

    def width(line: list[tuple[str, float, float, float, float]]) -> float:
        return line[-1][3] - line[0][1]

    space = 0.25 * size  # a word space: about a quarter of the type's height
    for upper, lower in itertools.pairwise(title):
        longest = max(width(upper), width(lower))
        if len(upper) > 1:  # its last word moved down
            moved = upper[-1][3] - upper[-1][1]
            assert max(width(upper[:-1]), moved + space + width(lower)) >= longest, title
        if len(lower) > 1:  # the next line's first word moved up
            moved = lower[0][3] - lower[0][1]
            assert max(width(upper) + space + moved, width(lower[1:])) >= longest, title


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_title_and_subject_are_in_the_books_language(books: Path, language: str) -> None:
    english = PdfReader(books / "en.pdf").metadata
    metadata = PdfReader(books / f"{language}.pdf").metadata
    assert english is not None and metadata is not None
    for key in ("/Title", "/Subject"):
        assert metadata[key] != english[key] and len(str(metadata[key])) > 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_chapters_list_of_chapters_is_in_page_order(books: Path, language: str) -> None:
    """ "All the rules" names every other chapter, the solutions too, each with its page."""
    pdf = books / f"{language}.pdf"
    chapters = _chapters(pdf)
    first, second = chapters[0][1], chapters[1][1]
    text = "\n".join(_pages(pdf)[first:second])
    word = re.escape(PAGE_WORDS[language])
    listed = [int(page) for page in re.findall(rf"^• .*?, {word}\s(\d+)", text, re.MULTILINE)]
    assert listed == [page + 1 for _, page in chapters[1:]]


# --- the page ---------------------------------------------------------------------------------


def _body_lines(pdf: Path) -> list[str]:
    """The printed lines of the chapters, past the cover, colophon and contents."""
    start = _chapters(pdf)[0][1]
    return [line for text in _pages(pdf)[start:] for line in text.splitlines()]


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_nine_long_lines_in_ten_hold_at_most_90_characters(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    folder = {"a4": books, "letter": letter_books, "a5": a5_books}[paper]
    pdf = folder / f"{language}.pdf"
    long = [len(line) for line in _body_lines(pdf) if len(line) >= 50]
    assert len(long) > 150
    assert sum(length <= 90 for length in long) >= 0.9 * len(long), sorted(long)[-20:]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_hyphenates_in_its_language(books: Path, language: str) -> None:
    """A measure of some 80 characters needs hyphens: Typst's, by the language's patterns."""
    ends = [line for line in _body_lines(books / f"{language}.pdf") if line.endswith("\xad")]
    assert len(ends) >= 5


def test_moves_are_set_at_the_texts_size(books: Path) -> None:
    """ "...joined by a dash: 22-19.": the move as high as the words before it."""
    pdf = books / "en.pdf"
    page = next(
        number
        for number, text in enumerate(_pages(pdf), start=1)
        if "joined by a dash: 22-19." in " ".join(text.split())
    )
    words = _words(pdf, page)
    at = next(i for i, w in enumerate(words) if w[0] == "22-19." and words[i - 1][0] == "dash:")
    height = words[at][4] - words[at][2]
    assert abs(height - (words[at - 1][4] - words[at - 1][2])) < 0.05 * height


def _printed_sizes(pdf: Path, page: int, font: str) -> list[tuple[str, float]]:
    """(glyphs, size in points) of each run of text set in ``font`` on a page (0-based): its
    font size through the text and drawing matrices, as a diagram's SVG scales it."""
    found: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], face: Any, size: float) -> None:
        if text.strip() and face is not None and font in str(face.get("/BaseFont", "")):
            a, b, c, d = tm[:4]
            e, f, g, h = cm[:4]
            scale = abs((a * e + b * g) * (c * f + d * h) - (a * f + b * h) * (c * e + d * g))
            found.append((text.strip(), size * scale**0.5))

    PdfReader(pdf).pages[page].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("paper", ["a4", "a5"])
def test_the_square_numbers_of_numbered_boards_print_at_7_pt_at_least(
    paper: str, request: pytest.FixtureRequest
) -> None:
    """Issue 55 (books review K10): 4 to 5 pt numbers were hard to read on paper.  The numbered
    board and the twelve exercises' boards, on the smallest paper too: all 32 numbers of each
    (55 figures), in the face that the SVG names for them and a book has."""
    pdf = request.getfixturevalue("books" if paper == "a4" else "a5_books") / "en.pdf"
    chapters = _chapters(pdf)
    start = next(at for at, (title, _) in enumerate(chapters) if title == "Exercises")
    exercise_pages = range(chapters[start][1], chapters[start + 1][1])
    caption = yaml.safe_load((ROOT / "diagrams/board-numbers.yaml").read_text())["caption"]
    (board_page,) = (
        number for number, text in enumerate(_pages(pdf)) if caption in " ".join(text.split())
    )
    figures = [
        size
        for page in (board_page, *exercise_pages)
        for glyphs, size in _printed_sizes(pdf, page, "DejaVuSansMono-Bold")
        for _ in glyphs
    ]
    assert len(figures) == 2 * 55 * (1 + 12), len(figures)  # each drawn twice: halo and ink
    assert min(figures) >= 7.0, f"{paper}: square numbers of {min(figures):.2f} pt"


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_boards_size_is_never_broken_at_a_line_end(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """A board of 8 by 8 squares has its size on one line, never "a board of 8 / by 8"."""
    pdf = {"a4": books, "letter": letter_books, "a5": a5_books}[paper] / f"{language}.pdf"
    lines = [line.strip() for line in _body_lines(pdf)]
    times = "\u00d7"  # the multiplication sign, as the books print a board's size
    assert sum(f"8 {times} 8" in line for line in lines) >= 3
    assert [line for line in lines if line.startswith(times) or line.endswith(times)] == []


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_number_is_never_parted_from_its_p(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """ "(See the diagram on p. 4.)", "Capturing, p. 13": never a line ending "on p." and the
    next beginning "4.)" (en and fr A4, the start of the game in its narrow box)."""
    pdf = {"a4": books, "letter": letter_books, "a5": a5_books}[paper] / f"{language}.pdf"
    lines = [line.strip() for line in _body_lines(pdf)]
    word = PAGE_WORDS[language]
    assert sum(f"{word} " in line for line in lines) >= 30  # the book's page references
    assert [line for line in lines if line == word or line.endswith(f" {word}")] == []


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_exercises_questions_are_set_ragged_right(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """Beside its board an exercise's question has a narrow column: justified, its spaces
    would gape.  There no space is wider than a third of the type's height (a word space
    is about a quarter)."""
    folder = {"a4": books, "letter": letter_books, "a5": a5_books}[paper]
    order = [title for title, _ in _chapters(folder / "en.pdf")]
    chapters = _chapters(folder / f"{language}.pdf")
    at = order.index("Exercises")  # the chapters are in the same order in every language
    start, end = chapters[at][1], chapters[at + 1][1]
    checked, wide = 0, []
    for page in _book_words(folder / f"{language}.pdf")[start:end]:
        left, right = min(word[1] for word in page), max(word[3] for word in page)
        for printed in _lines(page):
            first = next((w for w in printed if any(c.isalpha() for c in w[0])), None)
            if first is None or first[1] < left + 0.3 * (right - left):
                continue  # a board's numbers, a heading, the opening words: not beside a board
            line = [word for word in printed if word[1] >= first[1]]  # right of the board
            checked += 1
            wide += [
                (a[0], b[0], round((b[1] - a[3]) / (a[4] - a[2]), 2))
                for a, b in itertools.pairwise(line)
                if b[1] - a[3] > (a[4] - a[2]) / 3
            ]
    assert checked >= 24 and wide == []


# --- pages -----------------------------------------------------------------------------------


def _thin_pages(pdf: Path) -> list[tuple[int, list[str]]]:
    """Pages of the chapters before the back matter (solutions, glossary) with fewer than five
    lines of text, not counting the running header and the page number."""
    chapters = _chapters(pdf)
    first, back = chapters[0][1], chapters[-2][1]
    thin = []
    for index in range(first, back):
        lines = [line for line in _pages(pdf)[index].splitlines() if line.strip()]
        title = next(title for title, start in reversed(chapters) if start <= index)
        body = lines[1:-1] if lines and lines[0] == title and index > first else lines[:-1]
        if len(body) < 5:
            thin.append((index + 1, body))
    return thin


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_holds_fewer_than_five_lines(
    books: Path, letter_books: Path, a5_books: Path, language: str
) -> None:
    for folder in (books, letter_books, a5_books):
        assert _thin_pages(folder / f"{language}.pdf") == [], folder.name


@functools.cache
@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_numbered_list_is_printed_on_one_page(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """The two moves of "A short example" and the four priority rules each on one page: nl
    A4 p. 6 ended with "1. Wit speelt 22-18, en Zwart antwoordt met 11-14.", its "2." on
    p. 7.  An item begins a line with its number and a word ("2. 18x11" is a move)."""
    pdf = {"a4": books, "letter": letter_books, "a5": a5_books}[paper] / f"{language}.pdf"
    lists: list[list[int]] = []
    for number, text in enumerate(_pages(pdf), start=1):
        for line in text.splitlines():
            item = re.match(r"(\d)\. [^\W\d]", line)
            if item and item[1] == "1":
                lists.append([number])
            elif item and lists:
                lists[-1].append(number)
    assert len([pages for pages in lists if len(pages) >= 2]) >= 2  # the example, the rules
    assert [pages for pages in lists if len(set(pages)) > 1] == []


def _book_words(pdf: Path) -> tuple[tuple[tuple[str, float, float, float, float], ...], ...]:
    """(word, xMin, yMin, xMax, yMax) of each word of each page, in points: one poppler run."""
    found = subprocess.run(
        ["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True, check=True
    ).stdout
    pattern = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
    return tuple(
        tuple((word, float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1, word in
              re.findall(pattern + r"([^<]*)</word>", page))
        for page in found.split("<page ")[1:]
    )  # fmt: skip


class _Fill(NamedTuple):
    page: int
    fill: float
    last: bool
    """The last page of its chapter."""
    opens: bool
    """Its first line is a heading's."""
    next_opens: bool


def _page_fills(pdf: Path) -> list[_Fill]:
    """Each page of the chapters before the back matter.  A page's fill is how far down its
    text area the lowest ink above the page number reaches: 0 at the first chapter's title (a
    page with no running header), 1 at the lowest such ink in the book (a full page)."""
    from PIL import Image

    chapters = _chapters(pdf)
    first, back = chapters[0][1], chapters[-2][1]
    starts = {start for _, start in chapters}
    pages = _book_words(pdf)
    top = min(word[2] for word in pages[first])
    size = sorted(word[4] - word[2] for page in pages[first:back] for word in page)
    body = size[len(size) // 2]  # the body text's height: most words are body text
    prefix = Path(f"/dev/shm/fill-{os.getpid()}-{pdf.parent.name}-{pdf.stem}")
    subprocess.run(
        ["pdftoppm", "-r", "36", "-gray", "-f", str(first + 1), "-l", str(back), pdf, prefix],
        check=True,
    )
    lowest = []
    images = sorted(prefix.parent.glob(f"{prefix.name}-*.pgm"))  # numbered with leading zeros
    for index, image in zip(range(first, back), images, strict=True):
        number = max(pages[index], key=lambda word: word[2])  # the page number, at the foot
        with Image.open(image) as picture:
            above = picture.crop((0, 0, picture.width, int(number[2] / 2) - 1))
            box = above.point(lambda value: 255 if value < 200 else 0).getbbox()
        image.unlink()
        lowest.append(0.0 if box is None else box[3] * 2.0)  # 36 dpi: a pixel is 2 points

    def opens(index: int) -> bool:
        words = [word for word in pages[index] if word[2] >= top - 1]  # past the running header
        line = [word for word in words if word[2] < min(w[2] for w in words) + 1]
        return sum(word[4] - word[2] for word in line) / len(line) > 1.15 * body

    full = max(lowest)
    return [
        _Fill(index + 1, (low - top) / (full - top), index + 1 in starts or index + 1 == back,
              opens(index), opens(index + 1))
        for index, low in zip(range(first, back), lowest, strict=True)
    ]  # fmt: skip


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_is_left_half_empty_inside_a_section(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """A page less than half full inside a chapter ends a section: the next page opens the
    next section, whose heading, paragraph and diagram stay on one page and did not fit below.
    A chapter's last page never holds less than a quarter page carried over from the page
    before (a few lines of a list, a table without its diagram)."""
    folder = {"a4": books, "letter": letter_books, "a5": a5_books}[paper]
    fills = _page_fills(folder / f"{language}.pdf")
    assert len(fills) > 20 and max(page.fill for page in fills) == 1
    half_empty = [(page.page, f"{page.fill:.0%}") for page in fills
                  if page.fill < 0.5 and not page.last and not page.next_opens]  # fmt: skip
    assert half_empty == [], "pages under half full inside a section"
    carried = [(page.page, f"{page.fill:.0%}") for page in fills
               if page.fill < 0.25 and page.last and not page.opens]  # fmt: skip
    assert carried == [], "chapters' last pages holding less than a quarter page carried over"


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_headings_of_the_table_of_captures_stay_in_their_columns(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """Two words a word space apart in a heading row belong to one heading: a heading's word
    wider than its column ran into the next one (de "Geschlagene Stelle der", its cells
    "Geschlagene Damen" and "Stelle der Damen" 2.4 pt apart)."""
    from dama_diagrams.site.i18n import load_catalog

    catalog = load_catalog(ROOT, language)
    keys = ("capture", "pieces", "with_king", "kings", "king_places", "verdict")
    headings = [" ".join(catalog.text(f"explain.{key}").split()) for key in keys]
    caption = "".join(catalog.text("explain.caption").split())  # its words, spaces aside
    pdf = {"a4": books, "letter": letter_books, "a5": a5_books}[paper] / f"{language}.pdf"
    checked, joined = 0, []
    for number, text in enumerate(_pages(pdf), start=1):
        if catalog.text("explain.caption").split()[0] not in text:
            continue
        lines = _lines(_words(pdf, number))
        for at, line in enumerate(lines):
            if "".join(word[0] for word in line) != caption:
                continue
            for row in lines[at + 1 : at + 4]:  # the heading row's lines, then a capture's
                if row[0][0][0].isdigit():
                    break
                height = row[0][4] - row[0][2]
                checked += 1
                joined += [
                    f"{a[0]} {b[0]}"
                    for a, b in itertools.pairwise(row)
                    if b[1] - a[3] < 0.5 * height
                    and not any(f"{a[0]} {b[0]}" in heading for heading in headings)
                ]
    assert checked >= 10 and joined == [], joined


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_table_of_captures_is_on_its_diagrams_page(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """ "What the engine compares, capture by capture:" and its table follow the diagram they
    explain on its page: the caption is never a page's first line (the diagram on the page
    before) nor its last (the table on the next)."""
    from dama_diagrams.site.i18n import load_catalog

    caption = " ".join(load_catalog(ROOT, language).text("explain.caption").split()[:3])
    pdf = {"a4": books, "letter": letter_books, "a5": a5_books}[paper] / f"{language}.pdf"
    titles = {title for title, _ in _chapters(pdf)}
    places = []
    for number, text in enumerate(_pages(pdf), start=1):
        lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
        body = lines[1:-1] if lines and lines[0] in titles else lines[:-1]
        places += [
            (number, at, len(body)) for at, line in enumerate(body) if line.startswith(caption)
        ]
    assert len(places) == 5  # the five diagrams of the priority rules
    assert [place for place in places if place[1] in (0, place[2] - 1)] == []


def _pages_holding(element: Any, pages: dict[Any, int], page: Any = None) -> Iterator[int]:
    """The pages on which a structure element's content is printed (its marked content's)."""
    import pikepdf

    page = element.get("/Pg", page)
    kids = element.get("/K")
    for kid in kids if isinstance(kids, pikepdf.Array) else [] if kids is None else [kids]:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield from _pages_holding(kid, pages, page)
        elif isinstance(kid, pikepdf.Dictionary):  # a marked-content reference
            if kid.get("/Pg", page) is not None:
                yield pages[kid.get("/Pg", page).objgen]
        elif page is not None:  # a marked-content id on the element's page
            yield pages[page.objgen]


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_table_row_is_split_by_a_page(
    books: Path, letter_books: Path, a5_books: Path, language: str, paper: str
) -> None:
    """A table may go on over the page, its header repeated, but a row is read across: its
    cells end on the page they begin on (fr A5 p. 35 held "Un pion atteint la dernière
    rangée", p. 36 "pendant une prise")."""
    import pikepdf

    pdf = {"a4": books, "letter": letter_books, "a5": a5_books}[paper] / f"{language}.pdf"
    document = pikepdf.open(pdf)
    pages = {page.obj.objgen: number for number, page in enumerate(document.pages, start=1)}
    rows = [
        sorted(set(_pages_holding(element, pages)))
        for element in structure_elements(document.Root.StructTreeRoot)
        if element.get("/S") == "/TR"
    ]
    assert len(rows) > 20  # the engine's tables and the other games'
    assert [row for row in rows if len(row) > 1] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_a5_booklet_folds_from_whole_sheets_with_a_binding_margin(
    a5_books: Path, language: str
) -> None:
    pdf = a5_books / f"{language}.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) % 4 == 0  # four pages to an A4 sheet folded once
    box = reader.pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == A5
    # The inside margin, for the staples: left on a right-hand (odd) page, right on a left one.
    lefts: dict[int, list[float]] = {0: [], 1: []}
    for number in range(4, len(reader.pages)):
        words = _words(pdf, number)
        if len(words) > 20:
            lefts[number % 2].append(min(word[1] for word in words))
    odd, even = sorted(lefts[1])[len(lefts[1]) // 2], sorted(lefts[0])[len(lefts[0]) // 2]
    assert odd - even > 3 * MM, (odd, even)


# --- a book, not a print-out ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossary_is_in_the_order_of_its_words(books: Path, language: str) -> None:
    pdf = books / f"{language}.pdf"
    start = _chapters(pdf)[-1][1]
    text = "\n".join(_pages(pdf)[start:])
    words = re.findall(r"^• ([^:(]+?)\s?[(:]", text, re.MULTILINE)
    assert len(words) >= 20

    def folded(word: str) -> str:
        decomposed = unicodedata.normalize("NFKD", word.casefold())
        return "".join(c for c in decomposed if not unicodedata.combining(c))

    assert words == sorted(words, key=folded)


@pytest.mark.parametrize("language", LANGUAGES)
def test_how_the_turn_is_shown_is_said_once_not_in_every_picture(
    books: Path, language: str
) -> None:
    from dama_diagrams.site.i18n import load_catalog

    sentence = load_catalog(ROOT, language).text("alt.turn")
    pdf = books / f"{language}.pdf"
    alts = [str(node["/Alt"]) for node in _structure(pdf) if str(node["/S"]) == "/Figure"]
    assert alts and not any(sentence in " ".join(alt.split()) for alt in alts)
    text = " ".join(" ".join(_pages(pdf)).split())
    assert text.count(sentence) == 1  # under "How to read the diagrams"


def test_each_exercise_names_the_page_of_its_own_solution(books: Path) -> None:
    pdf = books / "en.pdf"
    chapters = dict(_chapters(pdf))
    pages = [" ".join(text.split()) for text in _pages(pdf)]
    asked = " ".join(pages[chapters["Exercises"] : chapters["A game explained"]])
    found = re.findall(r"Exercise (\d+): .*?Solution, p\. (\d+)", asked)
    assert [int(number) for number, _ in found] == list(range(1, 13))
    for number, page in found:
        assert f"Exercise {number}: " in pages[int(page) - 1], (number, page)
    assert "Solutions to the exercises, p." not in asked


def test_the_engines_line_is_printed_only_where_it_adds_to_the_caption(books: Path) -> None:
    """ "Checked by the engine" where it tells more than the caption (a count, the deciding
    rule); never where it repeats it; under every answer at the back."""
    pdf = books / "en.pdf"
    chapters = dict(_chapters(pdf))
    pages = [" ".join(text.split()) for text in _pages(pdf)]
    rules = " ".join(pages[: chapters["Exercises"]])
    assert "White has 7 legal moves" in rules  # the starting position: a count it lacks
    assert "rule 1 (most pieces) decides" in rules
    assert "18x27 is not allowed: a man never captures backwards" not in rules
    assert "22-18 and 22-19 are legal moves" not in rules
    figures = sum(1 for node in _structure(pdf) if str(node["/S"]) == "/Figure")
    assert rules.count("Checked by the engine:") < figures / 3
