"""The printed book: six real PDFs, made once for this module by Typst, read back with pypdf.

Expected values come from outside the code: the page order of ``docs/pages/nav.yml``,
the moves of ``games/example.pdn``, the number of exercises in ``diagrams/``, the
paper sizes of ISO 216 and ANSI (points), the date of a known Unix time, the
positions of ``diagrams/*.yaml`` read aloud.  Accessibility is checked here by
walking the structure tree with pikepdf, and against every rule of PDF/UA-1 by a
validator of its own in ``tests/test_booklet_pdfua.py``.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject

from dama_diagrams.site.booklet.jobs import BOOK_CACHE
from dama_diagrams.site.publish.booklets import build_booklets

from .conftest import ROOT, copy_project, made_once, run_cli
from .po_files import msgstr_line, translate

pytestmark = pytest.mark.slow

LANGUAGES = ("nl", "it", "en", "de", "fr", "es")
EPOCH = "1700000000"
"""2023-11-14 22:13:20 UTC."""
COVER_DATES = {
    "en": "November 14, 2023",
    "nl": "14 november 2023",
    "it": "14 novembre 2023",
    "de": "14. November 2023",
    "fr": "14 novembre 2023",
    "es": "14 de noviembre de 2023",
}
ENGLISH_CHAPTERS = [
    # docs/pages/nav.yml, in order, each page's title; the glossary moves to the end,
    # after the answers to the exercises.
    "Italian draughts",
    "Board, setup and notation",
    "Playing a game",
    "The man",
    "The king",
    "Capturing",
    "Priority rules",
    "Promotion",
    "End of the game",
    "Exercises",
    "A game explained",
    "Other draughts games",
    "About these rules",
    # "Contributing" is for the site's authors: not in the book.
    "Solutions to the exercises",
    "Glossary",
]
GAME_MOVES = [  # games/example.pdn
    "23-19", "10-14", "19x10", "5x14", "24-20", "9-13", "20-16", "1-5", "21-18", "14x21",
    "26x17x10x1",
]  # fmt: skip
EXERCISES = 12
"""The diagrams with an ``exercise:`` key (grep -l '^exercise:' diagrams/*.yaml)."""
TYPST_FONTS = ("LibertinusSerif", "DejaVuSansMono", "NewCM")
"""The fonts the typst wheel embeds (``typst.Fonts(include_system_fonts=False)``)."""
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
A5 = (419.53, 595.28)
"""ISO 216 A5, 148 by 210 mm, in points."""


def make_books(out: Path) -> None:
    """The six books into ``out``: ``dama-diagrams booklet`` on the project, as in CI."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        report = build_booklets(ROOT, out=out)
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before
    assert sorted(path.name for path in report.files) == sorted(f"{c}.pdf" for c in LANGUAGES)


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The six books, made once for the test run (tests/test_booklet_pdfua.py reads them too)."""
    return made_once(tmp_path_factory, "books", make_books)


def _read(books: Path, language: str) -> PdfReader:
    return PdfReader(books / f"{language}.pdf")


@functools.cache
def _texts(books: Path, language: str) -> tuple[str, ...]:
    """The text pypdf reads on each page of a book: read once, for every test that needs it."""
    return tuple(page.extract_text() for page in _read(books, language).pages)


def _outline(reader: PdfReader) -> list[tuple[str, int]]:
    """(title, page index) of each top-level bookmark; nested ones would be lists."""
    entries = []
    for entry in reader.outline:
        assert not isinstance(entry, list), "one level of bookmarks: one entry per page"
        entries.append((str(entry.title), reader.get_destination_page_number(entry)))
    return entries


def test_every_language_of_the_site_has_a_book(books: Path) -> None:
    for language in LANGUAGES:
        assert (books / f"{language}.pdf").read_bytes().startswith(b"%PDF-")


def test_english_book_has_one_bookmark_per_page_in_navigation_order(books: Path) -> None:
    outline = _outline(_read(books, "en"))
    assert [title for title, _ in outline] == ENGLISH_CHAPTERS
    pages = [page for _, page in outline]
    assert pages == sorted(pages) and len(set(pages)) == len(pages)
    assert pages[0] == 3  # after the cover, the colophon on its back, and the contents


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_chapter_opens_a_page_of_its_own_and_runs_in_its_header(
    books: Path, language: str
) -> None:
    reader = _read(books, language)
    outline = _outline(reader)
    assert len(outline) == len(ENGLISH_CHAPTERS)
    ends = [page for _, page in outline[1:]] + [len(reader.pages)]
    texts = _texts(books, language)
    blank = re.compile(r"\s*")
    for (title, start), end in zip(outline, ends, strict=True):
        # The chapter's own heading opens its first page, with no running header above it.
        assert " ".join(texts[start].split()).startswith(title), (language, title)
        # ...with no running header above it: nothing in the page's top margin.
        assert _top_of_text(books / f"{language}.pdf", start) > TOP_MARGIN, (language, title)
        for index in range(start, end):
            text = texts[index]
            if blank.fullmatch(text):
                continue  # a blank page that pads an A5 booklet to whole sheets
            # The running header names the chapter past its first page; the footer the page.
            if index > start:
                assert text.startswith(f"{title}\n"), (language, title, index)
                assert _top_of_text(books / f"{language}.pdf", index) < TOP_MARGIN
            assert text.rstrip().endswith(f"\n{index + 1}"), (language, title, index)


TOP_MARGIN = 20 * 72 / 25.4
"""20 mm in points: the running header sits above it, the text of the page below it."""


def _top_of_text(pdf: Path, index: int) -> float:
    """How far below the top of page ``index`` its first word starts, in points (pdftotext)."""
    found = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(index + 1), "-l", str(index + 1), pdf, "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return min(float(y) for y in re.findall(r'<word xMin="[^"]*" yMin="([^"]*)"', found))


@pytest.mark.parametrize("language", LANGUAGES)
def test_contents_give_each_chapter_its_page_number_and_link(books: Path, language: str) -> None:
    reader = _read(books, language)
    contents = reader.pages[2]  # after the cover and its back, the colophon
    lines = _texts(books, language)[2].splitlines()
    assert lines[-1] == "3"  # its own page number
    listed = [re.match(r"^(.*?) ?(?:\. ?){3,}(\d+)$", line) for line in lines[1:-1]]
    assert all(listed), lines
    outline = _outline(reader)
    assert [(m[1].strip(), int(m[2])) for m in listed if m] == [
        (title, page + 1) for title, page in outline
    ]
    links = [
        annotation.get_object()
        for annotation in contents.get("/Annots", [])
        if annotation.get_object()["/Subtype"] == "/Link"
    ]
    targets = [_link_page(reader, link) for link in links]
    assert list(dict.fromkeys(targets)) == [page for _, page in outline]


def _link_page(reader: PdfReader, link: DictionaryObject) -> int:
    destination: Any = link.get("/Dest")
    if destination is None:
        destination = link["/A"]["/D"]
    if isinstance(destination, str):
        return reader.get_destination_page_number(reader.named_destinations[destination])
    page = destination[0]
    return [p.indirect_reference for p in reader.pages].index(page)


@pytest.mark.parametrize("language", LANGUAGES)
def test_cover_has_title_language_and_the_source_date(books: Path, language: str) -> None:
    reader = _read(books, language)
    cover = _texts(books, language)[0]
    assert COVER_DATES[language] in cover
    assert reader.metadata is not None
    assert reader.metadata["/CreationDate"].startswith("D:20231114221320")
    assert reader.trailer["/Root"]["/Lang"] == language  # hyphenation and the reader's voice


def _xobjects(resources: Any, seen: set[int]) -> Iterator[DictionaryObject]:
    """Every XObject a page draws, inside forms too (patterns, grouped SVG)."""
    if not resources:
        return
    resources = resources.get_object()
    for key in ("/XObject", "/Pattern"):
        for value in resources.get(key, {}).values():
            reference = value.indirect_reference if hasattr(value, "indirect_reference") else None
            marker = id(value.get_object()) if reference is None else reference.idnum
            if marker in seen:
                continue
            seen.add(marker)
            obj = value.get_object()
            yield obj
            yield from _xobjects(obj.get("/Resources"), seen)


def _fonts(resources: Any, seen: set[int]) -> Iterator[DictionaryObject]:
    if not resources:
        return
    resources = resources.get_object()
    for font in resources.get("/Font", {}).values():
        yield font.get_object()
    for key in ("/XObject", "/Pattern"):
        for value in resources.get(key, {}).values():
            if isinstance(value, IndirectObject):
                if value.idnum in seen:
                    continue
                seen.add(value.idnum)
            yield from _fonts(value.get_object().get("/Resources"), seen)


@pytest.mark.parametrize("language", LANGUAGES)
def test_diagrams_are_vectors_never_bitmaps(books: Path, language: str) -> None:
    reader = _read(books, language)
    seen: set[int] = set()
    images = [
        (index, obj.get("/Width"), obj.get("/Height"))
        for index, page in enumerate(reader.pages)
        for obj in _xobjects(page.get("/Resources"), seen)
        if obj.get("/Subtype") == "/Image"
    ]
    assert images == []  # not one bitmap, so surely none the size of a board
    # The starting position, in the first chapter: 32 dark squares and 24 men, each a path.
    first, second = _outline(reader)[0][1], _outline(reader)[1][1]
    drawn = []
    for board in reader.pages[first:second]:
        content = board.get_contents()
        assert content is not None
        operators = content.get_data().split()
        drawn.append(operators.count(b"f") + operators.count(b"B"))
    assert max(drawn) >= 32 + 24


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_font_is_embedded(books: Path, language: str) -> None:
    reader = _read(books, language)
    seen: set[int] = set()
    fonts = [font for page in reader.pages for font in _fonts(page.get("/Resources"), seen)]
    assert fonts
    for font in fonts:
        if font["/Subtype"] == "/Type3":
            continue  # its glyphs are drawings inside the PDF
        described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = described["/FontDescriptor"].get_object()
        assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), font["/BaseFont"]
        # Only the fonts Typst carries in its wheel: nothing of the machine, nothing downloaded.
        family = str(font["/BaseFont"]).split("+")[-1]
        assert family.startswith(TYPST_FONTS), font["/BaseFont"]


def test_exercises_ask_and_their_answers_are_at_the_back(books: Path) -> None:
    reader = _read(books, "en")
    outline = dict(_outline(reader))
    pages = _texts(books, "en")
    asked = "".join(pages[outline["Exercises"] : outline["A game explained"]])
    answers = "".join(pages[outline["Solutions to the exercises"] : outline["Glossary"]])
    assert asked.count("Exercise ") >= EXERCISES
    assert "Checked by the engine" not in asked  # no answer where the question is
    assert "Show the answer" not in asked
    assert len(re.findall(r"Exercise \d+: ", answers)) == EXERCISES
    assert answers.count("Checked by the engine:") == EXERCISES


def test_the_game_is_printed_move_by_move(books: Path) -> None:
    reader = _read(books, "en")
    outline = dict(_outline(reader))
    text = " ".join(
        _texts(books, "en")[outline["A game explained"] : outline["Other draughts games"]]
    )
    # A no-break space binds each move number to its move.
    found = re.findall(r"Move \d+\.(?:\.\.)?[ \u00a0](\S+?)\.(?:\s|$)", text)
    assert found == GAME_MOVES
    assert "The starting position." in text


def test_same_sources_give_the_same_bytes(books: Path, tmp_path: Path) -> None:
    """A copy of the project, without the book cache: laid out again, byte for byte the same."""
    project = copy_project(tmp_path)
    shutil.copy(ROOT / "pyproject.toml", project)  # the licence the colophon names
    assert not (project / BOOK_CACHE).exists()
    result = run_cli("booklet", "--lang", "en", cwd=project, env={"SOURCE_DATE_EPOCH": EPOCH})
    assert result.returncode == 0, result.stderr
    made = (project / "booklet" / "en.pdf").read_bytes()
    assert made == (books / "en.pdf").read_bytes()
    # Kept by its hash: the next build with the same sources lays out no book.
    assert [path.read_bytes() for path in (project / BOOK_CACHE).iterdir()] == [made]


def test_the_time_line_is_in_processor_seconds_and_its_parts_fit_its_total(
    tmp_path: Path,
) -> None:
    """Two books laid out at once by two workers: each step's processor seconds, summed over
    the workers, and a total that holds them all (review K20: the workers' summed wall time
    was once printed beside the command's wall time, and was larger)."""
    project = copy_project(tmp_path)
    result = run_cli("booklet", "--lang", "en", "--lang", "it", cwd=project)
    assert result.returncode == 0, result.stderr
    line = result.stdout.splitlines()[-1]
    prefix = "time in processor seconds, the workers' summed with this process's: "
    assert line.startswith(prefix), line
    steps, went_by = line.removeprefix(prefix).split("; ")
    seconds = {
        name: float(value.removesuffix("s"))
        for name, value in (step.split(" ") for step in steps.split(", "))
    }
    assert list(seconds) == ["verify", "pages", "booklet", "total"]
    assert seconds["booklet"] > 0  # both books were laid out: the copy has no book cache
    parts = seconds["verify"] + seconds["pages"] + seconds["booklet"]
    assert parts <= seconds["total"] + 0.02  # each figure is rounded to 0.01 s
    assert re.fullmatch(r"\d+\.\d\ds went by", went_by), went_by


def test_letter_paper(tmp_path: Path) -> None:
    result = run_cli("booklet", "--lang", "it", "--paper", "letter", "--out", tmp_path, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    box = PdfReader(tmp_path / "it.pdf").pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == LETTER


def test_a5_paper_is_a_booklet_of_whole_folded_sheets(tmp_path: Path) -> None:
    """``--paper a5``: ISO 216 A5 pages, as many as fill whole A4 sheets folded once (four
    pages to a sheet)."""
    result = run_cli("booklet", "--lang", "fr", "--paper", "a5", "--out", tmp_path, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    pages = PdfReader(tmp_path / "fr.pdf").pages
    box = pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == A5
    assert len(pages) % 4 == 0


def test_a4_is_the_default(books: Path) -> None:
    box = _read(books, "nl").pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == A4


def test_bad_requests_are_one_line_and_exit_1(tmp_path: Path) -> None:
    unknown = run_cli("booklet", "--lang", "xx", "--out", tmp_path, cwd=ROOT)
    assert unknown.returncode == 1 and "Traceback" not in unknown.stderr
    assert "no catalog for language 'xx'" in unknown.stderr
    epoch = run_cli(
        "booklet", "--lang", "en", "--out", tmp_path, cwd=ROOT, env={"SOURCE_DATE_EPOCH": "soon"}
    )
    assert epoch.returncode == 1 and "Traceback" not in epoch.stderr
    assert "SOURCE_DATE_EPOCH='soon' is not a time" in epoch.stderr
    assert not list(tmp_path.iterdir())
    paper = run_cli("booklet", "--paper", "a3", cwd=ROOT)
    assert paper.returncode == 2


def test_build_puts_the_book_in_the_site_and_every_page_links_it(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    result = run_cli("build", "--lang", "fr", cwd=project, env={"DAMA_DIAGRAMS_BOOKS": "1"})
    assert result.returncode == 0, result.stderr
    site = project / "site" / "fr"
    assert PdfReader(site / "rules-fr.pdf").outline
    pages = sorted(site.rglob("index.html"))
    assert len(pages) == 15  # docs/pages/nav.yml
    for page in pages:
        text = page.read_text(encoding="utf-8")
        link = re.search(r'<a href="([^"]*rules-fr\.pdf)"[^>]*>([^<]*)</a>', text)
        assert link, page
        assert (page.parent / link[1]).resolve() == (site / "rules-fr.pdf").resolve()
        assert link[2] == "Télécharger les règles en PDF"


def test_first_pages_render_for_a_person_to_look_at(books: Path, shots: Path) -> None:
    """pdftoppm (poppler-utils) draws the cover and the first chapter; they must not be blank."""
    if shutil.which("pdftoppm") is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs pdftoppm: apt-get install poppler-utils")
        pytest.skip("needs pdftoppm (apt-get install poppler-utils)")
    from PIL import Image

    for language in LANGUAGES:
        prefix = shots / f"booklet-{language}"
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "60",
                "-f",
                "1",
                "-l",
                "4",
                books / f"{language}.pdf",
                prefix,
            ],
            check=True,
            timeout=120,
        )
        drawn = sorted(shots.glob(f"booklet-{language}-*.png"))
        assert len(drawn) == 4
        for path in drawn:
            with Image.open(path) as image:
                darkest, _ = image.convert("L").getextrema()
                assert darkest < 100, path  # text, or a board, is drawn


# --- accessibility: PDF/UA-1 ---------------------------------------------------------


def _structure(language: str, books: Path) -> list[tuple[str, Any]]:
    """(role, element) of every element of the structure tree, in reading order."""
    import pikepdf

    pdf = pikepdf.open(books / f"{language}.pdf")
    _OPEN.append(pdf)  # its objects live as long as the file is open
    return [(str(node["/S"]), node) for node in structure_elements(pdf.Root.StructTreeRoot)]


_OPEN: list[Any] = []


@pytest.mark.parametrize("language", LANGUAGES)
def test_tagged_with_its_language_and_a_real_structure(books: Path, language: str) -> None:
    import pikepdf

    pdf = pikepdf.open(books / f"{language}.pdf")
    assert pdf.Root.MarkInfo.Marked is True
    assert str(pdf.Root.Lang) == language
    assert "/StructTreeRoot" in pdf.Root
    roles = [role for role, _ in _structure(language, books)]
    # Headings, lists and tables with header cells, as the pages have them.
    assert roles.count("/H1") == len(ENGLISH_CHAPTERS) + 1  # and the contents' own
    assert roles.count("/Title") == 1  # the cover's title
    assert "/H2" in roles and "/L" in roles and "/LI" in roles
    assert "/Table" in roles and "/TH" in roles and "/TD" in roles


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_structure_element_is_empty(books: Path, language: str) -> None:
    """Every tagged element holds content, a child, /Alt or /ActualText: a screen reader
    announces an empty one (a list label with nothing in it) and then reads nothing."""
    empty = [
        role
        for role, node in _structure(language, books)
        if not node.get("/K") and "/Alt" not in node and "/ActualText" not in node
    ]
    assert empty == []


def test_every_diagram_is_read_aloud_by_its_description(books: Path) -> None:
    """Each picture's /Alt is the diagram's description in the book's language."""
    alts = {
        language: [
            str(node["/Alt"]) for role, node in _structure(language, books) if "/Alt" in node
        ]
        for language in ("en", "it")
    }
    figures = {
        language: [node for role, node in _structure(language, books) if role == "/Figure"]
        for language in ("en", "it")
    }
    for language in ("en", "it"):
        assert figures[language]
        assert all("/Alt" in node and str(node["/Alt"]).strip() for node in figures[language])
    # diagrams/capture-compulsory.yaml: white men on 22 and 24, a black man on 18; in Italian
    # by the catalog's position.men ("pedine in {squares}") and position.man ("pedina in").
    assert any(alt.startswith("White: men on 22, 24. Black: man on 18.") for alt in alts["en"])
    assert any(
        alt.startswith("Bianco: pedine in 22, 24. Nero: pedina in 18.") for alt in alts["it"]
    )


PROJECT_AUTHOR = {  # site_author of mkdocs.yml, this project's own name, in each language
    "en": "The dama-diagrams contributors",
    "nl": "De bijdragers aan dama-diagrams",
    "it": "I collaboratori di dama-diagrams",
    "de": "Die Mitwirkenden von dama-diagrams",
    "fr": "Les contributeurs de dama-diagrams",
    "es": "Los colaboradores de dama-diagrams",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_metadata_names_the_subject_and_the_publisher(books: Path, language: str) -> None:
    metadata = _read(books, language).metadata
    assert metadata is not None
    assert metadata["/Author"] == PROJECT_AUTHOR[language]  # review 2026-12-05 G20
    subject = str(metadata["/Subject"])
    assert len(subject) > 20 and subject != metadata["/Title"]


# --- a book for players ------------------------------------------------------------------

SCREEN_WORDS = {
    "en": ("this site", "dama-diagrams", "pybabel", "browser", "language menu", "games/"),
    "it": ("questo sito", "dama-diagrams", "pybabel", "browser", "menu", "games/"),
    "nl": ("deze site", "dama-diagrams", "pybabel", "browser", "menu", "games/"),
    "de": ("diese website", "dama-diagrams", "pybabel", "browser", "menü", "games/"),
    "fr": ("ce site", "dama-diagrams", "pybabel", "navigateur", "menu", "games/"),
    "es": ("este sitio", "dama-diagrams", "pybabel", "navegador", "menú", "games/"),
}
"""Words of the screen or of the site's authors: "this site", its commands, its menus."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_or_word_for_the_sites_authors(books: Path, language: str) -> None:
    # Past the cover and the colophon, which names the publisher (site_author of mkdocs.yml).
    text = " ".join(_texts(books, language)[2:]).lower()
    text = " ".join(text.split())
    found = [word for word in SCREEN_WORDS[language] if word in text]
    assert found == [], language


PAGE_WORDS = {"en": "p.", "nl": "p.", "it": "p.", "de": "S.", "fr": "p.", "es": "p."}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_cross_reference_gives_the_page_it_leads_to(books: Path, language: str) -> None:
    """Each link inside the book, past the contents, is followed by its target's page number."""
    reader = _read(books, language)
    checked = 0
    texts = _texts(books, language)
    for index, page in enumerate(reader.pages[3:], start=3):
        text = " ".join(texts[index].split())
        for annotation in page.get("/Annots", []):
            link = annotation.get_object()
            if link.get("/Subtype") != "/Link" or ("/A" in link and "/URI" in link["/A"]):
                continue
            target = _link_page(reader, link) + 1
            assert f"{PAGE_WORDS[language]} {target}" in text, (language, index + 1, target)
            checked += 1
    assert checked >= 30  # the rules link each other, every exercise its answer and back


def test_a_link_to_a_section_gives_the_page_of_its_heading(books: Path) -> None:
    """K15: "see In a competition, p. N" names that section's page, not its chapter's."""
    texts = [" ".join(text.split()) for text in _texts(books, "en")]
    heading = next(
        number
        for number, text in enumerate(texts, start=1)
        if number > 3 and "In a competition Games in a competition" in text
    )
    pointing = [text for text in texts if "Competitions have rules of their own" in text]
    assert len(pointing) == 1
    found = re.search(r"see In a competition, p\. (\d+)", pointing[0])
    assert found is not None, pointing[0]
    assert int(found[1]) == heading


def test_move_numbers_stay_with_their_moves(books: Path) -> None:
    """A numbered move list never breaks between "2." and its move: a no-break space."""
    from dama_diagrams.site.pages.figure_html import numbered

    assert numbered(["22-18", "11-14", "18x11"]) == "1.\u00a022-18 11-14 2.\u00a018x11"


# --- the machine: never a reason to lose the site -----------------------------------------


def _without_typst(folder: Path) -> dict[str, str]:
    """An environment in which ``import typst`` fails, as on a platform with no typst wheel."""
    shadow = folder / "no-typst"
    (shadow / "typst").mkdir(parents=True)
    (shadow / "typst" / "__init__.py").write_text(
        'raise ImportError("no typst wheel for this platform")\n', encoding="utf-8"
    )
    return {"PYTHONPATH": str(shadow), "DAMA_DIAGRAMS_BOOKS": "1"}


def test_without_typst_the_site_is_published_with_a_warning(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    result = run_cli("build", "--lang", "en", cwd=project, env=_without_typst(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warning = [line for line in result.stderr.splitlines() if "no printed books" in line]
    assert len(warning) == 1, result.stderr
    assert "typst" in warning[0] and "pip install" in warning[0]  # what is missing, and how
    site = project / "site" / "en"
    assert (site / "index.html").is_file() and not (site / "rules-en.pdf").exists()
    assert "rules-en.pdf" not in (site / "index.html").read_text(encoding="utf-8")


def test_without_typst_the_booklet_command_says_what_to_install(tmp_path: Path) -> None:
    result = run_cli("booklet", "--out", tmp_path / "out", cwd=ROOT, env=_without_typst(tmp_path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "pip install 'dama-diagrams[site]'" in result.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_holds_a_lone_line(books: Path, language: str) -> None:
    """Widows and orphans kept together: every page past the contents has more than a line."""
    for index, page in enumerate(_texts(books, language)[3:], start=4):
        lines = [line for line in page.splitlines() if line.strip()]
        body = lines[1:-1]  # past the running header, before the page number
        assert len(body) >= 3, (language, index, body)


@pytest.mark.parametrize("language", LANGUAGES)
def test_typographic_apostrophes_and_quotes_throughout(books: Path, language: str) -> None:
    """Print has no typewriter quotes: ' and " become the language's own marks."""
    text = "".join(_texts(books, language))
    assert "'" not in text and '"' not in text
    if language in ("it", "fr"):  # "l'avversario", "l'adversaire": elided articles everywhere
        assert text.count("\u2019") > 50


# --- a text the book cannot set: never a reason to lose the site ----------------------------


def test_the_table_of_what_the_book_can_print_is_typsts_own_answer() -> None:
    """``scripts/book_glyphs.py`` asks Typst about every code point (minutes); here, about
    every one the table lists, and the neighbours of each range and every 89th of the others.
    ``status`` and ``verify`` read the table without Typst."""
    import typst

    from dama_diagrams._book_glyph_table import SETTABLE, TYPST_VERSION
    from dama_diagrams.site.booklet.glyphs import refused_code_points, set_alone

    again = "Typst's fonts changed: run python scripts/book_glyphs.py"
    assert typst.__version__ == TYPST_VERSION, again

    def refused(codes: list[int]) -> set[int]:
        return set().union(
            *(refused_code_points(codes[i : i + 5000]) for i in range(0, len(codes), 5000))
        )

    listed = [code for first, last in SETTABLE for code in range(first, last + 1)]
    assert not refused(listed), again
    # Typst checks some of those that draw nothing only where they come first (U+FEFF).
    quiet = [code for code in listed if unicodedata.category(chr(code))[0] in "CZ"]
    assert list(set_alone(quiet)) == quiet, again
    known = set(listed)
    edges = {first - 1 for first, _ in SETTABLE} | {last + 1 for _, last in SETTABLE}
    others = sorted(
        code
        for code in edges | set(range(0, 0x110000, 89))
        if 0 <= code < 0x110000 and not 0xD800 <= code <= 0xDFFF and code not in known
    )
    assert refused(others) == set(others), again
    for character in "😀⛀ก\uffff\ufeff":  # review T05: each stopped every language's build
        assert ord(character) not in known
    for character in "éŒЖΩ€«»\u2028\u3000\u200b\ufffd":  # Latin, Cyrillic, Greek; blank; �
        assert ord(character) in known


def test_a_character_the_fonts_lack_or_a_blank_heading_never_stops_the_site(
    tmp_path: Path,
) -> None:
    """An emoji once failed every language's build with Typst's PDF/UA error, and a heading
    translated as U+2028 with "heading title is empty", naming no file or line."""
    project = copy_project(tmp_path)
    catalog = translate(project, "it", {"The man": "La pedina 😀", "Multiple captures": "\u2028"})
    where = "docs/locales/it/LC_MESSAGES/messages.po"
    emoji, blank = (  # each finding at the msgstr line that holds its fault
        msgstr_line(catalog, english) for english in ("The man", "Multiple captures")
    )

    result = run_cli("build", cwd=project, env={"DAMA_DIAGRAMS_BOOKS": "1"})

    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    said = (result.stdout + result.stderr).splitlines()
    assert [line for line in said if f"{where}:{emoji}:" in line] == [
        f"{where}:{emoji}: it: glyphs: the translation of 'The man' has 😀 (U+1F600 GRINNING "
        "FACE), which the printed book's fonts lack: the book shows \ufffd in its place; write it "
        "another way (the web pages show it), or keep it with a translator comment "
        "'# dama: allow glyphs'"
    ]
    assert [line for line in said if "Multiple captures" in line] == [
        f"{where}:{blank}: it: blank: the translation of 'Multiple captures' is blank: it holds "
        "only U+2028 (LINE SEPARATOR), which shows nothing; the site and the book show the "
        "English instead: translate it, or empty the msgstr"
    ]
    for code in LANGUAGES:  # every language's pages and book
        site = project / "site" / code
        assert (site / "index.html").is_file(), code
        assert PdfReader(site / f"rules-{code}.pdf").outline, code
    book = "\n".join(
        page.extract_text() for page in PdfReader(project / "site" / "it" / "rules-it.pdf").pages
    )
    assert "La pedina \ufffd" in book and "😀" not in book
    assert "Multiple captures" in book  # the English heading, never an empty one
    page = (project / "site" / "it" / "man" / "index.html").read_text(encoding="utf-8")
    assert "La pedina 😀" in page  # the web page shows it
    alone = run_cli("booklet", "--lang", "it", "--out", tmp_path / "books", cwd=project)
    assert alone.returncode == 0, alone.stderr
    assert sum(f"{where}:{emoji}: it: glyphs:" in line for line in alone.stderr.splitlines()) == 1
    assert sum(f"{where}:{blank}: it: blank:" in line for line in alone.stderr.splitlines()) == 1


def test_a_caption_the_fonts_cannot_print_is_a_warning_at_its_line(tmp_path: Path) -> None:
    """A caption's ⛀ once passed verify and the hook, then stopped every language's build."""
    project = copy_project(tmp_path)
    diagram = project / "diagrams" / "man-move.yaml"
    lines = diagram.read_text(encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(lines) if text.startswith("caption:")) + 1
    lines[number - 1] = lines[number - 1].replace("The man on {start}", "The man ⛀ on {start}")
    diagram.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lack = "has ⛀ (U+26C0 WHITE DRAUGHTS MAN), which the printed book's fonts lack"

    checked = run_cli("verify", "diagrams/man-move.yaml", cwd=project)  # as the hook runs it
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.splitlines() == [
        f"warning: diagrams/man-move.yaml:{number}: the caption {lack}: the book shows \ufffd "
        "in its place; write it another way"
    ]
    built = run_cli(
        "build", "--lang", "en", "--lang", "it", cwd=project, env={"DAMA_DIAGRAMS_BOOKS": "1"}
    )

    assert built.returncode == 0, built.stderr
    warned = [text for text in built.stderr.splitlines() if "man-move.yaml" in text]
    # Italian shows the English caption too until it is translated again (its English changed).
    assert warned == [
        f"dama-diagrams: warning: diagrams/man-move.yaml:{number}: 'The man ⛀ on {{start}} may "
        f"step to either dark square diago...' {lack}: the book shows \ufffd in its place (the "
        "books of en, it); write it another way: the web pages show it"
    ]
    for code in ("en", "it"):
        book = PdfReader(project / "site" / code / f"rules-{code}.pdf")
        text = " ".join(" ".join(page.extract_text() for page in book.pages).split())
        assert "The man \ufffd on 22" in text, code


def _typst_refusing(folder: Path) -> dict[str, str]:
    """An environment whose Typst loads, then refuses every book, as for a text it cannot set."""
    shadow = folder / "refusing-typst"
    (shadow / "typst").mkdir(parents=True)
    (shadow / "typst" / "__init__.py").write_text(
        "class TypstError(RuntimeError):\n"
        "    message = 'PDF/UA-1 error: the test refuses every book'\n"
        "    hints = []\n\n\n"
        "class Compiler:\n"
        "    def __init__(self, *args, **kwargs): pass\n\n"
        "    def compile(self, *args, **kwargs): raise TypstError(self)\n",
        encoding="utf-8",
    )
    return {"PYTHONPATH": str(shadow), "DAMA_DIAGRAMS_BOOKS": "1"}


def test_a_book_typst_refuses_is_left_out_and_its_site_published(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    result = run_cli("build", "--lang", "en", cwd=project, env=_typst_refusing(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warning = [line for line in result.stderr.splitlines() if "no printed book" in line]
    assert warning == [
        "dama-diagrams: warning: en: no printed book: Typst refused it: PDF/UA-1 error: the "
        "test refuses every book; its site is published without it"
    ]
    site = project / "site" / "en"
    assert (site / "index.html").is_file() and not (site / "rules-en.pdf").exists()
    for page in site.rglob("*.html"):  # made again without it: no page links a missing book
        assert "rules-en.pdf" not in page.read_text(encoding="utf-8"), page


# --- a page the book cannot print as the web page shows it: never a reason to lose the site ----


def _add_to_template(project: Path, page: str, text: str) -> list[str]:
    """``text`` at the end of a page's template; the template's lines after it."""
    template = project / "docs" / "pages" / f"{page}.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + text, encoding="utf-8")
    return template.read_text(encoding="utf-8").splitlines()


def _links_out(reader: PdfReader) -> set[str]:
    return {
        str(annotation.get_object()["/A"]["/URI"])
        for page in reader.pages
        for annotation in page.get("/Annots", [])
        if "/URI" in annotation.get_object().get("/A", {})
    }


def test_a_picture_or_a_deep_list_in_a_template_never_stops_the_site(tmp_path: Path) -> None:
    """An ordinary picture or a list 21 levels deep in a page template once failed the build
    of every language, for the book alone ("the page shows assets/favicon.svg, which no
    verified diagram makes"); the web pages showed them."""
    project = copy_project(tmp_path)
    deep = "\n".join("    " * depth + f"- level {depth + 1}" for depth in range(21))
    lines = _add_to_template(
        project,
        "man",
        "\n![The club logo](assets/favicon.svg)\n\n"
        "A photo: ![The board at the club](https://example.org/board.jpg) and "
        '<img src="https://example.org/x.png">.\n\n'
        '<img src="assets/lost.svg" alt="A lost picture">\n\n' + deep + "\n",
    )
    lost = lines.index('<img src="assets/lost.svg" alt="A lost picture">') + 1
    deepest = lines.index("    " * 20 + "- level 21") + 1
    expected = [
        f"dama-diagrams: warning: docs/pages/man.md.j2:{lost}: the picture 'assets/lost.svg' is "
        "no file the site makes: the web page cannot show it either (the books of en, it); the "
        "book leaves it out: show a diagram with figure(), or a picture by its https:// address",
        f"dama-diagrams: warning: docs/pages/man.md.j2:{deepest}: lists, emphasis or quotes nest "
        "deeper than the book prints them, 40 elements (20 levels of lists) (the books of en, "
        "it); the book prints what lies deeper as plain text: nest them less deeply",
    ]
    books = {"DAMA_DIAGRAMS_BOOKS": "1"}

    result = run_cli("build", "--lang", "en", "--lang", "it", cwd=project, env=books)

    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert [line for line in result.stderr.splitlines() if "man.md.j2" in line] == expected
    for code in ("en", "it"):
        site = project / "site" / code
        page = (site / "man" / "index.html").read_text(encoding="utf-8")
        assert '<img alt="The club logo" src="../assets/favicon.svg" />' in page
        reader = PdfReader(site / f"rules-{code}.pdf")
        text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
        assert "level 20" in text and "level 21" in text, code
        assert "A photo: The board at the club and https://example.org/x.png." in text, code
        assert {"https://example.org/board.jpg", "https://example.org/x.png"} <= _links_out(reader)
    again = run_cli("build", "--lang", "en", "--lang", "it", cwd=project, env=books)
    assert again.returncode == 0, again.stderr
    # the books come from the cache this time; their warnings are said all the same
    assert [line for line in again.stderr.splitlines() if "man.md.j2" in line] == expected


def test_a_page_the_book_cannot_make_leaves_out_only_its_book(tmp_path: Path) -> None:
    """An error of the book's own making, not only Typst's, costs that book alone."""
    project = copy_project(tmp_path)
    figure = '<figure class="dama-figure"><img src="assets/diagrams/nowhere.svg" alt="x"></figure>'
    lines = _add_to_template(project, "man", f"\n{figure}\n")
    line = lines.index(figure) + 1

    result = run_cli("build", "--lang", "en", cwd=project, env={"DAMA_DIAGRAMS_BOOKS": "1"})

    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert [text for text in result.stderr.splitlines() if "no printed book" in text] == [
        f"dama-diagrams: warning: en: no printed book: docs/pages/man.md.j2:{line}: the page "
        "shows assets/diagrams/nowhere.svg, which no verified diagram makes: check the name "
        "given to figure() or exercise(); its site is published without it"
    ]
    site = project / "site" / "en"
    assert (site / "man" / "index.html").is_file() and not (site / "rules-en.pdf").exists()
    for page in site.rglob("*.html"):  # made again without it: no page links a missing book
        assert "rules-en.pdf" not in page.read_text(encoding="utf-8"), page
    alone = run_cli("booklet", "--lang", "en", "--out", tmp_path / "books", cwd=project)
    assert alone.returncode == 1 and "Traceback" not in alone.stderr  # its one job: an error
    assert alone.stderr.splitlines() == [
        f"dama-diagrams: en: the book: docs/pages/man.md.j2:{line}: the page shows "
        "assets/diagrams/nowhere.svg, which no verified diagram makes: check the name given to "
        "figure() or exercise()"
    ]
    assert not list((tmp_path / "books").glob("*.pdf"))


def test_every_field_of_a_books_sources_is_in_its_cache_key(tmp_path: Path) -> None:
    """A changed colophon line or subtitle lays the book out again, never a stale copy.

    Every field but where warnings point (``places``) and the pictures (hashed by
    their bytes) changes the key a laid-out book is cached under.
    """
    import dataclasses

    from dama_diagrams.site.booklet.jobs import BookJob, _digest
    from tests.conftest import book_sources

    book = book_sources({"index": "# Rules\n\nA page.\n"})
    job = BookJob(language="en", book=book, paper="a4", target=tmp_path / "book.pdf")
    keys = {"": _digest(job)}
    for item in dataclasses.fields(book):
        value = getattr(book, item.name)
        if item.name in ("places", "assets"):
            continue
        if isinstance(value, str):
            changed: object = value + " changed"
        elif isinstance(value, frozenset):
            changed = value | {"changed"}
        elif isinstance(value, tuple):
            changed = (*value, ("changed", "changed") if item.name == "pages" else "changed")
        else:  # an int or None: the epoch, the author
            changed = 1 if item.name == "epoch" else "changed"
        keys[item.name] = _digest(
            dataclasses.replace(job, book=dataclasses.replace(book, **{item.name: changed}))
        )
    assert len(set(keys.values())) == len(keys), keys
    assert {"subtitle", "edition", "colophon", "same_diagram", "said_once", "solution"} <= set(keys)


@pytest.mark.parametrize(
    ("author", "published"),
    [
        ("The dama-diagrams contributors", "Pubblicato dai collaboratori di dama-diagrams."),
        ("Circolo Damistico Milanese", "Pubblicato da Circolo Damistico Milanese."),
    ],
)
def test_a_clubs_own_name_is_printed_as_written_and_the_projects_is_translated(
    author: str, published: str
) -> None:
    """G20: "Pubblicato da I collaboratori" was wrong Italian; a club's name is no message."""
    from dama_diagrams.site.booklet import book_sources
    from dama_diagrams.site.i18n import load_catalog

    book = book_sources(load_catalog(ROOT, "it"), {}, {}, frozenset(), author=author)
    assert book.colophon[0] == published
    expected = "I collaboratori di dama-diagrams" if author.startswith("The") else author
    assert book.author == expected


def structure_elements(node: Any) -> Iterator[Any]:
    """Every element of the structure tree under ``node``, in reading order."""
    import pikepdf

    kids = node.get("/K")
    if kids is None:
        return
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield kid
            yield from structure_elements(kid)
