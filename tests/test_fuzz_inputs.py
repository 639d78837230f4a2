"""A seeded fuzz over the project's inputs: a bad file is one clear error, never a crash.

Each case mutates a real file (a diagram, a PO catalog, ``nav.yml``) with the kind
of damage a hand edit, a bad merge or an attacker makes, then reads it the way
the build does.  Anything but a :class:`DamaError` (which the command line
prints as ``path:line: message``) fails the test, which prints the seed and
the input.  The same seed gives the same cases on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from dama_diagrams.diagram import parse_diagram, verify
from dama_diagrams.errors import DamaError
from dama_diagrams.site.i18n import catalog_path, load_catalog, translation_problems
from dama_diagrams.site.i18n.catalog import PLACEHOLDER
from dama_diagrams.site.i18n.extract import CODE_MESSAGES
from dama_diagrams.site.i18n.quality import QualityError
from dama_diagrams.site.pages.nav import load_nav
from dama_diagrams.site.servers.preview import running
from tests.conftest import ROOT
from tests.test_preview_paths import PAGES, make_site, request

SEED = 20261130
CASES = 1500  # per kind of file; a few seconds in all
CATALOG_CASES = 600  # each reads a PO file of some 600 lines twice, and measures it

TOKENS = [
    "&a ", "*a", "!!python/object:os.system ", "!!int ", "!!float ", "!!timestamp ", "<<: ",
    "0x_", "0b_", "1_0", "2024-02-30", "1e999", "9" * 4400, '"\\ud800"', "\x00", "\x07",
    "\t", "{", "}", "[", "]", '"', "'", ": ", "- ", "---\n", "...\n", "#", "|\n", ">\n",
    "~", "null", "yes", "K", "x", "-", "\ufeff", "\u202e", "\U0001f600", "{{ x }}", "{% x %}",
]  # fmt: skip


def _mutate(text: str, rng: random.Random, tokens: list[str] = TOKENS) -> str:
    lines = text.splitlines(keepends=True) or ["\n"]
    for _ in range(rng.randint(1, 3)):
        choice = rng.randrange(5)
        index = rng.randrange(len(lines))
        if choice == 0:  # a token inserted inside a line
            line = lines[index]
            at = rng.randrange(len(line) + 1)
            lines[index] = line[:at] + rng.choice(tokens) + line[at:]
        elif choice == 1:  # a line lost
            if len(lines) > 1:
                del lines[index]
        elif choice == 2:  # a line doubled (a bad merge)
            lines.insert(index, lines[index])
        elif choice == 3:  # indentation changed
            lines[index] = rng.choice(["", "  ", "    ", "\t"]) + lines[index].lstrip(" ")
        else:  # a character replaced
            line = lines[index]
            if line:
                at = rng.randrange(len(line))
                lines[index] = line[:at] + chr(rng.randrange(0x20, 0x3000)) + line[at + 1 :]
    return "".join(lines)


def _never_crashes(
    read: Callable[[str], object],
    sources: list[str],
    kind: str,
    *,
    tokens: list[str] = TOKENS,
    cases: int = CASES,
) -> None:
    rng = random.Random(f"{SEED}-{kind}")
    for case in range(cases):
        text = _mutate(rng.choice(sources), rng, tokens)
        try:
            read(text)
        except DamaError:
            continue
        except AssertionError as exc:
            pytest.fail(f"{kind} case {case} (seed {SEED}): {exc}\n{text!r}")
        except Exception as exc:
            pytest.fail(f"{kind} case {case} (seed {SEED}): {type(exc).__name__}: {exc}\n{text!r}")


def test_mutated_diagrams_give_clear_errors() -> None:
    sources = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "diagrams").glob("*.yaml"))]

    def read(text: str) -> None:
        verify(parse_diagram(text.encode("utf-8", "surrogatepass"), "diagrams/fuzz.yaml"))

    _never_crashes(read, sources, "diagram")


PO_TOKENS = [
    "msgid ", "msgstr ", "msgctxt ", "msgid_plural ", "msgstr[0] ", "msgstr[1] ", '""', '"',
    "\\", '\\"', "\\n", "\\u", "\\x41", "\\0", "#, fuzzy\n", "#, fuzzy, python-format",
    "#~ ", "#| msgid ", "#: ", "# ", "{count}", "{x}", "{", "}", "%s", "\r", "\x00", "\ufeff",
    "\u2028", "\x85", "\x0c", "\ud800", "Language: xx\\n", "Plural-Forms: nplurals=0;",
    "charset=latin-1", "Content-Type: text/plain; charset=bogus\\n", "\n\n",
    "Plural-Forms: nplurals=100000000; plural=0;\\n", 'msgid_plural "x"\nmsgstr[0] ""\n',
    "<![CDATA[" * 40, "![" * 40, "[a](" * 40, "- " * 40, "\r\n", "\r" * 3,
]  # fmt: skip


SMALL_PROJECT = {
    "babel.cfg": "[python: dama_diagrams/site/messages.py]\n"
    "[jinja2: docs/pages/end.md.j2]\n"
    "[dama_diagram: diagrams/game-over-*.yaml]\n",
    "docs/pages/end.md.j2": None,
    "diagrams/game-over-blocked.yaml": None,
    "diagrams/game-over-no-pieces.yaml": None,
}
"""The code's messages, one page and its diagrams: a catalog small enough to read often."""


