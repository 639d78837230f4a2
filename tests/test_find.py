"""The finder: every claim shape it looks for, each found position checked again by the engine.

The finder verifies what it finds itself; these tests do not trust that.
They ask the engine directly (``explain``, ``illegal_reason``, ``outcome``)
and run ``verify`` on the diagram files it writes, as an author would.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dama_diagrams.cli import FIND_CLAIMS
from dama_diagrams.diagram import load_diagram, verify, verify_paths
from dama_diagrams.diagram._proposals import Shape, random_position
from dama_diagrams.diagram.finder import (
    CLAIMS,
    Found,
    Query,
    QueryError,
    find,
    query_from_words,
    write_diagrams,
)
from dama_diagrams.diagram.options import Claim
from dama_diagrams.engine import (
    Color,
    GameOverReason,
    IllegalReason,
    Move,
    Position,
    PriorityRule,
    explain,
    illegal_reason,
)
from dama_diagrams.engine.board import BIT, BLACK_CROWN_ROW, WHITE_CROWN_ROW

from . import reference
from .conftest import run_cli

LIMIT = 30.0
"""Far more than any of these searches needs: they stop when they have found enough."""


def _search(query: Query, count: int = 2, seed: int = 1) -> tuple[Found, ...]:
    result = find(query, count=count, seed=seed, time_limit=LIMIT)
    assert len(result.found) == count, f"{query.describe()}: found {len(result.found)}"
    assert result.complete
    for item in result.found:
        assert len(item.position.pieces()) <= query.max_pieces
    simplicity = [item.simplicity for item in result.found]
    assert simplicity == sorted(simplicity)
    return result.found


def _written_files_hold(found: tuple[Found, ...], query: Query, folder: Path) -> None:
    """The diagram files pass verify as they are, and show the same position and move."""
    paths = write_diagrams(found, folder, query.slug, header=["a test"])
    report = verify_paths(paths)
    assert report.ok, [str(failure.error) for failure in report.failures]
    for path, item in zip(paths, found, strict=True):
        diagram = load_diagram(path)
        assert diagram.position == item.position
        assert diagram.claim is query.claim
        assert item.explanation in path.read_text()


def _legal(position: Position, move: Move | None) -> Move:
    """The move is legal for the engine, and for the separate reference generator too."""
    assert move is not None
    assert move in position.legal_moves()
    independent = reference.legal_moves(position.to_fen())
    assert sorted(independent) == sorted(map(str, position.legal_moves()))
    return move


# == Each claim shape =========================================================


@pytest.mark.parametrize("min_captured", [None, 2, 3])
def test_capture(min_captured: int | None, tmp_path: Path) -> None:
    query = Query(Claim.CAPTURE, min_captured=min_captured)
    found = _search(query)
    for item in found:
        move = _legal(item.position, item.verified.move)
        assert move.is_capture
        assert len(move.captured) >= (min_captured or 1)
        assert all(legal.is_capture for legal in item.position.legal_moves())
    _written_files_hold(found, query, tmp_path)


def test_multi_capture(tmp_path: Path) -> None:
    query = Query(Claim.MULTI_CAPTURE)
    found = _search(query)
    for item in found:
        move = _legal(item.position, item.verified.move)
        assert move.is_capture
        assert len(move.captured) >= 2
    _written_files_hold(found, query, tmp_path)


@pytest.mark.parametrize("rule", list(PriorityRule), ids=lambda rule: rule.value)
def test_priority_with_each_rule(rule: PriorityRule, tmp_path: Path) -> None:
    query = Query(Claim.PRIORITY, rule=rule)
    found = _search(query)
    for item in found:
        explanation = explain(item.position)
        assert explanation.deciding_rule is rule
        assert explanation.legal_moves == (item.verified.move,)
        _legal(item.position, item.verified.move)
        rejected = item.verified.diagram.rejected
        assert rejected
        for move in rejected:
            candidate = explanation.candidate(move)
            assert candidate is not None
            assert candidate.rejected_by is rule
    _written_files_hold(found, query, tmp_path)


def test_king_first_within_seven_pieces() -> None:
    """The issue's own example."""
    query = Query(Claim.PRIORITY, rule=PriorityRule.KING_FIRST, max_pieces=7)
    for item in _search(query, count=3):
        assert explain(item.position).deciding_rule is PriorityRule.KING_FIRST


def test_free_choice(tmp_path: Path) -> None:
    query = Query(Claim.FREE_CHOICE)
    found = _search(query)
    for item in found:
        explanation = explain(item.position)
        assert explanation.free_choice
        assert set(item.verified.diagram.moves) == set(explanation.legal_moves)
        assert set(item.verified.diagram.moves) == set(item.position.legal_moves())
        # The separate reference generator finds the same two or more captures.
        shown = {str(move) for move in item.verified.diagram.moves}
        assert set(reference.legal_moves(item.position.to_fen())) == shown
        assert len(shown) >= 2
    _written_files_hold(found, query, tmp_path)


