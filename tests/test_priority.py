"""The explanation of the priority rules, on the FID rulebook's examples."""

from dama_diagrams import Move, Position
from dama_diagrams.engine.priority import PriorityRule, explain, separating_rule


def test_quantity_example_is_decided_by_rule_1() -> None:
    explanation = explain(Position.from_fen("W:WK21,31:B10,18,27"))
    assert [str(m) for m in explanation.legal_moves] == ["31x22x13x6"]
    assert explanation.deciding_rule is PriorityRule.MOST_PIECES
    king_capture = explanation.candidate(Move.parse("21x14x5"))
    assert king_capture is not None
    assert (king_capture.pieces_captured, king_capture.by_king) == (2, True)
    assert king_capture.rejected_by is PriorityRule.MOST_PIECES


def test_modality_example_rejects_each_capture_by_its_own_rule() -> None:
    explanation = explain(Position.from_fen("W:WK23,31:B19,26,27"))
    verdicts = {str(c.move): c.rejected_by for c in explanation.candidates}
    assert verdicts == {
        "23x14": PriorityRule.MOST_PIECES,
        "23x30x21": None,
        "31x22x15": PriorityRule.WITH_KING,
    }
    assert explanation.deciding_rules == (PriorityRule.MOST_PIECES, PriorityRule.WITH_KING)
    assert explanation.deciding_rule is PriorityRule.WITH_KING


def test_contents_example_counts_kings() -> None:
    explanation = explain(Position.from_fen("W:WK23:B19,K28"))
    taken = explanation.candidate(Move.parse("23x32"))
    assert taken is not None
    assert (taken.kings_captured, taken.king_places) == (1, (1,))
    assert explanation.deciding_rule is PriorityRule.MOST_KINGS


def test_ordering_compares_king_places() -> None:
    explanation = explain(Position.from_fen("W:WK29:B10,K12,K18,19,K26"))
    first = explanation.candidate(Move.parse("29x22x13x6"))
    second = explanation.candidate(Move.parse("29x22x15x8"))
    assert first is not None and second is not None
    assert first.king_places == (1, 2)
    assert second.king_places == (1, 3)
    assert separating_rule(first, second) is PriorityRule.KING_FIRST
    assert second.rejected_by is PriorityRule.KING_FIRST


def test_tie_on_all_rules_is_free_choice() -> None:
    explanation = explain(Position.from_fen("W:WK31:B18,20,K27,K28"))
    assert explanation.free_choice
    assert explanation.deciding_rule is None
    a, b = explanation.candidates
    assert separating_rule(a, b) is None
    assert "free choice" in explanation.text()


def test_no_capture_means_no_candidates() -> None:
    explanation = explain(Position.initial())
    assert explanation.candidates == ()
    assert "no capture" in explanation.text()


def test_rule_numbers() -> None:
    assert [rule.number for rule in PriorityRule] == [1, 2, 3, 4]
    assert PriorityRule.from_number(3) is PriorityRule.MOST_KINGS
