"""Pages never carry markup from a catalog, and every broken input is one clear line.

Catalog text may hold Markdown but no HTML, no attribute lists and no script
links; catalogs and nav.yml refuse YAML aliases and bytes that are not UTF-8; a
template that fails at run time names its file and line; nav.yml names stay in
docs/pages.  Real files in a copy of the project; the slow tests build with MkDocs.
"""

from __future__ import annotations

import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dama_diagrams.errors import DamaError
from dama_diagrams.site import build_site
from dama_diagrams.site._markdown import inline_html, safe_markdown
from dama_diagrams.site.nav import PageError, load_nav
from dama_diagrams.site.pages import PageRenderer
from dama_diagrams.site.translations import CatalogError, catalog_status, load_catalog
from tests.conftest import copy_project

# --- catalog text is Markdown, never markup ----------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('<img src="x" onerror="alert(4)">', '&lt;img src="x" onerror="alert(4)"&gt;'),
        ("a & b &amp; c &#233;", "a &amp; b &amp; c &#233;"),
        ("*x*{ onclick=alert(1) }", "*x*&#123; onclick=alert(1) &#125;"),
        ("{{ x }}", "&#123;&#123; x &#125;&#125;"),
        ("a file `diagrams/<id>.yaml`", "a file <code>diagrams/&#60;id&#62;.yaml</code>"),
        ("`*not* [a](b)`", "<code>&#42;not&#42; &#91;a&#93;&#40;b&#41;</code>"),
        ("> a quote <b>", "> a quote &lt;b&gt;"),
        ("[ok](https://x.org/a?b=c:d) [mail](mailto:a@b.c) [page](man.md#top)", None),
    ],
)
def test_safe_markdown_escapes_markup_and_keeps_markdown(text: str, expected: str | None) -> None:
    assert safe_markdown(text) == (text if expected is None else expected)


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
    ],
)
def test_links_to_scripts_stay_text(text: str) -> None:
    converted = inline_html(text) if "\n" not in text else safe_markdown(text)
    assert "](" not in converted.replace("&#93;(", "") and "]:" not in converted
    assert "<a " not in inline_html(text)


def test_placeholders_are_filled_after_escaping() -> None:
    filled = safe_markdown(
        "see [the FID]({url}) and {page} <b>", {"url": "https://fid.it/", "page": "[P](p.md)"}
    )
    assert filled == "see [the FID](https://fid.it/) and [P](p.md) &lt;b&gt;"


# --- templates rendered for real, without MkDocs ---------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _renderer(project: Path) -> PageRenderer:
    catalog = load_catalog(project, "en")
    catalog.entries.update({"x.title": "X", "x.description": "A test page."})
    return PageRenderer(project, catalog, {}, {})


def _page(project: Path, source: str, name: str = "x") -> Path:
    path = project / "docs" / "pages" / f"{name}.md.j2"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return path


def test_catalog_text_with_html_braces_and_links_renders_as_text(project: Path) -> None:
    catalog = project / "docs" / "locales" / "en.yml"
    text = catalog.read_text(encoding="utf-8")
    text = text.replace(
        "  intro: |\n    Every piece",
        '  intro: |\n    <img src="x" onerror="alert(4)"> [click](javascript:alert(5)) {{ x }}'
        "\n    Every piece",
        1,
    )
    text = text.replace("  title: The man\n", "  title: 'Man\"><img src=x onerror=alert(2)>'\n", 1)
    catalog.write_text(text, encoding="utf-8")
    _page(project, '# {{ t("man.title") }}\n\n{{ t("man.intro") }}\n\n{{ link("man") }}\n')
    page = _renderer(project).render("x")
    assert "<img" not in page.markdown and "](javascript" not in page.markdown
    assert "&lt;img src=x onerror=alert(2)&gt;" in page.markdown
    assert "&#123;&#123; x &#125;&#125;" in page.markdown  # shown as braces, not a template error


@pytest.mark.parametrize(
    "value", ['d"><script>alert(3)</script>', "two\nlines: x", "a\x7fb \u2028c"]
)
def test_front_matter_stays_yaml_whatever_the_description(project: Path, value: str) -> None:
    import yaml

    renderer = _renderer(project)
    renderer.catalog.entries["x.description"] = value
    _page(project, "# {{ t('x.title') }}\n")
    front = renderer.render("x").markdown.split("---\n")[1]
    meta = yaml.safe_load(front)
    assert meta["og_image"] == "assets/social/x.png"
    assert meta["description"] == " ".join(value.replace("\x7f", "").split())


