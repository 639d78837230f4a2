"""What the engine says about the editor's board: the only judge of legality the page has.

The page's script never decides whether a position is possible or a move
legal: it asks here.  :func:`read_position` and :func:`cycle` build positions
through the engine (a man on its crowning row, or a thirteenth piece, is the
engine's :class:`~dama_diagrams.errors.PositionError`); :func:`analyse` gives
the legal moves, the priority table of the captures, whether the game is over
and which claims hold; :func:`resolve` turns the squares the author clicked
into a move, or says why no legal move goes that way.
"""

from __future__ import annotations

from collections.abc import Sequence

import markdown as python_markdown

from ...diagram.captions import CAPTION_PLACEHOLDERS
from ...diagram.options import Ask
from ...engine.board import Color
from ...engine.legality import Illegality, IllegalReason, illegal_reason
from ...engine.move import Move
from ...engine.position import GameOverReason, Piece, Position
from ...engine.priority import Explanation, PriorityRule, explain
from ...errors import DamaError
from ..fence.words import fence_catalog
from ..messages import MESSAGES
from ..pages.figure_html import explain_markdown
from ..pages.figures import FindingValue, explain_rows, finding_sentence, rule_label
from .checks import EditorError
from .claims import claim_options, holding_values, listed_words
from .words import tr

CYCLE: tuple[Piece | None, ...] = (
    None,
    Piece(Color.WHITE, king=False),
    Piece(Color.WHITE, king=True),
    Piece(Color.BLACK, king=False),
    Piece(Color.BLACK, king=True),
)
"""What a click or a key puts on a square, in turn: empty, white man, white king, black…"""


def choices(lang: str) -> dict[str, object]:
    """What the page's selects offer beside the engine's claims: the names diagram files take.

    Each rule and question with its label in ``lang``: the rules as the site names
    them ("rule 4 (king met first)"), from the fence's words.
    """
    catalog = fence_catalog(lang)
    return {
        "rules": [
            {"value": rule.value, "label": rule_label(rule.value, catalog)} for rule in PriorityRule
        ],
        "illegal_reasons": [reason.value for reason in IllegalReason],
        "game_over_reasons": [reason.value for reason in GameOverReason],
        "asks": [
            {"value": Ask.MOVE.value, "label": tr(lang, "the one move the rules allow")},
            {"value": Ask.ANY_MOVE.value, "label": tr(lang, "any of the moves the rules allow")},
            {"value": Ask.WIN.value, "label": tr(lang, "a move that leaves the opponent no move")},
        ],
        "placeholders": list(CAPTION_PLACEHOLDERS),
    }


def piece_name(piece: Piece | None) -> str:
    """``white king``, ``black man``, ``empty``: the words the page's board announces."""
    if piece is None:
        return "empty"
    return f"{piece.color.value} {'king' if piece.king else 'man'}"


def read_position(text: object) -> Position:
    """A position from the page's FEN, or a 422 with the engine's own message."""
    if not isinstance(text, str) or not text.strip():
        raise EditorError(400, 'give a position as a FEN string, such as "W:W21-32:B1-12"')
    if len(text) > 400:
        raise EditorError(400, "the position is too long to be a FEN string")
    try:
        return Position.from_fen(text)
    except DamaError as error:
        raise EditorError(422, error.message) from None


def square_number(value: object) -> int:
    """A square from 1 to 32, or a 422 that says so."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 32:
        raise EditorError(422, f"square {value!r} is off the board (squares are 1-32)")
    return value


def piece_words(piece: Piece | None, lang: str) -> str:
    """The same in ``lang``, as the page's script says it."""
    words = {
        "empty": tr(lang, "empty"),
        "white man": tr(lang, "white man"),
        "white king": tr(lang, "white king"),
        "black man": tr(lang, "black man"),
        "black king": tr(lang, "black king"),
    }
    return words[piece_name(piece)]


