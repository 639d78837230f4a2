"""The diagram files the finder writes: the keys, and an English title and caption.

The title and caption must make sense for any position the finder may find,
so they say what the claim shows and let the placeholders (``{move}``,
``{rejected}``) name the squares; the author rewrites them at will.
"""

from __future__ import annotations

import json

from ..engine.legality import IllegalReason
from ..engine.position import GameOverReason, Position
from ..engine.priority import PriorityRule
from ._proposals import Proposal
from .options import Claim
from .schema import Reason


def diagram_text(
    claim: Claim,
    rule: PriorityRule | None,
    reason: Reason | None,
    position: Position,
    proposal: Proposal,
) -> str:
    """The keys of a diagram file for a proposal, with an English title and caption."""
    lines = [f"position: {_quoted(position.to_fen())}", f"claim: {claim.value}"]
    if proposal.move is not None:
        lines.append(f"move: {proposal.move}")
    if proposal.moves:
        lines.append(f"moves: [{', '.join(map(str, proposal.moves))}]")
    if rule is not None:
        lines.append(f"rule: {rule.value}")
    if proposal.rejected:
        lines.append(f"rejected: [{', '.join(map(str, proposal.rejected))}]")
    if reason is not None:
        lines.append(f"reason: {reason.value}")
    title, caption = _words(claim, rule, reason, position)
    lines += [f"title: {_quoted(title)}", f"caption: {_quoted(caption)}"]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A YAML double-quoted string (JSON's string syntax is a subset of it)."""
    return json.dumps(text)


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
    IllegalReason.BACKWARD: "A man never moves backward",
    IllegalReason.MAN_TAKES_KING: "A man does not capture a king",
    IllegalReason.CAPTURE_COMPULSORY: "Capturing is compulsory",
    IllegalReason.PRIORITY: "The priority rules forbid it",
    IllegalReason.OCCUPIED: "The square is taken",
    IllegalReason.NOT_DIAGONAL: "Pieces move diagonally",
    IllegalReason.NO_PIECE: "No piece to move",
    IllegalReason.NOTHING_TO_CAPTURE: "Nothing to capture",
    IllegalReason.JUMPED_TWICE: "No piece is jumped twice",
}


def _words(
    claim: Claim, rule: PriorityRule | None, reason: Reason | None, position: Position
) -> tuple[str, str]:
    """An English title and caption that make sense for every position of the shape."""
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