def _small_project(folder: Path) -> Path:
    """A project with a little English, and the Dutch catalog of just that English."""
    for name, text in SMALL_PROJECT.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((ROOT / name).read_bytes() if text is None else text.encode())
    with (ROOT / catalog_path(Path(), "nl")).open("rb") as file:
        dutch = read_po(file, locale="nl")
    for message in list(dutch):
        files = {path for path, _ in message.locations}
        if message.id and not files & {CODE_MESSAGES, *SMALL_PROJECT}:
            dutch.delete(message.id, message.context)
    target = catalog_path(folder, "nl")
    target.parent.mkdir(parents=True)
    with target.open("wb") as file:
        write_po(file, dutch, width=0)
    return target


def _located(error: DamaError, where: str) -> None:
    assert error.path == where and error.line is not None, f"not at {where}:line: {error}"
    assert str(error).startswith(f"{where}:{error.line}: ")


@pytest.mark.slow
@pytest.mark.long
def test_mutated_catalogs_give_clear_errors(tmp_path: Path) -> None:
    """A mutated PO file is read and used, or refused at its line: never a traceback."""
    catalog = _small_project(tmp_path)
    shown = catalog.relative_to(tmp_path).as_posix()
    sources = [catalog.read_text(encoding="utf-8")]
    load_catalog(tmp_path, "nl")  # the English, extracted once

    def read(text: str) -> None:
        catalog.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            loaded = load_catalog(tmp_path, "nl")
            for (context, english), entry in list(loaded.entries.items()):
                if entry.po_line is not None:
                    names = dict.fromkeys(PLACEHOLDER.findall(english), "1")
                    loaded.message(english, context, **names)
        except DamaError as exc:
            _located(exc, shown)
            raise
        errors, warnings = translation_problems(tmp_path, ["nl"])
        for error in errors:
            _located(error, shown)
        for warning in warnings:
            if isinstance(warning, QualityError):  # a translator's slip: at its catalog line
                _located(warning, shown)
                continue
            assert warning.path in (CODE_MESSAGES, *SMALL_PROJECT), str(warning)  # at the English
            assert warning.line, str(warning)

    _never_crashes(read, sources, "catalog", tokens=TOKENS + PO_TOKENS, cases=CATALOG_CASES)


def test_mutated_page_lists_give_clear_errors(tmp_path: Path) -> None:
    pages = tmp_path / "docs" / "pages"
    pages.mkdir(parents=True)
    sources = [(ROOT / "docs" / "pages" / "nav.yml").read_text(encoding="utf-8")]

    def read(text: str) -> None:
        (pages / "nav.yml").write_bytes(text.encode("utf-8", "surrogatepass"))
        load_nav(tmp_path)

    _never_crashes(read, sources, "nav")


PATH_PIECES = [
    "en", "index.html", "404.html", "a" * 300, ".", "..", "/", "//", "%2e", "%2e%2e", "%2f",
    "%5c", "\\", "%3f", "?", "#", "%23", "%00", "%2500", "%252e%252e", "%0a", "%0d", "%7f",
    "%ff", "%c0%af", "%ed%a0%80", "%C3%A9", "%", "%zz", ";", "&", "*", "~", "%20", "+",
]  # fmt: skip
PATH_CASES = 400


def test_odd_request_paths_always_get_a_status_and_nothing_is_printed(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The preview server (as ``preview`` and ``serve`` run it) on random paths, in-process."""
    site = make_site(tmp_path / "site")
    rng = random.Random(SEED)
    served = {f"<html><body>{text}</body></html>" for text in PAGES.values()}
    with running(site, "/", ("127.0.0.1", 0)) as server:
        port = server.server_address[1]
        for _ in range(PATH_CASES):
            path = "/" + "".join(rng.choice(PATH_PIECES) for _ in range(rng.randint(1, 6)))
            status, body = request(port, path)
            assert status in (200, 301, 400, 404), (SEED, path, status)
            assert status != 200 or body in served, (SEED, path, body[:80])
    assert capfd.readouterr().err == ""


# --- the doors of round three: a translation's markup, and the book's escaping ------------

MARKUP_TOKENS = [
    "<a href='https://evil.example/'>", "</a>", "<em>", "</em>", "<ul><li>", "</li></ul>",
    "<script>", "<img src=x onerror=y>", ">" * 30, "> ", "- ", "  - ", "*", "**", "`", "[x](y)",
    "\x1b", "\x07", "\x85", "\u202e", "\u2066", "&lt;", "&", "<", "{move}", "\n", "\n\n",
    "#", "$", "@", "//", "/*", "\\", "[", "]", "~", "...", "--", "x" * 2000,
]  # fmt: skip


def test_mutated_translations_are_judged_never_crash() -> None:
    """markup_problem answers every mutated translation with a reason or None, never raising."""
    from dama_diagrams.site.i18n.limits import markup_problem

    rng = random.Random(SEED + 31)
    english = "Capturing is *compulsory*: see [the rules](../capturing/) for {move}."
    for _ in range(CASES):
        translation = _mutate(english, rng, MARKUP_TOKENS)
        verdict = markup_problem(english, translation)
        assert verdict is None or isinstance(verdict, str), (SEED, translation)
        if "\x1b" in translation or "evil.example" in translation or "<script>" in translation:
            assert verdict is not None, (SEED, translation)


def test_mutated_texts_come_out_of_typst_as_they_went_in() -> None:
    """The book's escaping: any text, once escaped, is only text to Typst (it compiles)."""
    import typst

    from dama_diagrams.site.booklet.markup import string_literal, text_markup

    rng = random.Random(SEED + 30)
    compiler = typst.Compiler(ignore_system_fonts=True)
    for _ in range(60):
        text = "".join(rng.choice(MARKUP_TOKENS) for _ in range(rng.randint(1, 12)))
        text = text.replace("x" * 2000, "x" * 20)
        markup = f"{text_markup(text)}\n\n#raw({string_literal(text)})\n"
        compiler.compile(markup.encode("utf-8"), format="pdf")  # a TypstError fails the test
