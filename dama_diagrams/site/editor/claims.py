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
from ...diagram.options import Claim, show_options
from ...diagram.schema import Diagram
from ...diagram.suggestions import suggested_words
from ...engine.attempts import plausible_moves
from ...engine.legality import IllegalReason, illegal_reason
from ...engine.move import Move
from ...engine.position import Position
from ...engine.priority import Explanation, separating_rule
from .checks import EditorError
from .drafts import PREVIEW_ID, Draft, checked
from .words import rules_out, verdict
from .yaml_text import file_text


def listed_words(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: moves in a sentence."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def claim_options(
    position: Position, move: Move | None, explanation: Explanation, *, lang: str = "en"
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
        diagram = verified.diagram
        claim = Claim(fields["claim"])
        option = {
            **_fields_json(fields),
            "summary": verdict(verified, lang),  # the engine's line, in the page's language
            "placeholders": list(fillable(diagram)),  # what its caption may use
            "show_options": list(show_options(claim, diagram.move)),
            "suggested": _suggested(claim, diagram),
        }
        if claim is Claim.SETUP:  # once the board is given as the moves that lead to it
            option["suggested_played"] = _suggested(claim, diagram, played=True)
        if claim is Claim.CAPTURE:
            option["may_reject"] = steps_ruled_out(position)
        if fields["claim"] == Claim.PRIORITY.value:
            option["rules_out"] = rules_out(fields["rule"], fields["rejected"], lang)
        options.append(option)
    deciding = explanation.deciding_rule
    named = None if deciding is None else deciding.value

    def order(option: dict[str, Any]) -> tuple[int, bool, int]:
        # among priority claims, the rule the engine's summary names first, then the
        # one that rules out most captures
        rejected = len(option.get("rejected", ()))
        return _MOST_TELLING.index(Claim(option["claim"])), option.get("rule") != named, -rejected

    return sorted(options, key=order)


def steps_ruled_out(position: Position) -> list[str]:
    """The steps the side to move could make but for the capture it must make.

    What a ``capture`` claim's ``rejected`` may list: verify accepts there only
    a step that compulsory capture rules out.
    """
    return [
        str(each)
        for each in plausible_moves(position)
        if not each.is_capture
        and (problem := illegal_reason(position, each)) is not None
        and problem.reason is IllegalReason.CAPTURE_COMPULSORY
    ]


def _suggested(claim: Claim, diagram: Diagram, *, played: bool = False) -> dict[str, str]:
    """A title and caption to start from (the finder's), for the author to rewrite."""
    title, caption = suggested_words(
        claim,
        diagram.rule,
        diagram.reason,
        diagram.position,
        several=len(diagram.moves) > 1,
        rejected=bool(diagram.rejected),
        played=played,
    )
    return {"title": title, "caption": caption}


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
    if not move.is_capture:  # every step of the piece: a king's four, a man's two
        steps = tuple(str(each) for each in position.legal_moves() if each.origin == move.origin)
        if len(steps) > 1:
            found.append({"claim": Claim.MOVE.value, "moves": steps})
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
