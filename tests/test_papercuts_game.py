"""``game`` counts moves as players do, and ``--fen-after`` past a game's end is no refusal.

games/example.pdn, numbered as the site numbers it:
1. 23-19 10-14 2. 19x10 5x14 3. 24-20 9-13 4. 20-16 1-5 5. 21-18 14x21 6. 26x17x10x1
is eleven half-moves (plies): five moves of White and Black, and White's sixth,
so 6 moves.  The small files below are written by hand, and every position in
them worked out by hand; tests/reference.py, which shares no code with the
engine, checks each move and each position again.
"""

from __future__ import annotations

from pathlib import Path

from tests import reference
from tests.conftest import ROOT, run_cli
from tests.test_pdn import INITIAL, _reference_play
from tests.test_pdn_files import EXAMPLE

EXAMPLE_PDN = ROOT / "games" / "example.pdn"
# The final position of games/example.pdn, worked by hand: White's 23 went to 10 and
# was taken, 24 went to 16, 21 to 18 and was taken, 26 took 21, 13 and 5 and was
# crowned on 1.  Black's 10 went to 14 and was taken; 5 took back and went on to 21,
# taken there; 9 went to 13 and 1 to 5, both taken by the crowning capture.
# White: K1, 16, 22, 25, 27-32; Black: 2-4, 6-8, 11, 12; Black to move.
EXAMPLE_FINAL = "B:WK1,16,22,25,27,28,29,30,31,32:B2,3,4,6,7,8,11,12"
# The circle of tests/test_pdn_files.py with a black man on 4 and Black to move:
# 1... 4-8, then White's king on 23 takes 18, 19, 26 and 27 going round either
# way, both the same pieces (no king among them): 2. 23x23 is ambiguous.
CIRCLE = "B:WK23:B4,18,19,26,27"
CIRCLE_AFTER_4_8 = "W:WK23:B8,18,19,26,27"


def _play(fen: str, moves: list[str]) -> str:
    for move in moves:
        assert move in reference.legal_moves(fen), (move, fen)
        fen = _reference_play(fen, move)
    return fen


def _pdn(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_game_is_six_moves_of_eleven_plies() -> None:
    assert _play(INITIAL, EXAMPLE) == EXAMPLE_FINAL
    result = run_cli("game", EXAMPLE_PDN)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{EXAMPLE_PDN}:1: game 1 (White \u2013 Black, 2-0): 6 moves (11 plies), "
        f"final position {EXAMPLE_FINAL}",
        "1 game: 1 checked, 0 refused",
    ]


def test_a_game_that_opens_with_black_counts_its_move_numbers(tmp_path: Path) -> None:
    """1... 5-9 2. 28-24 9-13: three plies on move numbers 1, 2, 2, so 2 moves."""
    assert _play("B:W28:B5", ["5-9", "28-24", "9-13"]) == "W:W24:B13"
    path = _pdn(
        tmp_path,
        "black.pdn",
        '[GameType "22"]\n[FEN "B:W28:B5"]\n\n1... 5-9 2. 28-24 9-13 *\n\n'
        '[GameType "22"]\n[FEN "B:W28:B5"]\n\n1... 5-9 *\n\n'
        '[GameType "22"]\n[FEN "B:W28:B5"]\n\n1... 5-9 2. 28-24 *\n\n'
        '[GameType "22"]\n[FEN "B:W28:B5"]\n\n*\n',
    )
    result = run_cli("game", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{path}:1: game 1 (? \u2013 ?, *): 2 moves (3 plies), final position W:W24:B13",
        f"{path}:6: game 2 (? \u2013 ?, *): 1 move (1 ply), final position W:W28:B9",
        f"{path}:11: game 3 (? \u2013 ?, *): 2 moves (2 plies), final position B:W24:B9",
        f"{path}:16: game 4 (? \u2013 ?, *): 0 moves (0 plies), final position B:W28:B5",
        "4 games: 4 checked, 0 refused",
    ]


def test_fen_after_past_the_end_says_where_the_game_ends_and_refuses_nothing() -> None:
    result = run_cli("game", "--fen-after", "9...", EXAMPLE_PDN)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{EXAMPLE_PDN}:1: game 1 has only 6 moves (11 plies): it ends with move 6., "
        "so there is no position after 9...",
        "1 game: 1 checked, 0 refused",
    ]
    assert result.stderr == ""
    # Black's sixth move is the first one the game lacks; White's sixth is its last.
    just_past = run_cli("game", "--fen-after", "6...", EXAMPLE_PDN)
    assert just_past.returncode == 0
    assert "so there is no position after 6..." in just_past.stdout
    last = run_cli("game", "--fen-after", "6.", EXAMPLE_PDN)
    assert last.stdout.splitlines()[0] == f"{EXAMPLE_PDN}:1: game 1, after 6.: {EXAMPLE_FINAL}"


def test_a_short_game_beside_a_long_one_is_counted_as_checked(tmp_path: Path) -> None:
    path = _pdn(
        tmp_path,
        "two.pdn",
        '[GameType "22"]\n\n1. 22-18 *\n\n[GameType "22"]\n\n1. 22-18 11-14 2. 18x11 *\n\n'
        '[GameType "22"]\n\n*\n',
    )
    after = _play(INITIAL, ["22-18", "11-14"])
    result = run_cli("game", "--fen-after", "1...", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{path}:1: game 1 has only 1 move (1 ply): it ends with move 1., "
        "so there is no position after 1...",
        f"{path}:5: game 2, after 1...: {after}",
        f"{path}:9: game 3 has no move, so there is no position after 1...",
        "3 games: 3 checked, 0 refused",
    ]


def test_a_position_before_an_ambiguous_move_is_printed_and_the_game_still_refused(
    tmp_path: Path,
) -> None:
    assert _play(CIRCLE, ["4-8"]) == CIRCLE_AFTER_4_8
    assert reference.legal_moves(CIRCLE_AFTER_4_8) == ["23x14x21x30x23", "23x30x21x14x23"]
    path = _pdn(
        tmp_path, "circle.pdn", f'[GameType "22"]\n[FEN "{CIRCLE}"]\n\n1... 4-8 2. 23x23 *\n'
    )
    # line 4 is "1... 4-8 2. 23x23 *": 23x23 starts at column 13
    refusal = (
        f"{path}:4:13: game 1: move 2. 23x23 is ambiguous: it can be 23x14x21x30x23 or "
        "23x30x21x14x23; write the whole capture"
    )
    before = run_cli("game", "--fen-after", "1...", path)
    assert before.returncode == 1  # the game is refused all the same
    assert before.stdout.splitlines() == [
        f"{path}:1: game 1, after 1...: {CIRCLE_AFTER_4_8}",
        "1 game: 0 checked, 1 refused",
    ]
    assert before.stderr.splitlines() == [refusal]
    # The start, "after" the move before Black's first (White's first, which it lacks).
    start = run_cli("game", "--fen-after", "1.", path)
    assert start.stdout.splitlines()[0] == f"{path}:1: game 1, after 1.: {CIRCLE}"
    # After the ambiguous move itself nothing is known: the refusal alone.
    at = run_cli("game", "--fen-after", "2.", path)
    assert at.returncode == 1
    assert at.stdout.splitlines() == ["1 game: 0 checked, 1 refused"]
    assert at.stderr.splitlines() == [refusal]
