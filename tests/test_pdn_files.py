"""PDN files as tournament software writes them: several games, CRLF, Latin-1,
Italian, Dutch and French tag names, comments, NAGs, variations, setup FENs,
every result form and short captures, circular ones included.

Every expected position is worked out by tests/reference.py, a move generator
that shares no code with the engine, from moves written out in full here; the
circular capture is also worked by hand below.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dama_diagrams.cli._game_commands import CHUNK
from dama_diagrams.engine.games import Game, load_games
from dama_diagrams.engine.pdn import PdnError
from tests import reference
from tests.conftest import ROOT, run_cli
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


# ------------------------------------------------------------------------------
# Round 3 of the hostile review, P06: ``game --jobs`` streams.
#
# Workers send their verdicts in chunks and the parent keeps a bounded number of
# them, so the output is the serial one and memory does not grow with the games.


MOVES = ["22-18", "22-17", "23-19", "24-20", "21-17"]


def _games(path: Path, count: int, *, name: str = "") -> None:
    """``count`` short games, every seventh refused, with a warning now and then."""
    with path.open("w", encoding="utf-8") as out:
        for number in range(count):
            if number % 7 == 3:
                out.write('[GameType "22"]\n1. 22-15 *\n\n')
            elif number % 11 == 5:
                out.write('[GameType "22"]\n[Result "2-0"]\n1. 22-18 0-2\n\n')
            else:
                move = MOVES[number % len(MOVES)]
                out.write(f'[White "{name}{number}"]\n[GameType "22"]\n1. {move} 11-14 *\n\n')


def test_jobs_print_what_the_serial_run_prints(tmp_path: Path) -> None:
    """Files of several chunks of games, an unreadable one and a Latin-1 one: the same bytes."""
    counts = [3 * CHUNK + 7, 1, 2 * CHUNK + 3, CHUNK - 1]  # chunk ends inside every big file
    for index, count in enumerate(counts):
        _games(tmp_path / f"{index}.pdn", count)
    (tmp_path / "1b.pdn").write_text("")
    (tmp_path / "2b.pdn").write_bytes(
        '[GameType "22"]\n[White "Nicolò"]\n1. 22-18 *\n'.encode("latin-1")
    )
    alone = run_cli("game", tmp_path)
    for jobs in ("2", "3"):
        shared = run_cli("game", "--jobs", jobs, tmp_path)
        assert (shared.returncode, shared.stdout, shared.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        )
    assert alone.returncode == 1 and "Traceback" not in alone.stderr
    # the Latin-1 file holds one game more; the empty one holds none
    assert alone.stdout.splitlines()[-1].startswith(f"{sum(counts) + 1} games: ")
    assert "1 file not read" in alone.stdout.splitlines()[-1]


def _peak_kb(*args: str | Path) -> int:
    """The largest resident size, in kB, of the CLI or any of its workers (a fresh parent)."""
    measure = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    command = [sys.executable, "-c", measure, sys.executable, "-m", "dama_diagrams", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    return int(done.stdout)


@pytest.mark.slow
@pytest.mark.long
def test_jobs_memory_does_not_grow_with_the_games(tmp_path: Path) -> None:
    """Two files of 25,000 games: collecting each file's verdicts took 30 MB more than serial.

    The peak of any one process is compared with the serial run's on the same
    files, so the test holds on any machine: streaming stays within a few MB.
    """
    long_name = "Giocatore " * 30
    files = [tmp_path / "a.pdn", tmp_path / "b.pdn"]
    for path in files:
        _games(path, 25_000, name=long_name)
    serial = _peak_kb("game", *files)
    shared = _peak_kb("game", "--jobs", "2", *files)
    assert shared < serial + 15_000, (serial, shared)


def test_an_idle_worker_ends_when_told_and_a_busy_one_is_stopped(tmp_path: Path) -> None:
    """Each `game --jobs` run waited five seconds per worker: it never saw its pipe close.

    A forked worker holds the parent's end of its pipe too, so closing it told
    the worker nothing; it was terminated after a timeout, and the run took ten
    seconds more than the checking.  Now an idle worker exits by itself (exit
    code 0), and one still checking a file is killed at once.
    """
    from dama_diagrams.cli._game_commands import _Worker

    small, big = tmp_path / "small.pdn", tmp_path / "big.pdn"
    _games(small, 3)
    _games(big, 50 * CHUNK)
    idle = _Worker()
    idle.give(small, (False, None))
    while not idle.received or idle.received[-1] is not None:
        idle.take()
    idle.stop()
    assert idle.process.exitcode == 0

    busy = _Worker()
    busy.give(big, (False, None))
    busy.take()  # its first chunk: it is checking the rest
    busy.stop()
    assert busy.process.exitcode == -signal.SIGKILL


# ------------------------------------------------------------------------------
# ``game`` counts moves as players do, and ``--fen-after`` past a game's end is no refusal.
#
# games/example.pdn, numbered as the site numbers it:
# 1. 23-19 10-14 2. 19x10 5x14 3. 24-20 9-13 4. 20-16 1-5 5. 21-18 14x21 6. 26x17x10x1
# is eleven half-moves (plies): five moves of White and Black, and White's sixth,
# so 6 moves.  The small files below are written by hand, and every position in
# them worked out by hand; tests/reference.py, which shares no code with the
# engine, checks each move and each position again.


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
BLACK_CIRCLE = "B:WK23:B4,18,19,26,27"
BLACK_CIRCLE_AFTER_4_8 = "W:WK23:B8,18,19,26,27"


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
    assert _play(BLACK_CIRCLE, ["4-8"]) == BLACK_CIRCLE_AFTER_4_8
    assert reference.legal_moves(BLACK_CIRCLE_AFTER_4_8) == ["23x14x21x30x23", "23x30x21x14x23"]
    path = _pdn(
        tmp_path, "circle.pdn", f'[GameType "22"]\n[FEN "{BLACK_CIRCLE}"]\n\n1... 4-8 2. 23x23 *\n'
    )
    # line 4 is "1... 4-8 2. 23x23 *": 23x23 starts at column 13
    refusal = (
        f"{path}:4:13: game 1: move 2. 23x23 is ambiguous: it can be 23x14x21x30x23 or "
        "23x30x21x14x23; write the whole capture"
    )
    before = run_cli("game", "--fen-after", "1...", path)
    assert before.returncode == 1  # the game is refused all the same
    assert before.stdout.splitlines() == [
        f"{path}:1: game 1, after 1...: {BLACK_CIRCLE_AFTER_4_8}",
        "1 game: 0 checked, 1 refused",
    ]
    assert before.stderr.splitlines() == [refusal]
    # The start, "after" the move before Black's first (White's first, which it lacks).
    start = run_cli("game", "--fen-after", "1.", path)
    assert start.stdout.splitlines()[0] == f"{path}:1: game 1, after 1.: {BLACK_CIRCLE}"
    # After the ambiguous move itself nothing is known: the refusal alone.
    at = run_cli("game", "--fen-after", "2.", path)
    assert at.returncode == 1
    assert at.stdout.splitlines() == ["1 game: 0 checked, 1 refused"]
    assert at.stderr.splitlines() == [refusal]
