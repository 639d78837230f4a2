"""Board diagrams as SVG: the board, the pieces and the rules' markers.

The SVG is built from :mod:`xml.etree.ElementTree` elements, so every piece of
text is escaped by the serializer and never pasted in by hand.  It uses only
what cairosvg draws like a browser does: presentation attributes with a colour
and a separate opacity, no CSS, no filters, no ``#rrggbbaa`` and no opacity on
``<use>``.

Geometry is in user units of :data:`SQUARE` per square, whatever the pixel
``size``; the parts that do not depend on the position (piece shapes, frame,
squares, square numbers) are serialized once per options and cached as strings.
Every element that a theme colours carries the theme key as its ``class``, as in
python-chess, so a site stylesheet can restyle the same diagram.
"""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TypedDict

from ..engine.board import SQUARES, Color, Square, square_column, square_row
from ..engine.move import Move, jumped_square
from ..engine.position import Piece, Position

__all__ = [
    "DEFAULT_COLORS",
    "GREEN_COLORS",
    "NUMBER_MODES",
    "Markers",
    "Theme",
    "clear_cache",
    "describe_position",
    "legend_html",
    "legend_svg",
    "render_svg",
]

SQUARE: Final = 100
"""User units per square.  ``size`` only scales the picture."""

BOARD_SIZE: Final = 8 * SQUARE
FRAME: Final = 30
"""Width of the frame, which also holds the side-to-move indicator."""

PIECE_RADIUS: Final = 36
NUMBER_MODES: Final = ("all", "marked", "none")
LEGEND_KEYS: Final = ("start", "landing", "captured", "king")

_SVG_NS: Final = "http://www.w3.org/2000/svg"
_FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"
_ID = re.compile(r"[a-z0-9-]+")
_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|none")
# Characters that XML 1.0 cannot carry at all, even escaped.
_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

# Vertical offsets of a piece's face from the square centre: a piece is drawn
# with its thickness below it, so the face sits a little above the centre.
_MAN_FACE: Final = -2
_KING_FACE: Final = -5
_ARROW_START_GAP: Final = 20.0

DEFAULT_COLORS: Final[Mapping[str, str]] = {
    "square light": "#efdfc0",
    "square dark": "#b08659",
    "frame": "#6e4d31",
    "frame line": "#3f2a1a",
    "number": "#fcf4e3",
    "number halo": "#b08659",
    "white piece": "#f8f2e4",
    "white rim": "#8d7556",
    "black piece": "#3b322c",
    "black rim": "#15110e",
    "crown": "#d8a93b",
    "crown line": "#5a4116",
    "marker start": "#d9bb62",
    "marker landing": "#2c6b4c",
    "marker landing text": "#ffffff",
    "marker captured": "#b3302a",
    "marker captured halo": "#fff8ec",
    "arrow": "#2c6b4cd9",
    "arrow rejected": "#545d68d0",
    "legend text": "#333333",
}
"""The wood theme: calm maple and walnut that read on white and on slate."""

GREEN_COLORS: Final[Mapping[str, str]] = {
    **DEFAULT_COLORS,
    "square light": "#eef0dc",
    "square dark": "#7f9a6e",
    "number halo": "#7f9a6e",
    "frame": "#4b5e41",
    "frame line": "#2c3827",
    "marker start": "#d7c86a",
    "marker landing": "#23506e",
    "arrow": "#23506ed9",
}
"""A tournament-board green, for sites that prefer it."""

_THEMES: Final[Mapping[str, Mapping[str, str]]] = {"wood": DEFAULT_COLORS, "green": GREEN_COLORS}


class Theme:
    """Colours keyed by the class they style (``"square dark"``, ``"marker start"``...).

    Immutable and hashable, because it keys the cache of board backgrounds.
    A colour may carry alpha as ``#rrggbbaa``; it is written out as a colour
    plus a separate opacity, which every renderer understands.
    """

    __slots__ = ("_colors",)

    def __init__(self, colors: Mapping[str, str] | None = None, *, base: str = "wood") -> None:
        if base not in _THEMES:
            raise ValueError(f"unknown base theme {base!r}; choose one of {', '.join(_THEMES)}")
        merged = dict(_THEMES[base])
        for key, value in (colors or {}).items():
            if key not in DEFAULT_COLORS:
                known = ", ".join(sorted(DEFAULT_COLORS))
                raise ValueError(f"unknown theme colour {key!r}; the keys are: {known}")
            if not isinstance(value, str) or not _COLOR.fullmatch(value):
                raise ValueError(
                    f"theme colour {key!r} is {value!r}; write #rgb, #rrggbb, #rrggbbaa or none"
                )
            merged[key] = value
        self._colors: tuple[tuple[str, str], ...] = tuple(sorted(merged.items()))

    @classmethod
    def named(cls, name: str) -> Theme:
        """A built-in theme: ``"wood"`` (the default) or ``"green"``."""
        return cls(base=name)

    def __getitem__(self, key: str) -> str:
        return dict(self._colors)[key]

    def as_dict(self) -> dict[str, str]:
        return dict(self._colors)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Theme) and self._colors == other._colors

    def __hash__(self) -> int:
        return hash(self._colors)

    def __repr__(self) -> str:
        return f"Theme({dict(self._colors)!r})"


