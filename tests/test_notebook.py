"""Positions and verified diagrams in Jupyter: IPython's own display formatter shows their board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def svg_of(thing: object) -> str:
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(thing)
    assert "image/svg+xml" in data, sorted(data)
    svg = data["image/svg+xml"]
    assert isinstance(svg, str)
    return svg


def squares(svg: str, side: str) -> set[int]:
    found = re.findall(rf'class="piece {side} (?:man|king)" data-square="([0-9]+)"', svg)
    return {int(square) for square in found}


def test_a_verified_diagram_shows_without_importing_anything_else() -> None:
    """``dama_diagrams.verify`` alone is enough: the pictures load with it, in a new process."""
    import subprocess
    import sys

    code = (
        "import dama_diagrams as d; "
        f"v = d.verify(d.load_diagram({str(ROOT / 'diagrams' / 'man-move.yaml')!r})); "
        "print(v._repr_svg_()[:4])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "<svg"


def test_a_position_shows_as_its_board() -> None:
    pytest.importorskip("IPython")
    from dama_diagrams import Position

    svg = svg_of(Position.initial())
    assert svg.startswith("<svg")
    assert squares(svg, "black") == set(range(1, 13))  # the rules' starting position
    assert squares(svg, "white") == set(range(21, 33))


def test_a_verified_diagram_shows_as_the_sites_picture() -> None:
    pytest.importorskip("IPython")
    from dama_diagrams import load_diagram, verify

    path = ROOT / "diagrams" / "man-capture.yaml"
    svg = svg_of(verify(load_diagram(path)))
    fen = re.search(r'^position: "W:W([0-9]+):B([0-9]+)"', path.read_text(), re.MULTILINE)
    assert fen is not None  # W:W30:B27, written in the file
    assert squares(svg, "white") == {int(fen[1])}
    assert squares(svg, "black") == {int(fen[2])}
    assert "marker captured" in svg  # the man it takes is marked, as on the site


# == The whole figure, from YAML text, in a language ==========================

NOTEBOOK_CELL = r"""
import json, sys

for name in ("mkdocs", "material", "typst", "cairosvg", "cairocffi", "PIL"):
    sys.modules[name] = None  # as after `pip install dama-diagrams`, without the site extra

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

config = Config()
config.HistoryManager.enabled = False
shell = InteractiveShell.instance(config=config)
with capture_output() as captured:
    shell.display_trap.hook = sys.displayhook  # the cell's last value too, as a notebook shows it
    result = shell.run_cell(sys.stdin.read())
