"""Alt texts and SVG descriptions are written from what the picture draws.

The checks read the drawn SVG (its marker classes and piece squares), not the
code that writes the words, so a description that names a marker the picture
lacks, or misses one it has, fails.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dama_diagrams.diagram import load_diagram, verify
from dama_diagrams.site.i18n import Catalog, available_languages, load_catalog
from dama_diagrams.site.messages import MESSAGES
from dama_diagrams.site.pages.figures import Figure, figure_view, load_figures

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = available_languages(ROOT)
SVG = "{http://www.w3.org/2000/svg}"
FIGURES = load_figures(ROOT)


def _catalog(language: str) -> Catalog:
    return load_catalog(ROOT, language)


def _classes(svg: str) -> set[str]:
    return set(re.findall(r'class="([^"]*)"', svg))


def _sentence(catalog: Catalog, key: str) -> re.Pattern[str]:
    """The catalog's sentence with any values in its placeholders."""
    raw = catalog.raw(MESSAGES[key], key)
    parts = re.split(r"\{[a-z_]+\}", raw)
    return re.compile(".+?".join(re.escape(part) for part in parts))


def _says(alt: str, catalog: Catalog, *keys: str) -> bool:
    return any(_sentence(catalog, key).search(alt) for key in keys)


def test_multi_capture_is_described_as_drawn() -> None:
    """Worked by hand: White's man on 31 jumps 28, 20 and 12 and lands on 24, 15 and 8."""
    drawn = FIGURES["multi-capture"].draw(_catalog("en"))
    assert drawn.alt == (
        "White: man on 31. Black: men on 12, 20, 28. White to move. "
        "The start square, 31, is filled in. "
        "The landing squares, 24, 15 and 8, have rings numbered in the order of the jumps. "
        "The captured pieces on 28, 20 and 12 each have a ring and a corner badge. "
        "A solid arrow shows the move 31x24x15x8."
    )
    desc = ET.fromstring(drawn.picture.svg).find(f"{SVG}desc")
    assert desc is not None and desc.text == drawn.alt


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_description_names_exactly_the_markers_drawn(language: str) -> None:
    catalog = _catalog(language)
    for diagram_id, figure in FIGURES.items():
        drawn = figure.draw(catalog)
        classes = _classes(drawn.picture.svg)
        alt = drawn.alt
        expected = {
            ("alt.start",): "marker start" in classes,
            ("alt.landing", "alt.landings", "alt.landings_numbered"): "marker landing" in classes,
            ("alt.landings_numbered",): "marker landing order" in classes,
            ("alt.captured_one", "alt.captured"): "marker captured" in classes,
            ("alt.arrow", "alt.arrows"): "arrow" in classes,
            ("alt.rejected_arrow", "alt.rejected_arrows"): "arrow rejected" in classes,
            ("alt.turn",): False,  # "White to move." says it; the disc is not described again
        }
        for keys, present in expected.items():
            assert _says(alt, catalog, *keys) == present, (language, diagram_id, keys, alt)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_description_lists_the_pieces_on_the_board(language: str) -> None:
    """Every square with a piece in the picture is named in the description's position part."""
    catalog = _catalog(language)
    for diagram_id, figure in FIGURES.items():
        drawn = figure.draw(catalog)
        squares = {
            element.get("data-square")
            for element in ET.fromstring(drawn.picture.svg).iter()
            if element.get("class", "").startswith("piece ") and element.get("data-square")
        }
        to_move = (catalog.text("position.white_to_move"), catalog.text("position.black_to_move"))
        position_part = re.split("|".join(map(re.escape, to_move)), drawn.alt)[0]
        named = set(re.findall(r"\d+", position_part))
        assert squares <= named, (language, diagram_id)


@pytest.mark.parametrize(
    ("language", "wanted"),
    [
        (
            "en",
            "Empty board: the 32 dark squares are numbered from 1, top left, to 32, bottom right.",
        ),
        (
            "it",
            "Damiera vuota: le 32 caselle scure sono numerate da 1, in alto a sinistra, "
            "a 32, in basso a destra.",
        ),
    ],
)
def test_the_empty_numbered_board_names_its_numbers_and_no_side_to_move(
    language: str, wanted: str
) -> None:
    """An empty board has no side to move: no disc, no legend entry, and its alt names 1 to 32."""
    figure = FIGURES["board-numbers"]
    drawn = figure.draw(_catalog(language))
    assert drawn.alt == wanted
    assert not any(c.startswith("side-to-move") for c in _classes(drawn.picture.svg))
    assert not {"white_to_move", "black_to_move"} & set(figure.view.legend)


def test_no_description_says_crossed_out() -> None:
    """Rejected moves are drawn dashed; the old hand-written alt texts said 'crossed out'."""
    for figure in FIGURES.values():
        assert "cross" not in figure.draw(_catalog("en")).alt.lower()


def _figure(tmp_path: Path, text: str) -> Figure:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    verified = verify(load_diagram(path))
    return Figure(verified, figure_view(verified))


def test_without_arrows_a_rejected_move_is_described_by_its_dashed_ring(tmp_path: Path) -> None:
    figure = _figure(
        tmp_path,
        'position: "W:WK23:B19,K28"\nclaim: priority\nmove: 23x32\nrule: most-kings\n'
        "rejected: [23x14]\nshow: {arrows: false, turn: false}\ntitle: A case\n",
    )
    catalog = _catalog("en")
    drawn = figure.draw(catalog)
    classes = _classes(drawn.picture.svg)
    assert "arrow" not in classes and "marker rejected" in classes
    assert "A dashed ring marks where the move 23x14 would end; it is not allowed." in drawn.alt
    assert "arrow" not in drawn.alt
    assert not any(c.startswith("side-to-move") for c in classes)
    assert "whose turn" not in drawn.alt
    assert "White to move." in drawn.alt  # a fact of the position, disc or not
    turns = {"white_to_move", "black_to_move"}
    assert not turns & set(figure.view.legend) and "rejected" in figure.view.legend
    # The same position with the disc, and no steps (one piece taken): White's turn only.
    assert turns & set(FIGURES["priority-most-kings"].view.legend) == {"white_to_move"}


def test_step_pictures_describe_their_own_board(tmp_path: Path) -> None:
    """Each step's SVG describes its own board: in the final one 28, 20 and 12 are gone."""
    catalog = _catalog("en")
    steps = FIGURES["multi-capture"].step_pictures(catalog)
    assert len(steps) == 5  # start, three landings, final
    final = ET.fromstring(steps[-1].svg)
    title, desc = final.find(f"{SVG}title"), final.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert title.text == "Final position: the captured pieces on 28, 20, 12 come off the board."
    assert desc.text is not None
    # The move is over: White's man stands on 8, and it is Black's turn.
    assert desc.text.startswith("White: man on 8. Black: no pieces. Black to move.")
    second = ET.fromstring(steps[2].svg).find(f"{SVG}title")
    assert second is not None
    assert second.text == "Step 2 of 3: the man lands on 15, taking the man on 20."
