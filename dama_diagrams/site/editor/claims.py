"""The claims the editor offers: each one the engine confirms for the board and move.

:func:`claim_options` asks :func:`~dama_diagrams.diagram.verify` about every
claim worth making of a position (and the move chosen), and offers only those
that hold, the one that says most first; :func:`holding_values` gives the rule
and reason menus only the values of those claims, so no menu can turn a
holding claim into a refused one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...diagram.captions import fillable
from ...diagram.options import Claim
from ...engine.legality import illegal_reason
from ...engine.move import Move
from ...engine.position import Position
from ...engine.priority import Explanation, PriorityRule, separating_rule
from .checks import EditorError
from .drafts import PREVIEW_ID, Draft, checked
from .yaml_text import file_text


def listed_words(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: moves in a sentence."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def claim_options(
    position: Position, move: Move | None, explanation: Explanation
) -> list[dict[str, Any]]:
    """Every claim the engine confirms for this position and move, ready to choose.

    ``explanation`` is the engine's account of the position's captures (``explain``).

    Each is a diagram's fields (claim, move, rule, rejected, reason…) that
    verifies as it is, with the engine's English sentence: the page offers
    these, and the author only adds words.
    """
    options = []
    for fields in _candidates(position, move, explanation):
        draft = Draft(position=position.to_fen(), **fields)
        try:
            verified = checked(file_text(draft), PREVIEW_ID)
        except EditorError:
            continue
        option = {
            **_fields_json(fields),
            "summary": verified.summary,
            "placeholders": list(fillable(verified.diagram)),  # what its caption may use
        }
        if fields["claim"] == Claim.PRIORITY.value:
            rule = PriorityRule(fields["rule"])
            option["rules_out"] = (
                f"rule {rule.number} ({rule.summary}) rules out {listed_words(fields['rejected'])}"
            )
        options.append(option)
    deciding = explanation.deciding_rule
    named = None if deciding is None else deciding.value

    def order(option: dict[str, Any]) -> tuple[int, bool, int]:
        # among priority claims, the rule the engine's summary names first, then the
        # one that rules out most captures
        rejected = len(option.get("rejected", ()))
        return _MOST_TELLING.index(Claim(option["claim"])), option.get("rule") != named, -rejected

    return sorted(options, key=order)


def holding_values(claims: Sequence[dict[str, Any]]) -> dict[str, list[str]]:
    """For the rule and reason menus: only the values of claims the engine confirms here.

    A menu that offered every rule would let the author turn a holding claim into
    a refused one; each value listed here is that of a claim in ``claims``.
    """
    found: dict[str, list[str]] = {"rules": [], "illegal_reasons": [], "game_over_reasons": []}
    for option in claims:
        claim = Claim(option["claim"])
        if claim is Claim.PRIORITY:
            found["rules"].append(option["rule"])
        elif claim is Claim.ILLEGAL:
            found["illegal_reasons"].append(option["reason"])
        elif claim is Claim.GAME_OVER:
            found["game_over_reasons"].append(option["reason"])
    return found


_MOST_TELLING = (
    Claim.PRIORITY,
    Claim.FREE_CHOICE,
    Claim.PROMOTION,
    Claim.MULTI_CAPTURE,
    Claim.CAPTURE,
    Claim.MOVE,
    Claim.ILLEGAL,
    Claim.GAME_OVER,
    Claim.SETUP,
)
"""The claims in the order the page offers them: the one that says most first, chosen at once."""


def _fields_json(fields: dict[str, Any]) -> dict[str, Any]:
    return {
        key: list(value) if isinstance(value, tuple) else value for key, value in fields.items()
    }


def _candidates(
    position: Position, move: Move | None, explanation: Explanation
) -> list[dict[str, Any]]:
    """The claims worth asking the engine about; each is checked before it is offered."""
    outcome = position.outcome()
    if move is None:
        found: list[dict[str, Any]] = [{"claim": Claim.SETUP.value}]
        if outcome is not None:
            found.append({"claim": Claim.GAME_OVER.value, "reason": outcome.reason.value})
        if explanation.free_choice:
            moves = tuple(str(each) for each in explanation.legal_moves)
            found.append({"claim": Claim.FREE_CHOICE.value, "moves": moves})
        return found
    shown = str(move)
    problem = illegal_reason(position, move)
    if problem is not None:
        return [{"claim": Claim.ILLEGAL.value, "move": shown, "reason": problem.reason.value}]
    found = [
        {"claim": claim.value, "move": shown}
        for claim in (Claim.MOVE, Claim.CAPTURE, Claim.MULTI_CAPTURE, Claim.PROMOTION)
    ]
    chosen = explanation.candidate(move)
    if chosen is not None:
        by_rule: dict[str, list[str]] = {}
        for other in explanation.rejected:
            rule = separating_rule(chosen, other)
            if rule is not None:
                by_rule.setdefault(rule.value, []).append(str(other.move))
        found += [
            {"claim": Claim.PRIORITY.value, "move": shown, "rule": rule, "rejected": tuple(moves)}
            for rule, moves in by_rule.items()
        ]
        if explanation.free_choice:
            moves = tuple(str(each) for each in explanation.legal_moves)
            found.append({"claim": Claim.FREE_CHOICE.value, "moves": moves})
    return found
