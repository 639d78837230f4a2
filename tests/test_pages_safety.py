"""Pages never carry markup from a catalog, and every broken input is one clear line.

Translated text (a PO ``msgstr``) and the English of the templates and diagrams
may hold Markdown but no HTML, no attribute lists and no script links; a broken
PO file, and bytes that are not UTF-8, are refused at their line; nav.yml refuses
YAML aliases; a template that fails at run time names its file and line; nav.yml
names stay in docs/pages.  Real files in a copy of the project; the slow tests
build with MkDocs.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dama_diagrams.errors import DamaError
from dama_diagrams.site import build_site
from dama_diagrams.site.i18n import (
    CatalogError,
    catalog_status,
    load_catalog,
    translation_problems,
)
from dama_diagrams.site.i18n.safe_text import catalog_html
from dama_diagrams.site.messages import MESSAGES
from dama_diagrams.site.pages.nav import PageError, load_nav
from dama_diagrams.site.pages.renderer import PageRenderer, page_url
from tests.conftest import copy_project
from tests.po_files import MessageId, english_starting, translate, translation

# --- catalog text is Markdown, never markup ----------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('<img src="x" onerror="alert(4)"> ok', "ok"),
        ("<script>alert(1)</script>after <style>p{}</style>", "after"),
        ("a & b &amp; c &#233;", "a &amp; b &amp; c \u00e9"),
        ("*x*{ onclick=alert(1) }", "<em>x</em>&#123; onclick=alert(1) &#125;"),
        ("{{ x }} {% if %}", "&#123;&#123; x &#125;&#125; &#123;% if %&#125;"),
        ("a file `diagrams/<id>.yaml`", "a file <code>diagrams/&lt;id&gt;.yaml</code>"),
        ("`*not* [a](b)`", "<code>&#42;not&#42; &#91;a&#93;(b)</code>"),
        ("> a quote <b>bold</b>", "&gt; a quote bold"),
        ("1. Rule *one*", "1&#46; Rule <em>one</em>"),
        ("# not a heading #", "&#35; not a heading &#35;"),
        ("- not a list", "&#45; not a list"),
        (
            '<a href="https://x.org/" onclick="alert(1)" style="x">ok</a>',
            '<a href="https://x.org/">ok</a>',
        ),
        (
            "[ok](https://x.org/a?b=c:d) [mail](mailto:a@b.c) [page](../man/#top)",
            '<a href="https://x.org/a?b=c:d">ok</a> <a href="mailto:a@b.c">mail</a> '
            '<a href="../man/#top">page</a>',
        ),
    ],
)
def test_inline_catalog_html_keeps_markdown_and_drops_markup(text: str, expected: str) -> None:
    assert catalog_html(text, inline=True) == expected


def test_block_catalog_html_keeps_paragraphs_and_lists() -> None:
    text = "1. **Most** pieces.\n2. A king <script>x</script>\n\nThen <u>choose</u>."
    assert catalog_html(text, inline=False) == (
        "<ol>\n<li><strong>Most</strong> pieces.</li>\n<li>A king </li>\n</ol>\n<p>Then choose.</p>"
    )


@pytest.mark.parametrize("inline", [True, False])
@pytest.mark.parametrize(
    "text",
    [
        "[click](javascript:alert(5))",
        "[click]( JavaScript:alert(5) )",
        "[click](<javascript:alert(5)>)",
        "[click](java\tscript:alert(5))",
        "[click](&#106;avascript:alert(5))",
        "[click](javascript&#58;alert(5))",
        "![pic](data:text/html,<script>alert(5)</script>)",
        "[click][r]\n\n[r]: javascript:alert(5)",
        "[click][r]\n\n[r]:\n  vbscript:alert(5)",
        '<a href="javascript:alert(5)">click</a>',
    ],
)
def test_links_to_scripts_lose_their_target(text: str, inline: bool) -> None:
    converted = catalog_html(text, inline=inline)
    assert "href" not in converted and "<img" not in converted and "<script" not in converted


@pytest.mark.parametrize(
    "text",
    ["*x*{ .big onclick=alert(1) }", r"\*not emphasis\* a\_b [x]\(y) | \`c\`", "<b>&lt;i&gt;</b>"],
)
def test_clean_text_reads_the_same_in_a_heading_of_the_page(text: str) -> None:
    """The page's own Markdown (attribute lists, tables, headings) reads the text as text."""
    import markdown

    page = markdown.markdown(
        f"# {catalog_html(text, inline=True)}", extensions=["attr_list", "tables", "toc"]
    )
    alone = markdown.markdown(text)
    shown = _Html()
    shown.feed(page)
    expected = _Html()
    expected.feed(alone)
    assert shown.text == expected.text
    assert re.match(r'<h1 id="[^"]*">', page)  # no attribute list: the id alone