_DEFAULT_THEME: Final = Theme()


def _paint(theme: Theme, key: str, kind: str) -> dict[str, str]:
    """Presentation attributes for one colour: ``fill``/``stroke`` plus its opacity."""
    value = _paint_cached(theme, key)
    attributes = {kind: value[0]}
    if value[1] is not None:
        attributes[f"{kind}-opacity"] = value[1]
    return attributes


@lru_cache(maxsize=512)
def _paint_cached(theme: Theme, key: str) -> tuple[str, str | None]:
    color = theme[key]
    if color == "none":
        return color, None
    digits = color[1:]
    if len(digits) == 3:
        digits = "".join(2 * d for d in digits)
    rgb, alpha = digits[:6].lower(), digits[6:]
    if not alpha or alpha.lower() == "ff":
        return f"#{rgb}", None
    return f"#{rgb}", _fmt(int(alpha, 16) / 255, 3)


def _fmt(value: float, decimals: int = 2) -> str:
    """A number with fixed rounding, so that the output bytes never drift."""
    rounded = round(value, decimals)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.{decimals}f}".rstrip("0")


def _text(value: str) -> str:
    """Text that XML can hold; escaping itself is the serializer's job."""
    return _XML_INVALID.sub("", value)


def _tostring(element: ET.Element) -> str:
    return ET.tostring(element, encoding="unicode")


# -- markers -----------------------------------------------------------------


def _check_square(square: object, what: str) -> Square:
    if not isinstance(square, int) or isinstance(square, bool) or not 1 <= square <= 32:
        raise ValueError(f"{what}: {square!r} is not a square number (squares are 1-32)")
    return square


@dataclass(frozen=True)
class Markers:
    """What a diagram marks: the move's squares, its captures and rejected moves.

    Plain data, so a caller can mark squares without a move; usually built
    with :meth:`from_move` or :meth:`from_moves` from verified moves.
    ``alternatives`` are other legal moves drawn beside the main one (a free
    choice, or every step of a king), in the same solid style.
    """

    start: Square | None = None
    landings: tuple[Square, ...] = ()
    captured: tuple[Square, ...] = ()
    path: tuple[Square, ...] = ()
    rejected: tuple[tuple[Square, ...], ...] = ()
    alternatives: tuple[tuple[Square, ...], ...] = ()

    def __post_init__(self) -> None:
        # Accept lists from callers but store tuples, so Markers stay hashable.
        for name in ("landings", "captured", "path"):
            squares = tuple(getattr(self, name))
            for square in squares:
                _check_square(square, name)
            object.__setattr__(self, name, squares)
        for name in ("rejected", "alternatives"):
            paths = tuple(tuple(path) for path in getattr(self, name))
            for path in (*paths, *((self.path,) if self.path else ())):
                if len(path) < 2:
                    raise ValueError(f"{name}: {path!r} needs a start square and a landing")
                if any(a == b for a, b in itertools.pairwise(path)):
                    raise ValueError(f"{name}: {path!r} repeats a square; a move goes somewhere")
                for square in path:
                    _check_square(square, name)
            object.__setattr__(self, name, paths)
        if self.start is not None:
            _check_square(self.start, "start")

    @classmethod
    def from_move(cls, move: Move | str, rejected: Iterable[Move | str] = ()) -> Markers:
        """The markers of a move: start, landings in order, captured pieces, path."""
        move = Move.parse(move) if isinstance(move, str) else move
        return cls(
            start=move.origin,
            landings=move.landings,
            captured=move.captured,
            path=move.squares,
            rejected=tuple((Move.parse(m) if isinstance(m, str) else m).squares for m in rejected),
        )

    @classmethod
    def from_moves(
        cls, moves: Iterable[Move | str], rejected: Iterable[Move | str] = ()
    ) -> Markers:
        """Several legal moves: the first as the main one, the others as alternatives.

        Every captured piece of every move is marked.  With no move at all, the
        first rejected move's piece gets the start marker (an illegal move).
        """
        shown = [Move.parse(m) if isinstance(m, str) else m for m in moves]
        refused = tuple(Move.parse(m) if isinstance(m, str) else m for m in rejected)
        if not shown:
            start = refused[0].origin if refused else None
            return cls(start=start, rejected=tuple(m.squares for m in refused))
        main = cls.from_move(shown[0], refused)
        captured = tuple(dict.fromkeys(s for move in shown for s in move.captured))
        alternatives = tuple(move.squares for move in shown[1:])
        return cls(
            start=main.start,
            landings=main.landings,
            captured=captured,
            path=main.path,
            rejected=main.rejected,
            alternatives=alternatives,
        )

    @property
    def squares(self) -> frozenset[Square]:
        """Every marked square: these get a number in ``numbers="marked"`` mode."""
        marked = set(self.landings) | set(self.captured) | set(self.path)
        if self.start is not None:
            marked.add(self.start)
        for path in (*self.rejected, *self.alternatives):
            marked.update(path)
        return frozenset(marked)

    @property
    def landing_sequences(self) -> tuple[tuple[Square, ...], ...]:
        """The landings of the main move, then of each alternative, each in order."""
        main = (self.landings,) if self.landings else ()
        return main + tuple(path[1:] for path in self.alternatives)