def test_promotion(tmp_path: Path) -> None:
    query = Query(Claim.PROMOTION)
    found = _search(query)
    for item in found:
        position = item.position
        move = _legal(position, item.verified.move)
        mover = position.piece_at(move.origin)
        assert mover is not None
        assert not mover.king
        assert move.is_capture
        crown = WHITE_CROWN_ROW if mover.color is Color.WHITE else BLACK_CROWN_ROW
        assert BIT[move.destination] & crown
        after = position.play(move).piece_at(move.destination)
        assert after is not None
        assert after.king
    _written_files_hold(found, query, tmp_path)


@pytest.mark.parametrize("reason", list(GameOverReason), ids=lambda reason: reason.value)
def test_game_over_for_each_reason(reason: GameOverReason, tmp_path: Path) -> None:
    query = Query(Claim.GAME_OVER, reason=reason)
    found = _search(query)
    for item in found:
        outcome = item.position.outcome()
        assert outcome is not None
        assert outcome.reason is reason
        assert outcome.winner is item.position.turn.opponent
        assert item.moves_text == "-"
    _written_files_hold(found, query, tmp_path)


@pytest.mark.parametrize("reason", list(IllegalReason), ids=lambda reason: reason.value)
def test_illegal_for_each_reason(reason: IllegalReason, tmp_path: Path) -> None:
    query = Query(Claim.ILLEGAL, reason=reason)
    found = _search(query)
    for item in found:
        move = item.verified.diagram.move
        assert move is not None
        assert move not in item.position.legal_moves()
        illegality = illegal_reason(item.position, move)
        assert illegality is not None
        assert illegality.reason is reason
    _written_files_hold(found, query, tmp_path)


def test_the_command_line_offers_every_claim_of_the_finder() -> None:
    assert tuple(claim.value for claim in CLAIMS) == FIND_CLAIMS


# == Filters, order and determinism ===========================================


def test_filters_are_respected() -> None:
    kings = Query(Claim.MULTI_CAPTURE, kings=True, side=Color.BLACK, max_pieces=5)
    for item in _search(kings, count=3):
        assert item.position.turn is Color.BLACK
        assert any(piece.king for piece in item.position.pieces().values())
        assert len(item.position.pieces()) <= 5
    no_kings = Query(Claim.PRIORITY, rule=PriorityRule.MOST_PIECES, kings=False, side=Color.WHITE)
    for item in _search(no_kings, count=3):
        assert item.position.turn is Color.WHITE
        assert not any(piece.king for piece in item.position.pieces().values())
        assert explain(item.position).deciding_rule is PriorityRule.MOST_PIECES


def test_simplest_first_fewest_pieces() -> None:
    """A one-piece capture needs two pieces, so the simplest found has exactly two."""
    found = _search(Query(Claim.CAPTURE), count=3)
    assert [len(item.position.pieces()) for item in found] == [2, 2, 2]
    assert [len(item.shown[0].squares) for item in found] == [2, 2, 2]
    no_pieces = _search(Query(Claim.GAME_OVER, reason=GameOverReason.NO_PIECES), count=1)
    assert len(no_pieces[0].position.pieces()) == 1


def test_same_seed_same_positions_other_seed_others() -> None:
    query = Query(Claim.PRIORITY, rule=PriorityRule.WITH_KING, max_pieces=6)
    first = [item.line() for item in _search(query, count=3, seed=7)]
    again = [item.line() for item in _search(query, count=3, seed=7)]
    other = [item.line() for item in _search(query, count=3, seed=8)]
    assert first == again
    assert first != other


@pytest.mark.parametrize("pieces", [1, 2, 7, 13, 24])
def test_generated_positions_are_valid(pieces: int) -> None:
    """The generator builds bitboards directly; each one must be a position a FEN allows."""
    rng = random.Random(pieces)
    for mover_has_pieces in (True, False):
        if mover_has_pieces and pieces < 2:
            continue
        shape = Shape(kings=False if pieces == 24 else None, mover_has_pieces=mover_has_pieces)
        for _ in range(300):
            position = random_position(rng, pieces, shape)
            assert Position.from_fen(position.to_fen()) == position
            expected = pieces if mover_has_pieces else min(pieces, 12)
            assert len(position.pieces()) == expected


def test_a_wide_search_stays_valid() -> None:
    query = Query(Claim.GAME_OVER, reason=GameOverReason.NO_PIECES, max_pieces=24)
    found = find(query, count=2, seed=3, time_limit=LIMIT, tries_per_size=5).found
    assert len(found) == 2


# == Requests that cannot be met ==============================================


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ({"claim": "capture", "rule": "king-first"}, "--rule goes with --claim priority"),
        ({"claim": "priority"}, "needs --rule"),
        ({"claim": "illegal"}, "needs --reason"),
        ({"claim": "game-over", "reason": "backward"}, "not a reason for a game-over"),
        ({"claim": "capture", "reason": "blocked"}, "--reason goes with"),
        ({"claim": "priority", "rule": "most-pieces", "min_captured": 2}, "--min-captured"),
        ({"claim": "promotion", "max_pieces": 2}, "at least 3 pieces"),
        ({"claim": "capture", "min_captured": 3, "max_pieces": 3}, "at least 4 pieces"),
        ({"claim": "priority", "rule": "king-first", "kings": False}, "needs a king"),
        ({"claim": "illegal", "reason": "man-takes-king", "kings": False}, "needs a king"),
        ({"claim": "setup"}, "unknown claim"),
    ],
)
def test_contradictory_requests_are_refused(words: dict[str, object], message: str) -> None:
    with pytest.raises(QueryError, match=message):
        query_from_words(**words)  # type: ignore[arg-type]