def cycle(position: Position, square: int, lang: str = "en") -> tuple[Position, list[str]]:
    """The square's next content in :data:`CYCLE` that the engine accepts.

    Each content the engine refuses on the way (a man on its crowning row, a
    thirteenth piece) is skipped, and its refusal is returned for the page to
    show.
    """
    pieces = position.pieces()
    start = CYCLE.index(pieces.get(square))
    refused: list[str] = []
    for step in range(1, len(CYCLE) + 1):
        piece = CYCLE[(start + step) % len(CYCLE)]
        changed = {key: value for key, value in pieces.items() if key != square}
        if piece is not None:
            changed[square] = piece
        try:
            return Position.from_pieces(position.turn, changed), refused
        except DamaError as error:
            refused.append(
                tr(
                    lang,
                    "{piece} on {square} refused: {error}",
                    piece=piece_words(piece, lang),
                    square=square,
                    error=error.message,
                )
            )
    raise EditorError(422, "; ".join(refused))  # never: the empty square is always accepted


def board(position: Position) -> dict[str, object]:
    """The position as the page draws it: each occupied square's content, the side to move."""
    return {
        "fen": position.to_fen(),
        "turn": position.turn.value,
        "squares": {str(square): piece_name(piece) for square, piece in position.pieces().items()},
    }


def analyse(position: Position, move: Move | None = None, lang: str = "en") -> dict[str, object]:
    """Everything the engine says of a position (and of the move chosen, when there is one).

    Its words in ``lang``: the priority table and its summary are the site's.
    """
    explanation = explain(position)
    legal = [str(each) for each in position.legal_moves()]
    outcome = position.outcome()
    answer: dict[str, object] = {
        **board(position),
        "legal": legal,
        "captures": bool(explanation.candidates),
        "explain": _explain_html(explanation, lang) if explanation.candidates else None,
        "explain_summary": _explain_summary(explanation, lang) if explanation.candidates else None,
    }
    claims = claim_options(position, move, explanation, lang=lang)
    # On an empty board neither side wins: ``verify`` refuses a game-over claim there.
    answer["game_over"] = (
        {"winner": outcome.winner.value, "reason": outcome.reason.value}
        if outcome is not None and position.pieces()
        else None
    )
    answer["claims"] = claims
    answer["holding"] = holding_values(claims)
    if move is not None:
        problem = illegal_reason(position, move)
        answer["move"] = {
            "move": str(move),
            "legal": problem is None,
            "reason": None if problem is None else problem.reason.value,
            "detail": None if problem is None else _detail(problem, lang),
        }
    return answer


def _detail(problem: Illegality, lang: str) -> str:
    """Why a move is not allowed: the engine's own words (which name the squares) in English,
    the site's words for the reason in another language, where the site has them."""
    key = f"engine.reason_{problem.reason.value}"
    if lang == "en" or key not in MESSAGES:
        return problem.detail
    return fence_catalog(lang).text(key)


def _explain_summary(explanation: Explanation, lang: str) -> str:
    """Which rule decides among the captures, as the site's figure says it."""
    legal = tuple(str(each) for each in explanation.legal_moves)
    rule = explanation.deciding_rule
    values: dict[str, FindingValue]
    if len(explanation.candidates) == 1:
        finding, values = "capture_only", {"move": legal[0]}
    elif rule is None:
        finding = "free_choice" if len(legal) == 2 else "free_choice_many"
        values = {"moves": legal}
    elif len(legal) == 1:
        finding, values = "priority", {"move": legal[0], "rule": rule.value}
    else:
        finding, values = "priority_many", {"moves": legal, "rule": rule.value}
    said = finding_sentence(finding, values, fence_catalog(lang))
    return said[:1].upper() + said[1:]


def _explain_html(explanation: Explanation, lang: str) -> str:
    """The site's priority table of these captures, as the site's Markdown makes it HTML."""
    text = explain_markdown(explain_rows(explanation), fence_catalog(lang))
    return python_markdown.markdown(text, extensions=["tables", "md_in_html", "attr_list"])