_NO_MARKERS: Final = Markers()


def _as_move(path: tuple[Square, ...], captured: bool) -> Move | None:
    """The move a marker path stands for, if it is one (for the description)."""
    if len(path) < 2:
        return None
    is_capture = captured or len(path) > 2 or jumped_square(path[0], path[1]) is not None
    try:
        return Move(path, is_capture=is_capture)
    except ValueError:
        return None


# -- words ---------------------------------------------------------------------


def _and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _side_words(position: Position, color: Color) -> str:
    groups = []
    for king, one, many in ((False, "man", "men"), (True, "king", "kings")):
        squares = position.squares(color, king=king)
        if squares:
            noun = one if len(squares) == 1 else many
            groups.append(f"{noun} on {', '.join(map(str, squares))}")
    name = color.value.capitalize()
    return f"{name}: {'; '.join(groups) if groups else 'no pieces'}."


def _move_words(position: Position, move: Move) -> str:
    piece = position.piece_at(move.origin)
    if piece is None:
        who = f"The piece on {move.origin}"
    else:
        kind = "king" if piece.king else "man"
        who = f"{piece.color.value.capitalize()}'s {kind} on {move.origin}"
    captured = move.captured
    if move.is_capture and captured:
        landings = _and_list([str(s) for s in move.landings])
        taken = _and_list([str(s) for s in captured])
        return f"{who} captures {taken}, landing on {landings} ({move})."
    if move.is_capture:
        return f"{who} plays {move}."
    return f"{who} moves to {move.destination} ({move})."


def describe_position(
    position: Position,
    move: Move | str | None = None,
    *,
    rejected: Iterable[Move | str] = (),
    alternatives: Iterable[Move | str] = (),
) -> str:
    """The position (and move) read aloud in English: the SVG's default ``<desc>``.

    For example "White: men on 22, 23; king on 27. Black: men on 11, 18, 19.
    White to move."  The site passes its own translated text instead.
    """
    parts = [
        _side_words(position, Color.WHITE),
        _side_words(position, Color.BLACK),
        f"{position.turn.value.capitalize()} to move.",
    ]
    if move is not None:
        parts.append(_move_words(position, Move.parse(move) if isinstance(move, str) else move))
    also = [str(m) for m in alternatives]
    if also:
        parts.append(f"Also legal: {_and_list(also)}.")
    not_allowed = [str(m) for m in rejected]
    if not_allowed:
        parts.append(f"Not allowed: {_and_list(not_allowed)}.")
    return " ".join(parts)


def _default_title(move: Move | None) -> str:
    if move is not None:
        return f"Italian draughts diagram: {move}"
    return "Italian draughts diagram"


# -- geometry ------------------------------------------------------------------


def _corner(square: Square, flipped: bool, margin: int) -> tuple[int, int]:
    """Top-left corner of a square, in user units."""
    return _CORNERS[flipped][square][0] + margin, _CORNERS[flipped][square][1] + margin


def _make_corners(flipped: bool) -> dict[Square, tuple[int, int]]:
    corners = {}
    for square in SQUARES:
        row, column = square_row(square), square_column(square)
        if flipped:
            row, column = 7 - row, 7 - column
        corners[square] = (column * SQUARE, row * SQUARE)
    return corners


_CORNERS: Final = {False: _make_corners(False), True: _make_corners(True)}


@dataclass(frozen=True)
class _Layout:
    """Where the board sits in the picture: frame and indicator margins."""

    margin: int
    width: int
    height: int

    @classmethod
    def of(cls, frame: bool, side_to_move: bool) -> _Layout:
        if frame:
            return cls(FRAME, BOARD_SIZE + 2 * FRAME, BOARD_SIZE + 2 * FRAME)
        extra = FRAME if side_to_move else 0
        return cls(0, BOARD_SIZE + extra, BOARD_SIZE)


