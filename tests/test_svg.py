"""SVG diagrams: geometry checked by hand, markers, accessibility, escaping, bytes.

The expected geometry is derived here from the numbering rule itself (dark
squares counted left to right, top to bottom, from the top-left corner), not
from the engine's helpers, so a mistake in ``board.py`` cannot hide itself.
"""

from __future__ import annotations

import io
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from PIL import Image, ImageChops, ImageFont

from dama_diagrams import Move, Position, load_diagram, verify
from dama_diagrams.render import (
    LEGEND_KEYS,
    Markers,
    SvgPicture,
    Theme,
    legend_html,
    legend_svg,
    render_picture,
    render_png,
    render_svg,
)
from dama_diagrams.render._describe import describe_position
from dama_diagrams.render.figure import diagram_svg, exercise_svg
from dama_diagrams.render.theme import DEFAULT_COLORS, THEME_NAMES

NS = "{http://www.w3.org/2000/svg}"


def hand_cells() -> dict[int, tuple[int, int]]:
    """Square number -> (row, column), counting dark squares from the top-left."""
    cells = {}
    number = 0
    for row in range(8):
        for column in range(8):
            if (row + column) % 2 == 0:  # the top-left corner is dark
                number += 1
                cells[number] = (row, column)
    return cells


CELLS = hand_cells()


