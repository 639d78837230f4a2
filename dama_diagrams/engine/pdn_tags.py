"""What PDN tags and results mean, whatever language the file writes them in.

Tournament software in Italy writes ``[Bianco "…"]`` and ``[Risultato "1-1"]``;
Dutch and French programs have their own names.  :func:`standard_tags` reads
each as the PDN 3.0 tag it stands for and keeps every other tag as it is.
:data:`RESULTS` gives every result form its meaning for draughts, and
:func:`printable` makes a tag value safe to print on a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum

from ..errors import visible


class Verdict(Enum):
    """What a result says about the game."""

    WHITE = "White won"
    BLACK = "Black won"
    DRAW = "a draw"
    NONE = "neither side scored"
    UNKNOWN = "no result"


RESULTS: dict[str, Verdict] = {
    "2-0": Verdict.WHITE,
    "1-0": Verdict.WHITE,
    "0-2": Verdict.BLACK,
    "0-1": Verdict.BLACK,
    "1-1": Verdict.DRAW,
    "1/2-1/2": Verdict.DRAW,
    "0-0": Verdict.NONE,
    "*": Verdict.UNKNOWN,
}
"""Every result PDN writes: points (2-0, 1-1, 0-2, 0-0) or as in chess (1-0, 1/2-1/2, 0-1)."""

RESULT_PATTERN = (
    "(?:" + "|".join(re.escape(r) for r in sorted(RESULTS, key=len, reverse=True)) + ")"
)

ALIASES: dict[str, str] = {
    # Italian, as FID tournament software and players write them
    "Bianco": "White",
    "Nero": "Black",
    "Risultato": "Result",
    "Evento": "Event",
    "Torneo": "Event",
    "Luogo": "Site",
    "Data": "Date",
    "Anno": "Date",
    "Dati": "Date",
    "Turno": "Round",
    # Dutch
    "Wit": "White",
    "Zwart": "Black",
    "Uitslag": "Result",
    "Toernooi": "Event",
    "Plaats": "Site",
    "Datum": "Date",
    "Ronde": "Round",
    # French
    "Blancs": "White",
    "Noirs": "Black",
    "Blanc": "White",
    "Noir": "Black",
    "Résultat": "Result",
    "Tournoi": "Event",
    "Lieu": "Site",
}
"""Tag names in other languages, and the PDN 3.0 name each stands for."""


def standard_tags(tags: Mapping[str, str]) -> dict[str, str]:
    """The tags under their PDN 3.0 names; a standard name the file writes wins."""
    standard = {ALIASES.get(name, name): value for name, value in tags.items()}
    standard.update({name: value for name, value in tags.items() if name not in ALIASES})
    return standard


def printable(text: str, limit: int = 80) -> str:
    """``text`` with every control or direction character escaped, and cut at ``limit``."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return visible(text)
