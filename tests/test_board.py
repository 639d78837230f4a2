"""The numbering of the board, checked against the seed's description."""

from dama_diagrams.engine.board import BIT, BOARD, square_at, square_column, square_row


def test_square_1_is_top_left_and_32_bottom_right() -> None:
    assert (square_row(1), square_column(1)) == (0, 0)
    assert (square_row(32), square_column(32)) == (7, 7)


def test_bottom_right_corner_is_dark() -> None:
    # Dark squares carry numbers; a light square has none.
    assert square_at(7, 7) == 32
    assert square_at(7, 6) is None


def test_squares_run_left_to_right_then_down() -> None:
    assert [square_at(0, column) for column in (0, 2, 4, 6)] == [1, 2, 3, 4]
    assert [square_at(1, column) for column in (1, 3, 5, 7)] == [5, 6, 7, 8]


def test_every_square_has_its_own_bit() -> None:
    bits = BIT[1:]
    assert len(set(bits)) == 32
    assert all(bit & BOARD for bit in bits)
    assert sum(bits) == BOARD