class Board:
    """A parsed diagram, with the board's place found from its light square."""

    def __init__(self, svg: str, *, flipped: bool = False):
        self.svg = svg
        self.root = ET.fromstring(svg)
        self.parents = {child: parent for parent in self.root.iter() for child in parent}
        (light,) = self.find("rect", "square light")
        self.x0, self.y0 = float(light.get("x", "0")), float(light.get("y", "0"))
        self.cell = float(light.get("width", "0")) / 8
        self.flipped = flipped

    def find(self, tag: str, classes: str) -> list[ET.Element]:
        """Elements whose class list contains all of ``classes``."""
        wanted = set(classes.split())
        return [
            element
            for element in self.root.iter(NS + tag)
            if wanted <= set(element.get("class", "").split())
        ]

    def exactly(self, tag: str, classes: str) -> list[ET.Element]:
        """Elements whose class is exactly ``classes``."""
        return [e for e in self.root.iter(NS + tag) if e.get("class") == classes]

    def inherited(self, element: ET.Element, attribute: str) -> str | None:
        node: ET.Element | None = element
        while node is not None:
            if attribute in node.attrib:
                return node.attrib[attribute]
            node = self.parents.get(node)
        return None

    def cell_of(self, square: int) -> tuple[int, int]:
        row, column = CELLS[square]
        return (7 - row, 7 - column) if self.flipped else (row, column)

    def centre(self, square: int) -> tuple[float, float]:
        row, column = self.cell_of(square)
        return self.x0 + (column + 0.5) * self.cell, self.y0 + (row + 0.5) * self.cell

    def square_at(self, x: float, y: float) -> int | None:
        """The square (by hand numbering) whose cell holds the point."""
        column = int((x - self.x0) // self.cell)
        row = int((y - self.y0) // self.cell)
        if self.flipped:
            row, column = 7 - row, 7 - column
        for square, cell in CELLS.items():
            if cell == (row, column):
                return square
        return None

    def near(self, point: tuple[float, float], square: int, tolerance: float = 0.06) -> bool:
        x, y = self.centre(square)
        return abs(point[0] - x) <= tolerance * self.cell and abs(point[1] - y) <= (
            tolerance * self.cell
        )


def xy(element: ET.Element, x: str = "x", y: str = "y") -> tuple[float, float]:
    return float(element.get(x, "nan")), float(element.get(y, "nan"))


def contains(rect: ET.Element, x: float, y: float) -> bool:
    left, top = xy(rect)
    width, height = xy(rect, "width", "height")
    return left <= x < left + width and top <= y < top + height


def numbers_in(path_data: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path_data)]


def pairs(path_data: str) -> list[tuple[float, float]]:
    values = numbers_in(path_data)
    return list(zip(values[::2], values[1::2], strict=True))


RULEBOOK_5_7 = Position.from_fen("W:W31:B12,20,28")


def rulebook_capture() -> tuple[Board, Markers]:
    (move,) = RULEBOOK_5_7.legal_moves()
    markers = Markers.from_move(move)
    return Board(render_svg(RULEBOOK_5_7, markers=markers, numbers="all")), markers


# -- the board ------------------------------------------------------------------


def test_hand_numbering_matches_the_rules() -> None:
    assert CELLS[1] == (0, 0)  # square 1: top-left corner
    assert CELLS[32] == (7, 7)  # square 32: bottom-right corner, dark
    assert CELLS[22] == (5, 3) and CELLS[19] == (4, 4)  # 22-19 is a diagonal step


@pytest.mark.parametrize("flipped", [False, True])
def test_each_dark_square_rect_is_on_its_numbered_cell(flipped: bool) -> None:
    board = Board(render_svg(Position.initial(), flipped=flipped), flipped=flipped)
    rects = board.find("rect", "square dark")
    assert len(rects) == 32
    seen = set()
    for rect in rects:
        x = float(rect.get("x", "")) + float(rect.get("width", "")) / 2
        y = float(rect.get("y", "")) + float(rect.get("height", "")) / 2
        square = board.square_at(x, y)
        assert square is not None
        assert square == int(rect.get("data-square", "0"))
        assert board.near((x, y), square, tolerance=0.001)
        seen.add(square)
    assert seen == set(range(1, 33))


def test_square_colours_at_every_cell() -> None:
    board = Board(render_svg(Position.empty()))
    squares = board.find("rect", "square")
    for row in range(8):
        for column in range(8):
            x = board.x0 + (column + 0.5) * board.cell
            y = board.y0 + (row + 0.5) * board.cell
            # The last square drawn under the point is the one you see.
            top = [rect for rect in squares if contains(rect, x, y)][-1]
            expected = "square dark" if (row + column) % 2 == 0 else "square light"
            assert top.get("class") == expected
            assert board.inherited(top, "fill") == DEFAULT_COLORS[expected]
    # The orientation rule of the design: bottom-right dark, bottom-left light.
    assert (7 + 7) % 2 == 0 and (7 + 0) % 2 == 1


def test_square_numbers_all_sit_in_their_squares() -> None:
    board = Board(render_svg(Position.empty(), numbers="all"))
    labels = [t for t in board.find("text", "") if board.inherited(t, "class") == "number"]
    assert sorted(int(t.text or "") for t in labels) == list(range(1, 33))
    for label in labels:
        x, y = float(label.get("x", "")), float(label.get("y", ""))
        assert board.square_at(x, y - 1) == int(label.text or "")


def test_number_modes() -> None:
    _, markers = rulebook_capture()

    def shown(mode: str) -> set[int]:
        board = Board(render_svg(RULEBOOK_5_7, markers=markers, numbers=mode))
        texts = [t for t in board.find("text", "") if board.inherited(t, "class") == "number"]
        return {int(t.text or "") for t in texts}

    assert shown("all") == set(range(1, 33))
    assert shown("marked") == {31, 24, 15, 8, 28, 20, 12}
    assert shown("none") == set()


@pytest.mark.parametrize("flipped", [False, True])
def test_a_piece_given_on_square_n_is_drawn_on_square_n(flipped: bool) -> None:
    # Two positions that between them put a piece on every square.
    fens = ["W:W13-16,21-24,K25,K26:B1-4,9-12,K17,K18", "B:W29-32,K5,K6:B19,20,27,28,K7,K8"]
    for fen in fens:
        position = Position.from_fen(fen)
        board = Board(render_svg(position, flipped=flipped), flipped=flipped)
        drawn = {}
        for use in board.find("use", "piece"):
            x, y = float(use.get("x", "")), float(use.get("y", ""))
            square = board.square_at(x, y)
            assert square is not None and board.near((x, y), square, tolerance=0.001)
            classes = set((use.get("class") or "").split())
            color = "white" if "white" in classes else "black"
            drawn[square] = (color, "king" in classes)
            # The shape it points at is that piece's shape.
            target = (use.get("href") or "").removeprefix("#")
            (shape,) = [e for e in board.root.iter() if e.get("id") == target]
            assert {color, "king" if "king" in classes else "man"} <= set(
                (shape.get("class") or "").split()
            )
        expected = {
            square: (piece.color.value, piece.king) for square, piece in position.pieces().items()
        }
        assert drawn == expected


def test_flipped_board_puts_square_1_bottom_right() -> None:
    board = Board(render_svg(Position.from_fen("W:W22:B1"), flipped=True), flipped=True)
    (black,) = board.find("use", "black")
    x, y = float(black.get("x", "")), float(black.get("y", ""))
    assert x > board.x0 + 7 * board.cell and y > board.y0 + 7 * board.cell


def test_king_is_drawn_differently_from_a_man() -> None:
    board = Board(render_svg(Position.from_fen("W:W22,K23:B11,K12")))
    for color in ("white", "black"):
        (man,) = [e for e in board.root.iter() if e.get("id") == f"board-{color}-man"]
        (king,) = [e for e in board.root.iter() if e.get("id") == f"board-{color}-king"]
        assert not any("crown" in (e.get("class") or "") for e in man.iter())
        assert any("crown" in (e.get("class") or "") for e in king.iter())
        # Two stacked discs: twice the faces of a man.
        faces = [e for e in king.iter(NS + "circle") if e.get("class") == f"{color} piece"]
        assert len(faces) == 2
    hrefs = {use.get("class"): use.get("href") for use in board.find("use", "piece")}
    assert hrefs["piece white man"] != hrefs["piece white king"]


# -- markers -----------------------------------------------------------------------


def test_markers_from_move_use_the_moves_squares() -> None:
    move = Move.parse("31x24x15x8")
    markers = Markers.from_move(move, rejected=["22x13"])
    assert markers.start == 31
    assert markers.landings == (24, 15, 8)
    assert markers.captured == (28, 20, 12)
    assert markers.path == (31, 24, 15, 8)
    assert markers.rejected == ((22, 13),)


def test_markers_reject_squares_off_the_board() -> None:
    with pytest.raises(ValueError, match="33"):
        Markers(landings=(33,))
    with pytest.raises(ValueError, match="start"):
        Markers(rejected=((5,),))


def test_rulebook_5_7_capture_markers_are_on_the_right_squares() -> None:
    board, _ = rulebook_capture()
    # Start: square 31 is row 7, column 5 (bottom row, sixth cell).
    (start,) = board.find("rect", "marker start")
    x = float(start.get("x", "")) + board.cell / 2
    y = float(start.get("y", "")) + board.cell / 2
    assert board.square_at(x, y) == 31 and CELLS[31] == (7, 5)
    # Landings 24, 15, 8 at (5,7), (3,5), (1,7), numbered 1, 2, 3 in that order.
    rings = [c for c in board.find("circle", "") if board.inherited(c, "class") == "marker landing"]
    ring_squares = [board.square_at(float(c.get("cx", "")), float(c.get("cy", ""))) for c in rings]
    assert ring_squares == [24, 15, 8]
    assert [CELLS[s] for s in (24, 15, 8)] == [(5, 7), (3, 5), (1, 7)]
    (order,) = board.find("g", "marker landing order")
    badges = [
        (board.square_at(float(t.get("x", "")), float(t.get("y", ""))), t.text)
        for t in order.iter(NS + "text")
    ]
    assert badges == [(24, "1"), (15, "2"), (8, "3")]
    # Captured: 28, 20, 12 at (6,6), (4,6), (2,6): the squares jumped over, by hand.
    assert [CELLS[s] for s in (28, 20, 12)] == [(6, 6), (4, 6), (2, 6)]
    rings = [c for c in board.find("circle", "marker captured ring")]
    centres = [(float(c.get("cx", "")), float(c.get("cy", ""))) for c in rings]
    assert [board.square_at(*c) for c in centres] == [28, 20, 12]
    for centre, square in zip(centres, (28, 20, 12), strict=True):
        assert board.near(centre, square)
    # Each ring lies outside its piece (radius 36), so the piece, a king's crown too, is uncovered.
    assert all(float(c.get("r", "")) - float(c.get("stroke-width", "")) / 2 > 36 for c in rings)
    badges = board.find("circle", "marker captured badge")
    assert [board.square_at(float(c.get("cx", "")), float(c.get("cy", ""))) for c in badges] == [
        28, 20, 12
    ]  # fmt: skip
    # Pieces are still drawn under the crosses: a capture marks, it does not erase.
    under = {
        board.square_at(float(u.get("x", "")), float(u.get("y", "")))
        for u in board.find("use", "black")
    }
    assert under == {28, 20, 12}


def test_arrow_follows_the_move_through_its_landings() -> None:
    board, _ = rulebook_capture()
    (arrow,) = board.exactly("g", "arrow")
    line = next(arrow.iter(NS + "path"))
    points = pairs(line.get("d", ""))
    assert board.square_at(*points[0]) == 31
    assert board.near(points[1], 24) and board.near(points[2], 15)
    # The head points at square 8 from 15.
    head = list(arrow.iter(NS + "path"))[1]
    tip = pairs(head.get("d", ""))[1]
    assert board.square_at(*tip) == 8
    assert "stroke-dasharray" not in line.attrib


def test_rejected_moves_are_dashed_and_muted() -> None:
    position = Position.from_fen("W:WK21,31:B10,18,27")
    legal = position.legal_moves()
    assert [str(m) for m in legal] == ["31x22x13x6"]
    markers = Markers.from_move(legal[0], rejected=[Move.parse("21x14x5")])
    board = Board(render_svg(position, markers=markers))
    (main,) = board.exactly("g", "arrow")
    (rejected,) = board.find("g", "arrow rejected")
    main_line = next(main.iter(NS + "path"))
    rejected_line = next(rejected.iter(NS + "path"))
    assert "stroke-dasharray" in rejected_line.attrib
    assert "stroke-dasharray" not in main_line.attrib
    assert rejected_line.get("stroke") != main_line.get("stroke")
    assert float(rejected_line.get("stroke-width", "")) < float(main_line.get("stroke-width", ""))
    assert board.square_at(*pairs(rejected_line.get("d", ""))[0]) == 21
    # The rejected move's head is open (a chevron), the main one's is filled.
    assert list(rejected.iter(NS + "path"))[1].get("fill") == "none"
    assert list(main.iter(NS + "path"))[1].get("fill") not in (None, "none")


def test_rejected_move_ends_in_a_dashed_ring() -> None:
    position = Position.from_fen("W:W22:BK18")  # a man never captures a king
    markers = Markers.from_moves([], rejected=["22x13"])
    assert markers.start == 22 and markers.rejected == ((22, 13),) and not markers.path
    board = Board(render_svg(position, markers=markers))
    (ends,) = board.find("g", "marker rejected ring")
    assert "stroke-dasharray" in ends.attrib
    assert [board.square_at(*xy(c, "cx", "cy")) for c in ends] == [13]
    # Under the dashes, a halo as wide as the ring plus two units each side.
    (halo,) = board.find("g", "marker rejected halo")
    assert float(halo.get("stroke-width", "")) >= float(ends.get("stroke-width", "")) + 4
    assert [xy(c, "cx", "cy") for c in halo] == [xy(c, "cx", "cy") for c in ends]
    assert board.find("g", "marker captured") == []  # nothing is taken by a refused move


def test_free_choice_draws_every_legal_move() -> None:
    position = Position.from_fen("W:WK31:B18,20,K27,K28")  # FID 6.10: both are legal
    moves = position.legal_moves()
    assert [str(m) for m in moves] == ["31x22x13", "31x24x15"]
    markers = Markers.from_moves(moves)
    assert markers.path == (31, 22, 13) and markers.alternatives == ((31, 24, 15),)
    assert set(markers.captured) == {27, 18, 28, 20}
    board = Board(render_svg(position, markers=markers))
    arrows = board.exactly("g", "arrow")
    assert len(arrows) == 2 and board.find("g", "arrow rejected") == []
    (order,) = board.find("g", "marker landing order")
    badges = [(board.square_at(*xy(t)), t.text) for t in order.iter(NS + "text")]
    assert badges == [(22, "1"), (13, "2"), (24, "1"), (15, "2")]
    assert "Also legal: 31x24x15." in (board.root[1].text or "")


def test_a_square_landed_on_twice_shows_both_numbers() -> None:
    position = Position.from_fen("W:WK29:B10,11,18,19,26")
    markers = Markers.from_move("29x22x13x6x15x22")
    board = Board(render_svg(position, markers=markers))
    (order,) = board.find("g", "marker landing order")
    on_22 = [(xy(t), t.text) for t in order.iter(NS + "text") if board.square_at(*xy(t)) == 22]
    assert sorted(text or "" for _, text in on_22) == ["1", "5"]
    (first, _), (second, _) = on_22
    assert abs(first[0] - second[0]) >= 0.32 * board.cell  # side by side, not on top
    for disc in order[0]:
        assert_beside_the_crown(board, xy(disc, "cx", "cy"), float(disc.get("r", "")))


def test_a_two_digit_landing_number_gets_a_pill_wide_enough_for_it() -> None:
    # A king's long tour (only drawn here, not played): eleven landings.
    path = (29, 22, 13, 6, 15, 24, 20, 27, 18, 11, 2, 9)
    board = Board(
        render_svg(Position.empty(), markers=Markers(start=29, landings=path[1:], path=path))
    )
    (order,) = board.find("g", "marker landing order")
    discs, labels = order
    assert [t.text for t in labels] == [str(n) for n in range(1, 12)]
    shapes = list(discs)
    assert [s.tag for s in shapes] == [NS + "circle"] * 9 + [NS + "rect"] * 2
    for shape, label in zip(shapes, labels, strict=True):
        x, y = xy(label)
        if shape.tag == NS + "circle":
            assert xy(shape, "cx", "cy")[0] == x
            assert_beside_the_crown(board, xy(shape, "cx", "cy"), float(shape.get("r", "")))
            continue
        left, top = xy(shape)
        width, height = xy(shape, "width", "height")
        assert left + width / 2 == x and width >= 1.3 * height  # room for two digits
        assert top < y < top + height and shape.get("rx") == str(height / 2).removesuffix(".0")
        square = board.square_at(x, y) or 0
        _, cy = board.centre(square)
        assert board.square_at(left, top) == board.square_at(left + width, top + height) == square
        assert top - cy > CROWN_BOX[3] or top + height - cy < CROWN_BOX[1]  # above or below


CROWN_BOX = (-22.3, -21.3, 22.3, 5.1)
"""A king's crown from its square's centre, outline included (left, top, right,
bottom), by hand from ``_pieces._crown``: its face is 5 units up, its points
reach y = -12 with pearls of radius 3.2 at x = -18, 0, 18, its base is y = 9,
and its outline is 2.2 wide."""


def assert_beside_the_crown(board: Board, point: tuple[float, float], radius: float) -> None:
    """A disc lies wholly in its square, and touches nothing of the crown's box."""
    square = board.square_at(*point) or 0
    x, y = point
    cx, cy = board.centre(square)
    half = board.cell / 2
    assert abs(x - cx) + radius <= half and abs(y - cy) + radius <= half, (point, square)
    left, top, right, bottom = CROWN_BOX
    dx = max(left - (x - cx), 0.0, (x - cx) - right)
    dy = max(top - (y - cy), 0.0, (y - cy) - bottom)
    assert math.hypot(dx, dy) > radius, (point, square)


def test_arrows_can_be_turned_off() -> None:
    _, markers = rulebook_capture()
    board = Board(render_svg(RULEBOOK_5_7, markers=markers, arrows=False))
    assert board.find("g", "arrow") == []
    assert board.find("g", "marker captured")  # the other markers stay


def test_side_to_move_indicator() -> None:
    white = Board(render_svg(Position.initial(), side_to_move=True))
    (dot,) = white.find("circle", "side-to-move")
    assert "white" in (dot.get("class") or "")
    assert float(dot.get("cy", "")) > white.y0 + 7 * white.cell  # White plays up from the bottom
    assert float(dot.get("cx", "")) > white.x0 + 8 * white.cell  # beside the board
    black = Board(render_svg(Position.from_fen("B:W21:B12"), side_to_move=True, frame=False))
    (dot,) = black.find("circle", "side-to-move")
    assert "black" in (dot.get("class") or "") and float(dot.get("cy", "")) < black.cell
    assert render_svg(Position.initial()).count("side-to-move") == 0


# -- accessibility, ids, escaping -------------------------------------------------


def test_title_first_desc_and_role() -> None:
    root = ET.fromstring(render_svg(Position.initial(), title="Start", description="All pieces"))
    assert root.get("role") == "img"
    assert root[0].tag == NS + "title" and root[0].text == "Start"
    assert root[1].tag == NS + "desc" and root[1].text == "All pieces"
    assert root.get("aria-labelledby") == "board-title board-desc"


def test_default_description_reads_the_position() -> None:
    position = Position.from_fen("W:W22,23,K27:B11,18,19")
    text = describe_position(position)
    assert text.startswith("White: men on 22, 23; king on 27. Black: men on 11, 18, 19.")
    assert "White to move" in text
    root = ET.fromstring(render_svg(position))
    assert root[1].text == text


def test_default_description_reads_the_move() -> None:
    _, markers = rulebook_capture()
    root = ET.fromstring(render_svg(RULEBOOK_5_7, markers=markers))
    assert root[1].text == (
        "White: man on 31. Black: men on 12, 20, 28. White to move. "
        "White's man on 31 captures 28, 20 and 12, landing on 24, 15 and 8 (31x24x15x8)."
    )
    assert "31x24x15x8" in (root[0].text or "")
    step = describe_position(Position.initial(), "22-19")
    assert step.endswith("White's man on 22 moves to 19 (22-19).")
    empty = describe_position(Position.empty(), rejected=["22x13"])
    assert empty == "White: no pieces. Black: no pieces. White to move. Not allowed: 22x13."


@pytest.mark.parametrize(
    "evil",
    [
        "<script>alert(1)</script>",
        '"]]><script>alert(1)</script>',
        "</title><svg onload='alert(1)'>",
        "&amp; &lt; \x00 \x1b control",
    ],
)
def test_title_and_description_are_escaped(evil: str) -> None:
    svg = render_svg(Position.initial(), title=evil, description=evil)
    root = ET.fromstring(svg)  # still well-formed XML
    clean = evil.replace("\x00", "").replace("\x1b", "")
    assert root[0].text == clean and root[1].text == clean
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert "<script" not in svg and "onload=" not in svg.replace("onload='", "")
    assert [e.tag for e in root].count(NS + "svg") == 0


def test_ids_are_prefixed_and_unique_per_diagram() -> None:
    _, markers = rulebook_capture()
    a = render_svg(RULEBOOK_5_7, markers=markers, diagram_id="rule-5-7")
    b = render_svg(RULEBOOK_5_7, markers=markers, diagram_id="other")
    ids_a = {e.get("id") for e in ET.fromstring(a).iter() if e.get("id")}
    ids_b = {e.get("id") for e in ET.fromstring(b).iter() if e.get("id")}
    assert ids_a and all(i is not None and i.startswith("rule-5-7-") for i in ids_a)
    assert not ids_a & ids_b
    for use in ET.fromstring(a).iter(NS + "use"):
        assert (use.get("href") or "").removeprefix("#") in ids_a


@pytest.mark.parametrize("bad", ["Board", "a b", 'x"y', "", "é", "a_b", "a<b"])
def test_diagram_id_is_validated(bad: str) -> None:
    with pytest.raises(ValueError, match="diagram id"):
        render_svg(Position.initial(), diagram_id=bad)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="numbers"):
        render_svg(Position.initial(), numbers="some")
    with pytest.raises(ValueError, match="size"):
        render_svg(Position.initial(), size=0)


