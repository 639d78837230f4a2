"""What a diagram's picture shows, read aloud in a catalog's language.

The alternative text of a figure and the ``<desc>`` of its SVG are the same
words, written from the position and the markers that the picture actually
draws (and whether it draws arrows), never typed by
hand: so they cannot say "crossed out" when the picture draws a dashed arrow.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.board import Color, Square
from ...engine.position import Position
from ...render.markers import Markers, path_move
from ..i18n import Catalog

__all__ = ["describe_picture", "describe_position"]


def describe_picture(
    position: Position, markers: Markers, catalog: Catalog, *, arrows: bool
) -> str:
    """The position, then each kind of marker drawn on it, in drawing order.

    "White to move." says what the side-to-move disc shows; the disc itself is
    not described again in every picture.  An empty board shows only the
    numbers of its squares, and says so.
    """
    if not position.pieces():
        return catalog.text("alt.empty_board")
    parts = [describe_position(position, catalog)]
    if markers.start is not None:
        parts.append(catalog.text("alt.start", square=str(markers.start)))
    sequences = markers.landing_sequences
    if sequences:
        numbered = any(len(landings) > 1 for landings in sequences)
        landed = [square for landings in sequences for square in landings]
        if numbered:
            parts.append(catalog.text("alt.landings_numbered", squares=_squares(landed, catalog)))
        else:
            unique = list(dict.fromkeys(landed))
            key = "alt.landing" if len(unique) == 1 else "alt.landings"
            parts.append(catalog.text(key, squares=_squares(unique, catalog)))
    if markers.captured:
        key = "alt.captured_one" if len(markers.captured) == 1 else "alt.captured"
        parts.append(catalog.text(key, squares=_squares(markers.captured, catalog)))
    solid = [path for path in (markers.path, *markers.alternatives) if len(path) >= 2]
    if arrows and solid:
        key = "alt.arrow" if len(solid) == 1 else "alt.arrows"
        parts.append(catalog.text(key, moves=_moves(solid, catalog)))
    if markers.rejected:
        few = len(markers.rejected) == 1
        key = (
            ("alt.rejected_arrow" if few else "alt.rejected_arrows")
            if arrows
            else ("alt.rejected_end" if few else "alt.rejected_ends")
        )
        parts.append(catalog.text(key, moves=_moves(markers.rejected, catalog)))
    return " ".join(parts)


def describe_position(position: Position, catalog: Catalog) -> str:
    """The pieces of each side and who is to move."""
    sides = []
    for color in (Color.WHITE, Color.BLACK):
        groups = []
        for king, one, many in ((False, "man", "men"), (True, "king", "kings")):
            squares = position.squares(color, king=king)
            if squares:
                key = f"position.{one if len(squares) == 1 else many}"
                groups.append(catalog.text(key, squares=", ".join(map(str, squares))))
        listed = _listed(groups, catalog)
        side = catalog.text(f"position.{color.value}")
        sides.append(catalog.text("position.side", side=side, pieces=listed))
    sides.append(catalog.text(f"position.{position.turn.value}_to_move"))
    return " ".join(sides)


def _listed(groups: list[str], catalog: Catalog) -> str:
    """A side's men, then its kings; the separator is the catalog's (French spaces it)."""
    if not groups:
        return catalog.text("position.none")
    if len(groups) == 1:
        return groups[0]
    men, kings = groups
    return catalog.text("position.men_and_kings", men=men, kings=kings)


def _squares(squares: Sequence[Square], catalog: Catalog) -> str:
    return catalog.join([str(square) for square in squares])


def _moves(
    paths: list[tuple[Square, ...]] | tuple[tuple[Square, ...], ...], catalog: Catalog
) -> str:
    """The paths in move notation: every capture of Italian draughts is a jump."""
    moves = [path_move(path) for path in paths]
    return catalog.join([str(move) for move in moves if move is not None])
