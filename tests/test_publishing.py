"""The site where its owners publish it: under a sub-path with site_url, or at a domain root.

Real builds, served by the real preview server (``dama-diagrams preview``) on
127.0.0.1, crawled page by page: every link, stylesheet, script, image, search
worker and search index of every page of every language, its 404 pages
included, must answer 200.  Also partial builds, and tables at phone width.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

from dama_diagrams.site import build_site
from dama_diagrams.site.i18n import available_languages
from dama_diagrams.site.pages.nav import load_nav, page_names
from dama_diagrams.site.servers.preview import running
from tests.conftest import ROOT, PageOpener, copy_project, made_once, run_cli

LANGUAGES = available_languages(ROOT)
PUBLISHED = "https://example.org/regole/"
PAGES = len(page_names(load_nav(ROOT)))  # the pages of docs/pages/nav.yml

pytestmark = pytest.mark.slow


class _Refs(HTMLParser):
    """Every address a page makes the browser load or lets the reader follow."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.alternates: dict[str, str] = {}
        self.canonical: str | None = None
        self.og_image: str | None = None
        self._script = False
        self.config: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        for key in ("href", "src"):
            if values.get(key):
                self.refs.append(values[key])
        if tag == "link" and values.get("rel") == "alternate" and "hreflang" in values:
            self.alternates[values["hreflang"]] = values["href"]
        if tag == "link" and values.get("rel") == "canonical":
            self.canonical = values["href"]
        if tag == "meta" and values.get("property") == "og:image":
            self.og_image = values["content"]
        self._script = tag == "script" and values.get("id") == "__config"

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.config = json.loads(data)

    def handle_endtag(self, tag: str) -> None:
        self._script = False


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _local(url: str, server: str) -> str | None:
    """An address of the published site, on the preview server; None for other hosts."""
    if url.startswith(PUBLISHED):
        return server + urlsplit(PUBLISHED).path + url[len(PUBLISHED) :]
    if url.startswith(server):
        return url
    return None


def _crawl(server: str, base: str, starts: list[str]) -> tuple[list[str], dict[str, _Refs]]:
    """Every page reachable from ``starts``; returns the broken addresses and the pages."""
    broken: list[str] = []
    pages: dict[str, _Refs] = {}
    queue, seen = list(starts), set(starts)
    while queue:
        url = queue.pop()
        status, body = _get(url)
        missing_on_purpose = url.endswith("/missing-page/")
        if status != (404 if missing_on_purpose else 200):
            broken.append(f"{url}: {status}")
            continue
        if not (url.endswith("/") or url.endswith(".html")):
            continue
        refs = _Refs()
        refs.feed(body.decode("utf-8"))
        pages[url] = refs
        found = [urljoin(url, ref) for ref in refs.refs]
        if refs.config is not None:  # Material's search: its worker, and the index it loads
            found.append(urljoin(url, refs.config["search"]))
            index = urljoin(url, refs.config["base"] + "/")
            found.append(urljoin(index, "search/search_index.json"))
        for address in found:
            local = _local(address.split("#")[0], server)
            if local and local not in seen and urlsplit(local).path.startswith(base):
                seen.add(local)
                queue.append(local)
            elif local and not urlsplit(local).path.startswith(base):
                broken.append(f"{url}: {address} is outside {base}")
    return broken, pages


def _starts(server: str, base: str) -> list[str]:
    root = f"{server}{base}"
    starts = [root, f"{root}404.html", f"{root}missing-page/"]
    for code in LANGUAGES:
        starts += [f"{root}{code}/", f"{root}{code}/404.html", f"{root}{code}/missing-page/"]
    return starts


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built for https://example.org/regole/."""

    def make(folder: Path) -> None:
        project = copy_project(folder)
        config = project / "mkdocs.yml"
        config.write_text(f"site_url: {PUBLISHED}\n" + config.read_text(encoding="utf-8"))
        build_site(project)

    return made_once(tmp_path_factory, "published", make) / "project" / "site"