def _centre(square: Square, flipped: bool, margin: int) -> tuple[int, int]:
    x, y = _corner(square, flipped, margin)
    return x + SQUARE // 2, y + SQUARE // 2


# -- pieces --------------------------------------------------------------------


def _disc(theme: Theme, color: Color, cy: int) -> list[ET.Element]:
    """One disc seen from above and a little in front: its edge, face and grooves."""
    side = color.value
    rim = _paint(theme, f"{side} rim", "fill")
    edge = ET.Element(
        "circle", {"class": f"{side} rim", "cy": str(cy + 6), "r": str(PIECE_RADIUS), **rim}
    )
    face = ET.Element(
        "circle",
        {
            "class": f"{side} piece",
            "cy": str(cy),
            "r": str(PIECE_RADIUS),
            **_paint(theme, f"{side} piece", "fill"),
            **_paint(theme, f"{side} rim", "stroke"),
            "stroke-width": "2.5",
        },
    )
    grooves = [
        ET.Element(
            "circle",
            {
                "class": f"{side} rim",
                "cy": str(cy),
                "r": str(radius),
                "fill": "none",
                **_paint(theme, f"{side} rim", "stroke"),
                "stroke-width": width,
                "stroke-opacity": "0.55",
            },
        )
        for radius, width in ((27, "1.6"), (22, "1"))
    ]
    return [edge, face, *grooves]


def _crown(theme: Theme, cy: int) -> ET.Element:
    """A three-pointed crown with pearls: the sign of a king even in grayscale."""
    crown = ET.Element(
        "g",
        {
            "class": "crown",
            **_paint(theme, "crown", "fill"),
            **_paint(theme, "crown line", "stroke"),
            "stroke-width": "2.2",
            "stroke-linejoin": "round",
            "transform": f"translate(0 {cy})",
        },
    )
    ET.SubElement(crown, "path", {"d": "M-15 9L-18-8-8 0 0-12 8 0 18-8 15 9Z"})
    ET.SubElement(crown, "path", {"d": "M-15 4H15", "fill": "none"})
    for x, y in ((-18, -8), (0, -12), (18, -8)):
        ET.SubElement(crown, "circle", {"cx": str(x), "cy": str(y), "r": "3.2"})
    return crown


def _piece_shape(theme: Theme, color: Color, king: bool) -> ET.Element:
    """A piece centred on the origin.  A king is two stacked discs and a crown."""
    kind = "king" if king else "man"
    group = ET.Element("g", {"class": f"piece {color.value} {kind}"})
    if king:
        group.extend(_disc(theme, color, 5))
        group.extend(_disc(theme, color, _KING_FACE))
        group.append(_crown(theme, _KING_FACE))
    else:
        group.extend(_disc(theme, color, _MAN_FACE))
    return group


def _piece_id(diagram_id: str, piece: Piece) -> str:
    return f"{diagram_id}-{piece.color.value}-{'king' if piece.king else 'man'}"


# -- the cached background -----------------------------------------------------


@lru_cache(maxsize=256)
def _background(
    diagram_id: str, theme: Theme, flipped: bool, frame: bool, side_to_move: bool
) -> str:
    """Piece shapes, frame and squares: everything that only depends on the options."""
    layout = _Layout.of(frame, side_to_move)
    defs = ET.Element("defs")
    for color in Color:
        for king in (False, True):
            shape = _piece_shape(theme, color, king)
            shape.set("id", _piece_id(diagram_id, Piece(color, king)))
            defs.append(shape)
    parts = [_tostring(defs)]
    m = layout.margin
    if frame:
        outer = ET.Element(
            "rect",
            {
                "class": "frame",
                "width": str(layout.width),
                "height": str(layout.height),
                "rx": "6",
                **_paint(theme, "frame", "fill"),
            },
        )
        parts.append(_tostring(outer))
    squares = ET.Element("g", {"class": "squares"})
    ET.SubElement(
        squares,
        "rect",
        {
            "class": "square light",
            "x": str(m),
            "y": str(m),
            "width": str(BOARD_SIZE),
            "height": str(BOARD_SIZE),
            **_paint(theme, "square light", "fill"),
        },
    )
    dark = ET.SubElement(squares, "g", _paint(theme, "square dark", "fill"))
    for square in SQUARES:
        x, y = _corner(square, flipped, m)
        ET.SubElement(
            dark,
            "rect",
            {
                "class": "square dark",
                "data-square": str(square),
                "x": str(x),
                "y": str(y),
                "width": str(SQUARE),
                "height": str(SQUARE),
            },
        )
    parts.append(_tostring(squares))
    if frame:
        line = ET.Element(
            "rect",
            {
                "class": "frame line",
                "x": _fmt(m - 1.5),
                "y": _fmt(m - 1.5),
                "width": str(BOARD_SIZE + 3),
                "height": str(BOARD_SIZE + 3),
                "fill": "none",
                **_paint(theme, "frame line", "stroke"),
                "stroke-width": "3",
            },
        )
        parts.append(_tostring(line))
    return "".join(parts)


