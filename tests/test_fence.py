"""The ``dama`` fence in plain Python-Markdown: ``markdown.markdown`` with ``pymdownx.superfences``.

Each page is converted by the real Markdown and superfences; the answers come
from the page's own text (the line a wrong move is on, the squares it places)
and from the Italian PO catalog, read here with Babel, not from the fence.
"""

from __future__ import annotations

import base64
import html
import re
import time
from pathlib import Path
from typing import Any

import markdown
import pytest
from babel.messages.pofile import read_po

from dama_diagrams import dama_fence
from dama_diagrams.errors import DamaError
from dama_diagrams.site.fence import FenceError
from dama_diagrams.site.fence.words import catalog_words, shipped_words, words_text

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
# Captures

A man must capture.

```dama
position: {turn: white, white: [22, 30], black: [18, 11]}
claim: capture
move: 22x13
caption: "The man on 22 takes {captured}."
```
"""

WRONG_LINE = "move: 22x14"
WRONG = GOOD.replace("move: 22x13", WRONG_LINE)


def convert(text: str, language: str = "en", *, extensions: list[str] | None = None) -> str:
    return markdown.markdown(
        text,
        extensions=extensions or ["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [dama_fence(language)]}},
    )


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle) + 1


def italian(context: str) -> str:
    """The Italian translation of one of the code's messages, from the PO file itself."""
    return translation("it", context)


def translation(language: str, context: str) -> str:
    """One of the code's messages in ``language``, from its PO file (English: the msgid)."""
    folder = "it" if language == "en" else language
    with (ROOT / f"docs/locales/{folder}/LC_MESSAGES/messages.po").open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        if message.context == context:
            return str(message.id if language == "en" else message.string)
    raise AssertionError(context)


def pictures(page: str) -> list[str]:
    return [
        base64.b64decode(data).decode("utf-8")
        for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    ]


def test_a_fence_shows_the_figure_with_its_board_inside_the_page() -> None:
    page = convert(GOOD)
    assert page.count('<figure class="dama-figure"') == 1
    [board] = pictures(page)
    pieces = re.findall(r'class="piece (white|black) man" data-square="([0-9]+)"', board)
    assert sorted(pieces) == [("black", "11"), ("black", "18"), ("white", "22"), ("white", "30")]
    assert '<span class="dama-caption">The man on 22 takes 18.</span>' in page
    assert "<code>22x13</code>" in page
    assert page.count('<link rel="stylesheet" href="data:text/css;base64,') == 1
    assert page.count('<script src="data:text/javascript;base64,') == 1


def test_the_figure_speaks_the_language_the_fence_is_set_to() -> None:
    page = convert(GOOD, "it")
    engine = re.search(r'<span class="dama-engine-text">(.*?)</span>', page)
    assert engine is not None
    expected = italian("engine.capture_only").replace("{move}", "22x13")
    assert html.unescape(re.sub("<[^>]+>", "", engine[1])) == expected
    assert html.escape(italian("legend.captured"), quote=False) in page
    assert html.escape(italian("ui.engine"), quote=False) in page


def test_a_fence_may_choose_its_own_language() -> None:
    page = convert(GOOD.replace("```dama\n", '```dama lang="it"\n'), "en")
    assert html.escape(italian("ui.engine"), quote=False) in page


TIE = """\
```dama
position: "W:WK14:B10,11,18"
claim: free-choice
moves: [14x5, 14x7, 14x21]
```
"""
"""By hand: White's king on 14 takes the man on 10 (landing on 5), on 11 (landing on 7) or,
backward, on 18 (landing on 21).  From 5 and 7 the next jump leaves the board or finds 12
empty; from 21 it leaves the board or finds 26 empty.  So each capture takes one man, with
the king, no king taken or met: the three tie on all four rules."""

BOTH = {"nl": "beide", "it": "entrambe", "en": "both", "de": "beide", "fr": "deux", "es": "dos"}
"""The word each language's sentence for two tied captures says "both" with."""


@pytest.mark.parametrize("language", ["nl", "it", "en", "de", "fr", "es"])
def test_three_tied_captures_are_all_legal_not_both(language: str) -> None:
    def engine_line(text: str) -> str:
        engine = re.search(r'<span class="dama-engine-text">(.*?)</span>', convert(text, language))
        assert engine is not None
        return html.unescape(re.sub("<[^>]+>", "", engine[1]))

    three = engine_line(TIE)
    listed = f"14x5, 14x7 {translation(language, 'ui.and')} 14x21"
    assert three == translation(language, "engine.free_choice_many").replace("{moves}", listed)
    assert BOTH[language] not in three.split()
    # with the man on 18 gone, two captures tie: the sentence says "both"
    two = engine_line(TIE.replace(",18", "").replace(", 14x21", ""))
    assert BOTH[language] in two.split()
    listed = f"14x5 {translation(language, 'ui.and')} 14x7"
    assert two == translation(language, "engine.free_choice").replace("{moves}", listed)


