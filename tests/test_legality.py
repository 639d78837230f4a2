"""Naming the rule an illegal move breaks."""

import pytest

from dama_diagrams import Move, Position
from dama_diagrams.engine.legality import IllegalReason, illegal_reason


@pytest.mark.parametrize(
    ("fen", "move", "reason"),
    [
        ("W:W22:B1", "22-26", IllegalReason.BACKWARD),
        ("W:W22:B26", "22x31", IllegalReason.BACKWARD),
        ("W:W22:BK18", "22x13", IllegalReason.MAN_TAKES_KING),
        ("W:W22,30:B18", "30-26", IllegalReason.CAPTURE_COMPULSORY),
        ("W:W31:B12,20,28", "31x24", IllegalReason.CAPTURE_COMPULSORY),
        ("W:WK21,31:B10,18,27", "21x14x5", IllegalReason.PRIORITY),
        ("W:W22,18:B1", "22-18", IllegalReason.OCCUPIED),
        ("W:W22:B1", "22-17", IllegalReason.NOT_DIAGONAL),
        ("W:W22:B1", "23-19", IllegalReason.NO_PIECE),
        ("W:W22:B1", "1-5", IllegalReason.NO_PIECE),
        ("W:W22:B1", "22x15", IllegalReason.NOTHING_TO_CAPTURE),
        ("W:WK22:B18", "22x13x22", IllegalReason.JUMPED_TWICE),
    ],
)
def test_reason(fen: str, move: str, reason: IllegalReason) -> None:
    found = illegal_reason(Position.from_fen(fen), Move.parse(move))
    assert found is not None
    assert found.reason is reason


def test_legal_move_has_no_reason() -> None:
    assert illegal_reason(Position.initial(), Move.parse("22-19")) is None


def test_priority_detail_names_the_rule() -> None:
    found = illegal_reason(Position.from_fen("W:WK23:B19,K28"), Move.parse("23x14"))
    assert found is not None
    assert "rule 3 (most kings) rules it out" in found.detail  # the rule in words, as FID writes it
    assert "most-kings" not in found.detail
    assert "23x32" in found.detail
