"""The site commands never destroy what they did not make, and clean up after themselves.

Real builds in a copy of the project: where ``--out`` may point, SIGTERM during
``build`` and ``serve``, OS errors as one line, catalog text that looks like
HTML, a language Material has no translation for, and the empty-board finding.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dama_diagrams.diagram import verify_directory
from dama_diagrams.errors import DamaError
from dama_diagrams.site import SITE_MARKER, SiteError, build_site, new_language
from dama_diagrams.site.pages.figures import figure_view
from tests.conftest import copy_project, fails_cleanly, free_port, run_cli, running_cli
from tests.po_files import translate

pytestmark = pytest.mark.slow


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=project)


def _snapshot(project: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(project)): path.read_bytes()
        for path in sorted(project.rglob("*"))
        if path.is_file() and ".cache" not in path.parts
    }


# --- 1. --out never replaces what a build did not make ----------------------------


@pytest.mark.parametrize(
    ("out", "expected"),
    [
        (".", "project folder"),
        ("..", "project folder"),
        ("docs", "overlaps the project's docs"),
        ("docs/new", "overlaps the project's docs"),
        ("diagrams", "overlaps the project's diagrams"),
        ("mkdocs.yml", "overlaps the project's mkdocs.yml"),
        ("notes.txt", "is a file"),
        ("mine", "not empty and was not made by dama-diagrams"),
    ],
)
def test_out_that_is_not_ours_is_refused_and_left_alone(
    project: Path, out: str, expected: str
) -> None:
    (project / "notes.txt").write_text("my notes")
    (project / "mine").mkdir()
    (project / "mine" / "thesis.tex").write_text("years of work")
    before = _snapshot(project)

    result = run(project, "build", "--lang", "en", "--out", out)

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert expected in result.stderr, result.stderr
    assert _snapshot(project) == before
    assert not [p for p in project.parent.rglob(".*-build-*")]


def test_build_marks_its_site_and_rebuilds_it(project: Path) -> None:
    out = project / "public"
    out.mkdir()  # an empty folder is fine
    build_site(project, languages=["en"], out=out)
    assert (out / SITE_MARKER).is_file()
    (out / "stale.html").write_text("from the previous build")
    build_site(project, languages=["en"], out=out)  # marked: replaced as a whole
    assert not (out / "stale.html").exists()
    assert (out / "en" / "index.html").is_file() and (out / SITE_MARKER).is_file()


def test_site_without_the_marker_is_refused(project: Path) -> None:
    build_site(project, languages=["en", "nl"])
    site = project / "site"
    (site / SITE_MARKER).unlink()  # any other MkDocs site looks like this
    with pytest.raises(SiteError, match="not empty and was not made by dama-diagrams"):
        build_site(project, languages=["en"])
    assert (site / "nl" / "index.html").is_file()


def test_old_looking_folder_with_other_files_is_refused(project: Path) -> None:
    build_site(project, languages=["en"])
    site = project / "site"
    (site / SITE_MARKER).unlink()
    (site / "draft.md").write_text("not a build's")
    with pytest.raises(SiteError, match="not empty and was not made by dama-diagrams"):
        build_site(project, languages=["en"])
    assert (site / "draft.md").read_text() == "not a build's"


# --- 1b. a partial build keeps only the languages this machine built ---------------------

FORGED = "FORGED PAGE: pay at https://evil.example/pay"


def _git(*args: str | Path, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=x", "-c", "user.email=x@example.org", *map(str, args)],
        cwd=cwd, check=True, capture_output=True, timeout=120,
    )  # fmt: skip


def _languages(site: Path) -> list[str]:
    return sorted(path.name for path in site.iterdir() if path.is_dir())


def _not_kept(code: str, name: str) -> str:
    """The line a partial build of en says for a language of the earlier site it left out."""
    return (
        f"dama-diagrams: {code} ({name}) is not in the site: the build asked only for --lang en, "
        f"and the earlier site's {code}/ was not built on this machine, or was changed since (a "
        f"clone or a copy brings such a folder), so it is not published; build without --lang, "
        f"or add --lang {code}, to include it"
    )


def test_a_partial_build_publishes_no_language_a_clone_brought(
    project: Path, tmp_path: Path
) -> None:
    """An earlier site/ committed with a forged German page and book, a fresh clone, another
    machine: a build of English alone neither publishes German nor lists it in a menu."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    author = {"XDG_CACHE_HOME": str(tmp_path / "author-cache")}
    assert run_cli("build", "--lang", "de", cwd=project, env=author).returncode == 0
    german = project / "site" / "de"
    page = german / "index.html"
    page.write_text(page.read_text().replace("<body", f"<body><h1>{FORGED}</h1", 1))
    (german / "rules-de.pdf").write_bytes(f"%PDF-1.7\n% {FORGED}\n%%EOF\n".encode())
    _git("init", "-q", ".", cwd=project)
    _git("add", "-f", ".", cwd=project)
    _git("commit", "-q", "-m", "an earlier site", cwd=project)
    clone = tmp_path / "clone"
    _git("clone", "-q", project, clone, cwd=tmp_path)
    assert (clone / "site" / "de" / "index.html").read_text().count(FORGED) == 1

    another = {"XDG_CACHE_HOME": str(tmp_path / "another-machine")}
    result = run_cli("build", "--lang", "en", cwd=clone, env=another)

    assert result.returncode == 0, result.stderr
    site = clone / "site"
    assert _languages(site) == ["en"] and "kept" not in result.stdout
    assert result.stderr.splitlines()[0] == _not_kept("de", "Deutsch")
    published = b"".join(path.read_bytes() for path in site.rglob("*") if path.is_file())
    assert FORGED.encode() not in published
    assert 'hreflang="de"' not in (site / "en" / "index.html").read_text()
    assert 'href="de/"' not in (site / "index.html").read_text()
    # as the line says: asked for, German is built here, and is the real page
    again = run_cli("build", "--lang", "en", "--lang", "de", cwd=clone, env=another)
    assert again.returncode == 0, again.stderr
    assert _languages(site) == ["de", "en"]
    assert FORGED not in (site / "de" / "index.html").read_text()


