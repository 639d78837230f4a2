"""Exercises: the answers and every verdict, against hand-worked positions and a second engine.

Each position below was worked out by hand on the board (squares 1-32 from
Black's side, White moving up).  ``tests/reference.py`` is a move generator
written separately from the engine: the answers must be exactly its legal
moves, filtered by the question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dama_diagrams.diagram import load_diagram, parse_diagram, verify
from dama_diagrams.diagram.exercise import ExerciseKey
from dama_diagrams.diagram.options import Ask
from dama_diagrams.engine.attempts import plausible_moves
from dama_diagrams.engine.position import Position
from dama_diagrams.errors import DiagramError
from dama_diagrams.site.i18n.extract import extract_diagram
from tests import reference

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = sorted((ROOT / "diagrams").glob("exercise-*.yaml"))


def _key(text: str, name: str = "exercise-test.yaml") -> ExerciseKey:
    key = verify(parse_diagram(text.encode(), name)).exercise
    assert key is not None
    return key


def _file(fen: str, claim: str, ask: str = "move") -> str:
    return (
        f'position: "{fen}"\n{claim}\n'
        f'exercise:\n  ask: {ask}\n  question: "White to play: which move?"\n'
    )


def _verdict(key: ExerciseKey, move: str) -> tuple[bool, str, dict[str, str]]:
    attempt = key.attempt(move)
    assert attempt is not None, f"{move} is not among the tries"
    return attempt.right, attempt.verdict, dict(attempt.values)


# -- the project's exercises ------------------------------------------------------


def test_the_exercises_page_has_at_least_twelve() -> None:
    assert len(EXERCISES) >= 12


@pytest.mark.parametrize("path", EXERCISES, ids=lambda path: path.stem)
def test_answers_are_the_reference_engines_legal_moves(path: Path) -> None:
    diagram = load_diagram(path)
    verified = verify(diagram)
    key, exercise = verified.exercise, diagram.exercise
    assert key is not None and exercise is not None
    fen = diagram.position.to_fen()
    legal = set(reference.legal_moves(fen))
    answers = {str(move) for move in key.answers}
    if exercise.ask is Ask.WIN:
        winning = {
            move
            for move in legal
            if not reference.legal_moves(Position.from_fen(fen).play(move).to_fen())
        }
        assert answers == winning
    else:
        assert answers == legal
    if exercise.ask is Ask.MOVE:
        assert len(answers) == 1
    # Every legal move is a try, and a try is right exactly when it answers the question.
    tried = {str(attempt.move): attempt for attempt in key.attempts}
    assert legal <= set(tried)
    for text, attempt in tried.items():
        assert attempt.right == (text in answers), text
        assert attempt.verdict.startswith("right" if attempt.right else "wrong"), text
        if not attempt.right and exercise.ask is not Ask.WIN:
            assert text not in legal, f"{text} is legal, yet judged wrong"


# -- hand-worked verdicts ------------------------------------------------------------


def test_rule_1_names_both_captures_and_their_counts() -> None:
    # The man on 30 takes 26 and 18 (30x21x14); the king on 24 takes only 20 (24x15).
    key = _key(
        _file(
            "W:W30,K24:B18,20,26",
            "claim: priority\nmove: 30x21x14\nrule: most-pieces\nrejected: [24x15]",
        )
    )
    assert _verdict(key, "30x21x14") == (True, "right_move", {"move": "30x21x14"})
    assert _verdict(key, "24x15") == (
        False,
        "wrong_most_pieces",
        {"move": "24x15", "best": "30x21x14", "count": "1", "best_count": "2"},
    )
    assert _verdict(key, "30x21")[1] == "wrong_unfinished"  # it could take 18 too
    assert _verdict(key, "30-27") == (
        False,
        "wrong_must_capture",
        {"move": "30-27", "capture": "30x21x14"},
    )


def test_rules_2_3_and_4_name_the_capture_to_play() -> None:
    with_king = _key(_file("W:W31,K24:B20,27", "claim: capture\nmove: 24x15"))
    assert _verdict(with_king, "31x22")[1:] == (
        "wrong_with_king",
        {"move": "31x22", "best": "24x15"},
    )
    kings = _key(_file("W:WK22:B18,K19", "claim: capture\nmove: 22x15"))
    assert _verdict(kings, "22x13")[1:] == (
        "wrong_most_kings",
        {"move": "22x13", "best": "22x15", "count": "0", "best_count": "1"},
    )
    # 22x13x6 meets the king on 18 at once; 22x15x8 meets the king on 12 second.
    first = _key(_file("W:WK22:BK18,10,19,K12", "claim: capture\nmove: 22x13x6"))
    assert _verdict(first, "22x15x8")[1:] == (
        "wrong_king_first",
        {"move": "22x15x8", "best": "22x13x6"},
    )
    assert _verdict(first, "22x15")[1] == "wrong_unfinished"


def test_a_man_backward_and_a_man_taking_a_king() -> None:
    backward = _key(_file("W:W14:B5,10,18", "claim: move\nmove: 14-11"))
    assert _verdict(backward, "14x21")[1] == "wrong_backward_capture"
    assert _verdict(backward, "14-19")[1] == "wrong_backward_step"
    assert [str(move) for move in backward.answers] == ["14-11"]
    king = _key(_file("W:W22:BK18,19", "claim: capture\nmove: 22x15"))
    assert _verdict(king, "22x13")[1] == "wrong_man_takes_king"


def test_a_quiet_move_is_told_the_capture_of_the_same_piece() -> None:
    # 22x15 and 23x14 both take the man on 19 and tie: a free choice.
    key = _key(_file("W:W22,23,30:B4,19", "claim: free-choice\nmoves: [22x15, 23x14]", "any-move"))
    assert _verdict(key, "23-20")[2] == {"move": "23-20", "capture": "23x14"}
    assert _verdict(key, "22-18")[2] == {"move": "22-18", "capture": "22x15"}
    assert _verdict(key, "30-26")[2] == {"move": "30-26", "capture": "22x15"}  # 30 has none


def test_a_man_crowned_mid_capture_stops() -> None:
    # 10x3 takes 6 and reaches the last row; going on over 7 to 12 is no longer allowed.
    key = _key(_file("W:W10:B6,7", "claim: promotion\nmove: 10x3"))
    assert _verdict(key, "10x3x12") == (
        False,
        "wrong_crowned",
        {"move": "10x3x12", "square": "3"},
    )


def test_free_choice_accepts_each_tied_capture() -> None:
    key = _key(_file("W:WK22:B18,19", "claim: free-choice\nmoves: [22x13, 22x15]", "any-move"))
    assert _verdict(key, "22x13")[:2] == (True, "right_any")
    assert _verdict(key, "22x15")[:2] == (True, "right_any")


def test_win_names_a_reply_for_a_move_that_does_not_block() -> None:
    # After 32-28 the black man on 24 is stuck (28 taken, 31 behind it); after 31-27 it steps to 28.
    key = _key(_file("W:W31,32:B24", "claim: move\nmove: 32-28", "win"))
    assert [str(move) for move in key.answers] == ["32-28"]
    assert _verdict(key, "32-28")[:2] == (True, "right_win")
    # The tries are 31-27, 31-28 and 32-28 (men step forward only, and nothing to jump).
    assert key.summary() == (
        "Exercise (win): the answer is 32-28; 2 other moves a reader may try, each with its reason."
    )
    assert _verdict(key, "31-27") == (
        False,
        "wrong_not_winning",
        {"move": "31-27", "reply": "24-28"},
    )


def test_every_try_is_a_plausible_move_and_nothing_else() -> None:
    fen = "W:W30,K24:B18,20,26"
    key = _key(_file(fen, "claim: capture\nmove: 30x21x14"))
    assert [attempt.move for attempt in key.attempts] == plausible_moves(Position.from_fen(fen))


# -- exercises the build refuses -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        pytest.param(
            _file("W:W22:B4", "claim: move\nmove: 22-18"),
            5,
            "the rules allow 22-18 and 22-19; ask: any-move",
            id="the move, but two",
        ),
        pytest.param(
            _file("W:W30:B27", "claim: capture\nmove: 30x23", "any-move"),
            5,
            "only 30x23 is allowed; use ask: move",
            id="any move, but one",
        ),
        pytest.param(
            _file("W:W22:B4", "claim: move\nmove: 22-18", "win"),
            5,
            "no move wins here",
            id="win, but none wins",
        ),
        pytest.param(
            _file("W:WK22:B18,19", "claim: free-choice\nmoves: [22x13, 22x15]", "win"),
            5,
            "no move wins here",
            id="win, but the opponent keeps a piece",
        ),
        pytest.param(
            'position: "W:W31,32:B24"\nclaim: move\nmove: 31-27\n'
            'exercise: {ask: win, question: "Block Black."}\n',
            3,
            "31-27 is shown as the answer, but the exercise's answers are 32-28",
            id="shown move not an answer",
        ),
        pytest.param(
            'position: "W:W22:B4"\nclaim: setup\nexercise: {ask: moves, question: "?"}\n',
            3,
            "unknown ask 'moves': did you mean 'move'?",
            id="unknown ask",
        ),
        pytest.param(
            'position: "W:W22:B4"\nclaim: setup\nexercise:\n  ask: move\n  hint: "x"\n',
            5,
            "unknown exercise key 'hint'",
            id="unknown key",
        ),
        pytest.param(
            'position: "W:W22:B4"\nclaim: setup\nexercise:\n  ask: move\n',
            3,
            "the exercise needs 'question'",
            id="no question",
        ),
        pytest.param(
            'position: "B:W28,31:B24"\nclaim: game-over\nreason: blocked\n'
            'exercise: {ask: move, question: "?"}\n',
            4,
            "claim: game-over shows none; use claim: move, capture",
            id="game over",
        ),
        pytest.param(
            'position: "W:W22:B4"\nclaim: setup\nexercise: {ask: any-move, question: "?"}\n',
            3,
            "claim: setup shows none",
            id="setup shows no answer",
        ),
        pytest.param(
            'position: "W:W18:B22"\nclaim: illegal\nmove: 18x27\nreason: backward\n'
            'exercise: {ask: any-move, question: "?"}\n',
            5,
            "claim: illegal shows none",
            id="illegal shows no answer",
        ),
    ],
)
def test_an_exercise_without_a_fitting_answer_fails_at_its_line(
    text: str, line: int, words: str
) -> None:
    with pytest.raises(DiagramError) as caught:
        verify(parse_diagram(text.encode(), "diagrams/exercise-bad.yaml"))
    message = str(caught.value)
    assert message.startswith(f"diagrams/exercise-bad.yaml:{line}: "), message
    assert words in message


def test_the_question_is_extracted_for_translators() -> None:
    import io

    text = _file("W:W22:B4", "claim: setup", "move").replace("which move?", "which one?")
    found = list(extract_diagram(io.BytesIO(text.encode()), {}, [], {}))
    assert (5, "gettext", "White to play: which one?", ["diagram exercise question"]) in found
