"""Colours: the built-in themes, :class:`Theme`, and how a colour becomes attributes.

Every element that a theme colours carries the theme key as its ``class``, as
in python-chess, so a site stylesheet can restyle the same diagram.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from ._xml import fmt

__all__ = ["DEFAULT_COLORS", "GREEN_COLORS", "THEME_NAMES", "Theme"]

_COLOR: Final = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|none")

DEFAULT_COLORS: Final[Mapping[str, str]] = {
    "square light": "#efdfc0",
    "square dark": "#b08659",
    "frame": "#6e4d31",
    "frame line": "#3f2a1a",
    # Dark ink on a halo of the square's colour: 5.5:1 here, 5.8:1 on green.
    "number": "#1e140c",
    "number halo": "#b08659",
    "white piece": "#f8f2e4",
    "white rim": "#8d7556",
    "black piece": "#3b322c",
    "black rim": "#15110e",
    "crown": "#d8a93b",
    "crown line": "#5a4116",
    "marker start": "#d9bb62",
    # its outline: on a greyscale print the fill is a grey close to the light squares'
    "marker start line": "#3a2c0b",
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

THEME_NAMES: Final = tuple(_THEMES)
"""The built-in themes, for :meth:`Theme.named`."""


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

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Theme) and self._colors == other._colors

    def __hash__(self) -> int:
        return hash(self._colors)

    def __repr__(self) -> str:
        return f"Theme({dict(self._colors)!r})"


DEFAULT_THEME: Final = Theme()
"""What every renderer uses when given no theme."""


def paint(theme: Theme, key: str, kind: str) -> dict[str, str]:
    """Presentation attributes for one colour: ``fill``/``stroke`` plus its opacity.

    cairosvg ignores ``#rrggbbaa``, so alpha always goes to a separate opacity.
    """
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
    return f"#{rgb}", fmt(int(alpha, 16) / 255, 3)


def clear_paint_cache() -> None:
    """Forget the cached colours (see :func:`dama_diagrams.render.svg.clear_cache`)."""
    _paint_cached.cache_clear()