@pytest.fixture(scope="module")
def at_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project as it is, without site_url."""
    return (
        made_once(tmp_path_factory, "at-root", lambda folder: build_site(copy_project(folder)))
        / "project"
        / "site"
    )


@pytest.fixture(scope="module")
def served_published(published: Path) -> Iterator[str]:
    with running(published, "/regole/", ("127.0.0.1", 0)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"


def test_under_a_sub_path_every_page_asset_and_search_worker_loads(
    served_published: str,
) -> None:
    broken, pages = _crawl(served_published, "/regole/", _starts(served_published, "/regole/"))
    assert broken == []
    # Every page of every language, their 404 pages and the root ones were reached.
    for code in LANGUAGES:
        reached = [url for url in pages if f"/regole/{code}/" in url]
        assert len(reached) >= PAGES + 2, code  # the pages, 404.html and a missing address


def test_a_missing_page_gets_its_language_404_page(served_published: str) -> None:
    status, body = _get(f"{served_published}/regole/it/missing-page/")
    assert status == 404
    assert "404 \u2013 Pagina non trovata" in body.decode("utf-8")
    status, body = _get(f"{served_published}/regole/nothing/here")
    assert status == 404
    text = body.decode("utf-8")
    assert "Page not found" in text and 'href="/regole/it/"' in text


def test_with_site_url_sitemaps_canonical_links_and_alternates_are_absolute(
    published: Path, served_published: str
) -> None:
    for code in LANGUAGES:
        sitemap = (published / code / "sitemap.xml").read_text(encoding="utf-8")
        locations = re.findall(r"<loc>([^<]*)</loc>", sitemap)
        assert len(locations) == PAGES and all(
            loc.startswith(f"{PUBLISHED}{code}/") for loc in locations
        )
    _, pages = _crawl(served_published, "/regole/", [f"{served_published}/regole/nl/king/"])
    king = pages[f"{served_published}/regole/nl/king/"]
    assert king.canonical == f"{PUBLISHED}nl/king/"
    assert king.og_image == f"{PUBLISHED}nl/assets/social/king.png"
    assert king.alternates == {
        **{code: f"{PUBLISHED}{code}/king/" for code in LANGUAGES},
        "x-default": PUBLISHED,
    }


@pytest.fixture(scope="module")
def served_at_root(at_root: Path) -> Iterator[str]:
    with running(at_root, "/", ("127.0.0.1", 0)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"


def test_without_site_url_the_site_and_its_404_pages_work_at_the_domain_root(
    served_at_root: str, at_root: Path
) -> None:
    broken, pages = _crawl(served_at_root, "/", _starts(served_at_root, "/"))
    assert broken == []
    assert len(pages) >= len(LANGUAGES) * (PAGES + 2)
    assert "<loc>" not in (at_root / "en" / "sitemap.xml").read_text(encoding="utf-8")


def test_without_site_url_the_build_says_what_the_site_lacks(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "sitemaps are empty" in warnings[0]
    assert "built 1 language (en)" in result.stdout


# --- partial builds -----------------------------------------------------------------------


def test_a_partial_build_keeps_the_other_languages(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    build_site(project, languages=["en", "it", "nl"])
    site = project / "site"
    kept_page = site / "en" / "king" / "index.html"
    before = kept_page.read_bytes()

    report = build_site(project, languages=["it"])

    assert report.languages == ["it"] and report.kept == ["en", "nl"]
    assert "kept 2 languages (en, nl)" in report.summary()
    assert kept_page.read_bytes() == before
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == ["en", "it", "nl"]
    chooser = (site / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{code}/"' in chooser for code in ("en", "it", "nl"))
    menu = (site / "it" / "index.html").read_text(encoding="utf-8")
    assert 'hreflang="en"' in menu and 'hreflang="nl"' in menu  # the rebuilt one lists all


def test_a_partial_build_without_a_site_builds_just_those_and_says_so(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    report = build_site(project, languages=["it"])
    assert sorted(p.name for p in (project / "site").iterdir() if p.is_dir()) == ["it"]
    assert "no earlier site to keep other languages from" in report.summary()


# --- the project root ---------------------------------------------------------------------------


def test_commands_find_the_project_from_a_subfolder(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    result = run_cli("status", "--lang", "it", cwd=project / "docs" / "pages")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("it  100.0%")
    outside = run_cli("build", cwd=tmp_path)
    assert outside.returncode == 1
    assert outside.stderr.count("\n") == 1 and "no mkdocs.yml in" in outside.stderr


# --- tables on a phone --------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_tables_are_never_cut_off_on_a_phone(
    new_page: PageOpener, served_at_root: str, language: str
) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    for name in ("priority", "compare"):
        page.goto(f"{served_at_root}/{language}/{name}/")
        page.wait_for_load_state("load")
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= 390, (name, overflow)
        # Each table fits, or scrolls in its own box; scrolled to its end, the last column
        # (the verdict) is on screen.
        edges = page.evaluate(
            """() => [...document.querySelectorAll('article table')].map(table => {
                const box = table.closest('.md-typeset__scrollwrap') || table.parentElement;
                const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
                box.scrollLeft = box.scrollWidth;
                const cells = table.querySelectorAll('tr:first-child > *');
                const last = cells[cells.length - 1].getBoundingClientRect();
                return [scrolls || table.scrollWidth <= box.clientWidth, last.right];
            })"""
        )
        assert edges, name
        for fits_or_scrolls, right in edges:
            assert fits_or_scrolls and right <= 390 + 0.5, (name, edges)
