"""The placeholders a caption may hold, and the ones each diagram can fill.

A caption such as ``"After {sequence}, Black must capture back with {move}"``
names values of the diagram: the move, its squares, the captures, the moves
ruled out, the moves that led to the position.  Each placeholder's items come
from the diagram alone (:func:`caption_items`), so ``verify`` refuses a
placeholder the diagram cannot fill at the caption's line, before a page would
print it empty ("After , Black must…").  The site joins the same items in
each language (:func:`dama_diagrams.site.pages.figure_html.caption_values`).
"""

from __future__ import annotations

import re

from .schema import Diagram

PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
"""A ``{name}`` placeholder: lowercase letters and ``_`` only, as the catalogs have them."""

CAPTION_PLACEHOLDERS = (
    "move",
    "moves",
    "start",
    "end",
    "captured",
    "count",
    "rejected",
    "sequence",
)
"""Every placeholder a caption may hold, in the order the help lists them."""


def caption_items(diagram: Diagram) -> dict[str, tuple[str, ...]]:
    """Each placeholder's items for this diagram; an empty tuple where it has none.

    ``start``, ``end``, ``captured`` and ``count`` speak of the diagram's move,
    or of its first move where it lists several.
    """
    first = diagram.move or (diagram.moves[0] if diagram.moves else None)
    captured = () if first is None else tuple(map(str, first.captured))
    return {
        "move": () if diagram.move is None else (str(diagram.move),),
        "moves": tuple(map(str, diagram.moves)),
        "start": () if first is None else (str(first.origin),),
        "end": () if first is None else (str(first.destination),),
        "captured": captured,
        "count": captured,
        "rejected": tuple(map(str, diagram.rejected)),
        "sequence": tuple(map(str, diagram.history)),
    }


def fillable(diagram: Diagram) -> tuple[str, ...]:
    """The placeholders this diagram's caption may use, in the help's order."""
    items = caption_items(diagram)
    return tuple(name for name in CAPTION_PLACEHOLDERS if items[name])


def check_caption(diagram: Diagram) -> None:
    """Refuse, at the caption's line, a placeholder this diagram leaves empty."""
    if diagram.caption is None:
        return
    can = fillable(diagram)
    for name in PLACEHOLDER.findall(diagram.caption):
        if name in can:
            continue
        known = name in CAPTION_PLACEHOLDERS
        what = f"a {diagram.claim.value} claim" if known else "a caption"
        why = "has no value for" if known else "knows no placeholder"
        listed = ", ".join(f"{{{n}}}" for n in can) if can else "none"
        raise diagram.error(
            "caption",
            f"the caption's {{{name}}} would print nothing: {what} {why} {{{name}}}; "
            f"this diagram can fill {listed}; remove {{{name}}} or write its text",
        )