def test_size_sets_pixels_not_geometry() -> None:
    small = ET.fromstring(render_svg(Position.initial(), size=200))
    large = ET.fromstring(render_svg(Position.initial(), size=640))
    assert (small.get("width"), small.get("height")) == ("200", "200")
    assert (large.get("width"), large.get("height")) == ("640", "640")
    assert small.get("viewBox") == large.get("viewBox")


# -- what cairosvg can draw ----------------------------------------------------------


def all_svgs() -> Iterator[str]:
    _, markers = rulebook_capture()
    alpha = Theme({"square dark": "#80604080", "arrow": "#123"})
    for options in (
        {},
        {"numbers": "all", "side_to_move": True, "flipped": True},
        {"frame": False, "side_to_move": True, "theme": Theme.named("green")},
        {"theme": alpha, "markers": Markers.from_move("31x24x15x8", rejected=["31x22"])},
    ):
        yield render_svg(RULEBOOK_5_7, **{"markers": markers, **options})  # type: ignore[arg-type]
    yield legend_svg(dict.fromkeys(LEGEND_KEYS, "label"))


def test_nothing_that_cairosvg_ignores() -> None:
    for svg in all_svgs():
        assert "var(" not in svg
        assert "filter" not in svg
        assert "<style" not in svg and "style=" not in svg and "@media" not in svg
        assert not re.search(r"#[0-9a-fA-F]{8}\b", svg)
        assert not re.search(r"#[0-9a-fA-F]{4}\b", svg)
        root = ET.fromstring(svg)
        for use in root.iter(NS + "use"):
            assert not {"opacity", "fill-opacity", "stroke-opacity", "style"} & set(use.attrib)