@lru_cache(maxsize=1024)
def _numbers(squares: frozenset[Square], theme: Theme, flipped: bool, margin: int) -> str:
    """Square numbers in the top-left corner of their square.

    They are drawn over arrows and crosses, which cross that corner, so each
    number has a halo of the square's colour that keeps it legible.
    """
    group = ET.Element("g", {"class": "numbers", "font-family": _FONT, "font-size": "16"})
    halo = ET.SubElement(
        group,
        "g",
        {
            "class": "number halo",
            **_paint(theme, "number halo", "fill"),
            **_paint(theme, "number halo", "stroke"),
            "stroke-width": "4",
            "stroke-linejoin": "round",
        },
    )
    text = ET.SubElement(group, "g", {"class": "number", **_paint(theme, "number", "fill")})
    for square in sorted(squares):
        x, y = _corner(square, flipped, margin)
        for layer in (halo, text):
            label = ET.SubElement(layer, "text", {"x": str(x + 6), "y": str(y + 19)})
            label.text = str(square)
    return _tostring(group)


# -- markers on the board --------------------------------------------------------


def _start_marker(theme: Theme, square: Square, flipped: bool, margin: int) -> ET.Element:
    x, y = _corner(square, flipped, margin)
    return ET.Element(
        "rect",
        {
            "class": "marker start",
            "x": str(x),
            "y": str(y),
            "width": str(SQUARE),
            "height": str(SQUARE),
            **_paint(theme, "marker start", "fill"),
        },
    )


def _landing_rings(
    theme: Theme, landings: tuple[Square, ...], flipped: bool, margin: int
) -> ET.Element:
    """A ring where the piece lands: the shape of the piece that will be there."""
    group = ET.Element(
        "g",
        {
            "class": "marker landing",
            **_paint(theme, "marker landing", "fill"),
            "fill-opacity": "0.12",
            **_paint(theme, "marker landing", "stroke"),
            "stroke-width": "5",
        },
    )
    for square in dict.fromkeys(landings):
        cx, cy = _centre(square, flipped, margin)
        ET.SubElement(group, "circle", {"cx": str(cx), "cy": str(cy + _MAN_FACE), "r": "36"})
    return group


def _landing_badges(
    theme: Theme, sequences: Iterable[tuple[Square, ...]], flipped: bool, margin: int
) -> ET.Element:
    """The order of the landings of each multi-capture, as numbered discs."""
    group = ET.Element("g", {"class": "marker landing order"})
    discs = ET.SubElement(group, "g", _paint(theme, "marker landing", "fill"))
    labels = ET.SubElement(
        group,
        "g",
        {
            "class": "marker landing text",
            "font-family": _FONT,
            "font-size": "19",
            "font-weight": "bold",
            "text-anchor": "middle",
            **_paint(theme, "marker landing text", "fill"),
        },
    )
    # A square landed on twice gets both numbers, side by side.
    sequences = tuple(sequences)
    count: dict[Square, int] = {}
    for landings in sequences:
        for square in landings:
            count[square] = count.get(square, 0) + 1
    seen: dict[Square, int] = {}
    for landings in sequences:
        for index, square in enumerate(landings, start=1):
            cx, cy = _centre(square, flipped, margin)
            shift = 33 * (seen.get(square, 0) - (count[square] - 1) / 2)
            seen[square] = seen.get(square, 0) + 1
            x, y = _fmt(cx + shift), cy + _MAN_FACE
            ET.SubElement(discs, "circle", {"cx": x, "cy": str(y), "r": "16", "stroke": "none"})
            label = ET.SubElement(labels, "text", {"x": x, "y": str(y + 7)})
            label.text = str(index)
    return group


def _rejected_ends(
    theme: Theme, paths: tuple[tuple[Square, ...], ...], flipped: bool, margin: int
) -> ET.Element:
    """A dashed ring where a rejected move would have ended."""
    group = ET.Element(
        "g",
        {
            "class": "marker rejected",
            "fill": "none",
            **_paint(theme, "arrow rejected", "stroke"),
            "stroke-width": "4",
            "stroke-dasharray": "9 7",
        },
    )
    for square in dict.fromkeys(path[-1] for path in paths):
        cx, cy = _centre(square, flipped, margin)
        ET.SubElement(group, "circle", {"cx": str(cx), "cy": str(cy + _MAN_FACE), "r": "30"})
    return group


