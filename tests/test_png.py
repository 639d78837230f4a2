"""PNG diagrams: pixels of the cairosvg picture, and byte-for-byte determinism.

The pictures are rendered at 860 pixels, the SVG's own user units (a 30 unit
frame around eight 100 unit squares), so a square's pixels are easy to find.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from dama_diagrams import Position
from dama_diagrams.engine.position import Piece
from dama_diagrams.render import Markers, Theme, render_png, render_svg, svg_to_png
from dama_diagrams.render.theme import DEFAULT_COLORS

FULL = 860
FRAME = 30
CELL = 100


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def close(pixel: object, color: str, tolerance: int = 12) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb(color), strict=False))


def cell_centre(row: int, column: int) -> tuple[int, int]:
    return FRAME + column * CELL + CELL // 2, FRAME + row * CELL + CELL // 2


def cell_corner(row: int, column: int) -> tuple[int, int]:
    """A point inside the cell near its bottom-right corner, clear of any piece."""
    return FRAME + column * CELL + CELL - 6, FRAME + row * CELL + CELL - 4


def test_png_is_a_png_of_the_requested_size() -> None:
    png = render_png(Position.initial(), size=400)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert image(png).size == (400, 400)
    assert image(render_png(Position.initial(), size=400, scale=2)).size == (800, 800)
    with pytest.raises(ValueError, match="scale"):
        svg_to_png(render_svg(Position.initial()), scale=0)


def test_dark_corner_is_bottom_right() -> None:
    picture = image(render_png(Position.empty(), size=FULL))
    dark, light = DEFAULT_COLORS["square dark"], DEFAULT_COLORS["square light"]
    assert close(picture.getpixel(cell_centre(7, 7)), dark)  # bottom right
    assert close(picture.getpixel(cell_centre(7, 0)), light)  # bottom left
    assert close(picture.getpixel(cell_centre(0, 0)), dark)  # top left: square 1
    assert close(picture.getpixel(cell_centre(0, 7)), light)  # top right


def test_a_piece_shows_on_its_square() -> None:
    # White man on 22 = (5, 3); black man on 11 = (2, 4); 19 = (4, 4) is empty.
    picture = image(render_png(Position.from_fen("W:W22:B11"), size=FULL))
    white, black = DEFAULT_COLORS["white piece"], DEFAULT_COLORS["black piece"]
    x, y = cell_centre(5, 3)
    assert close(picture.getpixel((x + 8, y - 8)), white)
    x, y = cell_centre(2, 4)
    assert close(picture.getpixel((x + 8, y - 8)), black)
    assert close(picture.getpixel(cell_centre(4, 4)), DEFAULT_COLORS["square dark"])
    # The square itself still shows around the piece.
    assert close(picture.getpixel(cell_corner(5, 3)), DEFAULT_COLORS["square dark"])


def test_flipped_picture_puts_square_1_bottom_right() -> None:
    picture = image(render_png(Position.from_fen("W:W22:B1"), size=FULL, flipped=True))
    x, y = cell_centre(7, 7)
    assert close(picture.getpixel((x + 8, y - 8)), DEFAULT_COLORS["black piece"])
    assert close(picture.getpixel(cell_centre(7, 7)), DEFAULT_COLORS["black piece"], 40)


def test_king_and_man_differ_in_grayscale_at_small_size() -> None:
    # Men on 21 and 22, a king on 23: (5, 1), (5, 3), (5, 5), on a 172 pixel board.
    size = 172
    picture = image(render_png(Position.from_fen("W:W21,22,K23:B1"), size=size)).convert("L")
    unit = size / FULL

    def cell(column: int) -> Image.Image:
        left, top = (FRAME + column * CELL) * unit, (FRAME + 5 * CELL) * unit
        return picture.crop(
            (round(left), round(top), round(left + CELL * unit), round(top + CELL * unit))
        )

    def difference(a: Image.Image, b: Image.Image) -> float:
        return float(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])

    assert difference(cell(1), cell(3)) < 1  # two men look the same
    assert difference(cell(3), cell(5)) > 8  # a king does not


def test_captured_piece_is_marked_but_still_visible() -> None:
    position = Position.from_fen("W:W31:B12,20,28")
    markers = Markers(captured=Markers.from_move("31x24x15x8").captured)  # no arrow over it
    picture = image(render_png(position, markers=markers, size=FULL))
    x, y = cell_centre(6, 6)  # 28, the first piece taken
    # The piece itself is uncovered; the red ring is just outside it, the cross in a corner.
    assert close(picture.getpixel((x, y - 2)), DEFAULT_COLORS["black piece"], 20)
    assert close(picture.getpixel((x, y + 2 + 42)), DEFAULT_COLORS["marker captured"], 30)
    assert close(picture.getpixel((x + 33 + 8, y - 33)), DEFAULT_COLORS["marker captured"], 30)


def _crown_visible(size: int, markers: Markers, grey: bool) -> float:
    """The share of a black king's crown pixels that its captured marks leave as they were.

    The crown's pixels are found by drawing it once more in magenta: they are
    exactly the pixels that change.
    """
    fen = "W:W31:BK27"
    plain = image(render_png(Position.from_fen(fen), size=size, numbers="none")).convert("RGB")
    magenta = Theme({"crown": "#ff00ff", "crown line": "#ff00ff"})
    recoloured = image(render_png(Position.from_fen(fen), size=size, numbers="none", theme=magenta))
    crown = ImageChops.difference(plain, recoloured.convert("RGB")).convert("L")
    marked = image(render_png(Position.from_fen(fen), markers=markers, size=size, numbers="none"))
    mode = "L" if grey else "RGB"
    changed = ImageChops.difference(plain.convert(mode), marked.convert("RGB").convert(mode))
    in_crown = [c > 40 for c in crown.convert("L").get_flattened_data()]
    hidden = [d > 40 for d in changed.convert("L").get_flattened_data()]
    total = sum(in_crown)
    assert total > 20  # the crown was found
    return 1 - sum(1 for c, h in zip(in_crown, hidden, strict=True) if c and h) / total


@pytest.mark.parametrize("size", [FULL, 390])  # 390: the board on a phone, at 1x
@pytest.mark.parametrize("grey", [False, True], ids=["colour", "grey"])
@pytest.mark.parametrize("move", [None, "31x22"], ids=["marks", "marks-and-arrow"])
def test_a_captured_king_keeps_at_least_70_percent_of_its_crown(
    size: int, grey: bool, move: str | None
) -> None:
    markers = Markers.from_move(move) if move else Markers(captured=(27,))
    assert _crown_visible(size, markers, grey) >= 0.70


# Each mark with a black king under it, on a square worked out by hand.  The
# king on 23 of the first case captures 18, 27, 26, 19 and comes back to 23:
# it stands on the start square, under the last landing ring and number "4".
KING_UNDER_MARKS = {
    "captured, with the line over it": ("W:WK22:BK18", Markers.from_move("22x13"), 18),
    "start, landing number and end": (
        "B:W16,K18,19,24,25,26,27:BK23",
        Markers.from_move("23x14x21x30x23"),
        23,
    ),
    "start of a plain move": ("B:W31:BK18", Markers.from_move("18-22"), 18),
    # A step of 9x18x27: the king has landed on 27, jumping 13 and 22, still on the board.
    "end of a step, numbered": (
        "B:W13,K19,K22:BK27",
        Markers(start=9, landings=(18, 27), captured=(13, 22), path=(9, 18, 27)),
        27,
    ),
}


def _crown_pixels(fen: str, square: int, size: int) -> tuple[Image.Image, list[bool]]:
    """The picture of ``fen`` unmarked, and which of its pixels are the crown on ``square``.

    The crown's pixels are found by drawing it once more in magenta: they are
    exactly the pixels that change.  Only the square's own cell is kept.
    """
    position = Position.from_fen(fen)
    plain = image(render_png(position, size=size, numbers="none"))
    magenta = Theme({"crown": "#ff00ff", "crown line": "#ff00ff"})
    recoloured = image(render_png(position, size=size, numbers="none", theme=magenta))
    crown = ImageChops.difference(plain, recoloured).convert("L")
    row, column = divmod(2 * (square - 1), 8)
    column += row % 2  # the dark squares of odd rows start one column in
    unit = size / FULL
    left, top = (FRAME + column * CELL) * unit, (FRAME + row * CELL) * unit
    box = (round(left), round(top), round(left + CELL * unit), round(top + CELL * unit))
    cell = crown.crop(box)
    in_cell = ImageChops.constant(crown, 0)
    in_cell.paste(cell, (round(left), round(top)))
    return plain, [c > 40 for c in in_cell.get_flattened_data()]


def _share(a: Image.Image, b: Image.Image, mask: list[bool], *, same: bool) -> float:
    """The share of the masked pixels that are the same (or differ) in the two pictures."""
    changed = [d > 40 for d in ImageChops.difference(a, b).convert("L").get_flattened_data()]
    hits = sum(1 for m, c in zip(mask, changed, strict=True) if m and c != same)
    return hits / sum(mask)


@pytest.mark.parametrize("size", [FULL, 390])  # 390: the board on a phone, at 1x
@pytest.mark.parametrize("case", list(KING_UNDER_MARKS))
def test_no_mark_covers_a_third_of_a_kings_crown(case: str, size: int) -> None:
    fen, markers, square = KING_UNDER_MARKS[case]
    position = Position.from_fen(fen)
    plain, crown = _crown_pixels(fen, square, size)
    assert sum(crown) > 20  # the crown was found on its square
    marked = image(render_png(position, markers=markers, size=size, numbers="none"))
    assert _share(plain, marked, crown, same=True) >= 2 / 3
    # The control: a man under the same marks.  Where the crown is, the marked
    # king and the marked man differ nearly as much as they do unmarked (the
    # crown's dark outline is close to a black man's face), so a reader can
    # still tell them apart.
    pieces = position.pieces()
    pieces[square] = Piece(pieces[square].color, king=False)
    man = Position.from_pieces(position.turn, pieces)
    plain_man = image(render_png(man, size=size, numbers="none"))
    marked_man = image(render_png(man, markers=markers, size=size, numbers="none"))
    unmarked_difference = _share(plain, plain_man, crown, same=False)
    assert unmarked_difference > 0.4
    assert _share(marked, marked_man, crown, same=False) >= 2 / 3 * unmarked_difference


def test_png_bytes_are_deterministic() -> None:
    position = Position.from_fen("W:WK30:B10,12,18,K20,K26,27")
    markers = Markers.from_move("30x21x14x5", rejected=["30x23x14x5"])
    first = render_png(position, markers=markers, numbers="all", side_to_move=True)
    second = render_png(position, markers=markers, numbers="all", side_to_move=True)
    assert first == second
    assert svg_to_png(render_svg(position, markers=markers, numbers="all", side_to_move=True)) == (
        first
    )


def test_pieces_drawn_in_full_give_the_same_pixels_as_shared_shapes() -> None:
    """cairosvg reads the document again for every <use>; the raster paths draw each piece
    in full instead, and must not change a pixel of any diagram."""
    from dama_diagrams.render.figure import diagram_svg
    from dama_diagrams.site.pages.figures import load_figures

    root = Path(__file__).resolve().parent.parent
    figures = load_figures(root)
    assert len(figures) > 30
    for figure in figures.values():
        shared = diagram_svg(figure.verified, size=300).svg
        drawn = diagram_svg(figure.verified, size=300, shared_shapes=False).svg
        assert "<use" in shared or not figure.verified.diagram.position.pieces()
        assert "<use" not in drawn and "<defs>" not in drawn
        pictures = [
            Image.open(io.BytesIO(svg_to_png(svg))).convert("RGBA") for svg in (shared, drawn)
        ]
        assert ImageChops.difference(*pictures).getbbox() is None, figure.verified.id


def test_a_numbered_boards_smaller_pieces_drawn_in_full_give_the_same_pixels() -> None:
    """On a board with every square numbered, each piece is scaled below its number: the
    transform of a drawn piece and of a <use> must agree, for men and kings."""
    position = Position.from_fen("W:WK21,23,29,30:B12,K19")
    shared, drawn = (
        render_svg(position, numbers="all", side_to_move=True, shared_shapes=shared)
        for shared in (True, False)
    )
    assert "<use" in shared and "<use" not in drawn and "scale(" in drawn
    pictures = [Image.open(io.BytesIO(svg_to_png(svg))).convert("RGBA") for svg in (shared, drawn)]
    assert ImageChops.difference(*pictures).getbbox() is None