def test_alpha_colours_become_colour_plus_opacity() -> None:
    svg = render_svg(Position.empty(), theme=Theme({"square dark": "#80604080"}))
    board = Board(svg)
    rect = board.find("rect", "square dark")[0]
    parent = board.parents[rect]
    assert parent.get("fill") == "#806040"
    assert parent.get("fill-opacity") == "0.502"


def test_theme_overrides_by_class_name() -> None:
    theme = Theme({"square dark": "#123456"})
    board = Board(render_svg(Position.empty(), theme=theme))
    assert board.inherited(board.find("rect", "square dark")[0], "fill") == "#123456"
    assert theme == Theme({"square dark": "#123456"}) and hash(theme) == hash(
        Theme({"square dark": "#123456"})
    )
    with pytest.raises(ValueError, match="unknown theme colour"):
        Theme({"square darkk": "#123456"})
    with pytest.raises(ValueError, match="#rrggbb"):
        Theme({"square dark": "var(--x)"})
    with pytest.raises(ValueError, match="base theme"):
        Theme.named("neon")


# -- determinism -------------------------------------------------------------------


def test_two_renders_give_the_same_bytes() -> None:
    _, markers = rulebook_capture()
    first = render_svg(RULEBOOK_5_7, markers=markers, numbers="all", side_to_move=True)
    second = render_svg(RULEBOOK_5_7, markers=markers, numbers="all", side_to_move=True)
    assert first == second


