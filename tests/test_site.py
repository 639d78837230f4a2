"""The real multilingual site, built once with MkDocs, and its safeguards."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from dama_diagrams.errors import DamaError
from dama_diagrams.render.legend import LEGEND_KEYS, legend_icon_svg
from dama_diagrams.site import build_site
from dama_diagrams.site.i18n import available_languages
from tests.conftest import copy_project
from tests.po_files import translate

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = available_languages(ROOT)
DIAGRAM_IDS = sorted(path.stem for path in (ROOT / "diagrams").glob("*.yaml"))

pytestmark = pytest.mark.slow


class _Page(HTMLParser):
    """The parts of a built page that the checks look at."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.links: list[str] = []
        self.images: list[str] = []
        self.meta: dict[str, str] = {}
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "html":
            self.lang = values.get("lang")
        elif tag == "a" and "href" in values:
            self.links.append(values["href"])
        elif tag == "img" and "src" in values:
            self.images.append(values["src"])
        elif tag == "link" and values.get("rel") in ("stylesheet", "icon"):
            self.links.append(values.get("href", ""))
        elif tag == "meta" and "property" in values:
            self.meta[values["property"]] = values.get("content", "")


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _pages(site: Path, language: str) -> list[Path]:
    return sorted((site / language).rglob("*.html"))


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    """The session's site, drafts too: this is about its shape, whatever the translations."""
    built = sorted(path.parent.name for path in built_site.glob("*/index.html"))
    assert built == sorted(LANGUAGES)
    return built_site


def test_six_languages_are_built() -> None:
    assert set(LANGUAGES) >= {"nl", "it", "en", "de", "fr", "es"}


def test_every_language_has_the_same_pages(site: Path) -> None:
    shapes = {
        language: sorted(str(p.relative_to(site / language)) for p in _pages(site, language))
        for language in LANGUAGES
    }
    first = shapes[LANGUAGES[0]]
    assert "404.html" in first and "index.html" in first
    for language, shape in shapes.items():
        assert shape == first, language


def test_html_lang_is_the_page_language(site: Path) -> None:
    for language in LANGUAGES:
        for path in _pages(site, language):
            assert _parse(path).lang == language, path


def _broken_links(site: Path) -> list[str]:
    """Links and images of the built pages that name no file of the site."""
    broken = []
    for path in site.rglob("*.html"):
        page = _parse(path)
        for url in page.links + page.images:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith(("#", "mailto:")) or not parts.path:
                continue
            base = site if parts.path.startswith("/") else path.parent  # 404 pages are absolute
            target = (base / unquote(parts.path).lstrip("/")).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or site.resolve() not in target.parents:
                broken.append(f"{path.relative_to(site)}: {url}")
    return broken


def test_internal_links_and_images_resolve(site: Path) -> None:
    assert _broken_links(site) == []


def test_links_between_pages_work_without_directory_urls(tmp_path: Path) -> None:
    """Links in the text are written as final addresses: ``priority.html`` here."""
    copy = copy_project(tmp_path)
    config = copy / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace("\nstrict: true\n", "\nstrict: true\nuse_directory_urls: false\n")
    )
    build_site(copy, languages=["en", "it"])
    site = copy / "site"
    capturing = (site / "it" / "capturing.html").read_text(encoding="utf-8")
    assert '<a href="priority.html">Priorità di presa</a>' in capturing
    index = (site / "en" / "index.html").read_text(encoding="utf-8")
    assert '<a href="board.html">' in index
    assert _broken_links(site) == []


def test_every_diagram_appears_in_every_language(site: Path) -> None:
    for language in LANGUAGES:
        html = "".join(p.read_text(encoding="utf-8") for p in _pages(site, language))
        for diagram in DIAGRAM_IDS:
            assert f"assets/diagrams/{diagram}.svg" in html, (language, diagram)
            svg = (site / language / "assets" / "diagrams" / f"{diagram}.svg").read_text()
            assert "<title" in svg and "<desc" in svg