@pytest.mark.parametrize(
    ("target", "current", "directory_urls", "expected"),
    [
        ("king", "index", True, "king/"),
        ("index", "index", True, "./"),
        ("king", "man", True, "../king/"),
        ("index", "man", True, "../"),
        ("king", "man", False, "king.html"),
        ("index", "man", False, "index.html"),
        ("king", "guide/first-steps", True, "../../king/"),
        ("guide/first-steps", "index", True, "guide/first-steps/"),
        ("guide/index", "guide/first-steps", True, "../"),
        ("king", "guide/first-steps", False, "../king.html"),
    ],
)
def test_links_between_pages_use_the_final_addresses(
    target: str, current: str, directory_urls: bool, expected: str
) -> None:
    assert page_url(target, current, directory_urls=directory_urls) == expected


# --- templates rendered for real, without MkDocs ---------------------------------------

META = {"title": "X", "description": "A test page."}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _renderer(project: Path, language: str = "en") -> PageRenderer:
    return PageRenderer(project, load_catalog(project, language), {}, {})


def _page(project: Path, source: str, name: str = "x") -> Path:
    """A page template; the title and description it does not set are set at its end.

    At the end, so that the lines of ``source`` keep their numbers.
    """
    path = project / "docs" / "pages" / f"{name}.md.j2"
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = "".join(
        f'{{% set {key} = _("{value}") %}}'
        for key, value in META.items()
        if f"set {key} =" not in source
    )
    path.write_text(source + meta, encoding="utf-8")
    return path


HOSTILE_TITLE = 'Man"><img src=x onerror=alert(2)>'


def test_translated_text_loses_markup_and_shows_braces(project: Path) -> None:
    translate(
        project,
        "nl",
        {
            "The man": HOSTILE_TITLE,
            "A paragraph.": '<img src="x" onerror="alert(4)"> [click](javascript:alert(5)) {{ x }}',
            "A line.": "*x*{ onclick=alert(1) } {% if x %}",
        },
    )
    _page(
        project,
        '# {{ _("The man") }}\n\n{% trans %}A paragraph.{% endtrans %}\n\n'
        '{{ _("A line.") }}\n\n{{ link("man") }}\n',
    )
    page = _renderer(project, "nl").render("x")
    assert "alert(1)" in page.markdown  # translated: the text is there, as text
    for markup in ("<img", "onerror", "javascript", "alert(2)", "alert(4)", "alert(5)"):
        assert markup not in page.markdown
    assert '\n# Man"&gt;\n' in page.markdown  # the heading
    assert '<a href="../man/">Man"&gt;</a>' in page.markdown  # the link to the page
    assert "<a>click</a> &#123;&#123; x &#125;&#125;" in page.markdown  # braces, not a template
    assert "<em>x</em>&#123; onclick=alert(1) &#125; &#123;% if x %&#125;" in page.markdown


def test_placeholders_are_filled_then_cleaned_with_the_rest(project: Path) -> None:
    _page(
        project,
        '{{ _("See [the FID]({url}) and {page} <b>b</b>.", url="https://fid.it/", '
        'page=link("man")) }}\n',
    )
    page = _renderer(project).render("x")
    assert (
        '\nSee <a href="https://fid.it/">the FID</a> and <a href="../man/">The man</a> b.\n'
        in page.markdown
    )