def test_same_bytes_in_a_fresh_process_with_another_hash_seed() -> None:
    code = (
        "import sys\n"
        "from dama_diagrams import Position\n"
        "from dama_diagrams.render import Markers, render_svg\n"
        "m = Markers.from_move('30x21x14x5', rejected=['30x23x14x5'])\n"
        "p = Position.from_fen('W:WK30:B10,12,18,K20,K26,27')\n"
        "sys.stdout.write(render_svg(p, markers=m, numbers='marked'))\n"
    )
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1
    markers = Markers.from_move("30x21x14x5", rejected=["30x23x14x5"])
    position = Position.from_fen("W:WK30:B10,12,18,K20,K26,27")
    assert outputs == {render_svg(position, markers=markers, numbers="marked")}


# -- legend --------------------------------------------------------------------------

LABELS = {
    "start": "Casella di partenza",
    "landing": "Arrivo",
    "order": "Ordine dei salti",
    "captured": "Presa",
    "king": "Dama",
    "rejected": "Mossa scartata",
    "white_to_move": "Tocca al Bianco",
    "black_to_move": "Tocca al Nero",
}


def test_legend_svg_has_every_label_in_order() -> None:
    root = ET.fromstring(legend_svg(LABELS, diagram_id="legend-it"))
    assert root.get("role") == "img" and root[0].tag == NS + "title"
    texts = [t.text for t in root.iter(NS + "text") if t.get("class") == "legend text"]
    assert texts == [
        LABELS[k]
        for k in (
            "start",
            "landing",
            "order",
            "captured",
            "king",
            "rejected",
            "white_to_move",
            "black_to_move",
        )
    ]
    assert all((e.get("id") or "legend-it-").startswith("legend-it-") for e in root.iter())