def _captured_marks(
    theme: Theme, captured: tuple[Square, ...], flipped: bool, margin: int
) -> ET.Element:
    """A cross over each captured piece, with a halo so it reads on both colours."""
    group = ET.Element(
        "g",
        {"class": "marker captured", "fill": "none", "stroke-linecap": "round"},
    )
    paths = []
    for square in dict.fromkeys(captured):
        cx, cy = _centre(square, flipped, margin)
        cy += _MAN_FACE
        a, b = (cx - 17, cy - 17), (cx + 17, cy + 17)
        paths.append(f"M{a[0]} {a[1]}L{b[0]} {b[1]}M{b[0]} {a[1]}L{a[0]} {b[1]}")
    d = "".join(paths)
    ET.SubElement(
        group,
        "path",
        {
            "class": "marker captured halo",
            "d": d,
            **_paint(theme, "marker captured halo", "stroke"),
            "stroke-width": "14",
        },
    )
    ET.SubElement(
        group,
        "path",
        {"d": d, **_paint(theme, "marker captured", "stroke"), "stroke-width": "7"},
    )
    return group


def _arrow(
    theme: Theme,
    path: tuple[Square, ...],
    flipped: bool,
    margin: int,
    *,
    rejected: bool,
    tip_gap: float,
) -> ET.Element:
    """A line through the centres of a move's squares, ending in an arrowhead.

    The line stops where the head begins, so that a translucent arrow is not
    darker where the two overlap.
    """
    points: list[tuple[float, float]] = [_centre(square, flipped, margin) for square in path]
    points = [(x, y + _MAN_FACE) for x, y in points]
    # Start beside the centre, so the moving piece (and a king's crown) stays visible.
    (sx, sy), (nx, ny) = points[0], points[1]
    start_length = math.hypot(nx - sx, ny - sy)
    points[0] = (
        sx + (nx - sx) * _ARROW_START_GAP / start_length,
        sy + (ny - sy) * _ARROW_START_GAP / start_length,
    )
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head_length, head_width = (24.0, 15.0) if rejected else (28.0, 18.0)
    tip = (x1 - ux * tip_gap, y1 - uy * tip_gap)
    base = (tip[0] - ux * head_length, tip[1] - uy * head_length)
    left = (base[0] - uy * head_width, base[1] + ux * head_width)
    right = (base[0] + uy * head_width, base[1] - ux * head_width)
    key = "arrow rejected" if rejected else "arrow"
    group = ET.Element("g", {"class": key})
    line_end = base if not rejected else (base[0] + ux * 6, base[1] + uy * 6)
    line = [*points[:-1], line_end]
    d = "M" + "L".join(f"{_fmt(x)} {_fmt(y)}" for x, y in line)
    ET.SubElement(
        group,
        "path",
        {
            "d": d,
            "fill": "none",
            **_paint(theme, key, "stroke"),
            "stroke-width": "6" if rejected else "9",
            "stroke-linejoin": "round",
            "stroke-linecap": "butt",
            **({"stroke-dasharray": "14 9"} if rejected else {}),
        },
    )
    head = "M{}L{}L{}".format(*(f"{_fmt(x)} {_fmt(y)}" for x, y in (left, tip, right)))
    if rejected:
        ET.SubElement(
            group,
            "path",
            {
                "d": head,
                "fill": "none",
                **_paint(theme, key, "stroke"),
                "stroke-width": "6",
                "stroke-linejoin": "round",
                "stroke-linecap": "round",
            },
        )
    else:
        ET.SubElement(group, "path", {"d": head + "Z", **_paint(theme, key, "fill")})
    return group