def test_english_text_loses_markup_too(project: Path) -> None:
    _page(
        project,
        '# {{ _("<b>Bold</b> & co") }}\n\n'
        '{% trans %}<img src="x" onerror="alert(4)"> [click](javascript:alert(5)){% endtrans %}\n',
    )
    page = _renderer(project).render("x")
    assert "<img" not in page.markdown and "javascript" not in page.markdown
    assert "\n# Bold &amp; co\n\n<a>click</a>\n" in page.markdown


@pytest.mark.parametrize(
    "value", ['d"><script>alert(3)</script>', "two\nlines: x", "a\x7fb \u2028c\x85d"]
)
def test_front_matter_stays_yaml_whatever_the_description(project: Path, value: str) -> None:
    import yaml

    translate(project, "nl", {META["description"]: value})
    _page(project, "# {{ _('X') }}\n")
    front = _renderer(project, "nl").render("x").markdown.split("---\n")[1]
    meta = yaml.safe_load(front)
    assert meta["og_image"] == "assets/social/x.png"
    assert meta["description"] == " ".join(value.replace("\x7f", "").split())


def test_untranslated_notice_follows_the_title_and_counts(project: Path) -> None:
    translate(project, "nl", {"X": "Iks"})
    _page(project, '# {{ _("X") }}\n\n{{ _("Not translated.") }} {{ _("Nor this.") }}\n')
    markdown = _renderer(project, "nl").render("x").markdown
    body = markdown.split("---\n", 2)[2].lstrip("\n")
    heading, notice = body.split("\n", 1)
    assert heading == "# Iks"
    assert notice.lstrip("\n").startswith('!!! note ""')
    # The two passages; the page's own description (front matter) is not on the page.
    assert ": 2." in notice.split("\n\n")[1]


@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        ("# t\n\n{{ 1/0 }}\n", 3, "ZeroDivisionError: division by zero"),
        ("{{ figure() }}\n", 1, "TypeError: "),
        ('a\n{{ _("Moving", 1) }}\n', 2, "TypeError: "),
        ('a\nb\n{% include "x.md.j2" %}\n', 3, "include or call each other without end"),
        ('{{ _("Moving", move=1) }}\n', 1, "placeholder {move} is missing"),
        ('\n\n{{ link("nothing") }}\n', 3, "nothing"),
        ("{{ t('man.intro') }}\n", 1, "'t' is undefined"),
    ],
)
def test_template_runtime_errors_name_the_template_and_line(
    project: Path, source: str, line: int, message: str
) -> None:
    _page(project, source)
    with pytest.raises(PageError) as error:
        _renderer(project).render("x")
    assert str(error.value).startswith(f"docs/pages/x.md.j2:{line}: ")
    assert message in str(error.value)


def test_a_link_to_a_section_leads_to_the_id_its_heading_gives_itself(project: Path) -> None:
    _page(project, '# Y\n\n## {{ _("Moving") }} { #steps }\n', name="y")
    _page(project, 'a\n{{ link("y", "steps") }}\n')
    english = _renderer(project).render("x").markdown
    assert '<a href="../y/#steps">Moving</a>' in english  # the heading's words, not the title's
    translate(project, "nl", {"Moving": "Verplaatsen"})
    assert '<a href="../y/#steps">Verplaatsen</a>' in _renderer(project, "nl").render("x").markdown
    for call, message in (
        ('link("y", "moving")', "no heading of y has the id 'moving'"),
        ('link("y", "Two Words")', "a section is a heading's id"),
    ):
        _page(project, f"a\n{{{{ {call} }}}}\n")
        with pytest.raises(PageError) as error:
            _renderer(project).render("x")
        assert str(error.value).startswith("docs/pages/x.md.j2:2: ")
        assert message in str(error.value)


def test_a_translation_with_other_placeholders_names_the_language(project: Path) -> None:
    translate(project, "nl", {"Hello {name}.": "Hallo {naam}."})
    _page(project, '\n{{ _("Hello {name}.", name="Ada") }}\n')
    with pytest.raises(PageError) as error:
        _renderer(project, "nl").render("x")
    assert str(error.value).startswith("docs/pages/x.md.j2:2: nl: unknown placeholder {naam}")
    assert "'Hello {name}.'" in str(error.value)


