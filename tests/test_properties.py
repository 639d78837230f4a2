"""Properties over random legal play and random positions (Hypothesis)."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from dama_diagrams import Color, Move, Position
from dama_diagrams.engine.board import square_row
from tests import reference


@st.composite
def games(draw: st.DrawFn) -> list[tuple[Position, Move, Position]]:
    """A random legal game from the initial position, as (before, move, after) steps."""
    position = Position.initial()
    steps = []
    for _ in range(draw(st.integers(min_value=1, max_value=80))):
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[draw(st.integers(min_value=0, max_value=len(legal) - 1))]
        after = position.play(move)
        steps.append((position, move, after))
        position = after
    return steps


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A random valid position, kings and men of both sides anywhere they may stand."""
    squares = draw(st.permutations(range(1, 33)))
    white_count = draw(st.integers(min_value=0, max_value=12))
    black_count = draw(st.integers(min_value=0, max_value=12))
    white = squares[:white_count]
    black = squares[white_count : white_count + black_count]
    kings = draw(st.sets(st.sampled_from(range(1, 33))))
    return Position.from_squares(
        draw(st.sampled_from(Color)),
        white_men=[s for s in white if s not in kings and s > 4],
        white_kings=[s for s in white if s in kings or s <= 4],
        black_men=[s for s in black if s not in kings and s < 29],
        black_kings=[s for s in black if s in kings or s >= 29],
    )


def _count(position: Position, color: Color) -> int:
    return len(position.squares(color, king=False)) + len(position.squares(color, king=True))


@settings(max_examples=60, deadline=None)
@given(games())
def test_piece_counts_never_grow(steps: list[tuple[Position, Move, Position]]) -> None:
    for before, _, after in steps:
        for color in Color:
            assert _count(after, color) <= _count(before, color)


@settings(max_examples=60, deadline=None)
@given(games())
def test_capture_removes_exactly_the_jumped_pieces(
    steps: list[tuple[Position, Move, Position]],
) -> None:
    for before, move, after in steps:
        opponent = before.turn.opponent
        removed = {s for s, p in before.pieces().items() if p.color is opponent} - {
            s for s, p in after.pieces().items() if p.color is opponent
        }
        assert removed == set(move.captured)
        assert len(move.captured) == _count(before, opponent) - _count(after, opponent)


@settings(max_examples=60, deadline=None)
@given(games())
def test_man_never_moves_backward(steps: list[tuple[Position, Move, Position]]) -> None:
    for before, move, _ in steps:
        piece = before.piece_at(move.origin)
        assert piece is not None and piece.color is before.turn
        if piece.king:
            continue
        rows = [square_row(square) for square in move.squares]
        forward = -1 if piece.color is Color.WHITE else 1
        step = forward * (2 if move.is_capture else 1)
        assert all(b - a == step for a, b in itertools.pairwise(rows))


@settings(max_examples=60, deadline=None)
@given(games())
def test_fen_round_trips(steps: list[tuple[Position, Move, Position]]) -> None:
    for before, _, after in steps:
        for position in (before, after):
            assert Position.from_fen(position.to_fen()) == position


@settings(max_examples=60, deadline=None)
@given(games())
def test_play_never_mutates(steps: list[tuple[Position, Move, Position]]) -> None:
    for before, move, _ in steps:
        fen, digest = before.to_fen(), hash(before)
        before.play(move)
        assert (before.to_fen(), hash(before)) == (fen, digest)


@settings(max_examples=400, deadline=None)
@given(positions())
def test_legal_moves_match_independent_reference(position: Position) -> None:
    fen = position.to_fen()
    assert [str(move) for move in position.legal_moves()] == reference.legal_moves(fen)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_bulk_count_matches_generated_moves(position: Position) -> None:
    assert position.perft(1) == len(position.legal_moves())
    assert position.perft(2) == sum(position.play(m).perft(1) for m in position.legal_moves())