@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        ("# t\n\n{{ 1/0 }}\n", 3, "ZeroDivisionError: division by zero"),
        ("{{ figure() }}\n", 1, "TypeError: "),
        ('a\n{{ t("man.intro", 1) }}\n', 2, "TypeError: "),
        ('a\nb\n{% include "x.md.j2" %}\n', 3, "include or call each other without end"),
        ('{{ t("man.intro", move=1) }}\n', 1, "placeholder {move} is missing"),
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


# --- YAML and bytes ------------------------------------------------------------------

ALIAS_BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


def test_alias_bomb_in_a_catalog_is_refused_at_once(project: Path) -> None:
    catalog = project / "docs" / "locales" / "it.yml"
    catalog.write_text('a: &a ["lol", "lol"]\n' + ALIAS_BOMB + catalog.read_text(encoding="utf-8"))
    started = time.perf_counter()
    with pytest.raises(CatalogError) as error:
        load_catalog(project, "it")
    assert time.perf_counter() - started < 5
    assert str(error.value).startswith("docs/locales/it.yml:1: it: YAML anchors and aliases")
    with pytest.raises(CatalogError, match=r"it\.yml:1:"):
        catalog_status(project)


def test_alias_in_nav_is_refused(project: Path) -> None:
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text("- index\n- about: &s\n    - about\n- other: *s\n")
    with pytest.raises(PageError, match=r"^docs/pages/nav\.yml:2: YAML anchors and aliases"):
        load_nav(project)


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        (
            "docs/locales/en.yml",
            "docs/locales/en.yml:3: en: the file is not UTF-8 text (byte 0xff)",
        ),
        ("docs/pages/nav.yml", "docs/pages/nav.yml:3: the file is not UTF-8 text (byte 0xff)"),
        ("docs/pages/man.md.j2", "docs/pages/man.md.j2:3: the file is not UTF-8 text (byte 0xff)"),
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
            load_catalog(project, "en")
    assert str(error.value).startswith(expected)


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
    "  description: How a man moves and captures in Italian draughts, "
    "and why it never captures backwards or takes a king.\n"
)
PAYLOADS = {
    "  title: The man\n": "  title: 'Rules</title><script>alert(1)</script> & Co'\n",
    "  about: About\n": "  about: 'Man\"><img src=x onerror=alert(2)>'\n",
    "  and: and\n": "  and: 'and <img src=x onerror=alert(8)> {{'\n",
    MAN_DESCRIPTION: "  description: 'd\"><script>alert(3)</script> & more'\n",
    "  intro: |\n    Every piece": '  intro: |\n    <img src="x" onerror="alert(4)"> '
    "[click](javascript:alert(5)) *em*{ onclick=alert(6) } {{ shown }} `<id>`\n    Every piece",
    '    caption: "The man on {start}': '    caption: "[c](javascript:alert(7)) <b>b</b> '
    "The man on {start}",
}


@pytest.mark.slow
def test_built_site_has_no_live_markup_from_the_catalog(project: Path) -> None:
    catalog = project / "docs" / "locales" / "en.yml"
    text = catalog.read_text(encoding="utf-8")
    for old, new in PAYLOADS.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    catalog.write_text(text, encoding="utf-8")
    build_site(project, languages=["en"])
    pages = sorted((project / "site" / "en").rglob("*.html"))
    assert len(pages) > 5
    for path in pages:
        html = path.read_text(encoding="utf-8")
        parsed = _Html()
        parsed.feed(html)
        assert parsed.live == [], path
        assert "&amp;amp;" not in html and "&amp;lt;" not in html, path  # escaped once
        assert "&amp;#" not in html, path
        assert 'Man"><img src=x onerror=alert(2)>' in parsed.text, path  # the section title

    man = _Html()
    man.feed((project / "site" / "en" / "man" / "index.html").read_text(encoding="utf-8"))
    assert man.title.strip().startswith("Rules</title><script>alert(1)</script> & Co - ")
    assert man.meta["og:title"] == "Rules</title><script>alert(1)</script> & Co"
    assert (
        man.meta["description"]
        == man.meta["og:description"]
        == 'd"><script>alert(3)</script> & more'
    )
    assert '<img src="x" onerror="alert(4)"> [click](javascript:alert(5))' in man.text
    assert "{{ shown }}" in man.text and "<id>" in man.text
    assert "[c](javascript:alert(7)) <b>b</b> The man on" in man.text
    board = (project / "site" / "en" / "board" / "index.html").read_text(encoding="utf-8")
    assert (
        'aria-label="Next: Rules&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"'
        in board
    )