def _side_indicator(theme: Theme, position: Position, layout: _Layout, flipped: bool) -> ET.Element:
    """A small piece in the right margin, on the side of the player to move."""
    color = position.turn
    at_bottom = (color is Color.WHITE) != flipped
    y = layout.margin + (BOARD_SIZE - SQUARE // 2 if at_bottom else SQUARE // 2)
    x = layout.width - FRAME // 2
    side = color.value
    return ET.Element(
        "circle",
        {
            "class": f"side-to-move {side} piece",
            "cx": str(x),
            "cy": str(y),
            "r": "11",
            **_paint(theme, f"{side} piece", "fill"),
            **_paint(theme, f"{side} rim", "stroke"),
            "stroke-width": "2",
        },
    )


# -- the board -------------------------------------------------------------------


def _check_options(diagram_id: str, numbers: str, size: int) -> None:
    if not isinstance(diagram_id, str) or not _ID.fullmatch(diagram_id):
        raise ValueError(
            f"diagram id {diagram_id!r} may only use lowercase letters, digits and '-'"
        )
    if numbers not in NUMBER_MODES:
        raise ValueError(f"numbers={numbers!r}; choose one of {', '.join(NUMBER_MODES)}")
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ValueError(f"size={size!r}; the size is a positive number of pixels")


def _pieces(diagram_id: str, position: Position, flipped: bool, margin: int) -> Iterator[str]:
    for square, piece in position.pieces().items():
        yield _piece_use(diagram_id, square, piece, flipped, margin)


@lru_cache(maxsize=4096)
def _piece_use(diagram_id: str, square: Square, piece: Piece, flipped: bool, margin: int) -> str:
    """One piece placed on its square: a ``<use>`` of the shared shape."""
    cx, cy = _centre(square, flipped, margin)
    kind = "king" if piece.king else "man"
    use = ET.Element(
        "use",
        {
            "href": f"#{_piece_id(diagram_id, piece)}",
            "class": f"piece {piece.color.value} {kind}",
            "data-square": str(square),
            "x": str(cx),
            "y": str(cy),
        },
    )
    return _tostring(use)


class SvgOptions(TypedDict, total=False):
    """The keyword options of :func:`render_svg`, for functions that pass them on."""

    diagram_id: str
    markers: Markers | None
    title: str | None
    description: str | None
    numbers: str
    flipped: bool
    size: int
    frame: bool
    arrows: bool
    side_to_move: bool
    theme: Theme | None


def render_svg(
    position: Position,
    *,
    diagram_id: str = "board",
    markers: Markers | None = None,
    title: str | None = None,
    description: str | None = None,
    numbers: str = "marked",
    flipped: bool = False,
    size: int = 400,
    frame: bool = True,
    arrows: bool = True,
    side_to_move: bool = False,
    theme: Theme | None = None,
) -> str:
    """The position as a standalone, accessible SVG document.

    ``title`` and ``description`` are the caller's (translated) text; they
    default to English built from the position and the markers.  ``numbers``
    is ``"all"``, ``"marked"`` (the squares the markers touch) or ``"none"``.
    """
    _check_options(diagram_id, numbers, size)
    markers = markers or _NO_MARKERS
    theme = theme or _DEFAULT_THEME
    layout = _Layout.of(frame, side_to_move)
    margin = layout.margin
    move = _as_move(markers.path, bool(markers.captured))
    if title is None:
        title = _default_title(move)
    if description is None:
        rejected = [m for m in (_as_move(p, False) for p in markers.rejected) if m is not None]
        also = [m for m in (_as_move(p, False) for p in markers.alternatives) if m is not None]
        description = describe_position(position, move, rejected=rejected, alternatives=also)

    root = ET.Element(
        "svg",
        {
            "xmlns": _SVG_NS,
            "class": "dama-diagram",
            "viewBox": f"0 0 {layout.width} {layout.height}",
            "width": str(size),
            "height": str(round(size * layout.height / layout.width)),
            "role": "img",
            "aria-labelledby": f"{diagram_id}-title {diagram_id}-desc",
        },
    )
    ET.SubElement(root, "title", {"id": f"{diagram_id}-title"}).text = _text(title)
    ET.SubElement(root, "desc", {"id": f"{diagram_id}-desc"}).text = _text(description)
    head = _tostring(root)
    parts = [head[: -len("</svg>")]]
    parts.append(_background(diagram_id, theme, flipped, frame, side_to_move))

    if markers.start is not None:
        parts.append(_tostring(_start_marker(theme, markers.start, flipped, margin)))
    sequences = markers.landing_sequences
    if sequences:
        landed = tuple(square for landings in sequences for square in landings)
        parts.append(_tostring(_landing_rings(theme, landed, flipped, margin)))
    parts.append('<g class="pieces">')
    parts.extend(_pieces(diagram_id, position, flipped, margin))
    parts.append("</g>")
    numbered = [landings for landings in sequences if len(landings) > 1]
    if markers.rejected:
        parts.append(_tostring(_rejected_ends(theme, markers.rejected, flipped, margin)))
    if arrows:
        for path in markers.rejected:
            parts.append(_tostring(_arrow(theme, path, flipped, margin, rejected=True, tip_gap=12)))
        for path in (markers.path, *markers.alternatives):
            if len(path) >= 2:
                # The head stops short of a numbered badge, or just past the centre.
                gap = 17.0 if len(path) > 2 else 8.0
                arrow = _arrow(theme, path, flipped, margin, rejected=False, tip_gap=gap)
                parts.append(_tostring(arrow))
    if markers.captured:
        parts.append(_tostring(_captured_marks(theme, markers.captured, flipped, margin)))
    if numbers != "none":
        shown = frozenset(SQUARES) if numbers == "all" else markers.squares
        if shown:
            parts.append(_numbers(shown, theme, flipped, margin))
    if numbered:
        parts.append(_tostring(_landing_badges(theme, numbered, flipped, margin)))
    if side_to_move:
        parts.append(_tostring(_side_indicator(theme, position, layout, flipped)))
    parts.append("</svg>")
    return "".join(parts)


def clear_cache() -> None:
    """Forget the cached backgrounds and fragments: for cold-cache benchmarks and tests."""
    for cached in (_background, _numbers, _piece_use, _paint_cached):
        cached.cache_clear()


# -- legend ----------------------------------------------------------------------


def _check_labels(labels: Mapping[str, str]) -> None:
    missing = [key for key in LEGEND_KEYS if key not in labels]
    unknown = sorted(set(labels) - set(LEGEND_KEYS))
    if missing or unknown:
        raise ValueError(
            f"legend labels need exactly the keys {', '.join(LEGEND_KEYS)}; "
            f"missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'}"
        )


def _legend_icon(theme: Theme, key: str) -> list[ET.Element]:
    """One marker drawn on a single dark square of 100 units."""
    square = ET.Element(
        "rect", {"class": "square dark", "width": str(SQUARE), "height": str(SQUARE)}
    )
    square.attrib.update(_paint(theme, "square dark", "fill"))
    elements = [square]
    if key == "start":
        elements.append(_start_marker(theme, 1, False, 0))
        elements.append(_placed(_piece_shape(theme, Color.WHITE, False)))
    elif key == "landing":
        elements.append(_landing_rings(theme, (1,), False, 0))
    elif key == "captured":
        elements.append(_placed(_piece_shape(theme, Color.BLACK, False)))
        elements.append(_captured_marks(theme, (1,), False, 0))
    else:
        elements.append(_placed(_piece_shape(theme, Color.WHITE, True)))
    return elements


def _placed(shape: ET.Element) -> ET.Element:
    shape.set("transform", f"translate({SQUARE // 2} {SQUARE // 2})")
    return shape


def legend_svg(
    labels: Mapping[str, str],
    *,
    diagram_id: str = "legend",
    title: str | None = None,
    theme: Theme | None = None,
) -> str:
    """The four markers with the caller's (translated) labels, as one SVG.

    ``labels`` has the keys ``start``, ``landing``, ``captured`` and ``king``.
    Label widths are estimated, since SVG cannot measure text.
    """
    _check_labels(labels)
    _check_options(diagram_id, "none", 1)
    theme = theme or _DEFAULT_THEME
    row, icon, font = 44, 36, 16
    longest = max(len(labels[key]) for key in LEGEND_KEYS)
    width = icon + 12 + math.ceil(longest * font * 0.62) + 4
    height = row * len(LEGEND_KEYS) - (row - icon)
    text = _text(title) if title is not None else "; ".join(labels[k] for k in LEGEND_KEYS)
    root = ET.Element(
        "svg",
        {
            "xmlns": _SVG_NS,
            "class": "dama-legend",
            "viewBox": f"0 0 {width} {height}",
            "width": str(width),
            "height": str(height),
            "role": "img",
            "aria-labelledby": f"{diagram_id}-title",
        },
    )
    ET.SubElement(root, "title", {"id": f"{diagram_id}-title"}).text = text
    for index, key in enumerate(LEGEND_KEYS):
        y = index * row
        item = ET.SubElement(root, "g", {"class": f"legend {key}"})
        holder = ET.SubElement(
            item, "g", {"transform": f"translate(0 {y}) scale({_fmt(icon / SQUARE)})"}
        )
        holder.extend(_legend_icon(theme, key))
        label = ET.SubElement(
            item,
            "text",
            {
                "class": "legend text",
                "x": str(icon + 12),
                "y": str(y + icon // 2 + font * 7 // 20),
                "font-family": _FONT,
                "font-size": str(font),
                **_paint(theme, "legend text", "fill"),
            },
        )
        label.text = _text(labels[key])
    return _tostring(root)


def legend_html(labels: Mapping[str, str], *, theme: Theme | None = None) -> str:
    """The legend as an HTML list with small inline icons; the text takes the page's colours."""
    _check_labels(labels)
    theme = theme or _DEFAULT_THEME
    listing = ET.Element("ul", {"class": "dama-legend"})
    for key in LEGEND_KEYS:
        item = ET.SubElement(listing, "li", {"class": f"dama-legend-{key}"})
        icon = ET.SubElement(
            item,
            "svg",
            {
                "xmlns": _SVG_NS,
                "viewBox": f"0 0 {SQUARE} {SQUARE}",
                "width": "24",
                "height": "24",
                "aria-hidden": "true",
                "focusable": "false",
            },
        )
        icon.extend(_legend_icon(theme, key))
        ET.SubElement(item, "span").text = _text(labels[key])
    return ET.tostring(listing, encoding="unicode", short_empty_elements=False)
