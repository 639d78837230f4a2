"""The ``dama_diagrams.fence`` Markdown extension: no ``dama`` fence is shown unchecked.

Each page is converted by the real Python-Markdown and pymdownx.superfences.
The answers come from the pages' own text (the line a fence opens on) and from
superfences itself: a header it does not read is shown as code, which is what
the extension must refuse.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from dama_diagrams.errors import DamaError
from dama_diagrams.fence import DamaFenceExtension, dama_fence
from dama_diagrams.site.fence import FenceError

ROOT = Path(__file__).resolve().parent.parent
BODY = "position: {turn: white, white: [22, 30], black: [18, 11]}\nclaim: capture\n"
TRUE = BODY + "move: 22x13\n"
FALSE = BODY + "move: 22x14\n"  # 22x14 is no capture: the claim is false


def page(header: str, body: str = FALSE) -> str:
    return f"# Rules\n\nText.\n\n```{header}\n{body}```\n"


def convert(text: str, *extensions: object, **options: str) -> str:
    chosen = list(extensions) or ["pymdownx.superfences", DamaFenceExtension(**options)]
    return markdown.markdown(text, extensions=chosen)


@pytest.mark.parametrize(
    "header",
    ["dama lang=fr", 'dama  lang = "fr"', "DAMA", "Dama", 'dama id=x lang="fr"', 'dama data-x="1"'],
)
def test_a_header_superfences_would_show_as_code_is_refused_at_its_line(header: str) -> None:
    text = page(header)
    without = markdown.markdown(text, extensions=["pymdownx.superfences"])
    assert "22x14" in without  # superfences alone shows the false claim as text
    with pytest.raises(FenceError) as caught:
        convert(text)
    assert caught.value.line == 5
    assert "superfences" in caught.value.message


@pytest.mark.parametrize(
    "header", ["dama", 'dama lang="fr"', "dama lang='fr'", "{ .dama lang=fr }"]
)
def test_a_header_superfences_reads_still_checks_the_claim(header: str) -> None:
    with pytest.raises(FenceError) as caught:
        convert(page(header))
    assert caught.value.line == 8 and "22x14 is not legal" in caught.value.message
    assert '<figure class="dama-figure"' in convert(page(header, TRUE))


def test_the_extension_adds_the_fence_and_keeps_custom_fences_of_the_site() -> None:
    shown = convert(page("dama", TRUE), lang="it")
    assert 'lang="it"' in shown and "Verificato dal motore:" in shown
    mermaid = {"name": "mermaid", "class": "mermaid", "format": lambda *a, **k: "<div>M</div>"}
    configs = {"pymdownx.superfences": {"custom_fences": [mermaid, dama_fence("de")]}}
    both = markdown.markdown(
        page("dama", TRUE) + "\n```mermaid\ngraph\n```\n",
        extensions=["pymdownx.superfences", "dama_diagrams.fence"],
        extension_configs=configs,
    )
    assert "<div>M</div>" in both  # the site's own fence
    assert 'lang="de"' in both  # its custom_fences entry for dama wins over the extension's


def test_pages_without_a_fence_convert_as_before() -> None:
    text = (
        "# Contact\n\n```python\nprint('DAMA')\n```\n\n````markdown\n```dama lang=fr\n```\n````\n"
    )
    assert convert(text) == markdown.markdown(text, extensions=["pymdownx.superfences"])


def test_the_extension_without_superfences_says_what_to_add() -> None:
    with pytest.raises(FenceError) as caught:
        markdown.markdown(page("dama", TRUE), extensions=["dama_diagrams.fence"])
    assert "add it to markdown_extensions" in caught.value.message


def test_a_fence_another_extension_hid_fails_the_conversion() -> None:
    class Hide(Preprocessor):
        """Drops every dama fence between the check of headers and superfences."""

        def run(self, lines: list[str]) -> list[str]:
            return [line.replace("```dama", "```text") for line in lines]

    class Hiding(Extension):
        def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
            md.preprocessors.register(Hide(md), "hide", 25.5)

    with pytest.raises(FenceError) as caught:
        convert(page("dama"), "pymdownx.superfences", DamaFenceExtension(), Hiding())
    assert caught.value.line == 5 and "was not drawn" in caught.value.message


def test_figure_ids_are_unique_on_a_page(tmp_path: Path) -> None:
    (tmp_path / "diagrams").mkdir()
    (tmp_path / "diagrams" / "capture.yaml").write_text(TRUE, encoding="utf-8")
    named = "```dama\nfile: diagrams/capture.yaml\n```\n"
    shown = convert(named + "\n" + named, root=str(tmp_path))
    assert re.findall(r'<figure[^>]* id="([^"]+)"', shown) == ["figure-capture", "figure-capture-2"]
    twice = f'```dama id="a"\n{TRUE}```\n\n```dama id="a"\n{TRUE}```\n'
    with pytest.raises(FenceError) as caught:
        convert(twice)
    assert caught.value.line == 7 and 'id="a" is already the id' in caught.value.message


def test_the_title_is_shown_and_read_with_the_figure() -> None:
    shown = convert(page("dama", TRUE + 'title: "Capture & *more*"\n'))
    caption = shown.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0]
    assert '<strong class="dama-title">Capture &amp; <em>more</em></strong>' in caption


def test_file_is_read_from_the_root_it_is_given_and_never_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "club"
    (site / "diagrams").mkdir(parents=True)
    (site / "diagrams" / "capture.yaml").write_text(FALSE, encoding="utf-8")
    (tmp_path / "secret.yaml").write_text(TRUE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # no mkdocs.yml here or above
    named = page("dama", "file: diagrams/capture.yaml\n")
    with pytest.raises(FenceError) as caught:  # no root: file: is refused
        convert(named, page="rules.md")
    assert caught.value.path == "rules.md" and caught.value.line == 6
    assert "dama_fence(root=...)" in caught.value.message
    with pytest.raises(FenceError) as caught:  # the file's own error, at its own line
        convert(named, root=str(site))
    assert caught.value.line == 3 and "22x14 is not legal" in caught.value.message
    escaping = page("dama", "file: ../secret.yaml\n")
    with pytest.raises(FenceError, match="leaves the project"):
        convert(escaping, root=str(site))


def test_an_unknown_language_is_refused_when_the_site_is_set_up() -> None:
    with pytest.raises(DamaError, match="not 'pt'"):
        DamaFenceExtension(lang="pt")


def test_the_manuals_python_markdown_example_runs(tmp_path: Path) -> None:
    readme = (ROOT / "manual" / "docs" / "anywhere.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(import markdown\n.*?DamaFenceExtension.*?)```", readme, re.S)
    assert found is not None, "the manual shows no Python-Markdown example"
    script = f"text = {page('dama')!r}\n" + found[1]
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (
        result.stdout == "rules.md:8: 22x14 is not legal (not-diagonal): 22x14 is not a "
        "diagonal jump over one square; the only legal move is 22x13\n"
    ), result.stderr


def test_a_fence_never_closed_is_refused_at_its_line() -> None:
    text = f"# Rules\n\n```dama\n{FALSE}"
    assert "22x14" in markdown.markdown(text, extensions=["pymdownx.superfences"])
    with pytest.raises(FenceError) as caught:
        convert(text)
    assert caught.value.line == 3 and "never closed" in caught.value.message


def test_a_fence_a_snippet_brings_in_is_checked_too(tmp_path: Path) -> None:
    (tmp_path / "included.md").write_text(page("dama lang=fr"), encoding="utf-8")
    text = '# Rules\n\n--8<-- "included.md"\n'
    snippets = markdown.markdown(
        text,
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}},
    )
    assert "22x14" in snippets  # superfences would show it as code
    with pytest.raises(FenceError, match="write the option 'lang=fr' with quotes"):
        markdown.markdown(
            text,
            extensions=["pymdownx.snippets", "pymdownx.superfences", "dama_diagrams.fence"],
            extension_configs={"pymdownx.snippets": {"base_path": [str(tmp_path)]}},
        )


QUOTED = "# F\n\n> ```dama\n> position: {turn: white, white: [27], black: [23]}\n> claim: move\n"
QUOTED += "> move: 27-22\n> ```\n"  # 27-22 is no move: the capture 27x20 is compulsory
TABBED = "# F\n\n!!! note\n\n\t```dama\n\tposition: {turn: white, white: [27], black: [23]}\n"
TABBED += "\tclaim: move\n\tmove: 27-22\n\t```\n"
PLACED = {
    "block quote": (QUOTED, 6),
    "tab in an admonition": (TABBED, 8),
    "CR line ends": (QUOTED.replace("> ", "").replace("\n", "\r"), 6),
}
"""Fences superfences draws wherever they stand, and the line of their false ``move:``."""


@pytest.mark.parametrize("where", list(PLACED))
def test_verify_and_the_build_find_a_fence_wherever_superfences_draws_it(
    tmp_path: Path, where: str
) -> None:
    from dama_diagrams.diagram.markdown import check_page

    text, line = PLACED[where]
    with pytest.raises(FenceError) as caught:
        convert(text, "admonition", "pymdownx.superfences", DamaFenceExtension(page="f.md"))
    assert (caught.value.path, caught.value.line) == ("f.md", line)
    page = tmp_path / "f.md"
    page.write_bytes(text.encode("utf-8"))
    [result] = check_page(page)
    assert result.error is not None and result.error.line == line
    assert "27-22 is not legal" in result.error.message


def test_one_converter_gives_each_page_the_same_ids_after_reset() -> None:
    md = markdown.Markdown(extensions=["pymdownx.superfences", DamaFenceExtension()])
    ids = []
    for _ in range(3):
        ids.append(re.findall(r'<figure[^>]* id="([^"]+)"', md.convert(page("dama", TRUE))))
        md.reset()
    assert ids == [["figure-string-1"]] * 3


def test_verify_refuses_an_id_given_twice_on_a_page(tmp_path: Path) -> None:
    from dama_diagrams.diagram.markdown import check_page

    page_file = tmp_path / "twice.md"
    page_file.write_text(f'```dama id="a"\n{TRUE}```\n\n```dama id="a"\n{TRUE}```\n', "utf-8")
    first, second = check_page(page_file)
    assert first.error is None
    assert second.error is not None and second.error.line == 7
    assert 'id="a" is already the id of the figure on line 1' in second.error.message


def test_a_game_is_read_from_the_root_it_is_given_and_never_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "club"
    (site / "games").mkdir(parents=True)
    (site / "games" / "final.pdn").write_bytes((ROOT / "games" / "example.pdn").read_bytes())
    (tmp_path / "secret.pdn").write_text("hunter2 is the password\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the secret is one step away, and no mkdocs.yml anywhere
    game = page("dama", "position: {game: games/final.pdn}\nclaim: setup\n")
    assert '<figure class="dama-figure"' in convert(game, root=str(site))
    for name in ("../secret.pdn", str(tmp_path / "secret.pdn")):
        outside = page("dama", f"position: {{game: {name}}}\nclaim: setup\n")
        with pytest.raises(FenceError) as caught:
            convert(outside, root=str(site))
        assert caught.value.line == 6 and "is outside the project" in caught.value.message
        assert "hunter2" not in str(caught.value)
        with pytest.raises(FenceError) as caught:  # no root: no game at all
            convert(outside)
        assert caught.value.line == 6 and "no site folder" in caught.value.message