def test_a_page_without_a_summary_is_named(project: Path) -> None:
    _page(project, "# Y\n", name="y")
    _page(project, '{{ summary("y") }}\n')
    with pytest.raises(PageError) as error:
        _renderer(project).render("x")
    assert str(error.value).startswith("docs/pages/y.md.j2: the page sets no summary")


def test_missing_include_names_the_include_not_the_page(project: Path) -> None:
    _page(project, 'a\n{% include "partials/note.md.j2" %}\n')
    with pytest.raises(PageError) as error:
        _renderer(project).render("x")
    assert str(error.value).startswith("docs/pages/x.md.j2:2: ")
    assert "'partials/note.md.j2' not found" in str(error.value)
    assert "has no template" not in str(error.value)


def test_error_in_an_included_template_names_that_template(project: Path) -> None:
    _page(project, "ok\n{{ 1/0 }}\n", name="partials/bad")
    _page(project, 'a\n{% include "partials/bad.md.j2" %}\n')
    with pytest.raises(PageError, match=r"^docs/pages/partials/bad\.md\.j2:2: ZeroDivision"):
        _renderer(project).render("x")


def test_page_without_template_still_says_so(project: Path) -> None:
    with pytest.raises(PageError, match=r"page 'nothing' is in nav\.yml but has no template"):
        _renderer(project).render("nothing")


# --- PO files, YAML and bytes ------------------------------------------------------------

IT_CATALOG = "docs/locales/it/LC_MESSAGES/messages.po"