result.raise_error()
json.dump([output.data for output in captured.outputs], sys.stdout)
"""
"""Runs the code on stdin as one notebook cell; prints what the notebook would show."""


def manual_notebook_example() -> str:
    """The code of the manual's "Notebooks" (manual/docs/anywhere.md), as a reader copies it."""
    readme = (ROOT / "manual" / "docs" / "anywhere.md").read_text(encoding="utf-8")
    section = re.split(r"\n#{1,3} ", readme.split("\n## Notebooks\n", 1)[1], maxsplit=1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None, "the manual's Notebooks section has no python example"
    return code[1]


def addresses(html: str) -> list[str]:
    return re.findall(r'\b(?:src|href)="([^"]*)"', html)


def test_the_manuals_notebook_example_runs_in_an_empty_folder(tmp_path: Path) -> None:
    """A pip user's notebook: no file of the repository, no site extra; what each line shows."""
    import json
    import os
    import subprocess
    import sys

    pytest.importorskip("IPython")
    empty = tmp_path / "empty"
    empty.mkdir()
    environment = {**os.environ, "IPYTHONDIR": str(tmp_path / "ipython")}
    done = subprocess.run(
        [sys.executable, "-c", NOTEBOOK_CELL],
        input=manual_notebook_example(),
        cwd=empty,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    board, english, italian = json.loads(done.stdout)
    assert list(empty.iterdir()) == []

    assert "text/html" not in board  # a position is its board
    assert squares(board["image/svg+xml"], "black") == set(range(1, 13))
    assert squares(board["image/svg+xml"], "white") == set(range(21, 33))

    caption = "The white man takes the black man on 27 and lands on 23."  # {captured}, {end}
    assert "image/svg+xml" in english  # the board alone, for a frontend without HTML
    page = english["text/html"]
    assert '<div class="dama-fence" lang="en">' in page
    assert caption in page and "Checked by the engine:" in page and "captured piece" in page

    page = italian["text/html"]
    assert '<div class="dama-fence" lang="it">' in page
    assert f'<span class="dama-caption">{caption}</span>' in page  # the caption as written
    assert "Mossa: <code>30x23</code>" in page
    assert '<ul class="dama-legend">' in page
    assert "casella di partenza" in page and "pezzo preso" in page  # the legend
    assert "<strong>Verificato dal motore:</strong>" in page  # the engine's line
    assert "30x23 è l\u2019unica mossa regolare: la presa è obbligatoria." in page
    assert "Checked by the engine" not in page and "captured piece" not in page
    assert "<style>" in page and ".dama-fence .dama-engine" in page  # its own style
    assert addresses(page) and all(a.startswith("data:") for a in addresses(page))


def test_a_verified_diagram_shows_as_its_whole_figure_and_keeps_its_board() -> None:
    pytest.importorskip("IPython")
    from IPython.core.formatters import DisplayFormatter

    import dama_diagrams as dama

    verified = dama.verify(dama.load_diagram(ROOT / "diagrams" / "man-capture.yaml"))
    data, _ = DisplayFormatter().format(verified)
    assert data["image/svg+xml"] == verified._repr_svg_()
    page = data["text/html"]
    assert page == dama.figure(verified).html == str(dama.figure(verified, lang="en"))
    assert '<figure class="dama-figure" id="figure-man-capture">' in page
    assert "The white man jumps over the black man on 27 and lands on 23." in page
    assert "Checked by the engine:" in page and "<script" in page  # the steps, where scripts run


def test_a_figure_in_each_language_of_the_fence() -> None:
    import dama_diagrams as dama

    verified = dama.verify(
        dama.diagram_from_yaml('position: "W:W30:B27"\nclaim: capture\nmove: 30x23\n', id="presa")
    )
    engine = {  # the first words of ui.engine in each catalog
        "nl": "Gecontroleerd",
        "it": "Verificato",
        "en": "Checked",
        "de": "Von der Engine",
        "fr": "Vérifié",
        "es": "Comprobado",
    }
    for lang, word in engine.items():
        figure = dama.figure(verified, lang=lang)
        assert figure.lang == lang and f'lang="{lang}"' in figure.html
        assert f"<strong>{word}" in figure.html, lang
        assert repr(figure) == f"<DiagramFigure 'presa' lang={lang!r}>"
    with pytest.raises(dama.DamaError, match="not 'pt'"):
        dama.figure(verified, lang="pt")
    with pytest.raises(TypeError, match="verify"):
        dama.figure(verified.diagram)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "line", "start"),
    [
        ('position: "W:W30:B27"\nclaim: capture\ncaptoin: "x"\n', 3, "unknown key 'captoin'"),
        ('position: "W:W30:B27"\nclaim: move\nmove: 30-26\n', 3, "30-26 is not legal"),
        ('position: "W:W30:B27"\nclaim: capture\nmove: [30x23\n', 3, "this is not valid YAML"),
    ],
    ids=["typo", "refuted", "broken"],
)
def test_a_bad_yaml_text_gives_a_dama_error_at_its_line(text: str, line: int, start: str) -> None:
    import dama_diagrams as dama

    with pytest.raises(dama.DamaError) as raised:
        dama.verify(dama.diagram_from_yaml(text))
    assert raised.value.line == line
    assert str(raised.value).startswith(f"<string>:{line}: {start}")
    with pytest.raises(dama.DamaError, match="no diagram id"):
        dama.diagram_from_yaml(text, id="Presa 1")
