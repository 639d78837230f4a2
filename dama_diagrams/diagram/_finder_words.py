"""The diagram files the finder writes: the keys, and an English title and caption.

The title and caption must make sense for any position the finder may find,
so they say what the claim shows and let the placeholders (``{move}``,
``{rejected}``) name the squares; the author rewrites them at will.
"""

from __future__ import annotations

import json

from ..engine.position import Position
from ..engine.priority import PriorityRule
from ._proposals import Proposal
from .options import Claim
from .schema import Reason
from .suggestions import suggested_words


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
    title, caption = suggested_words(claim, rule, reason, position)
    lines += [f"title: {_quoted(title)}", f"caption: {_quoted(caption)}"]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A YAML double-quoted string (JSON's string syntax is a subset of it)."""
    return json.dumps(text)
