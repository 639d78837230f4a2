"""PDN files as tournament software writes them: several games, CRLF, Latin-1,
Italian, Dutch and French tag names, comments, NAGs, variations, setup FENs,
every result form and short captures, circular ones included.

Every expected position is worked out by tests/reference.py, a move generator
that shares no code with the engine, from moves written out in full here; the
circular capture is also worked by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dama_diagrams.engine.games import Game, load_games
from dama_diagrams.engine.pdn import PdnError
from tests import reference
from tests.conftest import run_cli
from tests.test_pdn import INITIAL, _reference_play

# A black king on 23 and four white pieces around it: 19, the king on 18, 26, 27.
# On the reference's (row, column) grid: 23 is (5,5), 14 is (3,3), 21 is (5,1),
# 30 is (7,3).  23-14 jumps (4,4) = 19, 14-21 jumps (4,2) = 18, 21-30 jumps (6,2) = 26,
# 30-23 jumps (6,4) = 27: the king comes back to 23 with four pieces taken.  The
# other way round takes the same four, but meets the king third, not second: the
# FID's "first king" rule leaves 23x14x21x30x23 as the only legal move.
CIRCLE = "B:W16,K18,19,24,25,26,27:BK23"
CIRCLE_AFTER = "W:W16,24,25:BK23"
# The same circle of men, with White's king in it: both ways take four men and no
# king, so no rule separates them and ``23x23`` is ambiguous.
TIED = "W:WK23:B18,19,26,27"

# The game of games/example.pdn, every capture in full.
EXAMPLE = ["23-19", "10-14", "19x10", "5x14", "24-20", "9-13", "20-16", "1-5", "21-18", "14x21"]
EXAMPLE.append("26x17x10x1")


def _play(fen: str, moves: list[str]) -> str:
    for move in moves:
        assert move in reference.legal_moves(fen), (move, fen)
        fen = _reference_play(fen, move)
    return fen


def test_the_hand_worked_circle_is_the_reference_s_only_move() -> None:
    assert reference.legal_moves(CIRCLE) == ["23x14x21x30x23"]
    assert _reference_play(CIRCLE, "23x14x21x30x23") == CIRCLE_AFTER
    assert reference.legal_moves(TIED) == ["23x14x21x30x23", "23x30x21x14x23"]


TOURNAMENT = (
    # 1: Italian tags, a short multi-capture (26x1), NAGs, comments, a variation.
    '[Evento "Campionato Italiano Assoluto"]\n[Luogo "Salsomaggiore Terme"]\n'
    '[Data "2025.06.14"]\n[Turno "3"]\n[Bianco "Rossi, Niccolò"]\n[Nero "Bianchi, Ettore"]\n'
    '[Risultato "2-0"]\n[GameType "22"]\n\n'
    "1. 23-19 10-14 2. 19x10 5x14 {the usual exchange} 3. 24-20 9-13 4. 20-16! $1 1-5\n"
    "(4... 13-17 5. 22-18) 5. 21-18 14x21 6. 26x1 {crowns} 2-0\n\n"
    # 2: Dutch tags, a setup with Black to move, the circular capture written short.
    '[Wit "De Vries"]\n[Zwart "Jansen"]\n[Uitslag "*"]\n[GameType "22"]\n[SetUp "1"]\n'
    f'[FEN "{CIRCLE}"]\n\n1... 23x23 *\n\n'
    # 3: French tags, a draw written as in chess.
    '[Blancs "Dupont"]\n[Noirs "Martin"]\n[Résultat "1/2-1/2"]\n[GameType "22"]\n\n'
    "1. 22-18 11-14 2. 18x11 7x14 1/2-1/2\n\n"
    # 4: the ambiguous circle: refused, with both paths.
    f'[White "A"]\n[Black "B"]\n[GameType "22"]\n[FEN "{TIED}"]\n\n1. 23x23 *\n\n'
    # 5: a Result tag that says otherwise than the movetext: a warning only.
    '[White "C"]\n[Black "D"]\n[Result "2-0"]\n[GameType "22"]\n\n1. 22-18 0-2\n'
)


def _tournament(tmp_path: Path) -> Path:
    path = tmp_path / "campionato.pdn"
    path.write_bytes(TOURNAMENT.replace("\n", "\r\n").encode("latin-1"))
    return path


def test_a_tournament_file_reads_game_by_game(tmp_path: Path) -> None:
    path = _tournament(tmp_path)
    result = run_cli("game", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    first = _play(INITIAL, EXAMPLE)
    third = _play(INITIAL, ["22-18", "11-14", "18x11", "7x14"])
    fifth = _play(INITIAL, ["22-18"])
    assert result.stdout.splitlines() == [
        # Moves as players count them, White's and Black's one move: 1. to 6. is 6
        # moves of 11 plies; 1... alone is 1 move; 1. and 2., both sides, 2 moves.
        f"{path}:1: game 1 (Rossi, Niccolò \u2013 Bianchi, Ettore, 2-0): 6 moves (11 plies), "
        f"final position {first}",
        f"{path}:13: game 2 (De Vries \u2013 Jansen, *): 1 move (1 ply), "
        f"final position {CIRCLE_AFTER}",
        f"{path}:22: game 3 (Dupont \u2013 Martin, 1/2-1/2): 2 moves (4 plies), "
        f"final position {third}",
        f"{path}:36: game 5 (C \u2013 D, 0-2): 1 move (1 ply), final position {fifth}",
        "5 games: 4 checked, 1 refused",
    ]
    assert result.stderr.splitlines() == [
        f"warning: {path}:5: not UTF-8: read as Latin-1 (ISO-8859-1)",
        f"{path}:34:4: game 4: move 1. 23x23 is ambiguous: it can be 23x14x21x30x23 or "
        "23x30x21x14x23; write the whole capture",
        f"warning: {path}:36: game 5: the Result tag says 2-0 (White won), "
        "the moves end with 0-2 (Black won)",
    ]


def test_the_kept_game_has_its_comments_nags_and_variation(tmp_path: Path) -> None:
    game = next(load_games(_tournament(tmp_path)))
    assert isinstance(game, Game)
    assert str(game.moves[-1].move) == "26x17x10x1"  # 26x1, expanded
    assert game.moves[3].comments == ("the usual exchange",)
    assert game.moves[6].nags == ("!", "$1")
    (variation,) = game.moves[7].variations
    assert [str(p.move) for p in variation] == ["13-17", "22-18"]
    assert game.standard["Event"] == "Campionato Italiano Assoluto"
    assert game.standard["Site"] == "Salsomaggiore Terme"
    assert game.standard["Round"] == "3" and game.standard["Date"] == "2025.06.14"
    assert game.tags["Bianco"] == "Rossi, Niccolò"  # the tags as written are kept


@pytest.mark.parametrize("result", ["2-0", "1-0", "0-2", "0-1", "1-1", "1/2-1/2", "0-0", "*"])
def test_every_result_form_is_read_in_the_movetext_and_the_tag(tmp_path: Path, result: str) -> None:
    path = tmp_path / "r.pdn"
    path.write_text(
        f'[GameType "22"]\n[Result "{result}"]\n1. 22-18 {result}\n'
        f'[GameType "22"]\n[Risultato "{result}"]\n1. 22-18\n',
        encoding="utf-8",
    )
    games = list(load_games(path))
    assert all(isinstance(g, Game) for g in games), games
    assert [g.result for g in games] == [result, result]  # type: ignore[union-attr]
    assert not any(g.warnings for g in games)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("tag", "movetext", "warned"),
    [
        ("2-0", "1-0", False),
        ("1-1", "1/2-1/2", False),
        ("0-2", "0-1", False),
        ("*", "2-0", False),
        ("2-0", "0-2", True),
        ("1-1", "2-0", True),
        ("1/2-1/2", "0-1", True),
    ],
)
def test_a_result_tag_that_disagrees_is_a_warning(
    tmp_path: Path, tag: str, movetext: str, warned: bool
) -> None:
    path = tmp_path / "r.pdn"
    path.write_text(f'[GameType "22"]\n[Result "{tag}"]\n1. 22-18 {movetext}\n', "utf-8")
    (game,) = load_games(path)
    assert isinstance(game, Game) and game.result == movetext
    assert bool(game.warnings) is warned, game.warnings


def test_a_win_for_the_side_whose_opponent_has_no_piece_is_known(tmp_path: Path) -> None:
    """White to move, Black has nothing left: White has won, whatever 0-2 says."""
    path = tmp_path / "r.pdn"
    path.write_text('[GameType "22"]\n[FEN "W:W31:B"]\n0-2\n', "utf-8")
    (game,) = load_games(path)
    assert isinstance(game, Game)
    assert game.warnings == [
        f"{path}:1: game 1: the result is 0-2 (Black won), but white has won the final position"
    ]


def test_short_captures_and_partial_paths_are_expanded(tmp_path: Path) -> None:
    path = tmp_path / "c.pdn"
    path.write_text(
        f'[GameType "22"]\n[FEN "{TIED}"]\n1. 23x14x21x23 *\n'
        f'[GameType "22"]\n[FEN "{TIED}"]\n1. 23x30x21x23 *\n'
        f'[GameType "22"]\n[FEN "{CIRCLE}"]\n1... 23x30x21x23 *\n',
        encoding="utf-8",
    )
    first, second, third = load_games(path)
    assert isinstance(first, Game) and isinstance(second, Game)
    assert str(first.moves[0].move) == "23x14x21x30x23"
    assert str(second.moves[0].move) == "23x30x21x14x23"
    # Both ways take the same four men: the same position.
    assert first.final.to_fen() == second.final.to_fen() == "B:WK23:B"
    # 23x30x21x23 is the way the "first king" rule forbids: refused, with the reason.
    assert isinstance(third, PdnError)
    assert str(third) == (
        f"{path}:9:6: game 3: move 1... 23x30x21x23 is not legal: no capture goes from "
        "23 to 23 by 30, 21; the legal moves are 23x14x21x30x23"
    )


def test_a_circle_that_does_not_exist_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "c.pdn"
    path.write_text('[GameType "22"]\n1. 22x22 *\n', encoding="utf-8")
    (error,) = load_games(path)
    assert str(error) == (
        f"{path}:2:4: game 1: move 1. 22x22 is not legal: no capture goes from 22 to 22; "
        "the legal moves are 21-17 21-18 22-18 22-19 23-19 23-20 24-20"
    )


@pytest.mark.parametrize(
    ("names", "white", "black"),
    [
        ('[Bianco "Rossi"]\n[Nero "Verdi"]', "Rossi", "Verdi"),
        ('[Wit "De Vries"]\n[Zwart "Jansen"]', "De Vries", "Jansen"),
        ('[Blancs "Dupont"]\n[Noirs "Martin"]', "Dupont", "Martin"),
        ('[White "Smith"]\n[Bianco "Rossi"]', "Smith", "?"),
    ],
)
def test_the_output_line_names_the_players(
    tmp_path: Path, names: str, white: str, black: str
) -> None:
    path = tmp_path / "p.pdn"
    path.write_text(f'{names}\n[GameType "22"]\n[Annotatore "X"]\n1. 22-18 *\n', "utf-8")
    result = run_cli("game", str(path))
    assert f"game 1 ({white} \u2013 {black}, *)" in result.stdout, result.stdout


def test_folders_and_many_files_are_read(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.pdn").write_text('[GameType "22"]\n1. 22-18 *\n', "utf-8")
    (tmp_path / "a" / "two.PDN").write_text('[GameType "22"]\n1. 22-19 *\n', "utf-8")
    (tmp_path / "a" / "notes.txt").write_text("not a game", "utf-8")
    other = tmp_path / "three.pdn"
    other.write_text('[GameType "22"]\n1. 22-17 *\n', "utf-8")
    result = run_cli("game", str(tmp_path / "a"), str(other))
    assert result.returncode == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()[:2]] == [
        str(tmp_path / "a" / "one.pdn"),
        str(tmp_path / "a" / "two.PDN"),
    ]
    assert result.stdout.splitlines()[-1] == "3 games: 2 checked, 1 refused"
    assert f"{other}:2:4: game 1: move 1. 22-17 is not legal" in result.stderr


def test_move_numbers_as_other_software_writes_them(tmp_path: Path) -> None:
    """``1.22-18`` without a space, ``2. ... 7x14`` for Black's move, ``[`` in a value."""
    path = tmp_path / "s.pdn"
    path.write_text(
        '[Event "Torneo [A]"]\n[GameType "22"]\n'
        "1.22-18 11-14 2.18x11 {presa [obbligatoria]} 2. ... 7x14 1-1\n",
        encoding="utf-8",
    )
    (game,) = load_games(path)
    assert isinstance(game, Game) and game.standard["Event"] == "Torneo [A]"
    assert game.final.to_fen() == _play(INITIAL, ["22-18", "11-14", "18x11", "7x14"])
    assert game.moves[2].comments == ("presa [obbligatoria]",)


def test_jobs_give_the_same_verdicts_in_the_same_order(tmp_path: Path) -> None:
    for index, move in enumerate(["22-18", "22-17", "23-19", "24-20"]):
        (tmp_path / f"{index}.pdn").write_text(f'[GameType "22"]\n1. {move} *\n' * 3, "utf-8")
    alone = run_cli("game", str(tmp_path))
    shared = run_cli("game", "--jobs", "2", str(tmp_path))
    assert (shared.returncode, shared.stdout, shared.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )
    assert alone.stdout.splitlines()[-1] == "12 games: 9 checked, 3 refused"
    assert alone.stdout.splitlines()[0].startswith(f"{tmp_path / '0.pdn'}:1: game 1 ")