def test_diagram_titles_are_translated(site: Path) -> None:
    titles = {
        language: re.search(
            r"<title[^>]*>(.*?)</title>",
            (site / language / "assets" / "diagrams" / "man-move.svg").read_text(),
        ).group(1)  # type: ignore[union-attr]
        for language in LANGUAGES
    }
    assert len(set(titles.values())) == len(LANGUAGES), titles


INTERFACE_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
"""The attributes that a reader meets as words: a tooltip, a screen reader's label, a hint."""
SAME_WORD = {"de": {"Navigation"}, "fr": {"Navigation"}}
"""Interface words that are the English word in the language too (Material's own files)."""


class _Words(HTMLParser):
    """The interface's words of a page: its attributes that a reader meets."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in INTERFACE_ATTRIBUTES and value and value.strip():
                self.words.add(value)


def _interface_words(site: Path, language: str) -> set[str]:
    found = _Words()
    for path in _pages(site, language):
        found.feed(path.read_text(encoding="utf-8"))
    return found.words


def test_no_english_interface_word_on_a_translated_page(site: Path) -> None:
    """Review G1: 79 headings a language carried title="Permanent link", read aloud in English.

    Every tooltip, label and hint of the English site is compared with those of
    each translated site: none may be the English one.
    """
    english = _interface_words(site, "en")
    assert "Permanent link" in english  # the English site has the words compared against
    for language in LANGUAGES:
        if language == "en":
            continue
        left = _interface_words(site, language) & english - SAME_WORD.get(language, set())
        assert left == set(), language


def test_french_footer_labels_have_their_no_break_spaces(site: Path) -> None:
    """Review G9: "Précédent: La promotion", built by the template outside the catalogs."""
    labels = [
        word for word in _interface_words(site, "fr") if word.startswith(("Précédent", "Suivant"))
    ]
    assert len(labels) >= 2 * (len(_pages(site, "fr")) // 2 - 2)  # most pages have both
    for label in labels:
        assert re.fullmatch(r"(Précédent|Suivant)[\u00a0\u202f]: \S.*", label), label
    for word in _interface_words(site, "fr"):  # and no other colon of the interface lacks it
        assert not re.search(r"[^\u00a0\u202f][:;?!](\s|$)", word), word


def test_no_template_braces_are_left(site: Path) -> None:
    """Outside code blocks: the contributor page shows template syntax in its examples."""
    shown = 0
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        outside = re.sub(r"<pre\b.*?</pre>", "", text, flags=re.DOTALL)
        assert "{{" not in outside and "{%" not in outside, path
        shown += text != outside and "{%" in text
    assert shown >= len(LANGUAGES)  # the examples are there, in every language


def test_every_figure_says_what_the_engine_found(site: Path) -> None:
    for language in LANGUAGES:
        html = (site / language / "priority" / "index.html").read_text(encoding="utf-8")
        assert html.count('class="dama-engine"') == html.count('class="dama-figure"') == 5
        assert html.count('<div class="dama-explain">') == 5
        assert "31x22x13x6" in html and "<table>" in html


def test_language_menu_stays_on_the_same_page(site: Path) -> None:
    html = (site / "de" / "king" / "index.html").read_text(encoding="utf-8")
    for language in LANGUAGES:
        assert f'href="../../{language}/king/" hreflang="{language}"' in html


def test_each_page_has_a_social_card(site: Path) -> None:
    for path in _pages(site, "it"):
        if path.name == "404.html":
            continue
        card = _parse(path).meta["og:image"]
        target = (path.parent / card).resolve()
        assert target.read_bytes().startswith(b"\x89PNG"), path


def test_social_card_shows_the_board_the_same_in_every_language(site: Path) -> None:
    from PIL import Image

    def card_of(language: str, page: str) -> Path:
        folder = (site / language / page).resolve()
        return (folder / _parse(folder / "index.html").meta["og:image"]).resolve()

    image_path = card_of("nl", "priority")
    with Image.open(image_path) as image:
        assert image.size == (1200, 630)
        rgb = image.convert("RGB")
        # The board sits in the middle: light and dark squares, so many colours.
        board = rgb.crop((345, 74, 855, 584))
        assert len(board.getcolors(maxcolors=1 << 16) or []) > 50
        # Beside it, the site's background alone: no words, whatever the language.
        for side in (rgb.crop((0, 20, 330, 630)), rgb.crop((870, 20, 1200, 630))):
            assert len(side.getcolors() or []) == 1
        # The bar along the top, in the accent colour (256 colours: each within 15 of 255).
        bar = rgb.getpixel((600, 5))
        assert all(abs(a - b) <= 15 for a, b in zip(bar, (0x6E, 0x4D, 0x31), strict=True)), bar
    # The title and description travel beside the card, in the reader's language.
    for language in LANGUAGES:
        assert card_of(language, "priority").read_bytes() == image_path.read_bytes()
    home = card_of("en", ".").read_bytes()
    assert home != image_path.read_bytes()  # another page's main diagram: another card


def test_a_card_is_drawn_once_for_every_language() -> None:
    from dama_diagrams.site.pages import cards
    from dama_diagrams.site.pages.figures import load_figures

    verified = load_figures(ROOT)["multi-capture"].verified
    wanted = {f"{lang}/{page}": cards.Card(verified) for lang in LANGUAGES for page in "ab"}
    drawn: list[str] = []
    original = cards._draw_board

    def counted(board_svg: str) -> object:
        drawn.append(board_svg)
        return original(board_svg)

    cards._draw_board = counted  # type: ignore[assignment]
    try:
        result = cards.draw_cards(wanted)
    finally:
        cards._draw_board = original  # type: ignore[assignment]
    assert len(drawn) == 1  # one diagram: one drawing, however many pages and languages
    assert len(set(result.values())) == 1 and set(result) == set(wanted)


def test_root_index_links_every_language(site: Path) -> None:
    html = (site / "index.html").read_text(encoding="utf-8")
    for language in LANGUAGES:
        assert f'href="{language}/"' in html
    assert "navigator.languages" in html


def test_search_index_per_language(site: Path) -> None:
    for language in LANGUAGES:
        index = (site / language / "search" / "search_index.json").read_text(encoding="utf-8")
        assert f'"lang":["{language}"]' in index.replace(" ", "")


# --- failures leave the old site alone ---------------------------------------


def test_pages_load_nothing_from_another_host(site: Path) -> None:
    """No web fonts, scripts or stylesheets from a CDN: the site works offline and tracks no one."""
    loads = re.compile(
        r'<(?:script|img|iframe|source)\b[^>]*\ssrc="(?:https?:)?//'
        r'|<link\b(?=[^>]*\srel="(?:stylesheet|preload|modulepreload|icon)")[^>]*\shref="(?:https?:)?//'
    )
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not loads.search(text), f"{page.relative_to(site)}: {loads.search(text)}"
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project that a test may break."""
    copy = copy_project(tmp_path)
    build_site(copy, languages=["en"])
    (copy / "site" / "marker.txt").write_text("old site")
    return copy


