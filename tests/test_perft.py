"""Perft against the published Italian draughts figures, and bulk counting."""

import pytest

from dama_diagrams import Move, Position
from tests import reference

# Published perft figures for Italian draughts from the initial position.
PUBLISHED = [7, 49, 302, 1469, 7361, 36473, 177532, 828783]


@pytest.mark.parametrize(("depth", "nodes"), list(enumerate(PUBLISHED, 1)))
def test_initial_position_perft(depth: int, nodes: int) -> None:
    assert Position.initial().perft(depth) == nodes


@pytest.mark.slow
def test_initial_position_perft_9() -> None:
    # The published depth-9 figure; about 3 seconds with bulk counting.
    assert Position.initial().perft(9) == 3_860_875


def test_perft_zero_is_one() -> None:
    assert Position.initial().perft(0) == 1


def test_divide_adds_up_to_perft() -> None:
    divide = Position.initial().divide(4)
    assert sum(divide.values()) == 1469
    assert set(divide) == {Move.parse(m) for m in ("21-17", "21-18", "22-18", "22-19",
                                                   "23-19", "23-20", "24-20")}  # fmt: skip


def _reference_perft(fen: str, depth: int) -> int:
    if depth == 0:
        return 1
    position = Position.from_fen(fen)
    return sum(
        _reference_perft(position.play(move).to_fen(), depth - 1)
        for move in reference.legal_moves(fen)
    )


@pytest.mark.parametrize(
    "fen",
    [
        # King-heavy middle games, where the priority rules matter most.
        "W:WK14,K18,22,25,K31:B5,K6,10,K19,K27",
        "B:WK9,K23,26,27,30:BK2,7,K15,K16,20",
        "W:WK9,K23,26,27,30,31,32:BK2,7,K16,K17,1,5,12",
        "W:WK30:B10,12,18,K20,K26,27",
    ],
)
def test_perft_agrees_with_independent_reference(fen: str) -> None:
    # The reference generator only supplies the move lists; the engine plays them.
    assert Position.from_fen(fen).perft(4) == _reference_perft(fen, 4)