def read_move(text: object) -> Move | None:
    """The move the page chose, in notation; ``None`` for none; a 422 if it is no move."""
    if text is None or text == "":
        return None
    if not isinstance(text, str) or len(text) > 200:
        raise EditorError(400, "a move is text in notation, such as 22-19 or 29x22x15")
    try:
        return Move.parse(text)
    except DamaError as error:
        raise EditorError(422, error.message) from None


# == Playing on the board =====================================================


def resolve(position: Position, clicked: Sequence[object], lang: str = "en") -> dict[str, object]:
    """The move the clicked squares mean: start square, then landing squares.

    ``status`` is ``move`` (one legal move: its start, the landings clicked,
    in order, and its last landing), ``more`` (legal captures go on from
    there: click the next landing), ``ambiguous`` (several legal moves fit:
    choose in the list) or ``illegal`` (no legal move fits; the engine says
    why, and the move may still be shown by an ``illegal`` claim).
    """
    squares = [square_number(square) for square in clicked]
    if len(squares) < 2:
        raise EditorError(422, "click the piece's square, then the square where it lands")
    start, landings = squares[0], squares[1:]
    fitting, ending = _this_way(position.legal_moves(), start, landings)
    if len(ending) == 1:
        return {"status": "move", "move": str(ending[0])}
    if len(ending) > 1:
        return {
            "status": "ambiguous",
            "moves": [str(move) for move in ending],
            "message": tr(
                lang,
                "{moves} all go that way: choose one in the list of moves.",
                moves=_listed(ending, lang),
            ),
        }
    if fitting:
        return {
            "status": "more",
            "moves": [str(move) for move in fitting],
            "message": tr(
                lang,
                "The capture goes on ({moves}): click the next landing square.",
                moves=_listed(fitting, lang),
            ),
        }
    ruled_out = [candidate.move for candidate in explain(position).rejected]
    going_on, ended = _this_way(ruled_out, start, landings)
    if going_on and not ended:  # a capture the priority rules rule out, not finished yet
        return {
            "status": "more",
            "moves": [str(move) for move in going_on],
            "message": tr(
                lang,
                "The capture goes on ({moves}), though the priority rules rule it out: "
                "click the next landing square.",
                moves=_listed(going_on, lang),
            ),
        }
    # the one complete capture that goes this way, though the priority rules rule it out
    move = ended[0] if len(ended) == 1 else _as_move(squares)
    problem = None if move is None else illegal_reason(position, move)
    detail = tr(lang, "no move goes that way") if problem is None else _detail(problem, lang)
    return {
        "status": "illegal",
        "move": None if move is None else str(move),
        "reason": None if problem is None else problem.reason.value,
        "message": tr(
            lang,
            "{move} is not legal: {detail}",
            move="-".join(map(str, squares)) if move is None else move,
            detail=detail,
        ),
    }


def _this_way(
    moves: Sequence[Move], start: int, landings: Sequence[int]
) -> tuple[list[Move], list[Move]]:
    """The moves from ``start`` through the landings clicked, in order, and those of them that
    end on the last one clicked."""
    fitting = [m for m in moves if m.origin == start and _in_order(landings, m.landings)]
    return fitting, [move for move in fitting if move.destination == landings[-1]]


def _in_order(wanted: Sequence[int], landings: Sequence[int]) -> bool:
    """Whether ``wanted`` are among ``landings``, in the same order."""
    rest = iter(landings)
    return all(square in rest for square in wanted)


def _as_move(squares: Sequence[int]) -> Move | None:
    """The clicked squares as a move in notation: a step, or a capture when it jumps."""
    from ...engine.board import square_row

    start, first = squares[0], squares[1]
    step = abs(square_row(start) - square_row(first)) == 1
    capture = len(squares) > 2 or not step
    try:
        return Move(tuple(squares), is_capture=capture)
    except DamaError:
        return None


def _listed(moves: Sequence[Move], lang: str) -> str:
    if lang == "en":
        return listed_words([str(move) for move in moves])
    return fence_catalog(lang).join([str(move) for move in moves])
