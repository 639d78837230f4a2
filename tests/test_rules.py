"""Every rule of the game, each on a position whose answer was worked out by hand.

The grid used for the hand work (dark squares, row by row from Black's side):

    row 0:  1 . 2 . 3 . 4 .        row 4: 17 . 18 . 19 . 20 .
    row 1:  . 5 . 6 . 7 . 8        row 5:  . 21 . 22 . 23 . 24
    row 2:  9 . 10 . 11 . 12 .     row 6: 25 . 26 . 27 . 28 .
    row 3:  . 13 . 14 . 15 . 16    row 7:  . 29 . 30 . 31 . 32
"""

import pytest

from dama_diagrams import Color, GameOverReason, IllegalMoveError, Move, Position


def moves(fen: str) -> list[str]:
    return [str(move) for move in Position.from_fen(fen).legal_moves()]


# -- the board and the first move ------------------------------------------------


def test_white_has_seven_first_moves() -> None:
    assert moves("W:W21-32:B1-12") == [
        "21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20",
    ]  # fmt: skip


def test_22_19_is_legal_and_24_19_is_not() -> None:
    position = Position.initial()
    assert position.is_legal("22-19")
    assert not position.is_legal("24-19")
    with pytest.raises(IllegalMoveError, match="24-19 is not legal"):
        position.play("24-19")


# -- the man ----------------------------------------------------------------------


def test_white_man_steps_forward_only() -> None:
    assert moves("W:W22:B1") == ["22-18", "22-19"]


def test_black_man_steps_forward_only() -> None:
    # Black's forward is down the board: 10 -> 13 and 10 -> 14.
    assert moves("B:W32:B10") == ["10-13", "10-14"]


def test_man_cannot_capture_backward() -> None:
    # Black men on 26 and 27 stand behind the man on 22, with 29 and 31 empty.
    assert moves("W:W22:B26,27") == ["22-18", "22-19"]


def test_man_cannot_capture_king() -> None:
    # The king on 18 has 13 empty behind it, yet the man may not take it.
    assert moves("W:W22:BK18") == ["22-19"]


def test_man_captures_man_forward() -> None:
    assert moves("W:W22:B18") == ["22x13"]


def test_black_man_captures_down_the_board() -> None:
    assert moves("B:W14:B10") == ["10x19"]


# -- the king ---------------------------------------------------------------------


def test_king_steps_one_square_in_four_directions() -> None:
    assert moves("W:WK18:B1") == ["18-13", "18-14", "18-21", "18-22"]


def test_king_does_not_fly() -> None:
    # From the corner the long diagonal is open, but the king moves one square.
    assert moves("W:WK29:B4") == ["29-25", "29-26"]


def test_king_captures_backward() -> None:
    assert moves("W:WK14:B18") == ["14x21"]


def test_king_captures_king() -> None:
    assert moves("W:WK14:BK18") == ["14x21"]


# -- capturing ----------------------------------------------------------------------


def test_capture_is_compulsory() -> None:
    # The man on 30 could step, but 22 must take 18.
    assert moves("W:W22,30:B18") == ["22x13"]


def test_multi_capture_continues_with_the_same_piece() -> None:
    assert moves("W:W31:B12,20,28") == ["31x24x15x8"]


def test_no_piece_is_jumped_twice() -> None:
    # After 22x13 the king could jump 18 again back to 22, but 18 is already taken.
    assert moves("W:WK22:B18") == ["22x13"]


def test_king_may_land_on_its_start_square() -> None:
    # 17 -> 10 -> 19 -> 26 -> 17 around the four men, and the same loop reversed.
    assert moves("W:WK17:B13,14,21,22") == ["17x10x19x26x17", "17x26x19x10x17"]


def test_king_may_land_twice_on_a_square_without_rejumping() -> None:
    # 9x18 over 13, then round 22, 23, 15, 14 back onto 18; 13 cannot be jumped again.
    assert moves("W:WK9:B13,14,15,22,23") == ["9x18x11x20x27x18", "9x18x27x20x11x18"]