def _assert_old_site_intact(project: Path) -> None:
    assert (project / "site" / "marker.txt").read_text() == "old site"
    assert (project / "site" / "en" / "index.html").is_file()
    assert not [p for p in project.iterdir() if p.name.startswith(".site-build-")]


def test_false_claim_fails_and_keeps_the_old_site(project: Path) -> None:
    diagram = project / "diagrams" / "priority-most-pieces.yaml"
    diagram.write_text(diagram.read_text().replace("rule: most-pieces", "rule: most-kings"))
    with pytest.raises(DamaError) as error:
        build_site(project, languages=["en"])
    assert "priority-most-pieces.yaml:" in str(error.value)
    _assert_old_site_intact(project)


def test_a_translation_with_other_placeholders_fails_at_its_po_line(project: Path) -> None:
    caption = (
        "The man on {start} may step to either dark square diagonally in front of it: {moves}."
    )
    path = translate(project, "nl", {caption: "De schijf op {begin} mag naar {moves}."})
    line = (
        next(
            number
            for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1)
            if text == f'msgid "{caption}"'
        )
        + 1
    )  # the msgstr's line, which holds the fault
    with pytest.raises(DamaError) as error:
        build_site(project, languages=["en", "nl"], drafts=True)
    message = str(error.value)
    assert message.startswith(f"docs/locales/nl/LC_MESSAGES/messages.po:{line}: nl: ")
    assert "{begin}" in message and "The man on {start}" in message
    _assert_old_site_intact(project)


