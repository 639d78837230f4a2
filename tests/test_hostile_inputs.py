"""Bad input that once gave a traceback: each is now one ``path:line: message`` and exit 1.

One test per finding of a hostile review (issue 9, items 7-12 and 14), each
reproducing the input that failed, run as a user runs the command.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dama_diagrams.site.i18n import catalog_path
from tests.conftest import copy_project, run_cli
from tests.po_files import msgstr_line, translate

pytestmark = pytest.mark.slow

NL_CATALOG = catalog_path(Path(), "nl").as_posix()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _fails_cleanly(result: object, where: str) -> str:
    stderr = result.stderr  # type: ignore[attr-defined]
    assert result.returncode != 0, stderr  # type: ignore[attr-defined]
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) <= 3, stderr  # argparse adds its usage line
    assert where in stderr, stderr
    return str(stderr)


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- 7. YAML 1.1 numbers and dates that PyYAML cannot convert --------------------------


def test_hex_looking_claim_is_an_unknown_claim_at_its_line(project: Path) -> None:
    diagram = project / "diagrams" / "zz.yaml"
    diagram.write_text('position: "W:W31:B12"\nclaim: 0x_\n')
    message = _fails_cleanly(run_cli("verify", "diagrams/zz.yaml", cwd=project), "zz.yaml:2:")
    assert "unknown claim '0x_'" in message


def test_hex_looking_page_name_is_refused_at_its_line(project: Path) -> None:
    nav = project / "docs" / "pages" / "nav.yml"
    nav.write_text(nav.read_text() + "- 0x_\n")
    lines = len(nav.read_text().splitlines())
    _fails_cleanly(run_cli("build", "--lang", "en", cwd=project), f"nav.yml:{lines}:")


@pytest.mark.parametrize("value", ["0b_", "2024-02-30", "1_0", "1e3", "!!int 0x_", "~"])
def test_number_or_date_looking_translation_is_text(project: Path, value: str) -> None:
    translate(project, "nl", {("ui.and", "and"): value})
    assert run_cli("status", cwd=project).returncode == 0
    result = run_cli("build", "--lang", "nl", "--drafts", cwd=project)
    assert result.returncode == 0, result.stderr
    page = (project / "site" / "nl" / "capturing" / "index.html").read_text(encoding="utf-8")
    assert f" {value} " in page


def test_an_unquoted_translation_is_located(project: Path) -> None:
    catalog = project / NL_CATALOG
    line = msgstr_line(catalog, "and", "ui.and")
    _replace(
        catalog,
        'msgctxt "ui.and"\nmsgid "and"\nmsgstr "en"\n',
        'msgctxt "ui.and"\nmsgid "and"\nmsgstr !!int 0x_\n',
    )
    message = _fails_cleanly(run_cli("status", cwd=project), f"{NL_CATALOG}:{line}:")
    assert "expected a string in double quotes" in message


# --- 8. a square with 4,301 digits ----------------------------------------------------


@pytest.mark.parametrize("square", ["1" * 4301, "K" + "1" * 4301])
def test_a_square_of_4301_digits_is_refused_and_not_echoed(project: Path, square: str) -> None:
    diagram = project / "diagrams" / "zz.yaml"
    diagram.write_text(
        f'position: {{turn: white, white: ["{square}"], black: [1]}}\nclaim: setup\n'
    )
    message = _fails_cleanly(run_cli("verify", "diagrams/zz.yaml", cwd=project), "zz.yaml:1:")
    assert len(message) < 400


# --- 9. a lone surrogate in a catalog ---------------------------------------------------


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        (b'msgstr "en\\ud800"', "unknown escape \\u"),  # PO has no \u escape
        (b'msgstr "en\xed\xa0\x80"', "not UTF-8"),  # a surrogate encoded as UTF-8 bytes
    ],
)
def test_a_lone_surrogate_in_a_catalog_is_located(
    project: Path, written: bytes, expected: str
) -> None:
    catalog = project / NL_CATALOG
    line = msgstr_line(catalog, "and", "ui.and")
    lines = catalog.read_bytes().split(b"\n")
    assert lines[line - 1] == b'msgstr "en"'
    lines[line - 1] = written
    catalog.write_bytes(b"\n".join(lines))
    result = run_cli("build", "--lang", "nl", "--drafts", cwd=project)
    message = _fails_cleanly(result, f"{NL_CATALOG}:{line}:")
    assert expected in message
    assert not (project / "site").exists()


# --- 10. an alias bomb in mkdocs.yml ----------------------------------------------------


def test_an_alias_bomb_in_mkdocs_yml_is_refused_at_once(project: Path) -> None:
    config = project / "mkdocs.yml"
    bomb = "".join(
        f"x{i}: &x{i + 1} [*x{i}, *x{i}, *x{i}, *x{i}, *x{i}, *x{i}]\n" for i in range(9)
    )
    config.write_text(config.read_text() + "extra_bomb: &x0 [lol]\n" + bomb)
    message = _fails_cleanly(run_cli("build", "--lang", "en", cwd=project), "mkdocs.yml:")
    assert "anchors and aliases" in message


# --- 11. a language code with a trailing newline ---------------------------------------


def test_a_language_code_with_a_newline_is_refused(project: Path) -> None:
    locales = project / "docs" / "locales"
    before = sorted(path.relative_to(locales) for path in locales.rglob("*"))
    message = _fails_cleanly(run_cli("new-language", "pt\n", cwd=project), "not a language code")
    assert "'pt\\n'" in message
    assert sorted(path.relative_to(locales) for path in locales.rglob("*")) == before


# --- 12. braces in a legend label --------------------------------------------------------


def test_braces_in_a_legend_label_are_text(project: Path) -> None:
    translate(project, "nl", {("legend.start", "start square"): "start {{ square }} {.red}"})
    result = run_cli("build", "--lang", "nl", "--drafts", cwd=project)
    assert result.returncode == 0, result.stderr
    home = (project / "site" / "nl" / "index.html").read_text(encoding="utf-8")
    assert "start &#123;&#123; square &#125;&#125; &#123;.red&#125;" in home


# --- 14. numbers on the command line -----------------------------------------------------


@pytest.mark.parametrize("depth", ["1_0", "\u0661\u0660", "\uff11\uff10", "9" * 5000])
def test_perft_depth_is_plain_ascii_digits_and_never_echoed_whole(depth: str) -> None:
    result = run_cli("perft", "W:W31:B12", depth)
    message = _fails_cleanly(result, "DEPTH")
    assert len(message) < 400


@pytest.mark.parametrize(
    ("command", "argument"),
    [
        ("moves", "W:W\u0662\u0661:B1"),  # Arabic-Indic 21
        ("play", "\uff12\uff12-\uff11\uff19"),  # full-width 22-19
        ("moves", "W:W\uff12\uff11:B1"),
    ],
)
def test_non_ascii_digits_are_refused_in_fens_and_moves(command: str, argument: str) -> None:
    args = ["play", "W:W22:B1", argument] if command == "play" else [command, argument]
    message = _fails_cleanly(run_cli(*args), "is not a")
    assert argument in message


# --- issue 25: control characters written as YAML escapes -------------------------------


@pytest.mark.parametrize(
    ("key", "escaped", "code"),
    [
        ("title", "\\x00", "U+0000"),  # NUL, ESC ... once reached the PO files and the HTML
        ("title", "\\e]0;pwn\\a", "U+001B"),  # a terminal escape (sets the window title)
        ("caption", "\\x7f", "U+007F"),
        ("question", "\\N", "U+0085"),  # NEL: once split a msgid across PO lines
    ],
)
def test_a_control_character_in_an_escape_is_refused_at_its_line(
    project: Path, key: str, escaped: str, code: str
) -> None:
    diagram = project / "diagrams" / "exercise-capture-compulsory.yaml"
    lines = diagram.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{key}:"))
    lines[number] = lines[number].replace('?"', f'? x{escaped}y"').replace('."', f'. x{escaped}y"')
    lines[number] = lines[number].replace('capture"', f'capture x{escaped}y"')
    assert escaped in lines[number]
    diagram.write_text("\n".join(lines) + "\n", encoding="utf-8")
    where = f"exercise-capture-compulsory.yaml:{number + 1}: the text holds the control character"
    message = _fails_cleanly(run_cli("verify", "diagrams", cwd=project), where)
    assert code in message
    _fails_cleanly(run_cli("build", "--lang", "en", cwd=project), where)
    assert not (project / "site").exists()


# --- Texts for pages: bound as every text that reaches Markdown, translations too -------------


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        (  # Python-Markdown is quadratic in '[': this passed verify, then took 161 s to build
            "caption",
            "<![CDATA[" * 7000,
            "caption is 63,000 characters long (at most 1,000); shorten it",
        ),
        ("title", "Compulsory \u202ecapture", "title holds the control character U+202E at"),
        ("question", "White \u2066to play?", "question holds the control character U+2066 at"),
        (  # an empty heading on the page, and one that PDF/UA refuses in the book
            "title",
            "\u200b",
            "title must be English text in quotes, not blank text (it holds only U+200B (ZERO "
            "WIDTH SPACE), which shows nothing)",
        ),
    ],
    ids=["quadratic-caption", "bidi-title", "bidi-question", "blank-title"],
)
def test_a_text_for_pages_past_the_markdown_limits_is_refused_at_its_line(
    project: Path, key: str, text: str, message: str
) -> None:
    """The limits that bound a translation bind the English of a diagram: same line, same words."""
    diagram = project / "diagrams" / "exercise-capture-compulsory.yaml"
    lines = diagram.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{key}:"))
    indent = lines[number][: len(lines[number]) - len(lines[number].lstrip())]
    lines[number] = f'{indent}{key}: "{text}"'
    diagram.write_text("\n".join(lines) + "\n", encoding="utf-8")
    where = f"diagrams/exercise-capture-compulsory.yaml:{number + 1}: {message}"
    for command in (("verify", "diagrams"), ("build", "--lang", "en")):
        started = time.perf_counter()
        result = run_cli(*command, cwd=project)
        assert time.perf_counter() - started < 20, command  # the caption's build took 161 s
        _fails_cleanly(result, where)
    assert not (project / "site").exists()