def test_a_partial_build_keeps_a_language_only_as_this_machine_built_it(project: Path) -> None:
    assert run(project, "build", "--lang", "de").returncode == 0
    site = project / "site"
    german = (site / "de" / "index.html").read_bytes()
    kept = run(project, "build", "--lang", "en")
    assert kept.returncode == 0, kept.stderr
    assert "kept 1 language (de)" in kept.stdout
    assert "de (Deutsch)" not in kept.stderr
    assert (site / "de" / "index.html").read_bytes() == german
    assert 'hreflang="de"' in (site / "en" / "index.html").read_text()
    (site / "de" / "pay.html").write_text(FORGED)  # a page added after the build

    changed = run(project, "build", "--lang", "en")

    assert changed.returncode == 0, changed.stderr
    assert _not_kept("de", "Deutsch") in changed.stderr.splitlines()
    assert _languages(site) == ["en"]
    assert 'hreflang="de"' not in (site / "en" / "index.html").read_text()


# --- 3. OS errors are one line, never a traceback ------------------------------------


@pytest.mark.parametrize(
    ("out", "expected"),
    [("afile/site", "cannot create the folder afile"), ("/proc/site", "/proc")],
)
def test_unwritable_out_is_one_line(project: Path, out: str, expected: str) -> None:
    (project / "afile").write_text("a file")
    result = run(project, "build", "--lang", "en", "--out", out)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert expected in result.stderr and "--out" in result.stderr, result.stderr


def test_base_config_that_is_not_utf8_names_the_file(project: Path) -> None:
    config = project / "mkdocs.yml"
    text = config.read_bytes()
    config.write_bytes(text.replace(b"Italian", b"Italian \xff", 1))
    line = text[: text.index(b"Italian")].count(b"\n") + 1
    with pytest.raises(SiteError) as error:
        build_site(project, languages=["en"])
    assert str(error.value).startswith(f"mkdocs.yml:{line}: ")
    assert "0xff" in str(error.value) and "UTF-8" in str(error.value)


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "127.0.0.1:port", "nohost"])
def test_serve_with_a_bad_address_is_one_line(project: Path, address: str) -> None:
    result = run(project, "serve", "--dev-addr", address)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "--dev-addr" in result.stderr


def test_serve_on_a_port_in_use_says_so(project: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run(project, "serve", "--dev-addr", f"127.0.0.1:{port}")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"dama-diagrams: port {port} is in use; choose another with --dev-addr")


# --- 2. SIGTERM cleans up like Ctrl-C ------------------------------------------------


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_sigterm_during_build_leaves_no_folders_or_workers(project: Path) -> None:
    (project / "site").mkdir()
    with running_cli("build", "--lang", "en", "--lang", "nl", cwd=project) as build:
        # Wait until both language workers run MkDocs in the staging folder.
        _wait_for(lambda: len(list(project.glob(".site-build-*/src/*"))) == 2)
        workers = _children(build.process.pid)
        assert workers
        build.stop_with_sigterm()
    assert not list(project.glob(".site-build-*"))
    assert list((project / "site").iterdir()) == []  # the old site is untouched
    _wait_for(lambda: not any(_alive(pid) for pid in workers), 10)