def test_an_impossible_request_ends_with_nothing_at_the_time_limit() -> None:
    query = Query(Claim.PRIORITY, rule=PriorityRule.KING_FIRST, max_pieces=3)
    result = find(query, count=1, seed=1, time_limit=0.5)
    assert result.found == ()
    assert not result.complete
    assert result.examined > 0


# == The command line =========================================================


def test_cli_prints_one_line_per_position_and_writes_verified_files(tmp_path: Path) -> None:
    folder = tmp_path / "found"
    args = ("find", "--claim", "priority", "--rule", "king-first", "--max-pieces", "7")
    result = run_cli(*args, "--count", "3", "--seed", "1", "--yaml", folder)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        fen, move, explanation = line.split("  ", 2)
        position = Position.from_fen(fen)
        assert Move.parse(move) in position.legal_moves()
        assert explain(position).deciding_rule is PriorityRule.KING_FIRST
        assert explanation == explain(position).summary()
    paths = sorted(folder.glob("*.yaml"))
    assert [path.name for path in paths] == [f"priority-king-first-{n}.yaml" for n in (1, 2, 3)]
    checked = run_cli("verify", *paths)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "every claim holds" in checked.stdout
    again = run_cli(*args, "--count", "3", "--seed", "1")
    assert again.stdout == result.stdout
    refused = run_cli(*args, "--seed", "1", "--yaml", folder)
    assert refused.returncode == 1
    assert "--force" in refused.stderr
    forced = run_cli(*args, "--seed", "2", "--yaml", folder, "--force")
    assert forced.returncode == 0, forced.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--claim", "illegal", "--reason", "jumped-twice", "--side", "white"),
        ("--claim", "game-over", "--reason", "blocked", "--no-kings"),
        ("--claim", "multi-capture", "--min-captured", "3", "--kings"),
        ("--claim", "free-choice", "--max-pieces", "4"),
    ],
)
def test_cli_files_pass_verify(args: tuple[str, ...], tmp_path: Path) -> None:
    result = run_cli("find", *args, "--count", "2", "--yaml", tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 2
    paths = sorted(tmp_path.glob("*.yaml"))
    assert len(paths) == 2
    for path in paths:
        verify(load_diagram(path))
    checked = run_cli("verify", tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_cli_refuses_an_impossible_request_after_the_time_limit() -> None:
    result = run_cli(
        "find", "--claim", "priority", "--rule", "king-first", "--max-pieces", "3", "--time", "1"
    )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("dama-diagrams find: no position found in 1 s for a priority")
    assert "try more pieces or a longer --time" in lines[0]


def test_cli_shows_progress_on_a_long_search_when_asked() -> None:
    args = ("--claim", "priority", "--rule", "king-first", "--max-pieces", "3")
    result = run_cli("find", *args, "--time", "2.5", "--progress")
    assert result.returncode == 1
    progress, message = result.stderr.rsplit("\n", 2)[:2]
    assert "examined" in progress
    assert "now trying 3 pieces" in progress
    assert message.startswith("dama-diagrams find: no position found in 2.5 s")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--claim", "capture", "--rule", "king-first"), "--rule goes with --claim priority"),
        (("--claim", "priority"), "needs --rule"),
        (("--claim", "game-over", "--reason", "occupied"), "not a reason"),
        (("--claim", "capture", "--max-pieces", "0"), "--max-pieces"),
        (("--claim", "capture", "--max-pieces", "2", "--min-captured", "2"), "at least 3"),
        (("--claim", "capture", "--time", "-1"), "--time"),
        (("--claim", "capture", "--count", "many"), "not a whole number"),
        (("--claim", "setup"), "--claim"),
        (
            (
                "--rule",
                "most-pieces",
            ),
            "--claim",
        ),
    ],
)
def test_cli_bad_arguments_exit_2_with_one_clear_line(args: tuple[str, ...], message: str) -> None:
    result = run_cli("find", *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1
    assert message in errors[0]


def test_the_manuals_example_is_what_the_command_prints() -> None:
    readme = (
        Path(__file__).resolve().parent.parent / "manual" / "docs" / "diagram-files.md"
    ).read_text(encoding="utf-8")
    command = "$ dama-diagrams find --claim priority --rule king-first --max-pieces 7 --count 3"
    start = readme.index(command)
    shown = readme[start:].split("\n$ ", 1)[0].splitlines()
    args = shown[0].removeprefix("$ dama-diagrams ").split()
    result = run_cli(*args, "--time", "600")  # a slow machine still completes the search
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == shown[1:]
