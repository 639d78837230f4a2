"""Claims: the engine confirms what a diagram claims, or says what it found instead.

No diagram reaches the site unless :func:`verify` accepts it.  A refused claim
raises a :class:`DiagramError` at the line of the key it is about, and the
message says what the engine found instead: the legal moves, the rule that
really decides, the real reason a move is illegal.

The result, :class:`VerifiedDiagram`, is data for the renderer (markers come
from ``move``, ``moves`` and ``rejected``) and for the site (what the engine
found, structured so that each language can phrase it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TypedDict, TypeVar, Unpack

from ..engine.board import BIT, BLACK_CROWN_ROW, WHITE_CROWN_ROW, Color, Square
from ..engine.legality import IllegalReason, illegal_reason
from ..engine.move import Move
from ..engine.pictures import picture
from ..engine.position import GameOverReason, Piece, Position, capture_move
from ..engine.priority import Candidate, Explanation, PriorityRule, explain, separating_rule
from ..errors import DiagramError, counted
from .captions import check_caption
from .exercise import ExerciseKey, solve_exercise
from .options import Claim
from .schema import Diagram, Reason

_T = TypeVar("_T")
_INITIAL = Position.initial()

# == Results ==================================================================


@dataclass(frozen=True, slots=True)
class VerifiedDiagram:
    """A diagram whose claim the engine has confirmed, and what the engine found.

    ``summary`` says it in English; the other fields are data that the site
    phrases in each language.  For the renderer, ``move`` is the move drawn as
    played (``None`` in ``setup``, ``illegal`` and ``game-over``), ``moves``
    every legal move drawn (``move`` first; several for a ``move`` claim with
    ``moves:`` and for ``free-choice``), ``rejected`` the moves drawn as not
    allowed (a ``priority`` or ``capture`` claim's ``rejected``, and the move
    of an ``illegal`` claim).  Which other fields are set depends on the claim:

    - ``capture``, ``multi-capture``, ``promotion``: ``captured``, how many pieces;
    - ``multi-capture``: ``revisited``, squares landed on twice (the start included);
    - ``illegal``: ``reason`` and ``detail`` (the engine's English sentence);
    - ``promotion``: ``continuation``, the capture a king would go on with;
    - ``game-over``: ``reason`` and ``winner``;
    - ``setup``: ``initial``, whether it is the initial position.
    """

    diagram: Diagram
    summary: str
    legal_moves: tuple[Move, ...] = ()
    moves: tuple[Move, ...] = ()
    rejected: tuple[Move, ...] = ()
    reason: Reason | None = None
    detail: str = ""
    captured: int = 0
    revisited: tuple[Square, ...] = ()
    continuation: Move | None = None
    winner: Color | None = None
    initial: bool = False
    exercise: ExerciseKey | None = None
    """For an exercise: its answers, and the verdict on every try the reader may make."""
    known_explanation: Explanation | None = field(default=None, repr=False, compare=False)

    @property
    def move(self) -> Move | None:
        return self.moves[0] if self.moves else None

    @property
    def explanation(self) -> Explanation:
        """Every complete capture and the priority rules' verdict on it.

        Only priority and free-choice claims need it to be verified, so for the
        others it is worked out on first use, keeping verification cheap.
        """
        if self.known_explanation is None:
            object.__setattr__(self, "known_explanation", explain(self.diagram.position))
        assert self.known_explanation is not None
        return self.known_explanation

    @property
    def deciding_rule(self) -> PriorityRule | None:
        """The rule that makes the final choice among the captures, if one had to."""
        return self.explanation.deciding_rule

    @property
    def id(self) -> str:
        return self.diagram.id

    @property
    def claim(self) -> Claim:
        return self.diagram.claim

    @property
    def rule(self) -> PriorityRule | None:
        """The priority rule the diagram shows (confirmed), else ``None``."""
        return self.diagram.rule

    def _repr_svg_(self) -> str | None:
        """The diagram as the site draws it, for Jupyter (see :mod:`..engine.pictures`)."""
        return picture("diagram", self)

    @property
    def ok(self) -> bool:
        """Always true: lets a caller test any report item with ``.ok``."""
        return True


# == Verifying one diagram ====================================================


class _Found(TypedDict, total=False):
    """What a check found: the fields of :class:`VerifiedDiagram` that depend on the claim."""

    moves: tuple[Move, ...]
    rejected: tuple[Move, ...]
    reason: Reason
    detail: str
    captured: int
    revisited: tuple[Square, ...]
    continuation: Move
    winner: Color
    initial: bool


class _Context:
    """What the checks need, each worked out once and only if a check asks."""

    def __init__(self, diagram: Diagram):
        self.diagram = diagram
        self.position = diagram.position
        self.known_explanation: Explanation | None = None

    @cached_property
    def legal(self) -> tuple[Move, ...]:
        if self.known_explanation is not None and self.known_explanation.candidates:
            return self.known_explanation.legal_moves
        return tuple(self.position.legal_moves())

    @property
    def explanation(self) -> Explanation:
        if self.known_explanation is None:
            self.known_explanation = explain(self.position)
        return self.known_explanation

    def fail(self, key: str, message: str) -> DiagramError:
        return self.diagram.error(key, message)

    def verified(self, summary: str, **found: Unpack[_Found]) -> VerifiedDiagram:
        """The confirmed claim: what the engine found, with the legal moves and explanation."""
        return VerifiedDiagram(
            self.diagram,
            summary,
            legal_moves=self.legal,
            known_explanation=self.known_explanation,
            **found,
        )


def verify(diagram: Diagram) -> VerifiedDiagram:
    """Confirm a diagram's claim with the engine, or raise a located DiagramError."""
    verified = _CHECKS[diagram.claim](_Context(diagram))
    check_caption(diagram)
    if diagram.exercise is None:
        return verified
    key = solve_exercise(diagram, verified.legal_moves, verified.moves, verified.explanation)
    return replace(verified, exercise=key, summary=f"{verified.summary} {key.summary()}")


def _check_setup(context: _Context) -> VerifiedDiagram:
    position = context.position
    initial = position == _INITIAL
    side = position.turn.value.capitalize()
    if not position.white_men | position.white_kings | position.black_men | position.black_kings:
        summary = "An empty board."
    else:
        what = "The initial position" if initial else "A valid position"
        summary = f"{what}; {side} to move has {counted(len(context.legal), 'legal move')}."
    return context.verified(summary, initial=initial)


def _check_move(context: _Context) -> VerifiedDiagram:
    diagram = context.diagram
    single = diagram.move is not None
    shown = (diagram.move,) if diagram.move is not None else diagram.moves
    keys = ("move",) if single else tuple(f"moves[{i}]" for i in range(len(shown)))
    for key, move in zip(keys, shown, strict=True):
        if move.is_capture:
            raise context.fail(
                key, f"{move} is a capture; use claim: capture (or multi-capture) to show it"
            )
        _require_legal(context, key, move)
    listed = _and(shown)
    verb = "is a legal move" if len(shown) == 1 else "are legal moves"
    return context.verified(
        f"{listed} {verb}; no capture is possible.",
        moves=shown,
    )


def _check_capture(context: _Context) -> VerifiedDiagram:
    move = _require_capture(context, "move")
    for index, rejected in enumerate(context.diagram.rejected):
        key = f"rejected[{index}]"
        illegality = illegal_reason(context.position, rejected)
        if illegality is None:
            raise context.fail(key, f"{rejected} is legal here, so it cannot be shown as rejected")
        if illegality.reason is not IllegalReason.CAPTURE_COMPULSORY or rejected.is_capture:
            raise context.fail(
                key,
                f"{rejected} is illegal for another reason than compulsory capture "
                f"({illegality.reason.value}: {illegality.detail}); under a capture claim, "
                "rejected lists the steps that capturing rules out",
            )
    rest = f"; {_and(context.diagram.rejected)} is not allowed" if context.diagram.rejected else ""
    return context.verified(
        f"{move} captures, and capturing is compulsory: {_legal_list(context.legal)}{rest}.",
        moves=(move,),
        rejected=context.diagram.rejected,
        captured=len(move.captured),
    )


def _check_multi_capture(context: _Context) -> VerifiedDiagram:
    move = _require_capture(context, "move")
    captured = len(move.captured)
    if captured < 2:
        raise context.fail(
            "move", f"{move} captures only 1 piece; a multi-capture takes two or more"
        )
    revisited = _revisited(move)
    again = f"; it lands on {_and(revisited)} twice yet jumps no piece twice" if revisited else ""
    return context.verified(
        f"{move} captures {captured} pieces{again}; {_legal_list(context.legal)}.",
        moves=(move,),
        captured=captured,
        revisited=revisited,
    )


def _check_illegal(context: _Context) -> VerifiedDiagram:
    diagram = context.diagram
    move = _given(diagram.move)
    illegality = illegal_reason(context.position, move)
    if illegality is None:
        raise context.fail(
            "move",
            f"{move} is legal here; an illegal claim shows a move the rules forbid "
            f"({_legal_list(context.legal)})",
        )
    claimed = diagram.reason
    if illegality.reason is not claimed:
        assert isinstance(claimed, IllegalReason)
        raise context.fail(
            "reason",
            f"{move} is illegal, but not because of {claimed.value}: the engine finds "
            f"{illegality.reason.value}: {illegality.detail}",
        )
    return context.verified(
        f"{move} is illegal ({illegality.reason.value}): {illegality.detail}"
        f"{_unless_listed(illegality.detail, context.legal)}.",
        rejected=(move,),
        reason=illegality.reason,
        detail=illegality.detail,
    )


def _check_priority(context: _Context) -> VerifiedDiagram:
    diagram = context.diagram
    context.explanation  # noqa: B018  (worked out first: it also gives the legal moves)
    move = _given(diagram.move)
    chosen = _candidate(context, "move", move)
    if not chosen.legal:
        rule = _given(chosen.rejected_by)
        raise context.fail(
            "move",
            f"{move} is not legal: rule {rule.number} ({rule.value}) rules it out; "
            f"{_legal_list(context.legal)}",
        )
    claimed = _given(diagram.rule)
    for index, rejected in enumerate(diagram.rejected):
        other = _candidate(context, f"rejected[{index}]", rejected)
        if other.legal:
            raise context.fail(
                f"rejected[{index}]",
                f"{rejected} is legal too: it ties with {move} on all four rules "
                f"({_legal_list(context.legal)})",
            )
        real = _given(separating_rule(chosen, other))
        if real is not claimed:
            raise context.fail("rule", _wrong_rule(claimed, real, chosen, other))
    deciding = context.explanation.deciding_rule
    said = f"rule {claimed.number} ({claimed.summary})"
    if deciding is None or deciding is claimed:
        verdict = f"{said} decides."
    else:  # say so, or the claim's rule and the engine's table would both seem to decide
        verdict = (
            f"{said} rules out {_and(diagram.rejected)}; rule {deciding.number} "
            f"({deciding.summary}) decides among the rest."
        )
    return context.verified(
        f"{_only(context.legal)}; {verdict}",
        moves=(move,),
        rejected=diagram.rejected,
    )


def _check_free_choice(context: _Context) -> VerifiedDiagram:
    diagram = context.diagram
    context.explanation  # noqa: B018  (worked out first: it also gives the legal moves)
    for index, move in enumerate(diagram.moves):
        key = f"moves[{index}]"
        candidate = _candidate(context, key, move)
        if not candidate.legal:
            rule = _given(candidate.rejected_by)
            raise context.fail(
                key,
                f"{move} does not tie: rule {rule.number} ({rule.value}) rules it out; "
                f"{_legal_list(context.legal)}",
            )
    missing = [move for move in context.legal if move not in diagram.moves]
    if missing:
        raise context.fail(
            "moves", f"{_and(missing)} is also legal; list every legal capture under moves"
        )
    if len(context.legal) < 2:
        raise context.fail(
            "moves",
            f"{_only(context.legal)}; free choice needs two captures that tie on all four rules",
        )
    return context.verified(
        f"{_and(diagram.moves)} tie on all four rules: the player chooses freely.",
        moves=diagram.moves,
    )


def _check_promotion(context: _Context) -> VerifiedDiagram:
    move = _require_capture(context, "move")
    mover = context.position.piece_at(move.origin)
    assert mover is not None  # a legal move starts on one of the mover's pieces
    if mover.king:
        raise context.fail("move", f"{move} is a king's capture; a promotion shows a man's capture")
    crown_row = WHITE_CROWN_ROW if mover.color is Color.WHITE else BLACK_CROWN_ROW
    if not BIT[move.destination] & crown_row:
        rows = "1-4" if mover.color is Color.WHITE else "29-32"
        raise context.fail(
            "move",
            f"{move} ends on {move.destination}, not on the crowning row ({rows}), "
            "so the man is not crowned",
        )
    continuation = _king_continuation(context.position, move, mover)
    if continuation is None:
        raise context.fail(
            "move",
            f"{move} crowns the man, but a king on {move.destination} could not capture on "
            "either, so the diagram would not show why the move stops; add a piece "
            "that a king could take next",
        )
    return context.verified(
        f"{move} ends on the crowning row: the man is crowned and the move ends, "
        f"although a king would go on with {continuation}.",
        moves=(move,),
        captured=len(move.captured),
        continuation=continuation,
    )


def _check_game_over(context: _Context) -> VerifiedDiagram:
    position = context.position
    side = position.turn.value.capitalize()
    outcome = position.outcome()
    if not position.pieces():
        raise context.fail(
            "position",
            "the board is empty: neither side has a piece, so no side wins; "
            "a game over needs the winner's pieces on the board (claim: setup shows it empty)",
        )
    if outcome is None:
        raise context.fail(
            "claim",
            f"the game is not over: {side} is to move and has "
            f"{counted(len(context.legal), 'legal move')} ({_and(context.legal)})",
        )
    claimed = context.diagram.reason
    if outcome.reason is not claimed:
        real = "has no pieces left" if outcome.reason is GameOverReason.NO_PIECES else "is blocked"
        raise context.fail(
            "reason",
            f"the game is over, but {side} {real}: the reason is {outcome.reason.value}",
        )
    how = "has no pieces left" if claimed is GameOverReason.NO_PIECES else "has no legal move"
    return context.verified(
        f"{side} is to move and {how}: {outcome.winner.value.capitalize()} wins.",
        reason=outcome.reason,
        winner=outcome.winner,
    )


_CHECKS = {
    Claim.SETUP: _check_setup,
    Claim.MOVE: _check_move,
    Claim.CAPTURE: _check_capture,
    Claim.MULTI_CAPTURE: _check_multi_capture,
    Claim.ILLEGAL: _check_illegal,
    Claim.PRIORITY: _check_priority,
    Claim.FREE_CHOICE: _check_free_choice,
    Claim.PROMOTION: _check_promotion,
    Claim.GAME_OVER: _check_game_over,
}

# == Shared checks and phrases ================================================


def _given(value: _T | None) -> _T:
    """A value the schema guarantees for this claim."""
    assert value is not None
    return value


def _require_legal(context: _Context, key: str, move: Move) -> None:
    if move in context.legal:
        return
    illegality = illegal_reason(context.position, move)
    if illegality is not None:
        raise context.fail(
            key,
            f"{move} is not legal ({illegality.reason.value}): {illegality.detail}"
            f"{_unless_listed(illegality.detail, context.legal)}",
        )


def _require_capture(context: _Context, key: str) -> Move:
    move = _given(context.diagram.move)
    _require_legal(context, key, move)
    if not move.is_capture:
        raise context.fail(
            key, f"{move} is legal, but it is a step: no capture is possible here (use claim: move)"
        )
    return move


def _candidate(context: _Context, key: str, move: Move) -> Candidate:
    """The complete capture ``move`` among the explanation's candidates."""
    candidate = context.explanation.candidate(move)
    if candidate is not None:
        return candidate
    captures = _and([c.move for c in context.explanation.candidates]) or "none"
    illegality = illegal_reason(context.position, move)
    why = ""
    if illegality and illegality.reason is not IllegalReason.CAPTURE_COMPULSORY:
        why = f" ({illegality.reason.value}: {illegality.detail})"
    raise context.fail(
        key, f"{move} is not a complete capture here{why}; the complete captures are {captures}"
    )


def _wrong_rule(
    claimed: PriorityRule, real: PriorityRule, chosen: Candidate, other: Candidate
) -> str:
    """Why ``claimed`` is not the first rule that separates two captures."""
    pair = f"{chosen.move} and {other.move}"
    separates = f"rule {real.number} ({real.value}) "
    separates += "already separates" if real.number < claimed.number else "separates"
    ties = [_tie(rule, chosen) for rule in PriorityRule if rule.number < real.number]
    found = f"{pair} {_and(ties)}, and {separates} them" if ties else f"{separates} {pair}"
    return f"rule {claimed.value} does not decide here: {found}"


def _tie(rule: PriorityRule, candidate: Candidate) -> str:
    """What two captures share on a rule they tie on, as 'both ...'."""
    if rule is PriorityRule.MOST_PIECES:
        return f"both capture {counted(candidate.pieces_captured, 'piece')}"
    if rule is PriorityRule.WITH_KING:
        return "both capture with a king" if candidate.by_king else "both capture with a man"
    if rule is PriorityRule.MOST_KINGS:
        return f"both capture {counted(candidate.kings_captured, 'king')}"
    return "both meet the kings in the same order"


def _king_continuation(position: Position, move: Move, mover: Piece) -> Move | None:
    """How the capturing piece could go on if it were a king, else ``None``.

    The man is made a king on its start square, so the engine applies every
    rule of a capture in progress: the jumped pieces stay on the board until
    the move ends and cannot be jumped again.  A king continuation is then a
    king capture that starts with the man's whole path and goes further.
    """
    bit = BIT[move.origin]
    if mover.color is Color.WHITE:
        as_king = replace(
            position, white_men=position.white_men ^ bit, white_kings=position.white_kings | bit
        )
    else:
        as_king = replace(
            position, black_men=position.black_men ^ bit, black_kings=position.black_kings | bit
        )
    length = len(move.squares)
    paths = [capture_move(sequence).squares for sequence in as_king.capture_sequences()]
    longer = [path for path in paths if len(path) > length and path[:length] == move.squares]
    if not longer:
        return None
    return Move(max(longer, key=len)[length - 1 :], is_capture=True)


def _revisited(move: Move) -> tuple[Square, ...]:
    """Squares a capture lands on more than once (its start square counts)."""
    seen: set[Square] = set()
    again: list[Square] = []
    for square in move.squares:
        if square in seen and square not in again:
            again.append(square)
        seen.add(square)
    return tuple(again)


def _and(items: Sequence[object]) -> str:
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _legal_list(legal: Sequence[Move]) -> str:
    if not legal:
        return "there is no legal move"
    if len(legal) == 1:
        return f"the only legal move is {legal[0]}"
    return f"the legal moves are {_and(legal)}"


def _only(legal: Sequence[Move]) -> str:
    if len(legal) == 1:
        return f"{legal[0]} is the only legal move"
    return _legal_list(legal)


def _unless_listed(detail: str, legal: Sequence[Move]) -> str:
    return "" if "legal move" in detail else f"; {_legal_list(legal)}"