def test_a_wrong_claim_stops_the_conversion_at_its_line_in_the_page() -> None:
    with pytest.raises(FenceError) as caught:
        convert(WRONG)
    assert caught.value.line == line_of(WRONG, WRONG_LINE)
    assert str(caught.value).startswith(f"<string>:{line_of(WRONG, WRONG_LINE)}: 22x14 ")


def test_a_bad_key_is_refused_at_its_line_with_verifys_words(tmp_path: Path) -> None:
    text = GOOD.replace("claim: capture", "claim: capture\ncolour: red")
    with pytest.raises(FenceError) as caught:
        convert(text)
    assert caught.value.line == line_of(text, "colour: red")
    assert "unknown key 'colour'" in caught.value.message
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    from dama_diagrams.diagram.report import check_markdown

    [failure] = check_markdown(page)
    assert not failure.ok
    assert failure.error.message == caught.value.message  # type: ignore[union-attr]


def test_a_fence_inside_an_admonition_is_checked_at_its_line_too(tmp_path: Path) -> None:
    indented = "\n".join(f"    {line}" if line else "" for line in GOOD.split("\n")[4:])
    text = f"# Note\n\n!!! note\n\n{indented}\n"
    page = markdown.markdown(
        text,
        extensions=["admonition", "pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [dama_fence()]}},
    )
    assert '<div class="admonition note">' in page and 'class="dama-figure"' in page
    wrong = text.replace("move: 22x13", WRONG_LINE)
    with pytest.raises(FenceError) as caught:
        convert(wrong, extensions=["admonition", "pymdownx.superfences"])
    assert caught.value.line == line_of(wrong, f"    {WRONG_LINE}")
    (tmp_path / "page.md").write_text(wrong, encoding="utf-8")
    from dama_diagrams.diagram.report import check_markdown

    [failure] = check_markdown(tmp_path / "page.md")
    assert failure.error.line == caught.value.line  # type: ignore[union-attr]


def test_a_caption_cannot_inject_markup() -> None:
    text = GOOD.replace(
        '"The man on 22 takes {captured}."', "\"<script>alert(1)</script><img src=x onerror='x'>\""
    )
    page = convert(text)
    assert "<script>alert(1)" not in page and "onerror" not in page
    assert page.count("<script") == 1  # the figure's own script, once


def test_a_caption_past_the_markdown_limits_stops_the_page_at_its_line(tmp_path: Path) -> None:
    """The review's 63 KB caption took 146 s in one fence; verify let it through in 0.3 s."""
    caption = 'caption: "' + "<![CDATA[" * 7000 + '"'  # 9 characters, 7,000 times
    text = GOOD.replace('caption: "The man on 22 takes {captured}."', caption)
    message = "caption is 63,000 characters long (at most 1,000); shorten it"
    started = time.perf_counter()
    with pytest.raises(FenceError) as caught:
        convert(text)
    assert time.perf_counter() - started < 2
    assert str(caught.value) == f"<string>:{line_of(text, caption)}: {message}"
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    from dama_diagrams.diagram.report import check_markdown

    [failure] = check_markdown(page)
    assert failure.error is not None and failure.error.message == message
    assert failure.error.line == line_of(text, caption)


def test_a_bidi_override_in_a_fences_title_is_refused_at_its_line() -> None:
    text = GOOD.replace("claim: capture", 'claim: capture\ntitle: "Men \u202ecapture"')
    with pytest.raises(FenceError) as caught:
        convert(text)
    assert caught.value.line == line_of(text, 'title: "Men \u202ecapture"')
    said = "title holds the control character U+202E at character 5, which no page or book shows"
    assert caught.value.message.startswith(said)


def test_an_unknown_option_is_refused_at_the_fence() -> None:
    text = GOOD.replace("```dama\n", '```dama colour="red"\n')
    with pytest.raises(FenceError) as caught:
        convert(text)
    assert caught.value.line == line_of(text, '```dama colour="red"')
    assert "colour" in caught.value.message


def test_verify_refuses_an_option_superfences_would_not_read(tmp_path: Path) -> None:
    """Unquoted, superfences shows the fence as code: verify says so, at the fence."""
    text = GOOD.replace("```dama\n", "```dama lang=it\n")
    assert "<code>dama lang=it" in convert(text)  # what superfences does with it
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    from dama_diagrams.diagram.report import check_markdown

    [failure] = check_markdown(page)
    assert failure.error.line == line_of(text, "```dama lang=it")  # type: ignore[union-attr]
    assert 'lang="it"' in failure.error.message  # type: ignore[union-attr]


def test_a_fence_names_a_diagram_file_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "diagrams").mkdir()
    source = (ROOT / "diagrams" / "man-capture.yaml").read_text(encoding="utf-8")
    (tmp_path / "diagrams" / "man-capture.yaml").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    page = convert("Text.\n\n```dama\nfile: diagrams/man-capture.yaml\n```\n")
    assert 'id="figure-man-capture"' in page
    for name in ("../secret.yaml", "/etc/passwd", "diagrams/../../x.yaml"):
        text = f"Text.\n\n```dama\nfile: {name}\n```\n"
        with pytest.raises(FenceError) as caught:
            convert(text)
        assert caught.value.line == line_of(text, f"file: {name}")
        assert "leaves the project" in caught.value.message


