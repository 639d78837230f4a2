"""What a diagram file can choose: its claim, and how it is shown.

Kept apart from the file reader (:mod:`.schema`) because the later stages ask
these questions too: which options apply to a claim, and whether a diagram's
capture can be stepped through.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, TypeAlias

from ..engine.move import Move

__all__ = [
    "EXERCISE_KEYS",
    "SHOW_KEYS",
    "Ask",
    "Claim",
    "Exercise",
    "Numbers",
    "Show",
    "show_options",
]


class Claim(Enum):
    """What a diagram claims, and so what the engine must confirm."""

    SETUP = "setup"
    MOVE = "move"
    CAPTURE = "capture"
    MULTI_CAPTURE = "multi-capture"
    ILLEGAL = "illegal"
    PRIORITY = "priority"
    FREE_CHOICE = "free-choice"
    PROMOTION = "promotion"
    GAME_OVER = "game-over"


class Ask(Enum):
    """What an exercise asks the reader to find on the board.

    ``move``: the one move the rules allow (the build fails if there are
    several); ``any-move``: any of the two or more moves the rules allow (a
    free choice); ``win``: a move after which the opponent cannot play.
    """

    MOVE = "move"
    ANY_MOVE = "any-move"
    WIN = "win"


EXERCISE_KEYS = ("ask", "question")


@dataclass(frozen=True, slots=True)
class Exercise:
    """A diagram turned into a question: the reader plays the answer on the board."""

    ask: Ask
    question: str
    """The English question; the PO catalogs translate it."""


Numbers: TypeAlias = Literal["all", "marked", "none"]

SHOW_KEYS = ("numbers", "arrows", "flip", "turn", "steps")

_NO_MOVE_CLAIMS = (Claim.SETUP, Claim.GAME_OVER)
"""The claims that show no move: nothing to draw as an arrow, no square marked."""

_STEPS_CLAIMS = (Claim.CAPTURE, Claim.MULTI_CAPTURE, Claim.PRIORITY, Claim.PROMOTION)
"""The claims whose one move may be a capture of two or more pieces to step through."""


@dataclass(frozen=True, slots=True)
class Show:
    """Display options; the defaults give a good picture.

    ``numbers``: which square numbers to print: ``all`` 32, the ``marked``
    squares only (start, landings, captures), or ``none``.  ``true`` means
    ``all`` and ``false`` means ``none``.  ``arrows``: draw the moves as
    arrows.  ``flip``: turn the board so that Black is at the bottom.
    ``turn``: draw the small indicator of the side to move.  ``steps``: on the
    website, give a capture of two or more pieces step-by-step controls (the
    start, each landing, the final position).

    Not every option applies to every claim (see :func:`show_options`):
    ``arrows`` and an explicit ``numbers: marked`` need a move, and ``steps``
    one capture of two or more pieces; the loader refuses, at its line, an
    option given for a claim it does not apply to.
    """

    numbers: Numbers = "marked"
    arrows: bool = True
    flip: bool = False
    turn: bool = True
    steps: bool = True


def show_options(claim: Claim, move: Move | None = None) -> tuple[str, ...]:
    """The ``show`` options that apply to ``claim`` showing ``move``, in ``SHOW_KEYS`` order."""
    return tuple(
        key
        for key in SHOW_KEYS
        if (key != "arrows" or claim not in _NO_MOVE_CLAIMS)
        and (key != "steps" or _has_steps(claim, move))
    )


def _has_steps(claim: Claim, move: Move | None) -> bool:
    """Whether the diagram shows one capture of two or more pieces, to step through."""
    return (
        claim in _STEPS_CLAIMS and move is not None and move.is_capture and len(move.landings) >= 2
    )
