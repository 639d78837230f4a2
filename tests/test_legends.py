"""Each picture's legend lists exactly the marks that picture draws (review finding F7).

A figure's page shows its main picture, and its step controls show each step
picture; without JavaScript, and in print, only the main picture is shown.
So the figure's legend is its main picture's, each step has its own, and the
page's HTML hides the entries that only a step needs.

The expected entries are worked out by hand from ``diagrams/*.yaml`` and
``games/example.pdn``, never read back from the code.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from dama_diagrams.render.legend import LEGEND_KEYS, legend_html
from dama_diagrams.site._common import DIAGRAM_DIR
from dama_diagrams.site.i18n import load_catalog
from dama_diagrams.site.pages.figures import load_figures
from dama_diagrams.site.pages.renderer import PageRenderer

from .conftest import ROOT, book_markup

FIGURES = load_figures(ROOT)

MULTI_CAPTURE = ("start", "landing", "order", "captured", "white_to_move")
"""W:W31:B12,20,28, 31x24x15x8: White's man, three landings in order, three men taken."""
MULTI_CAPTURE_STEPS = (
    ("white_to_move",),  # the start: the board alone, White to move
    ("start", "landing", "captured", "white_to_move"),  # one landing: no order yet
    ("start", "landing", "order", "captured", "white_to_move"),
    ("start", "landing", "order", "captured", "white_to_move"),
    ("start", "landing", "black_to_move"),  # the men are off; the man on 8 is not crowned
)
GAME = ("king", "black_to_move")
"""After 6. 26x17x10x1 White's man is crowned on 1, no square is marked, Black is to move."""


@pytest.fixture(scope="module")
def renderer() -> PageRenderer:
    """The English pages, rendered without MkDocs: every figure drawn, every exercise board."""
    catalog = load_catalog(ROOT, "en")
    views = {figure_id: figure.view for figure_id, figure in FIGURES.items()}
    drawn = {figure_id: figure.draw(catalog) for figure_id, figure in FIGURES.items()}
    boards = {
        figure_id: board
        for figure_id, figure in FIGURES.items()
        if (board := figure.draw_exercise(catalog)) is not None
    }
    return PageRenderer(ROOT, catalog, views, drawn, boards=boards)


def _items(figure_html: str) -> dict[str, bool]:
    """Each legend entry of a figure, and whether it is hidden."""
    items = re.findall(r'<li class="dama-legend-([a-z_]+)"( hidden(?:="hidden")?)?>', figure_html)
    return {key: bool(hidden) for key, hidden in items}


def _steps_data(figure_html: str) -> dict[str, object]:
    found = re.search(r'data-steps="([^"]*)"', figure_html)
    assert found is not None
    data: dict[str, object] = json.loads(html.unescape(found[1]))
    return data


# --- the keys of each picture --------------------------------------------------------


def test_the_multi_capture_legend_is_its_pictures_white_to_move_only() -> None:
    view = FIGURES["multi-capture"].view
    assert view.legend == MULTI_CAPTURE
    assert "black_to_move" not in view.legend


def test_each_step_of_the_multi_capture_has_its_own_legend() -> None:
    view = FIGURES["multi-capture"].view
    assert len(view.step_legends) == len(view.steps) == 5
    assert view.step_legends == MULTI_CAPTURE_STEPS
    assert view.step_legends[-1][-1] == "black_to_move"  # the final picture: Black's turn


def test_the_game_legend_is_its_final_position_without_markers() -> None:
    view = FIGURES["example-game"].view
    assert view.legend == GAME
    assert not {"start", "landing", "order"} & set(view.legend)


def test_each_position_of_the_game_has_its_own_legend() -> None:
    """The start, then eleven moves; only 26x17x10x1 jumps more than once and crowns."""
    legends = FIGURES["example-game"].view.step_legends
    assert len(legends) == 12
    assert legends[0] == ("white_to_move",)
    for ply, keys in enumerate(legends[1:-1], 1):
        side = "black_to_move" if ply % 2 else "white_to_move"
        assert keys == ("start", "landing", side), ply
    assert legends[-1] == ("start", "landing", "order", "king", "black_to_move")


