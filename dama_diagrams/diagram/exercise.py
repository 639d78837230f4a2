"""Exercises: every answer a reader may play, judged by the engine when the site is built.

The page cannot ask the engine, so the build works out, for each try the
reader could make on the board (:func:`~..engine.attempts.plausible_moves`),
whether it answers the question and, if not, why: the rule it breaks
(:func:`~..engine.legality.illegal_reason`) or the priority rule that rules it
out (:func:`~..engine.priority.explain`).  Verdicts are message keys with
values, so that each language phrases them.  An exercise with no right
answer, or with several where it asks for the one move, fails the build at
its ``ask:`` line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine.attempts import plausible_moves
from ..engine.board import BIT, BLACK_CROWN_ROW, WHITE_CROWN_ROW, Color
from ..engine.legality import IllegalReason, illegal_reason
from ..engine.move import Move
from ..engine.position import Position
from ..engine.priority import Explanation, PriorityRule
from ..errors import DiagramError, counted
from .options import Ask, Claim
from .schema import Diagram

__all__ = ["Attempt", "ExerciseKey", "solve_exercise"]


@dataclass(frozen=True, slots=True)
class Attempt:
    """One move the reader may try, and the engine's verdict on it.

    ``verdict`` names the sentence (``exercise.<verdict>`` in the catalogs),
    ``values`` fills its placeholders.
    """

    move: Move
    right: bool
    verdict: str
    values: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class ExerciseKey:
    """The answers to an exercise, and a verdict for every try."""

    ask: Ask
    answers: tuple[Move, ...]
    attempts: tuple[Attempt, ...]

    def summary(self) -> str:
        """One English sentence for ``verify``: the answers, and how many tries are judged."""
        verb = "is" if len(self.answers) == 1 else "is any of"
        wrong = len(self.attempts) - len(self.answers)
        return (
            f"Exercise ({self.ask.value}): the answer {verb} {_listed(self.answers)}; "
            f"{counted(wrong, 'other move')} a reader may try, each with its reason."
        )

    def attempt(self, move: Move | str) -> Attempt | None:
        wanted = Move.parse(move) if isinstance(move, str) else move
        return next((each for each in self.attempts if each.move == wanted), None)


_RULE_VERDICTS = {
    PriorityRule.MOST_PIECES: "wrong_most_pieces",
    PriorityRule.WITH_KING: "wrong_with_king",
    PriorityRule.MOST_KINGS: "wrong_most_kings",
    PriorityRule.KING_FIRST: "wrong_king_first",
}

_NO_ANSWER_CLAIMS = (Claim.SETUP, Claim.ILLEGAL, Claim.GAME_OVER)
"""Claims whose figure shows no move to play, so no answer to show."""

_RIGHT_VERDICTS = {Ask.MOVE: "right_move", Ask.ANY_MOVE: "right_any", Ask.WIN: "right_win"}


def solve_exercise(
    diagram: Diagram, legal: Sequence[Move], shown: Sequence[Move], explanation: Explanation
) -> ExerciseKey:
    """Judge every try.

    ``legal`` are the position's legal moves, ``shown`` the claim's moves, and
    ``explanation`` the priority rules' findings, which the verifier already has.
    """
    exercise = diagram.exercise
    assert exercise is not None
    position = diagram.position
    if diagram.claim in _NO_ANSWER_CLAIMS:
        raise diagram.error(
            "exercise",
            f"the answer to an exercise is the move its claim shows, and claim: "
            f"{diagram.claim.value} shows none; use claim: move, capture, multi-capture, "
            "priority, free-choice or promotion, with the answer as move:",
        )
    answers = _answers(diagram, exercise.ask, tuple(legal))
    for index, move in enumerate(shown):
        if move not in answers:
            key = "move" if diagram.move is not None else f"moves[{index}]"
            raise diagram.error(
                key,
                f"{move} is shown as the answer, but the exercise's answers are "
                f"{_listed(answers)}; show one of them",
            )
    attempts = tuple(
        _judge(position, move, exercise.ask, answers, legal, explanation)
        for move in plausible_moves(position)
    )
    return ExerciseKey(exercise.ask, answers, attempts)


def _answers(diagram: Diagram, ask: Ask, legal: tuple[Move, ...]) -> tuple[Move, ...]:
    """The right answers, or a located error when the question has none or too many."""
    assert legal  # the claim showed a legal move
    if ask is Ask.MOVE and len(legal) > 1:
        raise _ask_error(
            diagram,
            f"the exercise asks for the one allowed move, but the rules allow "
            f"{_listed(legal)}; ask: any-move accepts each of them, or change the position",
        )
    if ask is Ask.ANY_MOVE and len(legal) < 2:
        raise _ask_error(
            diagram,
            f"the exercise asks for any of several allowed moves, but only {legal[0]} is "
            "allowed; use ask: move",
        )
    if ask is Ask.WIN:
        winning = tuple(move for move in legal if diagram.position.play(move).is_game_over())
        if not winning:
            raise _ask_error(
                diagram,
                f"no move wins here: after each of {_listed(legal)} the opponent can still "
                "move; change the position or ask: move",
            )
        return winning
    return legal


def _judge(
    position: Position,
    move: Move,
    ask: Ask,
    answers: tuple[Move, ...],
    legal: Sequence[Move],
    explanation: Explanation,
) -> Attempt:
    values = {"move": str(move)}
    if move in answers:
        return Attempt(move, True, _RIGHT_VERDICTS[ask], values)
    if move in legal:  # allowed, but it does not win
        reply = position.play(move).legal_moves()[0]
        return Attempt(move, False, "wrong_not_winning", {**values, "reply": str(reply)})
    crowned = _crowned_before_the_end(position, move)
    if crowned is not None:
        return Attempt(move, False, "wrong_crowned", {**values, "square": str(crowned)})
    illegality = illegal_reason(position, move)
    assert illegality is not None  # the move is not legal
    reason = illegality.reason
    if reason is IllegalReason.BACKWARD:
        kind = "wrong_backward_capture" if move.is_capture else "wrong_backward_step"
        return Attempt(move, False, kind, values)
    if reason is IllegalReason.MAN_TAKES_KING:
        return Attempt(move, False, "wrong_man_takes_king", values)
    if reason is IllegalReason.CAPTURE_COMPULSORY:
        if move.is_capture:
            return Attempt(move, False, "wrong_unfinished", values)
        # The capture of the piece the reader moved, when it has one: the one they missed.
        capture = next((each for each in legal if each.origin == move.origin), legal[0])
        return Attempt(move, False, "wrong_must_capture", {**values, "capture": str(capture)})
    if reason is IllegalReason.PRIORITY:
        return _ruled_out(move, explanation)
    return Attempt(move, False, "wrong_other", values)


def _ruled_out(move: Move, explanation: Explanation) -> Attempt:
    """A complete capture that a priority rule rules out, compared with the one to play."""
    candidate = explanation.candidate(move)
    assert candidate is not None and candidate.rejected_by is not None
    best = next(each for each in explanation.candidates if each.legal)
    values = {"move": str(move), "best": str(best.move)}
    rule = candidate.rejected_by
    if rule is PriorityRule.MOST_PIECES:
        values |= {"count": str(candidate.pieces_captured), "best_count": str(best.pieces_captured)}
    elif rule is PriorityRule.MOST_KINGS:
        values |= {"count": str(candidate.kings_captured), "best_count": str(best.kings_captured)}
    return Attempt(move, False, _RULE_VERDICTS[rule], values)


def _crowned_before_the_end(position: Position, move: Move) -> int | None:
    """The square where a man reached its crowning row and still captured on, if it did."""
    mover = position.piece_at(move.origin)
    if mover is None or mover.king or not move.is_capture:
        return None
    crown = WHITE_CROWN_ROW if mover.color is Color.WHITE else BLACK_CROWN_ROW
    return next((square for square in move.landings[:-1] if BIT[square] & crown), None)


def _ask_error(diagram: Diagram, message: str) -> DiagramError:
    return diagram.error("exercise.ask", message)


def _listed(moves: Sequence[Move]) -> str:
    names = list(map(str, moves))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