def test_a_template_placeholder_without_a_value_fails_at_its_line(project: Path) -> None:
    template = project / "docs" / "pages" / "man.md.j2"
    lines = template.read_text(encoding="utf-8").split("\n")
    lines.insert(6, '{{ _("See {page}.", other="x") }}')
    template.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DamaError) as error:
        build_site(project, languages=["en"])
    message = str(error.value)
    assert message.startswith("docs/pages/man.md.j2:7: en: ")
    assert "{page}" in message
    _assert_old_site_intact(project)


def test_an_untranslated_page_says_so_after_its_title(project: Path) -> None:
    template = project / "docs" / "pages" / "king.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + '\n{{ _("A new sentence.") }}\n')
    report = build_site(project, languages=["en", "nl"], drafts=True)
    assert "king" in report.untranslated_pages["nl"]
    assert "king" not in report.untranslated_pages["en"]
    html = (project / "site" / "nl" / "king" / "index.html").read_text(encoding="utf-8")
    heading = html.index("<h1")
    notice = html.index('class="admonition note"')
    assert heading < notice < html.index("A new sentence.")
    # the count of passages in English, as the Dutch catalog says it
    assert re.search(
        r"omdat hun vertaling ontbreekt, verouderd is of fouten bevat: [1-9]\d*\.", html[notice:]
    )
    english = (project / "site" / "en" / "king" / "index.html").read_text(encoding="utf-8")
    assert 'class="admonition note"' not in english


def test_broken_link_fails_the_mkdocs_build(project: Path) -> None:
    template = project / "docs" / "pages" / "end.md.j2"
    template.write_text(template.read_text() + "\n[broken](no-such-page.md)\n")
    with pytest.raises(DamaError) as error:
        build_site(project, languages=["en"])
    assert "no-such-page.md" in str(error.value) and "en: MkDocs" in str(error.value)
    _assert_old_site_intact(project)


def test_unknown_language_is_an_error(project: Path) -> None:
    with pytest.raises(DamaError, match="no catalog for language 'xx'"):
        build_site(project, languages=["xx"])


def test_same_inputs_give_byte_identical_sites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MkDocs dates the sitemap by SOURCE_DATE_EPOCH when it is set (reproducible builds).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1780000000")
    project = copy_project(tmp_path)
    first, second = tmp_path / "first", tmp_path / "second"
    build_site(project, languages=["en", "nl"], out=first, drafts=True)
    shutil.rmtree(project / ".cache", ignore_errors=True)  # draw every card again
    build_site(project, languages=["en", "nl"], out=second, drafts=True)
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    changed = [f for f in files if (first / f).read_bytes() != (second / f).read_bytes()]
    assert changed == []


RULE_NUMBERS = {"most-pieces": 1, "with-king": 2, "most-kings": 3, "king-first": 4}
"""The FID's order of the priority rules."""


def _figure(site: Path, page: str, diagram_id: str) -> str:
    text = (site / "en" / page / "index.html").read_text(encoding="utf-8")
    start = text.index(f'id="figure-{diagram_id}"')
    return text[start : text.index("</figure>", start)]


@pytest.mark.parametrize(
    ("page", "diagram_id"),
    [("man", "man-no-backward-capture"), ("man", "man-cannot-capture-king")],
)
def test_an_illegal_move_is_labelled_not_allowed(site: Path, page: str, diagram_id: str) -> None:
    source = yaml.safe_load((ROOT / "diagrams" / f"{diagram_id}.yaml").read_text())
    figure = _figure(site, page, diagram_id)
    assert f"Not allowed: <code>{source['move']}</code>" in figure
    assert "Move: " not in figure
    assert 'class="dama-legend-rejected"' in figure  # its dashed arrow is explained