def test_staging_folder_of_a_killed_build_is_removed(project: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()  # a PID that no process has any more
    leftover = project / f".site-build-{dead.pid}-abcd1234"
    (leftover / "site").mkdir(parents=True)
    alive = project / f".site-build-{os.getppid()}-abcd1234"  # someone else's live build
    alive.mkdir()
    build_site(project, languages=["en"])
    assert not leftover.exists()
    assert alive.is_dir()
    alive.rmdir()


def test_sigterm_during_serve_removes_its_temp_folder(project: Path) -> None:
    port = free_port()
    with running_cli("serve", "--dev-addr", f"127.0.0.1:{port}", cwd=project) as server:
        temp = Path(os.environ.get("TMPDIR", "/tmp"))
        pattern = f"dama-diagrams-serve-{server.process.pid}-*"
        _wait_for(lambda: list(temp.glob(pattern)))

        def serving() -> bool:
            with socket.socket() as client:
                return client.connect_ex(("127.0.0.1", port)) == 0

        _wait_for(serving)
        server.stop_with_sigterm()
    assert not list(temp.glob(pattern))


# --- 4. catalog text is text, not markup -------------------------------------------

HOSTILE_NAME = 'Rules & more" 1 < 2 > 0 &'
"""Text that HTML must escape, without a tag: a translation that adds tags is refused (below)."""


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.title = ""
        self.text = ""
        self.attributes: list[tuple[str, str]] = []
        self._tag = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag = tag
        self.attributes += [(key, value or "") for key, value in attrs]

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._tag == "title":
            self.title += data
        elif self._tag == "script":
            self.scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._tag = ""


def test_catalog_text_cannot_inject_markup_and_shows_once(project: Path) -> None:
    translate(
        project,
        "nl",
        {
            ("site.name", "Italian draughts rules"): HOSTILE_NAME,
            ("ui.to_dark", "Switch to dark mode"): 'Dark " & 1 < 2',
        },
    )
    out = project / "site"
    build_site(project, languages=["en", "nl"], out=out, drafts=True)

    html = (out / "nl" / "king" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html
    assert "&amp;amp;" not in html and "&amp;lt;" not in html  # escaped once, not twice
    page = _Texts()
    page.feed(html)
    assert not any("alert(1)" in script for script in page.scripts)
    assert page.title.endswith(f" - {HOSTILE_NAME}")
    values = [value for _, value in page.attributes]
    assert HOSTILE_NAME in values  # og:site_name and the logo's title, as the reader sees them
    assert 'Dark " & 1 < 2' in values  # the palette toggle
    assert "Nederlands" in page.text and "English" in page.text  # the language menu, by Babel
    root = _Texts()
    root.feed((out / "index.html").read_text(encoding="utf-8"))
    assert HOSTILE_NAME in root.text and not any("alert(1)" in s for s in root.scripts)


def test_catalog_text_that_adds_a_script_is_refused_at_its_line(project: Path) -> None:
    translate(project, "nl", {("site.name", "Italian draughts rules"): "R</title><script>x"})
    with pytest.raises(DamaError) as error:
        build_site(project, languages=["en", "nl"], out=project / "site", drafts=True)
    assert "docs/locales/nl/LC_MESSAGES/messages.po:" in str(error.value)
    assert "<script> element, which the English lacks" in str(error.value)


# --- 5. a language Material cannot translate its interface into -------------------


def test_language_unknown_to_material_is_a_clear_error(project: Path) -> None:
    """new-language refuses what the build would refuse, at once, and makes no catalog."""
    with pytest.raises(SiteError) as error:
        new_language(project, "sc")
    message = str(error.value)
    assert "language 'sc'" in message and "Material" in message and ".yml" not in message
    assert not (project / "docs" / "locales" / "sc").exists()
    result = run(project, "new-language", "sc")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "TemplateNotFound" not in result.stderr
    assert not (project / "site").exists()


# --- 6. the empty board's finding matches what is drawn ------------------------------


@pytest.mark.parametrize(("numbers", "key"), [("all", "setup_empty"), ("none", "setup_white")])
def test_empty_board_finding_depends_on_the_numbers_shown(
    tmp_path: Path, numbers: str, key: str
) -> None:
    folder = tmp_path / "diagrams"
    folder.mkdir()
    (folder / "empty.yaml").write_text(
        "position: {turn: white, white: [], black: []}\n"
        f"claim: setup\nshow: {{numbers: {numbers}}}\n"
    )
    report = verify_directory(folder)
    assert not report.failures
    assert figure_view(report.verified[0]).finding == key


# ------------------------------------------------------------------------------
# The site's own files (nav.yml, mkdocs.yml) that once broke the build.
#
# From a hostile review (issue 9, items 7-12 and 14; issue 25): each input once gave a
# traceback, and is now one ``path:line: message`` and exit 1, run as a user runs the command.


def test_hex_looking_page_name_is_refused_at_its_line(project: Path) -> None:
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text(nav.read_text() + "- 0x_\n")
    lines = len(nav.read_text().splitlines())
    fails_cleanly(run_cli("build", "--lang", "en", cwd=project), f"nav.yml:{lines}:")


# --- 10. an alias bomb in mkdocs.yml ----------------------------------------------------


def test_an_alias_bomb_in_mkdocs_yml_is_refused_at_once(project: Path) -> None:
    config = project / "mkdocs.yml"
    bomb = "".join(
        f"x{i}: &x{i + 1} [*x{i}, *x{i}, *x{i}, *x{i}, *x{i}, *x{i}]\n" for i in range(9)
    )
    config.write_text(config.read_text() + "extra_bomb: &x0 [lol]\n" + bomb)
    message = fails_cleanly(run_cli("build", "--lang", "en", cwd=project), "mkdocs.yml:")
    assert "anchors and aliases" in message
