"""PDN games: read, checked move by move, written back; every broken file is one clear line.

The games come from tests/reference.py, a move generator that shares no code
with the engine: random legal games are written as PDN by the test itself
(captures sometimes in the short form, start and end only), and the reader
must replay them to the reference's own final positions.  Each error has a
hand-made file.
"""

from __future__ import annotations

import itertools
import random
import tracemalloc
from pathlib import Path

import pytest

from dama_diagrams.diagram.schema import load_diagram
from dama_diagrams.engine.games import Game, load_games, write_game
from dama_diagrams.engine.pdn import PdnError
from dama_diagrams.errors import DamaError
from tests import reference
from tests.conftest import run_cli

INITIAL = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def _reference_fen(turn: str, board: reference.Board) -> str:
    """The reference board as PDN FEN, sorted: written here, not by the engine."""
    sides = []
    for colour in ("w", "b"):
        squares = sorted(
            (reference.coord_to_square(coord), king)
            for coord, (owner, king) in board.items()
            if owner == colour
        )
        sides.append(colour.upper() + ",".join(f"{'K' if k else ''}{s}" for s, k in squares))
    return f"{turn.upper()}:{sides[0]}:{sides[1]}"


def _reference_play(fen: str, move: str) -> str:
    """The position after ``move``, worked out on the reference's coordinates."""
    turn, board = reference.board_from_fen(fen)
    squares = [int(part) for part in move.replace("x", "-").split("-")]
    coords = [reference.square_to_coord(square) for square in squares]
    colour, king = board.pop(coords[0])
    if "x" in move:
        for start, end in itertools.pairwise(coords):
            board.pop(((start[0] + end[0]) // 2, (start[1] + end[1]) // 2))
    last_row = 0 if colour == "w" else 7
    board[coords[-1]] = (colour, king or coords[-1][0] == last_row)
    return _reference_fen("b" if turn == "w" else "w", board)


def _random_game(rng: random.Random, plies: int) -> tuple[list[str], str]:
    """Moves as a PDN file may write them, and the reference's final position."""
    fen, written = INITIAL, []
    for _ in range(plies):
        legal = reference.legal_moves(fen)
        if not legal:
            break
        move = rng.choice(legal)
        squares = move.split("x")
        same_ends = [
            m for m in legal if m.split("x")[0] == squares[0] and m.split("x")[-1] == squares[-1]
        ]
        if "x" in move and len(squares) > 2 and len(same_ends) == 1 and rng.random() < 0.5:
            written.append(f"{squares[0]}x{squares[-1]}")  # the short form
        else:
            written.append(move)
        fen = _reference_play(fen, move)
    return written, fen


def _pdn(moves: list[str], tags: dict[str, str], result: str = "*") -> str:
    lines = [f'[{name} "{value}"]' for name, value in tags.items()]
    words = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move)
    return "\n".join(lines) + "\n\n" + " ".join([*words, result]) + "\n\n"


def _games(path: Path, **options: bool) -> list[Game | PdnError]:
    return list(load_games(path, **options))


def test_random_games_replay_to_the_reference_positions(tmp_path: Path) -> None:
    rng = random.Random(2026)
    expected = []
    text = []
    for number in range(40):
        moves, final = _random_game(rng, rng.randint(10, 120))
        expected.append((len(moves), final))
        text.append(_pdn(moves, {"Event": f"Random {number}", "GameType": "22"}))
    path = tmp_path / "random.pdn"
    path.write_text("".join(text), encoding="utf-8")

    games = _games(path)

    assert all(isinstance(game, Game) for game in games), [str(g) for g in games][:3]
    assert [(len(game.moves), game.final.to_fen()) for game in games] == expected  # type: ignore[union-attr]


def test_a_game_written_back_reads_the_same_with_full_paths(tmp_path: Path) -> None:
    rng = random.Random(7)
    moves, _ = _random_game(rng, 80)
    path = tmp_path / "one.pdn"
    path.write_text(_pdn(moves, {"White": "A", "Black": "B", "GameType": "22"}), encoding="utf-8")
    (game,) = _games(path)
    assert isinstance(game, Game)
    again = tmp_path / "again.pdn"
    again.write_text(write_game(game), encoding="utf-8")
    (reread,) = _games(again)
    assert isinstance(reread, Game)
    assert [p.move for p in reread.moves] == [p.move for p in game.moves]
    assert reread.tags == game.tags
    # Written back, no capture is short: each lists every landing square.
    assert all(str(p.move) == p.written for p in reread.moves)


def test_comments_variations_and_marks_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "annotated.pdn"
    path.write_text(
        '[GameType "22"]\n[Annotator "Nobody"]\n\n'
        "{Before the game} 1. 22-18! $1 11-14 {a natural reply}\n"
        "2. 18x11 7x14 (2... 6x15 {the other way}) 1-1\n",
        encoding="utf-8",
    )
    (game,) = _games(path)
    assert isinstance(game, Game)
    assert game.intro == ("Before the game",)
    assert game.tags["Annotator"] == "Nobody"  # an unknown tag is kept
    first, second, _, fourth = game.moves
    assert first.nags == ("!", "$1") and second.comments == ("a natural reply",)
    assert [str(p.move) for p in fourth.variations[0]] == ["6x15"]
    assert fourth.variations[0][0].comments == ("the other way",)
    written = write_game(game)
    flat = " ".join(written.split())
    assert "(2... 6x15 {the other way})" in flat and "1. 22-18! $1" in flat


def _error(path: Path, text: str | bytes, **options: bool) -> str:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    errors = [str(item) for item in _games(path, **options) if isinstance(item, PdnError)]
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[GameType "22"]\n1. 22-18 {never\nclosed 11-15 *\n',
            ":2:10: game 1: comment { is never closed",
        ),
        (
            '[GameType "22"]\n1. 22-18 (1. 21-17\n11-15 *\n',
            ":2:10: game 1: variation ( is never closed",
        ),
        ('[GameType "22"]\n[FEN "W:W33:B1"]\n1. 22-18 *\n', ":2: game 1: the FEN tag: "),
        ('[GameType "20"]\n1. 32-28 *\n', ":1: game 1: GameType '20' is international draughts"),
        ('[GameType "22"]\n1. 22-18 11-15 3. 23-19 *\n', ":2:16: game 1: move number 3. is out"),
        ('[GameType "22"]\n1. 22-17 *\n', ":2:4: game 1: move 1. 22-17 is not legal: "),
        ('[Event "x"]\n1. 22-18 *\n', ':1: game 1: no GameType tag: add [GameType "22"]'),
        (
            '[GameType "22"]\n[FEN "W:WK22:B8,10,11,18,19,27"]\n1. 22x31 *\n',
            ":3:4: game 1: move 1. 22x31 is ambiguous: it can be 22x13x6x15x22x31 or "
            "22x15x6x13x22x31; write the whole capture",
        ),
        ("", ": the file is empty"),
    ],
)
def test_each_broken_file_is_one_located_error(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "broken.pdn"
    message = _error(path, text)
    assert message.startswith(str(path)) and expected in message, message


def test_the_variation_error_names_the_opening_parenthesis(tmp_path: Path) -> None:
    message = _error(tmp_path / "v.pdn", '[GameType "22"]\n1. 22-18 (1. 21-17\n11-15 *\n')
    assert ":2:10: " in message


def test_a_game_without_game_type_is_read_as_italian_on_request(tmp_path: Path) -> None:
    path = tmp_path / "plain.pdn"
    path.write_text("1. 22-18 11-15 *\n", encoding="utf-8")
    (game,) = _games(path, italian=True)
    assert isinstance(game, Game) and len(game.moves) == 2


def test_a_result_that_the_position_contradicts_is_a_warning(tmp_path: Path) -> None:
    """White's king takes Black's last piece: a win for White, written as a Black win."""
    path = tmp_path / "result.pdn"
    path.write_text('[GameType "22"]\n[FEN "W:WK22:B18"]\n1. 22x13 0-2\n', encoding="utf-8")
    (game,) = _games(path)
    assert isinstance(game, Game)
    assert len(game.warnings) == 1 and "white has won" in game.warnings[0]


def test_latin1_is_read_and_said(tmp_path: Path) -> None:
    path = tmp_path / "latin.pdn"
    path.write_bytes('[GameType "22"]\n[White "Niccolò"]\n1. 22-18 *\n'.encode("latin-1"))
    notices: list[str] = []
    (game,) = list(load_games(path, notices=notices))
    assert isinstance(game, Game) and game.tags["White"] == "Niccolò"
    assert notices == [f"{path}:2: not UTF-8: read as Latin-1 (ISO-8859-1)"]


def test_a_50_mb_file_streams(tmp_path: Path) -> None:
    game = _pdn(["22-18", "11-14", "18x11", "7x14"], {"GameType": "22"}, "1-1")
    path = tmp_path / "big.pdn"
    with path.open("w", encoding="utf-8") as file:
        for _ in range(50 * 1024 * 1024 // len(game) + 1):
            file.write(game)
    assert path.stat().st_size >= 50 * 1024 * 1024
    tracemalloc.start()
    games = load_games(path)
    first, second = next(games), next(games)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert isinstance(first, Game) and isinstance(second, Game)
    assert peak < 5 * 1024 * 1024, peak  # the file is never held whole


def test_the_game_command_prints_a_line_per_game_and_fails_on_a_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(
        '[White "Rossi"]\n[Black "Bianchi"]\n[GameType "22"]\n\n'
        "1. 22-18 11-14 2. 18x11 7x14 1-1\n\n"
        '[GameType "22"]\n\n1. 22-18 11-14 2. 21-17 *\n',
        encoding="utf-8",
    )
    result = run_cli("game", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    # After 1. 22-18 11-14 2. 18x11 7x14, worked out by the reference generator.
    final = INITIAL
    for move in ("22-18", "11-14", "18x11", "7x14"):
        final = _reference_play(final, move)
    assert result.stdout.splitlines() == [
        # 1. 22-18 11-14 2. 18x11 7x14: two moves of White and Black, four plies
        f"{path}:1: game 1 (Rossi \u2013 Bianchi, 1-1): 2 moves (4 plies), final position {final}",
        "2 games: 1 checked, 1 refused",
    ]
    assert result.stderr.splitlines() == [
        f"{path}:9:19: game 2: move 2. 21-17 is not legal: capturing is compulsory: "
        "the legal moves are 18x11"
    ]
    after = run_cli("game", "--fen-after", "1...", str(path))
    expected = _reference_play(_reference_play(INITIAL, "22-18"), "11-14")
    assert f"{path}:1: game 1, after 1...: {expected}" in after.stdout.splitlines()


# --- diagrams that take their position from a game --------------------------------------


def _diagram_project(tmp_path: Path, game_text: str, position: str) -> Path:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "club.pdn").write_text(game_text, encoding="utf-8")
    (tmp_path / "diagrams").mkdir()
    diagram = tmp_path / "diagrams" / "from-game.yaml"
    diagram.write_text(f"position: {position}\nclaim: setup\n", encoding="utf-8")
    return diagram


def test_a_diagram_takes_its_position_from_a_game(tmp_path: Path) -> None:
    text = (
        '[GameType "22"]\n1. 22-18 11-14 *\n\n[GameType "22"]\n1. 22-18 11-14 2. 18x11 7x14 1-1\n'
    )
    diagram = _diagram_project(tmp_path, text, '{game: games/club.pdn, number: 2, after: "2."}')
    loaded = load_diagram(diagram)
    expected = _reference_play(_reference_play(_reference_play(INITIAL, "22-18"), "11-14"), "18x11")
    assert loaded.position.to_fen() == expected
    assert [str(move) for move in loaded.history] == ["22-18", "11-14", "18x11"]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("{game: ../outside.pdn}", "is outside the project"),
        ("{game: games/club.pdn, number: 3}", "games/club.pdn has no game 3"),
        ('{game: games/club.pdn, after: "9..."}', "game 1 has no move 9...: it has 2 moves"),
        ("{game: games/none.pdn}", "no game file games/none.pdn"),
    ],
)
def test_a_diagram_from_a_game_that_cannot_be_is_one_line(
    tmp_path: Path, position: str, message: str
) -> None:
    diagram = _diagram_project(tmp_path, '[GameType "22"]\n1. 22-18 11-14 *\n', position)
    with pytest.raises(DamaError) as error:
        load_diagram(diagram)
    assert str(error.value).startswith(f"{diagram}:1: ") and message in str(error.value)


def test_render_game_animates_a_range_of_moves(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "club.pdn"
    path.write_text('[GameType "22"]\n1. 22-18 11-14 2. 18x11 7x14 3. 21-18 14x21 *\n')
    out = tmp_path / "part.gif"
    result = run_cli("render-game", str(path), "--out", str(out), "--from", "2", "--to", "3")
    assert result.returncode == 0, result.stderr
    # The position before 2. 18x11, then after 18x11, 7x14 and 21-18: four frames.
    with Image.open(out) as image:
        assert image.n_frames == 4
        durations = []
        for index in range(image.n_frames):
            image.seek(index)
            durations.append(image.info["duration"])
    assert durations == [1200, 900, 900, 2500]
    again = tmp_path / "again.gif"
    run_cli("render-game", str(path), "--out", str(again), "--from", "2", "--to", "3")
    assert again.read_bytes() == out.read_bytes()  # the same input, the same bytes