@pytest.mark.parametrize(
    ("diagram_id", "keys"),
    [
        # W:W30:B27, 30x23: one landing, one man taken.
        ("man-capture", ("start", "landing", "captured", "white_to_move")),
        # W:WK23:B19,K28, 23x32 and the rejected 23x14.
        (
            "priority-most-kings",
            ("start", "landing", "captured", "king", "rejected", "white_to_move"),
        ),
    ],
)
def test_a_figure_without_steps_keeps_its_legend(diagram_id: str, keys: tuple[str, ...]) -> None:
    view = FIGURES[diagram_id].view
    assert view.steps == () and view.step_legends == ()
    assert view.legend == keys


# --- the page's HTML -------------------------------------------------------------------


def test_the_page_hides_the_entries_only_a_step_shows(renderer: PageRenderer) -> None:
    figure = renderer.figure("multi-capture")
    assert _items(figure) == {**dict.fromkeys(MULTI_CAPTURE, False), "black_to_move": True}
    assert _steps_data(figure)["legends"] == [list(keys) for keys in MULTI_CAPTURE_STEPS]


def test_the_game_figure_shows_only_its_final_positions_entries(renderer: PageRenderer) -> None:
    figure = renderer.figure("example-game")
    shown = {key for key, hidden in _items(figure).items() if not hidden}
    hidden = {key for key, hidden in _items(figure).items() if hidden}
    assert shown == set(GAME)
    assert hidden == {"start", "landing", "order", "white_to_move"}
    legends = _steps_data(figure)["legends"]
    assert isinstance(legends, list) and len(legends) == 12


def test_a_figure_without_steps_has_the_same_legend_html_as_before(renderer: PageRenderer) -> None:
    figure = renderer.figure("priority-most-kings")
    labels = {key: renderer.catalog.text(f"legend.{key}") for key in LEGEND_KEYS}
    keys = ("start", "landing", "captured", "king", "rejected", "white_to_move")
    assert legend_html(labels, keys=keys, icon_folder="assets/legend") in figure
    assert " hidden" not in figure and "data-steps" not in figure


def test_the_site_shows_each_icon_as_a_file_and_other_sites_inline() -> None:
    """The rules site writes each icon once per language; the fence's pages carry their own."""
    labels = dict.fromkeys(LEGEND_KEYS, "label")
    shared = legend_html(labels, keys=("start", "king"), icon_folder="../a&b")
    assert re.findall(r"<img [^>]*>", shared) == [
        '<img src="../a&amp;b/start.svg" alt="" width="24" height="24">',
        '<img src="../a&amp;b/king.svg" alt="" width="24" height="24">',
    ]
    assert "<svg" not in shared
    inline = legend_html(labels, keys=("start", "king"))
    assert inline.count("<svg") == 2 and "<img" not in inline
    assert legend_html(labels, keys=("start",), icons=False, icon_folder="x").count("<") == 6


def test_the_printed_book_lists_only_the_main_pictures_entries() -> None:
    """The book prints the main picture alone: its legend leaves out what only a step shows."""
    catalog = load_catalog(ROOT, "en")
    views = {figure_id: figure.view for figure_id, figure in FIGURES.items()}
    drawn = {figure_id: figure.draw(catalog) for figure_id, figure in FIGURES.items()}
    figure = PageRenderer(ROOT, catalog, views, drawn, book=True).figure("multi-capture")
    picture = drawn["multi-capture"].picture.svg.encode()
    assets = {f"{DIAGRAM_DIR}/multi-capture.svg": picture}
    markup = book_markup({"capturing": f"# Capturing\n\n{figure}\n"}, assets)
    (legend,) = re.findall(r"^#dama-legend\(.*$", markup, re.MULTILINE)
    assert tuple(re.findall(r'"legend/([a-z_]+)\.svg"', legend)) == MULTI_CAPTURE


def test_legend_html_marks_only_the_hidden_keys() -> None:
    labels = dict.fromkeys(LEGEND_KEYS, "label")
    keys = ("start", "black_to_move")
    plain = legend_html(labels, keys=keys)
    assert legend_html(labels, keys=keys, hidden=()) == plain
    marked = legend_html(labels, keys=keys, hidden={"black_to_move"})
    assert marked == plain.replace(
        '<li class="dama-legend-black_to_move">', '<li class="dama-legend-black_to_move" hidden>'
    )
    assert '<li class="dama-legend-start">' in marked