def test_legend_escapes_labels() -> None:
    evil = {**LABELS, "king": "<b onclick='x'>Dama</b> & co"}
    root = ET.fromstring(legend_svg(evil))
    labels = [t.text for t in root.iter(NS + "text") if t.get("class") == "legend text"]
    assert labels[4] == evil["king"]
    html = legend_html(evil)
    assert "<b " not in html and "&lt;b onclick='x'&gt;Dama&lt;/b&gt; &amp; co" in html
    item = ET.fromstring(html)
    assert item.tag == "ul" and [li.get("class") for li in item] == [
        "dama-legend-start",
        "dama-legend-landing",
        "dama-legend-order",
        "dama-legend-captured",
        "dama-legend-king",
        "dama-legend-rejected",
        "dama-legend-white_to_move",
        "dama-legend-black_to_move",
    ]
    assert [li.find("span").text for li in item] == list(evil.values())  # type: ignore[union-attr]


def test_legend_needs_a_label_for_each_entry_and_no_unknown_one() -> None:
    with pytest.raises(ValueError, match="missing: king"):
        legend_svg({key: "a" for key in LEGEND_KEYS if key != "king"})
    assert "dama-legend-king" not in legend_html({"start": "a"}, keys=("start",))
    with pytest.raises(ValueError, match="unknown: kingg"):
        legend_html({**LABELS, "kingg": "x"})


def test_a_path_that_stays_on_one_square_is_refused() -> None:
    with pytest.raises(ValueError, match="repeats a square"):
        Markers(start=22, path=(22, 22))
    with pytest.raises(ValueError, match="repeats a square"):
        Markers(rejected=((22, 22),))


def test_legend_html_keeps_only_the_keys_asked_for_in_canonical_order() -> None:
    full = legend_html(LABELS)
    assert legend_html(LABELS, keys=LEGEND_KEYS) == full
    item = ET.fromstring(legend_html(LABELS, keys=("king", "start")))
    assert [li.get("class") for li in item] == ["dama-legend-start", "dama-legend-king"]
    assert legend_html(LABELS, keys=()) == '<ul class="dama-legend"></ul>'
    with pytest.raises(ValueError, match="unknown: kingg"):
        legend_html(LABELS, keys=("kingg",))


# -- the picture and its size --------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "size"),
    [({}, (400, 400)), ({"size": 333, "frame": False, "side_to_move": True}, (333, 321))],
)
def test_render_picture_carries_the_size_written_in_the_svg(
    options: dict[str, object], size: tuple[int, int]
) -> None:
    picture = render_picture(Position.initial(), **options)  # type: ignore[arg-type]
    assert isinstance(picture, SvgPicture)
    assert picture.svg == render_svg(Position.initial(), **options)  # type: ignore[arg-type]
    root = ET.fromstring(picture.svg)
    assert (picture.width, picture.height) == size
    assert (root.get("width"), root.get("height")) == tuple(map(str, size))


# -- legibility: contrast and room of the labels -------------------------------------
#
# WCAG 2.x relative luminance and contrast ratio, written from the definition
# (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance), not from the renderer.


