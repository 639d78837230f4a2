"""Positions: FEN input and output, and the rejection of impossible positions."""

import pytest

from dama_diagrams import Color, Piece, Position, PositionError


def test_initial_position_matches_the_rules() -> None:
    position = Position.initial()
    assert position.turn is Color.WHITE
    assert position.squares(Color.BLACK, king=False) == list(range(1, 13))
    assert position.squares(Color.WHITE, king=False) == list(range(21, 33))
    assert all(position.piece_at(square) is None for square in range(13, 21))


def test_fen_with_ranges_and_kings() -> None:
    position = Position.from_fen("W:W21-23,K14:B1,2,K30")
    assert position.piece_at(14) == Piece(Color.WHITE, king=True)
    assert position.piece_at(22) == Piece(Color.WHITE)
    assert position.piece_at(30) == Piece(Color.BLACK, king=True)
    assert position.to_fen() == "W:WK14,21,22,23:B1,2,K30"


def test_fen_output_is_canonical() -> None:
    a = Position.from_fen("B:B3,1,2:W32,31")
    b = Position.from_fen("B:W31-32:B1-3")
    assert a == b
    assert hash(a) == hash(b)
    assert a.to_fen() == "B:W31,32:B1,2,3"


def test_initial_fen() -> None:
    assert Position.from_fen("W:W21-32:B1-12") == Position.initial()


def test_side_without_pieces() -> None:
    position = Position.from_fen("B:W21:B")
    assert position.squares(Color.BLACK, king=False) == []
    assert position.to_fen() == "B:W21:B"


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("W:W33:B1", "square 33 is off the board"),
        ("W:W0:B1", "square 0 is off the board"),
        ("W:W21,21:B1", "square 21 is given twice"),
        ("W:W21:B21", "square 21 is given twice"),
        ("W:W13-25:B1", "white has 13 pieces; a side has at most 12"),
        ("W:W31:B1-13", "black has 13 pieces"),
        ("W:W3:B20", "a white man cannot stand on 3"),
        ("W:W21:B30", "a black man cannot stand on 30"),
        ("W:W21", "is not of the form"),
        ("X:W21:B1", "is not of the form"),
        ("W:W21:W22", "once each"),
        ("W:W2x:B1", "'2x' is not a square"),
        ("W:W25-21:B1", "runs backwards"),
        ("", "is not of the form"),
    ],
)
def test_impossible_positions_are_rejected(fen: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_fen(fen)


def test_kings_may_stand_on_the_crowning_row() -> None:
    assert Position.from_fen("W:WK3:BK30").to_fen() == "W:WK3:BK30"


def test_from_squares_validates_like_fen() -> None:
    with pytest.raises(PositionError, match="square 40 is off the board"):
        Position.from_squares(Color.WHITE, white_men=[40])