def _edit_line(path: Path, find: str, edit: Callable[[str], str | None]) -> int:
    """Change (or, for None, remove) the first line that is ``find``; returns its number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    number = lines.index(find)
    new = edit(lines[number])
    if new is None:
        del lines[number]
    else:
        lines[number] = new
    path.write_text("\n".join(lines), encoding="utf-8")
    return number + 1


@pytest.mark.parametrize(
    ("find", "edit", "at", "message"),
    [
        ('msgstr "e"', lambda line: 'msgstr "e', 0, "no closing quote"),
        ('msgstr "e"', lambda line: 'msgstr "e" "', 0, "text after the closing quote"),
        ('msgstr "e"', lambda line: 'msgstr "e\\ud800"', 0, "unknown escape \\u"),
        ('msgstr "e"', lambda line: "msgstr !!int 0x_", 0, "expected a string in double quotes"),
        ('msgstr "e"', lambda line: 'msgstr "e"\nmsgstr "f"', 1, "a second msgstr"),
        ('msgid "and"', lambda line: None, 0, "msgstr without a msgid"),
        ('msgid "and"', lambda line: 'msgid "and"\n# a comment', -1, "msgid without msgstr"),
        ('msgctxt "ui.and"', lambda line: "&a [lol, *a]", 0, "unexpected text"),
    ],
)
def test_broken_po_file_is_refused_at_its_line(
    project: Path, find: str, edit: Callable[[str], str | None], at: int, message: str
) -> None:
    catalog = project / IT_CATALOG
    line = _edit_line(catalog, find, edit) + at
    started = time.perf_counter()
    with pytest.raises(CatalogError) as error:
        load_catalog(project, "it")
    assert time.perf_counter() - started < 5
    assert str(error.value).startswith(f"{IT_CATALOG}:{line}: it: not a valid PO file: ")
    assert message in str(error.value)
    # status runs the same check, and lists the language as unreadable rather than stopping
    errors, _ = translation_problems(project, ["it"])
    assert [str(problem) for problem in errors] == [str(error.value)]
    assert "it" not in [status.language for status in catalog_status(project)]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("charset=utf-8", "charset=bogus", "charset"),
        ("Language: it", "Language: xx-!!", "xx"),
    ],
)
def test_a_wrong_header_field_is_refused_at_its_line(
    project: Path, field: str, value: str, message: str
) -> None:
    catalog = project / IT_CATALOG
    text = catalog.read_text(encoding="utf-8")
    line = text[: text.index(field)].count("\n") + 1
    catalog.write_text(text.replace(field, value, 1), encoding="utf-8")
    with pytest.raises(CatalogError) as error:
        load_catalog(project, "it")
    assert str(error.value).startswith(f"{IT_CATALOG}:{line}: it: ")
    assert message in str(error.value)


def test_a_header_charset_other_than_utf8_never_garbles_the_text(project: Path) -> None:
    """The file must be UTF-8: read as such, or refused at the charset, never as Latin-1."""
    catalog = project / IT_CATALOG
    text = catalog.read_text(encoding="utf-8")
    line = text[: text.index("charset=utf-8")].count("\n") + 1
    catalog.write_text(text.replace("charset=utf-8", "charset=latin-1", 1), encoding="utf-8")
    english = MESSAGES["alt.start"]
    try:
        shown = load_catalog(project, "it").message(english, "alt.start", square="22")
    except CatalogError as error:
        assert str(error).startswith(f"{IT_CATALOG}:{line}: it: ")
        assert "charset" in str(error)
    else:
        assert shown == "La casella di partenza, 22, è colorata."


def test_alias_in_nav_is_refused(project: Path) -> None:
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text("- index\n- about: &s\n    - about\n- other: *s\n")
    with pytest.raises(PageError, match=r"^docs/pages/nav\.yml:2: YAML anchors and aliases"):
        load_nav(project)


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        (IT_CATALOG, f"{IT_CATALOG}:3: it: not a valid PO file: not UTF-8 text"),
        ("docs/pages/nav.yml", "docs/pages/nav.yml:3: the file is not UTF-8 text (byte 0xff)"),
        ("docs/pages/man.md.j2", "docs/pages/man.md.j2:3: "),
    ],
)
def test_bytes_that_are_not_utf8_name_the_file(project: Path, relative: str, expected: str) -> None:
    path = project / relative
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2] + b" \xff"
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(DamaError) as error:
        if relative.endswith(".md.j2"):
            _renderer(project).render("man")
        elif relative.endswith("nav.yml"):
            load_nav(project)
        else:
            load_catalog(project, "it")
    assert str(error.value).startswith(expected)
    assert "not UTF-8" in str(error.value)


# --- nav.yml page names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ("- /tmp/escape-target/pwn", 2),
        ("- ../../escape", 2),
        ("- about:\n    - about\n    - ../x", 4),
        ("- Man", 2),
        ("- a//b", 2),
        ("- index.md", 2),
    ],
)
def test_nav_page_names_cannot_leave_the_pages_folder(project: Path, entry: str, line: int) -> None:
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text(f"- index\n{entry}\n")
    with pytest.raises(PageError) as error:
        load_nav(project)
    assert str(error.value).startswith(f"docs/pages/nav.yml:{line}: ")
    assert "is not a page name" in str(error.value)


def test_nav_accepts_pages_in_folders(project: Path) -> None:
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text("- index\n- guide:\n    - guide/first-steps\n    - guide/2\n")
    assert load_nav(project) == ("index", ("guide", ("guide/first-steps", "guide/2")))


@pytest.mark.slow
def test_build_never_writes_outside_the_site(project: Path, tmp_path: Path) -> None:
    target = tmp_path / "escape-target"
    target.mkdir()
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text(nav.read_text(encoding="utf-8") + f"- {target}/pwn\n")
    with pytest.raises(DamaError, match=r"^docs/pages/nav\.yml:\d+: .* is not a page name"):
        build_site(project, languages=["en"])
    assert list(target.iterdir()) == []


# --- the built site -----------------------------------------------------------------------------


class _Html(HTMLParser):
    """What could run: script texts, on* attributes, script links; and the visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.live: list[str] = []
        self.title = ""
        self.text = ""
        self.meta: dict[str, str] = {}
        self._tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag = tag
        for key, value in attrs:
            value = value or ""
            if key.startswith("on"):
                self.live.append(f"<{tag} {key}={value}>")
            if key in ("href", "src") and "".join(value.split()).lower().startswith(
                ("javascript:", "vbscript:", "data:")
            ):
                self.live.append(f"<{tag} {key}={value}>")
        values = {key: value or "" for key, value in attrs}
        if tag == "meta":
            self.meta[values.get("name") or values.get("property") or ""] = values.get(
                "content", ""
            )

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._tag == "script" and "alert" in data:
            self.live.append(f"<script>{data}")
        elif self._tag == "title":
            self.title += data

    def handle_endtag(self, tag: str) -> None:
        self._tag = ""


