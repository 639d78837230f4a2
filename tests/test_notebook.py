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