def test_captured_pieces_come_off_at_the_end() -> None:
    after = Position.from_fen("W:W31:B12,20,28").play("31x24x15x8")
    assert after.to_fen() == "B:W8:B"


def test_man_reaching_last_row_during_capture_stops_and_is_crowned() -> None:
    # 10x3 crowns the man; as a king it could take 7 next, but the move ends.
    position = Position.from_fen("W:W10:B6,7")
    assert moves(position.to_fen()) == ["10x3"]
    assert position.play("10x3").to_fen() == "B:WK3:B7"


def test_black_man_is_crowned_on_white_back_row() -> None:
    assert Position.from_fen("B:WK1:B27").play("27-31").to_fen() == "W:WK1:BK31"


def test_step_to_last_row_crowns() -> None:
    assert Position.from_fen("W:W6:BK32").play("6-2").to_fen() == "B:WK2:BK32"


# -- the priority rules: the FID rulebook's own examples (Art. 5-6) ----------------------


@pytest.mark.parametrize(
    ("fen", "legal"),
    [
        ("W:W30:B27", ["30x23"]),
        ("W:W31:B12,20,28", ["31x24x15x8"]),
        ("W:WK22:B18,19,27", ["22x13", "22x15", "22x31"]),
        ("W:WK27:B5,6,13,15,21,23", ["27x20x11x2x9x18x25"]),
        ("W:WK21,31:B10,18,27", ["31x22x13x6"]),
        ("W:WK23,31:B19,26,27", ["23x30x21"]),
        ("W:WK23:B19,K28", ["23x32"]),
        ("W:WK30:B10,12,18,K20,K26,27", ["30x21x14x5"]),
        ("W:WK31:B18,20,K27,K28", ["31x22x13", "31x24x15"]),
    ],
)
def test_fid_rulebook_examples(fen: str, legal: list[str]) -> None:
    assert moves(fen) == legal


def test_rule1_most_pieces() -> None:
    assert moves("W:WK21,31:B10,18,27") == ["31x22x13x6"]


def test_rule2_king_captures_rather_than_man() -> None:
    assert moves("W:WK23,31:B19,26,27") == ["23x30x21"]


def test_rule3_most_kings() -> None:
    assert moves("W:WK23:B19,K28") == ["23x32"]


def test_rule4_first_king_met_earlier() -> None:
    assert moves("W:WK30:B10,12,18,K20,K26,27") == ["30x21x14x5"]


def test_rule4_second_king_breaks_tie() -> None:
    # Both take the king on 26 first and capture 3 pieces, 2 of them kings.
    # 29x22x13x6 meets its second king (18) at place 2; 29x22x15x8 meets 12 at place 3.
    assert moves("W:WK29:B10,K12,K18,19,K26") == ["29x22x13x6"]


def test_equal_captures_leave_a_free_choice() -> None:
    assert moves("W:WK31:B18,20,K27,K28") == ["31x22x13", "31x24x15"]


# -- the end of the game ----------------------------------------------------------------


def test_no_pieces_loses() -> None:
    outcome = Position.from_fen("W:W:B1").outcome()
    assert outcome is not None
    assert outcome.winner is Color.BLACK
    assert outcome.reason is GameOverReason.NO_PIECES


def test_no_legal_move_loses() -> None:
    # 29 is hemmed in by 25 and 26, and 22 stops the jump over 26.
    position = Position.from_fen("W:W29:B22,25,26")
    assert position.legal_moves() == []
    outcome = position.outcome()
    assert outcome is not None
    assert outcome.winner is Color.BLACK
    assert outcome.reason is GameOverReason.BLOCKED


def test_game_goes_on_while_a_move_exists() -> None:
    assert Position.initial().outcome() is None
    assert not Position.initial().is_game_over()


def test_play_accepts_a_move_object() -> None:
    after = Position.initial().play(Move.parse("22-19"))
    assert after.turn is Color.BLACK
    assert after.piece_at(19) is not None
    assert after.piece_at(22) is None