MAN_DESCRIPTION = (
    "How a man moves and captures in Italian draughts, "
    "and why it never captures backwards or takes a king."
)
MAN_CAPTION = (
    "The man on {start} may step to either dark square diagonally in front of it: {moves}."
)
PAYLOADS: dict[MessageId, str] = {
    "The man": "Rules</title><script>alert(1)</script> & Co",
    ("nav.about", "About"): 'Man"><img src=x onerror=alert(2)>',
    ("ui.and", "and"): "en <img src=x onerror=alert(8)> {{",
    MAN_DESCRIPTION: 'd"><script>alert(3)</script> & more',
}
INTRO = (
    '<img src="x" onerror="alert(4)"> <a href="javascript:alert(5)">click</a> '
    "*em*{ onclick=alert(6) } "
    "{{ shown }} `<id>` "
)
CAPTION = '<a href="javascript:alert(7)">c</a> <b>b</b> '
"""Raw HTML links: a Markdown link that the English lacks is refused outright (see below)."""
ENGLISH_CAPTION = "[e](javascript:alert(9)) <i>i</i> {{ e }} "
ENGLISH_LINE = "<img src=y onerror=alert(10)> *em*{ onclick=alert(11) } {% x %}"


def _hostile_translations(project: Path) -> None:
    """Hostile Dutch translations (PO msgstr): markup, links and scripts the English lacks."""
    intro = english_starting(project, "nl", "Every piece starts the game as a man.")
    translate(
        project,
        "nl",
        {
            **PAYLOADS,
            intro: INTRO + translation(project, "nl", intro),
            MAN_CAPTION: CAPTION + translation(project, "nl", MAN_CAPTION),
        },
    )


def _hostile_english(project: Path) -> None:
    """Hostile English in a diagram's caption and a page template: the authors' own text."""
    diagram = project / "diagrams" / "man-capture.yaml"
    text = diagram.read_text(encoding="utf-8")
    assert 'caption: "The white man' in text
    diagram.write_text(text.replace('caption: "', f'caption: "{ENGLISH_CAPTION}', 1))
    page = project / "docs" / "pages" / "man.md.j2"
    page.write_text(page.read_text(encoding="utf-8") + f'\n{{{{ _("{ENGLISH_LINE}") }}}}\n')


@pytest.mark.slow
def test_a_translation_that_adds_markup_is_refused_at_its_line(project: Path) -> None:
    """The first door: six hostile msgstrs, each named at its line; no site is written."""
    _hostile_translations(project)
    with pytest.raises(DamaError) as error:
        build_site(project, languages=["en", "nl"], drafts=True)
    lines = str(error.value).splitlines()
    named = [line for line in lines if "nl/LC_MESSAGES/messages.po:" in line]
    assert len(named) == len(PAYLOADS) + 2, lines  # the payloads, the intro and the caption
    assert all("which the English lacks" in line for line in named)
    assert not (project / "site").exists()


@pytest.mark.slow
def test_built_site_has_no_live_markup_from_the_catalog(project: Path) -> None:
    """The second door: English text with markup is escaped or cleaned, never live."""
    _hostile_english(project)
    build_site(project, languages=["en", "nl"], drafts=True)
    for language in ("en", "nl"):
        pages = sorted((project / "site" / language).rglob("*.html"))
        assert len(pages) > 5
        for path in pages:
            html = path.read_text(encoding="utf-8")
            parsed = _Html()
            parsed.feed(html)
            assert parsed.live == [], path
            assert "&amp;amp;" not in html and "&amp;lt;" not in html, path  # escaped once
            assert "&amp;#" not in html, path

        man = _Html()
        man.feed((project / "site" / language / "man" / "index.html").read_text(encoding="utf-8"))
        # Untranslated in Dutch, so shown in English there too: without the image.
        assert "em{ onclick=alert(11) } {% x %}" in man.text and "alert(10)" not in man.text
        # its English changed: Dutch shows the English too, never the outdated translation
        assert "e i {{ e }} The white man" in man.text
        if language == "nl":
            assert "alert(9)" not in man.text and "De witte schijf springt" not in man.text
