"""Move notation: 22-19 for a step, every landing square for a capture."""

import pytest

from dama_diagrams import Move, MoveNotationError


def test_step_round_trips() -> None:
    move = Move.parse("22-19")
    assert move.squares == (22, 19)
    assert not move.is_capture
    assert str(move) == "22-19"


def test_capture_lists_every_landing_square() -> None:
    move = Move.parse("29x22x15x6")
    assert move.is_capture
    assert move.landings == (22, 15, 6)
    assert str(move) == "29x22x15x6"


def test_captured_squares_are_the_jumped_ones() -> None:
    # 31 -> 24 jumps 28, 24 -> 15 jumps 20, 15 -> 8 jumps 12 (worked out on the grid).
    assert Move.parse("31x24x15x8").captured == (28, 20, 12)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("22", "is not a move"),
        ("22-19-15", "is not a move"),
        ("22x15-8", "is not a move"),
        ("a-b", "is not a move"),
        ("", "is not a move"),
        ("22-33", "square 33 is off the board"),
        ("0-5", "square 0 is off the board"),
        ("22-22", "goes from 22 to 22"),
        ("22x15x15", "goes from 15 to 15"),
        ("22-" + "1" * 5000, r"'22-1+\.\.\.' is not a move"),
    ],
)
def test_bad_move_strings_are_rejected(text: str, message: str) -> None:
    with pytest.raises(MoveNotationError, match=message):
        Move.parse(text)