def test_the_same_page_converts_to_the_same_bytes() -> None:
    assert convert(GOOD) == convert(GOOD)


def test_the_styles_and_scripts_come_once_per_page() -> None:
    second = GOOD.split("```dama", 1)[1].replace("22, 30", "22, 31")
    page = convert(GOOD + "\nMore.\n\n```dama" + second)
    assert page.count('<figure class="dama-figure"') == 2
    assert page.count("<link") == 1 and page.count("<script") == 1


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(DamaError, match="speaks"):
        dama_fence("pt")


def test_the_shipped_words_are_the_catalogs_translations() -> None:
    """``words.json`` is what ``scripts/fence_words.py`` makes of the catalogs now."""
    shipped = shipped_words()
    assert words_text(shipped) == words_text(catalog_words(ROOT)), (
        "run: python scripts/fence_words.py"
    )
    assert shipped["it"]["engine.capture_only"][1] == italian("engine.capture_only")


STEPS = """\
# Two pieces

```dama
position: "W:W31:B27,19,10"
claim: multi-capture
move: 31x22x15
show: {steps: true}
```
"""


@pytest.mark.slow
def test_the_step_controls_show_the_pictures_inside_the_page(browser: Any, tmp_path: Path) -> None:
    """In a real browser, on a page with no site around it: the buttons step through the capture."""
    page_file = tmp_path / "page.html"
    body = convert(STEPS)
    page_file.write_text(f"<!doctype html><html><body>{body}</body></html>", encoding="utf-8")
    page = browser.new_page()
    try:
        page.goto(page_file.as_uri())
        buttons = page.locator(".dama-steps button")
        assert buttons.count() == 4  # first, previous, next, last: the script ran
        image = page.locator("img.dama-board")
        whole = image.get_attribute("src")
        buttons.nth(0).click()  # the start of the capture
        start = image.get_attribute("src")
        assert start != whole and start is not None
        [board] = pictures(f'src="{start}"')
        pieces = re.findall(r'class="piece (white|black) man" data-square="([0-9]+)"', board)
        placed = [("black", "10"), ("black", "19"), ("black", "27"), ("white", "31")]
        assert sorted(pieces) == placed  # W:W31:B27,19,10, before the capture
        buttons.nth(3).click()  # back to the whole diagram
        assert image.get_attribute("src") == whole
    finally:
        page.close()


def test_file_may_not_lead_out_through_a_link_or_name_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "diagrams").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n")
    outside = tmp_path / "outside.yaml"
    outside.write_text((ROOT / "diagrams" / "man-move.yaml").read_text(encoding="utf-8"))
    (project / "diagrams" / "linked.yaml").symlink_to(outside)
    monkeypatch.chdir(project)
    for name, words in (("diagrams/linked.yaml", "outside the project"), ("diagrams", "no file")):
        text = f"# Page\n\n```dama\nfile: {name}\n```\n"
        with pytest.raises(FenceError) as caught:
            convert(text)
        assert caught.value.line == line_of(text, f"file: {name}")
        assert words in caught.value.message


def test_verify_refuses_a_page_with_a_fence_that_is_not_utf8(tmp_path: Path) -> None:
    """Without a fence, the page would hold nothing to check (tests/test_verify.py)."""
    from dama_diagrams.diagram.report import check_markdown

    page = tmp_path / "page.md"
    page.write_bytes(b"# Page\n\nCaf\xe9\n" + GOOD.encode())
    [failure] = check_markdown(page)
    assert str(failure.error) == f"{page}:3: the page is not UTF-8 text; save it as UTF-8"  # type: ignore[union-attr]
