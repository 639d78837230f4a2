"""A suggested English title and caption for a claim, written where the author starts.

``find --yaml`` writes them into the files it finds, and the board editor
offers them for the claim chosen.  They must make sense for any position of
the claim's shape, so they say what the claim shows and let the placeholders
(``{move}``, ``{rejected}``) name the squares; the author rewrites them at will.
"""

from __future__ import annotations

from ..engine.legality import IllegalReason
from ..engine.position import GameOverReason, Position
from ..engine.priority import PriorityRule
from .options import Claim
from .schema import Reason

_PRIORITY_WORDS = {
    PriorityRule.MOST_PIECES: (
        "Rule 1: most pieces",
        "{move} takes more pieces than {rejected}, so it must be played.",
    ),
    PriorityRule.WITH_KING: (
        "Rule 2: capture with a king",
        "The captures take as many pieces, so the king must capture: {move}, not {rejected}.",
    ),
    PriorityRule.MOST_KINGS: (
        "Rule 3: most kings",
        "{move} takes more kings than {rejected}, so {move} must be played.",
    ),
    PriorityRule.KING_FIRST: (
        "Rule 4: king met first",
        "The captures take as many pieces and kings, but {move} meets a king sooner "
        "than {rejected}.",
    ),
}

_ILLEGAL_TITLES = {
    IllegalReason.BACKWARD: "A man never moves backwards",
    IllegalReason.MAN_TAKES_KING: "A man does not capture a king",
    IllegalReason.CAPTURE_COMPULSORY: "Capturing is compulsory",
    IllegalReason.PRIORITY: "The priority rules forbid it",
    IllegalReason.OCCUPIED: "The square is taken",
    IllegalReason.NOT_DIAGONAL: "Pieces move diagonally",
    IllegalReason.NO_PIECE: "No piece to move",
    IllegalReason.NOTHING_TO_CAPTURE: "Nothing to capture",
    IllegalReason.JUMPED_TWICE: "No piece is jumped twice",
}


def suggested_words(
    claim: Claim,
    rule: PriorityRule | None,
    reason: Reason | None,
    position: Position,
    *,
    several: bool = False,
    rejected: bool = False,
    played: bool = False,
) -> tuple[str, str]:
    """An English title and caption that make sense for every position of the claim's shape.

    ``several``: a ``move`` claim shows several moves (``moves:``);
    ``rejected``: a ``capture`` claim shows the steps it rules out;
    ``played``: the position is given as moves from the start or a game's.
    """
    side = position.turn.value.capitalize()
    if rule is not None:
        return _PRIORITY_WORDS[rule]
    if isinstance(reason, IllegalReason):
        return _ILLEGAL_TITLES[reason], "{move} is not allowed."
    if reason is GameOverReason.NO_PIECES:
        return (
            "No pieces left",
            f"It is {side}'s turn, but {side} has no pieces left: {side} loses.",
        )
    if reason is GameOverReason.BLOCKED:
        return "Blocked", f"It is {side}'s turn, but {side} has no legal move: {side} loses."
    if claim is Claim.CAPTURE and rejected:
        return (
            "Capturing is compulsory",
            f"{side} may not play {{rejected}}: the capture {{move}} must be played.",
        )
    if claim is Claim.MOVE:
        if several:
            return "The moves of a piece", "The piece on {start} may play {moves}."
        return "A move", f"{side} plays {{move}}."
    if claim is Claim.SETUP:
        if played:
            return "The position", "The position after {sequence}."
        return "The position", f"{side} to move."
    words = {
        Claim.CAPTURE: ("Capturing is compulsory", "{move} captures, and capturing is compulsory."),
        Claim.MULTI_CAPTURE: (
            "A multiple capture",
            "The piece takes {count} pieces in a single move, {move}.",
        ),
        Claim.FREE_CHOICE: (
            "Free choice",
            "{moves} are equal on all four rules: the player may choose.",
        ),
        Claim.PROMOTION: (
            "Crowned on the last row",
            "The man reaches the last row with {move} and stops there, although a king "
            "could go on capturing.",
        ),
    }
    return words[claim]