@pytest.mark.parametrize(
    "diagram_id", ["priority-most-pieces", "priority-with-king", "priority-most-kings",
                   "priority-king-first"],
)  # fmt: skip
def test_a_rejected_capture_names_the_rule_that_rejects_it(site: Path, diagram_id: str) -> None:
    source = yaml.safe_load((ROOT / "diagrams" / f"{diagram_id}.yaml").read_text())
    figure = _figure(site, "priority", diagram_id)
    number = RULE_NUMBERS[source["rule"]]
    for rejected in source["rejected"]:
        assert f"Rejected by rule {number} (" in figure and f"<code>{rejected}</code>" in figure
    # The dashed marks of a rejected move are explained by the legend.
    assert 'class="dama-legend-rejected"' in figure


def test_the_legend_has_no_rejected_entry_where_nothing_is_rejected(site: Path) -> None:
    assert 'class="dama-legend-rejected"' not in _figure(site, "capturing", "multi-capture")


# --- the rules content (issue 12), in every language ---------------------------------------


class _Text(HTMLParser):
    """A page's visible text, and the cells of its tables, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.rows: list[list[str]] = []
        self._skip = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text += data
            if self._cell is not None:
                self._cell.append(data)


def _text(site: Path, language: str, page: str) -> _Text:
    parsed = _Text()
    parsed.feed((site / language / page / "index.html").read_text(encoding="utf-8"))
    parsed.text = " ".join(parsed.text.split())
    return parsed


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_links_the_new_pages(site: Path, language: str) -> None:
    links = _parse(site / language / "index.html").links
    for page in ("play", "compare", "glossary"):
        assert f"{page}/" in links, page


@pytest.mark.parametrize(
    ("page", "diagram_id"),
    [
        ("board", "notation-example"),
        ("capturing", "king-capture-returns"),
        ("promotion", "promotion-after-two"),
        ("compare", "man-no-backward-capture"),
        ("compare", "man-cannot-capture-king"),
        ("compare", "king-moves"),
        ("compare", "priority-with-king"),
    ],
)
def test_the_new_diagrams_are_on_their_pages(site: Path, page: str, diagram_id: str) -> None:
    for language in LANGUAGES:
        assert f"figure-{diagram_id}" in _parse(site / language / page / "index.html").ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_comparison_tables_set_the_games_side_by_side(site: Path, language: str) -> None:
    rows = _text(site, language, "compare").rows
    three, more = rows[:7], rows[7:]
    assert len(three) == 7 and {len(row) for row in three} == {4}  # a heading and six rules
    # Men per player: 12 in Italian and English draughts, 20 in international draughts.
    assert ["12", "20", "12"] in [row[1:] for row in three]
    first_move = three[3][1:]  # White, White, Black, in the page's language
    assert first_move[0] == first_move[1] != first_move[2]
    # Italian, Russian, Spanish and Portuguese, Brazilian: a heading and three rules.
    assert len(more) == 4 and {len(row) for row in more} == {5}
    captures, choice, crowned = more[1], more[2], more[3]
    assert captures[1] == three[4][1]  # the Italian man's captures, worded as in the first table
    assert captures[2] != captures[3]  # a Russian man captures backwards, a Spanish one does not
    assert choice[1] == three[6][1] and choice[2] == three[6][3]  # Russian: free, as in English
    assert choice[4] == three[6][2]  # Brazilian: the most pieces, as in international draughts
    # Crowned mid-capture: the move ends in Italian and Spanish draughts; a Russian man captures on.
    assert crowned[1] == crowned[3] != crowned[2] and crowned[4] not in (crowned[1], crowned[2])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_footer_credit_is_in_the_page_language(site: Path, language: str) -> None:
    html = (site / language / "index.html").read_text(encoding="utf-8")
    footer = html[html.index('class="md-copyright"') :]
    assert '<a href="https://squidfunk.github.io/mkdocs-material/"' in footer
    assert ("Made with" in footer) == (language == "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_about_page_names_the_fid_and_no_app(site: Path, language: str) -> None:
    assert "https://www.federdama.org/" in _parse(site / language / "about" / "index.html").links
    text = _text(site, language, "about").text
    assert "FID" in text
    assert not re.search(r"\b[Aa]pp\b|l'application|la aplicación", text)


def test_the_worked_example_is_a_legal_game(site: Path) -> None:
    """The board page's one-line example, the same in every language, replayed from the start."""
    from dama_diagrams import Position
    from dama_diagrams.diagram.schema import load_diagram

    games = set()
    for language in LANGUAGES:
        text = _text(site, language, "board").text
        found = re.search(r"1\. (\d+-\d+) (\d+-\d+) 2\. (\d+x\d+) (\d+x\d+)", text)
        assert found is not None, language
        games.add(found.groups())
    assert len(games) == 1
    moves = games.pop()
    position = Position.initial()
    for move in moves:
        assert position.is_legal(move), move
        position = position.play(move)
    diagram = load_diagram(ROOT / "diagrams" / "notation-example.yaml")
    assert tuple(map(str, diagram.history)) == moves[:3]
    assert str(diagram.move) == moves[3]