def relative_luminance(color: str) -> float:
    """WCAG relative luminance of an opaque ``#rgb`` or ``#rrggbb`` colour."""
    digits = color.removeprefix("#")
    if len(digits) == 3:
        digits = "".join(2 * d for d in digits)
    assert re.fullmatch(r"[0-9a-fA-F]{6}", digits), color

    def linear(channel: str) -> float:
        c = int(channel, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(digits[i : i + 2]) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    lighter, darker = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


TEXT_CONTRAST = 4.5
"""WCAG AA for normal text (1.4.3): the labels are small."""
OBJECT_CONTRAST = 3.0
"""WCAG AA for graphical objects (1.4.11): what a halo needs to stand out."""


def test_contrast_formula_gives_the_published_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#fff", "#000") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)  # AA's lightest grey
    assert contrast("#123456", "#123456") == 1.0


def grey(color: str) -> str:
    """The colour as a greyscale print gives it: its relative luminance as a grey."""
    luminance = relative_luminance(color)
    srgb = luminance * 12.92 if luminance <= 0.0031308 else 1.055 * luminance ** (1 / 2.4) - 0.055
    level = round(srgb * 255)
    return f"#{level:02x}{level:02x}{level:02x}"


@pytest.mark.parametrize("name", THEME_NAMES)
def test_the_start_square_stays_distinct_on_a_greyscale_print(name: str) -> None:
    """Books review K24: the yellow start square became a grey close to the light squares.

    Its outline, inside the square's edge, stands out in grey from both square colours and
    from its own fill, as a graphical object must (3:1)."""
    theme = Theme.named(name)
    board = Board(render_svg(Position.from_fen("W:W31:B27"), markers=Markers.from_move("31x22")))
    (start,) = board.find("rect", "marker start")
    line = start.get("stroke")
    assert line is not None and float(start.get("stroke-width", "0")) >= 6
    for other in (theme["square light"], theme["square dark"], start.get("fill", "")):
        assert contrast(grey(line), grey(other)) >= OBJECT_CONTRAST, (line, other)
    # inside its square: the outline never spills onto the next one
    x, y, size = (float(start.get(key, "")) for key in ("x", "y", "width"))
    width = float(start.get("stroke-width", "0"))
    assert board.square_at(x - width / 2 + 0.5, y - width / 2 + 0.5) == 31
    assert board.square_at(x + size + width / 2 - 0.5, y + size + width / 2 - 0.5) == 31


def opaque_fill(element: ET.Element) -> str:
    """The fill of an element that must be fully opaque to hide what lies under it."""
    assert not {"opacity", "fill-opacity", "stroke-opacity"} & set(element.attrib), element.attrib
    fill = element.get("fill")
    assert fill is not None and fill.startswith("#"), element.attrib
    return fill


@pytest.mark.parametrize("name", THEME_NAMES)
def test_labels_contrast_with_everything_they_sit_on(name: str) -> None:
    """Read the colours from the drawn SVG: square numbers, landing badges, the legend.

    A number's digits touch only their halo, which is the square's colour; the
    halo is opaque, and over a start square or a piece either the digits
    themselves contrast with it or the halo stands out from it, so the label
    never melts into a light or a dark piece.
    """
    theme = Theme.named(name)
    position = Position.from_fen("W:WK29,32:B10,11,18,19,26")
    markers = Markers.from_move("29x22x13x6x15x22")  # start, badges, captures
    board = Board(render_svg(position, markers=markers, numbers="all", theme=theme))
    (front,) = board.exactly("g", "number")
    (halo,) = board.exactly("g", "number halo")
    digits, ring = opaque_fill(front), opaque_fill(halo)
    assert halo.get("stroke") == ring and float(halo.get("stroke-width", "0")) >= 6
    square = board.inherited(board.find("rect", "square dark")[0], "fill")
    (start,) = board.find("rect", "marker start")
    faces = {
        side: opaque_fill(next(c for c in board.root.iter(NS + "circle") if c.get("class") == side))
        for side in ("white piece", "black piece")
    }
    (order,) = board.find("g", "marker landing order")
    disc, badge_digits = opaque_fill(order[0]), opaque_fill(order[1])
    assert square is not None

    text_pairs = {
        "number on its halo": (digits, ring),
        "number on its square": (digits, square),
        "badge digit on its disc": (badge_digits, disc),
        "legend text on a white page": (theme["legend text"], "#ffffff"),
    }
    for what, (text, background) in text_pairs.items():
        ratio = contrast(text, background)
        assert ratio >= TEXT_CONTRAST, f"{name}: {what} is {ratio:.2f}:1"
    under = {"start square": opaque_fill(start), **faces}
    for what, surface in under.items():
        direct, separated = contrast(digits, surface), contrast(ring, surface)
        assert direct >= TEXT_CONTRAST or separated >= OBJECT_CONTRAST, (
            f"{name}: a number over the {what} is {direct:.2f}:1 and its halo {separated:.2f}:1"
        )


MARKED: Final = Markers(start=32)
"""A board with a marked square puts its numbers in the corners (the numbered board does not)."""


def _ink(position: Position, markers: Markers = MARKED) -> Image.Image:
    """The pixels that the square numbers change, at one pixel per user unit."""
    with_numbers, without = (
        Image.open(
            io.BytesIO(render_png(position, size=860, numbers=mode, markers=markers))
        ).convert("RGB")
        for mode in ("all", "none")
    )
    return (
        ImageChops.difference(with_numbers, without)
        .convert("L")
        .point(lambda v: 255 if v > 24 else 0)
    )


def _square_box(square: int) -> tuple[int, int]:
    row, column = CELLS[square]
    return 30 + 100 * column, 30 + 100 * row


def test_numbers_stay_in_the_corner_of_their_square_beside_a_move() -> None:
    ink = _ink(Position.empty())
    corners = Image.new("L", ink.size, 0)
    for square in CELLS:
        x, y = _square_box(square)
        corners.paste(255, (x, y, x + 45, y + 30))  # digits and halo: the top-left corner
    stray = ImageChops.subtract(ink, corners)
    assert stray.getbbox() is None, stray.getbbox()
    for square in CELLS:  # and every number is drawn
        x, y = _square_box(square)
        assert ink.crop((x, y, x + 45, y + 30)).getbbox() is not None, square


@pytest.mark.parametrize(
    "fen",
    ["W:W21-32:B1-12", "W:W13-20:B5-12", "W:WK21-32:BK1-12", "W:WK13-20:BK5-12"],
)
def test_corner_numbers_hide_little_of_a_piece_and_nothing_of_a_crown(fen: str) -> None:
    position = Position.from_fen(fen)
    ink = _ink(position).load()
    assert ink is not None
    face = 37  # radius 36 and half the rim's stroke
    for square, piece in position.pieces().items():
        x, y = _square_box(square)
        cx, cy = x + 50, y + (45 if piece.king else 48)
        covered = sum(
            1
            for px in range(cx - face, cx + face + 1)
            for py in range(cy - face, cy + face + 1)
            if ink[px, py] and (px - cx) ** 2 + (py - cy) ** 2 <= face**2
        )
        assert covered <= 0.05 * math.pi * face**2, (square, covered)
        crown = [
            (px, py)
            for px in range(cx - 22, cx + 23)
            for py in range(cy - 16, cy + 13)
            if ink[px, py]
        ]
        assert not crown, (square, crown[:5])


# -- the numbered board: every square numbered, nothing marked -------------------------------
#
# Each number's glyphs, as the widest and tallest of the faces a reader may get draw them
# (DejaVu Sans Bold, the site's; DejaVu Sans Mono Bold, the printed book's), measured from the
# font files by Pillow, against each piece's discs as the SVG itself draws them.

FONTS = Path("/usr/share/fonts/truetype/dejavu")
NUMBER_FACES = ("DejaVuSans-Bold.ttf", "DejaVuSansMono-Bold.ttf")
DIAGRAMS = Path(__file__).resolve().parent.parent / "diagrams"
Box = tuple[float, float, float, float]


def glyph_box(text: str, x: float, y: float, size: float, anchor: str) -> Box:
    """The ink of ``text`` set at (x, y) in any of NUMBER_FACES, with the halo around it."""
    lefts, tops, rights, bottoms = [], [], [], []
    for face in NUMBER_FACES:
        font = ImageFont.truetype(str(FONTS / face), 1000)
        left, top, right, bottom = font.getbbox(text, anchor="ls")
        width = font.getlength(text)
        shift = {"start": 0.0, "middle": width / 2, "end": width}[anchor]
        lefts.append(x + (left - shift) * size / 1000)
        rights.append(x + (right - shift) * size / 1000)
        tops.append(y + top * size / 1000)
        bottoms.append(y + bottom * size / 1000)
    halo = 3  # half of the halo's stroke
    return min(lefts) - halo, min(tops) - halo, max(rights) + halo, max(bottoms) + halo


def number_boxes(board: Board) -> dict[int, Box]:
    """Each square number of the board: its glyph box, in user units."""
    (front,) = board.exactly("g", "number")
    boxes = {}
    for label in front.iter(NS + "text"):
        size = float(board.inherited(label, "font-size") or "nan")
        anchor = board.inherited(label, "text-anchor") or "start"
        x, y = xy(label)
        boxes[int(label.text or "")] = glyph_box(label.text or "", x, y, size, anchor)
    return boxes


def piece_discs(board: Board) -> list[tuple[int, float, float, float]]:
    """(square, cx, cy, radius) of every disc each piece draws, its stroke included."""
    shapes = {
        shape.get("id"): [
            (
                float(c.get("cy", "0")),
                float(c.get("r", "0")) + float(c.get("stroke-width", "0")) / 2,
            )
            for c in shape.iter(NS + "circle")
            # its edge and face; the grooves (no fill) and the crown lie on the face
            if c.get("class", "").endswith((" piece", " rim")) and c.get("fill") != "none"
        ]
        for shape in board.root.iter(NS + "g")
        if shape.get("id")
    }
    discs = []
    for use in board.find("use", "piece"):
        x, y = xy(use)
        a, b, scale = 0.0, 0.0, 1.0
        transform = use.get("transform")
        if transform is not None:
            found = re.fullmatch(r"translate\((\S+) (\S+)\) scale\((\S+)\)", transform)
            assert found, transform
            a, b, scale = (float(value) for value in found.groups())
        for cy, radius in shapes[use.get("href", "").removeprefix("#")]:
            discs.append(
                (
                    int(use.get("data-square", "0")),
                    a + scale * x,
                    b + scale * (y + cy),
                    scale * radius,
                )
            )
    return discs


def box_meets_disc(box: Box, cx: float, cy: float, radius: float) -> bool:
    left, top, right, bottom = box
    nearest_x, nearest_y = min(max(cx, left), right), min(max(cy, top), bottom)
    return (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 < radius**2


def shipped_numbered_boards() -> Iterator[tuple[str, str, bool]]:
    """The numbered boards the site and the books show: the numbered board, each exercise's."""
    for path in sorted(DIAGRAMS.glob("*.yaml")):
        verified = verify(load_diagram(path))
        flipped = verified.diagram.show.flip
        if verified.diagram.show.numbers == "all":
            yield path.stem, diagram_svg(verified).svg, flipped
        if verified.diagram.exercise is not None:
            yield f"{path.stem} (exercise)", exercise_svg(verified).svg, flipped


HAND_BOARDS = {
    "men": "W:W21-32:B1-12",
    "kings": "W:WK21-32:BK1-12",
    "kings in the middle": "W:WK13-24:BK1-12",
    "mixed": "W:WK1,K3,6,8,21-24,29-32:B9,10,K11,12,K13,14,K27,28",
}


def numbered_boards() -> Iterator[tuple[str, str, bool]]:
    yield from shipped_numbered_boards()
    for name, fen in HAND_BOARDS.items():
        for flipped in (False, True):
            svg = render_svg(Position.from_fen(fen), numbers="all", flipped=flipped)
            yield f"{name}{' flipped' if flipped else ''}", svg, flipped


def test_the_shipped_diagrams_have_numbered_boards() -> None:
    names = [name for name, _, _ in shipped_numbered_boards()]
    assert "board-numbers" in names and sum("(exercise)" in name for name in names) >= 10


@pytest.mark.parametrize(
    ("name", "svg", "flipped"), list(numbered_boards()), ids=[n for n, _, _ in numbered_boards()]
)
def test_no_piece_covers_a_number_of_a_numbered_board(name: str, svg: str, flipped: bool) -> None:
    """Issue 55 (books review K10): on paper a number under a piece is lost."""
    board = Board(svg, flipped=flipped)
    boxes = number_boxes(board)
    assert sorted(boxes) == list(range(1, 33)), name
    for square, box in boxes.items():
        # the number is read as its own square's: all of its ink lies in that square
        left, top, right, bottom = box
        assert board.square_at(left + 0.01, top + 0.01) == square, (name, square, box)
        assert board.square_at(right - 0.01, bottom - 0.01) == square, (name, square, box)
        for on, cx, cy, radius in piece_discs(board):
            assert not box_meets_disc(box, cx, cy, radius), (name, square, "piece on", on)


def test_a_numbered_board_keeps_its_pieces_on_their_squares_and_whole() -> None:
    """A king, the tallest piece, stays inside its square, as wide as 44% of it at least."""
    board = Board(render_svg(Position.from_fen("W:WK29-32:BK1-4,7"), numbers="all"))
    for square, cx, cy, radius in piece_discs(board):
        left, top = board.centre(square)[0] - 50, board.centre(square)[1] - 50
        assert left < cx - radius and cx + radius < left + 100, square
        assert top < cy - radius and cy + radius <= top + 100, square
        assert abs(cx - board.centre(square)[0]) < 0.01, square  # centred across its square
    assert min(radius for *_, radius in piece_discs(board)) >= 22


def test_a_numbered_boards_numbers_are_larger_than_the_corner_ones() -> None:
    """The numbered board's numbers: 7 pt on the smallest board a book prints them on (46 mm
    of an A5 page for an exercise, the board 860 units wide), where the corner's are 24 units."""
    numbered = Board(render_svg(Position.empty(), numbers="all"))
    (front,) = numbered.exactly("g", "number")
    size = float(numbered.inherited(front[0], "font-size") or "nan")
    assert size * 46 / 860 / 25.4 * 72 >= 7.0
    beside_a_move = Board(render_svg(Position.empty(), numbers="all", markers=MARKED))
    (front,) = beside_a_move.exactly("g", "number")
    assert float(beside_a_move.inherited(front[0], "font-size") or "nan") == 24