# --- the worked game (issue 14) -----------------------------------------------------------------

GAME_MOVES = [
    *("23-19", "10-14", "19x10", "5x14", "24-20", "9-13"),
    *("20-16", "1-5", "21-18", "14x21", "26x17x10x1"),
]
"""games/example.pdn, as written there by hand."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_page_steps_through_every_move(site: Path, language: str) -> None:
    import json
    from html import unescape

    text = (site / language / "game" / "index.html").read_text(encoding="utf-8")
    start = text.rindex("<figure", 0, text.index('id="figure-example-game"'))
    figure = text[start : text.index("</figure>", start)]
    data = json.loads(unescape(re.search(r'data-steps="([^"]*)"', figure)[1]))  # type: ignore[index]
    texts = data["texts"]
    assert len(texts) == 1 + len(GAME_MOVES)  # the start, then each move
    for number, (move, line) in enumerate(zip(GAME_MOVES, texts[1:], strict=True)):
        label = f"{number // 2 + 1}{'.' if number % 2 == 0 else '...'}"
        assert f"{label} {move}" in line, line
    steps = site / language / "assets" / "diagrams" / "example-game.steps"
    assert sorted(int(p.stem) for p in steps.glob("*.svg")) == list(range(len(texts)))
    for diagram_id in ("example-shot", "example-crowning"):
        assert f'id="figure-{diagram_id}"' in text


def test_every_legend_shows_the_languages_shared_icon_files(site: Path) -> None:
    """One file per entry and language, as print and the fence draw it; no page inlines one."""
    for language in LANGUAGES:
        folder = site / language / "assets" / "legend"
        assert sorted(path.stem for path in folder.iterdir()) == sorted(LEGEND_KEYS)
        for key in LEGEND_KEYS:
            assert (folder / f"{key}.svg").read_text(encoding="utf-8") == legend_icon_svg(key)
        for page in (site / language).rglob("index.html"):
            text = page.read_text(encoding="utf-8")
            depth = len(page.parent.relative_to(site / language).parts)  # priority/: 1
            entries = re.findall(r'<li class="dama-legend-([a-z_]+)"[^>]*>(<[^>]*>)', text)
            for key, icon in entries:
                address = f"{'../' * depth}assets/legend/{key}.svg"
                assert icon == f'<img src="{address}" alt="" width="24" height="24">', page
            if page.parent.name in ("priority", "exercises"):
                assert len(entries) > 20, page
            for legend in re.findall(r'<ul class="dama-legend">(.*?)</ul>', text, re.DOTALL):
                assert "<svg" not in legend, page
