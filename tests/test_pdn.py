"""PDN games: read, checked move by move, written back; every broken file is one clear line.

The games come from tests/reference.py, a move generator that shares no code
with the engine: random legal games are written as PDN by the test itself
(captures sometimes in the short form, start and end only), and the reader
must replay them to the reference's own final positions.  Each error has a
hand-made file.
"""

from __future__ import annotations

import io
import itertools
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dama_diagrams.diagram.schema import load_diagram
from dama_diagrams.engine.games import Game, load_games, write_game
from dama_diagrams.engine.pdn import MAX_DEPTH, PdnError
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


# ------------------------------------------------------------------------------
# PDN input that breaks things on purpose: never a traceback, one located line per
# broken game, the games around it still read, and memory that stays flat for a game
# of any length (review items 3, 4, 5 and 11 of 2026-12-01).


GOOD = '[GameType "22"]\n1. 22-18 11-14 2. 18x11 7x14 1-1\n'
AFTER_GOOD = "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,10,12,14"
HUGE = "1" * 5000


def test_after_good_is_the_reference_s() -> None:
    fen = INITIAL
    for move in ("22-18", "11-14", "18x11", "7x14"):
        fen = _reference_play(fen, move)
    assert fen == AFTER_GOOD


@pytest.mark.parametrize(
    ("broken", "where", "message"),
    [
        ('[GameType "22"]\n1. 22-18 } *\n', "4:10", "} closes no comment {"),
        ('[GameType "22"]\n1. 22-18 ] *\n', "4:10", "] closes no tag ["),
        ('[GameType "22"]\n1. 22-18 ) *\n', "4:10", ") closes no variation"),
        ('[GameType "22"]\n1. 22-18 (1. 22-19 *\n', "4:10", "variation ( is never closed"),
        ('[GameType "22"]\n1. 22-18 @@ *\n', "4:10", "'@@' is not PDN"),
        ('[GameType "22"]\n( 1. 22-18 *\n', "4:1", "a variation ( must follow the move"),
        ("[GameType 22]\n1. 22-18 *\n", "3:1", 'a tag is written [Name "value"]'),
        ('[GameType "22"]\n1. 22-17 *\n', "4:4", "move 1. 22-17 is not legal"),
        (f'[GameType "22"]\n{HUGE}. 22-18 *\n', "4:1", "move number 111111… (5000 digits)"),
        ('[GameType "22"]\n1. 22-18 11-14 3. 23-19 *\n', "4:16", "move number 3. is out"),
        ('[GameType "20"]\n1. 32-28 *\n', "3", "GameType '20' is international draughts"),
        (
            '[GameType "22"]\n[GameType "20"]\n1. 22-18 *\n',
            "4",
            "a second GameType tag says '20', the first '22' (line 3): keep one",
        ),
    ],
)
def test_a_broken_game_between_two_good_ones_hides_neither(
    tmp_path: Path, broken: str, where: str, message: str
) -> None:
    path = tmp_path / "three.pdn"
    path.write_text(GOOD + broken + GOOD, encoding="utf-8")
    result = run_cli("game", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    (error,) = result.stderr.splitlines()
    assert error.startswith(f"{path}:{where}: game 2: ") and message in error, error
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and all(AFTER_GOOD in line for line in lines[:2]), lines
    assert lines[0].startswith(f"{path}:1: game 1 ") and " game 3 " in lines[1]
    assert lines[2] == "3 games: 2 checked, 1 refused"


def _nested(depth: int) -> str:
    opened = "".join("(1. 22-19 " if i % 2 == 0 else "(1. 22-18 " for i in range(depth))
    return f'[GameType "22"]\n1. 22-18 {opened}{")" * depth} *\n'


def test_variations_nest_deep_without_recursion(tmp_path: Path) -> None:
    path = tmp_path / "deep.pdn"
    path.write_text(_nested(2000), encoding="utf-8")
    (game,) = load_games(path)
    assert isinstance(game, Game) and game.length == 1
    depth, line = 0, game.moves
    while line[0].variations:
        (line,) = line[0].variations
        depth += 1
    assert depth == 2000
    again = tmp_path / "again.pdn"
    again.write_text(write_game(game), encoding="utf-8")  # written back, without recursion
    (reread,) = load_games(again)
    assert isinstance(reread, Game)


def test_variations_deeper_than_the_limit_are_refused_at_their_line(tmp_path: Path) -> None:
    path = tmp_path / "deeper.pdn"
    path.write_text(_nested(MAX_DEPTH + 1) + GOOD, encoding="utf-8")
    error, good = load_games(path, keep=False)
    assert isinstance(error, PdnError) and isinstance(good, Game)
    assert f"variations nest more than {MAX_DEPTH} deep" in str(error)
    assert str(error).startswith(f"{path}:2:{10 + 10 * MAX_DEPTH}: game 1: ")


@pytest.mark.parametrize(
    "args",
    [
        ("game", "--fen-after", HUGE),
        ("game", "--fen-after", "\uff11"),  # a fullwidth 1 is no ASCII digit
        ("render-game", "--out", "x.gif", "--from", HUGE),
        ("render-game", "--out", "x.gif", "--to", HUGE),
        ("render-game", "--out", "x.gif", "--game", HUGE),
    ],
)
def test_huge_move_numbers_on_the_command_line_are_one_line(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(GOOD, encoding="utf-8")
    result = run_cli(*args, str(path), cwd=tmp_path)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "is not" in result.stderr.splitlines()[-1] and len(result.stderr) < 600, result.stderr
    assert not (tmp_path / "x.gif").exists()


@pytest.mark.parametrize(
    "position",
    [f'{{game: games/g.pdn, after: "{HUGE}"}}', "{game: games/deep.pdn, after: 1}"],
)
def test_a_diagram_from_a_hostile_game_is_one_line(tmp_path: Path, position: str) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "g.pdn").write_text(GOOD, encoding="utf-8")
    (tmp_path / "games" / "deep.pdn").write_text(_nested(1000), encoding="utf-8")
    (tmp_path / "diagrams").mkdir()
    (tmp_path / "diagrams" / "d.yaml").write_text(f"position: {position}\nclaim: setup\n")
    result = run_cli("verify", "diagrams", cwd=tmp_path)
    assert "Traceback" not in result.stderr + result.stdout
    if "deep" in position:  # 1. 22-18 is played; its variations are checked
        assert result.returncode == 0, result.stdout + result.stderr
    else:
        assert result.returncode == 1
        assert "diagrams/d.yaml:1: '1111" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"\xef\xbb\xbf" + GOOD.encode(), "UTF-8 with a BOM"),
        (GOOD.encode("utf-16"), "UTF-16 with its BOM"),
        (b"\xfe\xff" + GOOD.encode("utf-16-be"), "UTF-16 big-endian"),
        (GOOD.replace("\n", "\r\n").encode(), "CRLF"),
    ],
)
def test_common_encodings_are_read(tmp_path: Path, data: bytes, name: str) -> None:
    path = tmp_path / "e.pdn"
    path.write_bytes(data)
    (game,) = load_games(path)
    assert isinstance(game, Game), (name, game)
    assert game.final.to_fen() == AFTER_GOOD


def test_utf16_without_a_bom_is_refused_not_misread(tmp_path: Path) -> None:
    path = tmp_path / "e.pdn"
    path.write_bytes(GOOD.encode("utf-16-le"))
    result = run_cli("game", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"{path}:1: the file holds NUL bytes: it looks like UTF-16 without a byte-order "
        "mark; save it as UTF-8"
    ]
    assert result.stdout.splitlines() == ["0 games: 0 checked, 0 refused; 1 file not read"]


def test_escape_sequences_in_tag_values_are_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "t.pdn"
    white = "\x1b[31mRED\x1b]0;title\x07\x1b[2J"
    path.write_text(f'[White "{white}"]\n[Black "\u202eevil"]\n{GOOD}', encoding="utf-8")
    result = run_cli("game", str(path))
    assert result.returncode == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\u202e" not in result.stdout
    assert "(\\x1b[31mRED\\x1b]0;title\\x07\\x1b[2J \u2013 \\u202eevil, 1-1)" in result.stdout


def test_a_line_longer_than_a_megabyte_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "l.pdn"
    path.write_text(GOOD + '[GameType "22"]\n' + "22-18 " * 200_000 + "\n", encoding="utf-8")
    good, error = load_games(path)
    assert isinstance(good, Game)
    assert str(error).startswith(f"{path}:4: game 2: the line is longer than 1 MB")


# --- mutations: nothing escapes but the reader's own error -----------------------------

_SAMPLE = (
    '[Event "Club"]\n[GameType "22"]\n[FEN "W:W21-32:B1-12"]\n\n'
    "{intro} 1. 22-18! 11-14 $2 2. 18x11 7x14 (2... 6x15 {other} 3. 21-18) 3. 21-18 "
    '14x21 4. 26x17 1/2-1/2\n\n[Bianco "R"]\n[GameType "22"]\n1. 23-19 *\n'
)
_PIECES = [
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    '"',
    "\\",
    "1-0",
    "2-0",
    "1/2-1/2",
    "*",
    "12.",
    "3...",
    "99999999999.",
    "23x23",
    "\x00",
    "\ufeff",
    "\r",
    "\n",
    "$",
    "x",
    "-",
    "%",
    ";",
    HUGE,
]


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = _SAMPLE
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["delete", "duplicate", "insert"]))
        if action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif action == "duplicate":
            text = text[:at] + text[at : at + draw(st.integers(1, 12))] * 2 + text[at + 12 :]
        else:
            piece = draw(st.sampled_from(_PIECES) | st.text(max_size=3))
            text = text[:at] + piece + text[at:]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_mutated(), raw=st.booleans())
def test_mutated_pdn_gives_games_or_located_errors_only(
    tmp_path_factory: pytest.TempPathFactory, text: str, raw: bool
) -> None:
    path = tmp_path_factory.mktemp("m") / "m.pdn"
    data = text.encode("utf-8", "surrogatepass")
    path.write_bytes(data[: len(data) // 2] + b"\xff\xfe" + data[len(data) // 2 :] if raw else data)
    for item in load_games(path, keep=True):  # anything else raised fails the test
        assert isinstance(item, Game | PdnError)
        if isinstance(item, PdnError):
            assert str(item).startswith(str(path)) and "\n" not in str(item)
        else:
            write_game(item)
    list(load_games(path, keep=False, wanted="2..."))


# --- memory and time -------------------------------------------------------------------


def test_a_junk_game_fails_at_once_with_little_memory(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdn"
    with path.open("w", encoding="utf-8") as file:
        file.write('[GameType "22"]\n')
        for _ in range(10_000_000 // 78):
            file.write(" ".join(["22-18"] * 13) + "\n")
        file.write(GOOD)
    tracemalloc.start()
    started = time.perf_counter()
    games = load_games(path, keep=False)
    error = next(games)
    first = time.perf_counter() - started
    rest = list(games)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert isinstance(error, PdnError) and str(error).startswith(f"{path}:2:7: game 1: ")
    assert first < 1.0, first  # the error comes before the rest of the game is read
    assert peak < 2 * 1024 * 1024, peak
    assert [type(g) for g in rest] == [Game]  # and the game after it still reads


def _shuffle(path: Path, fen: str, moves: int, end: str) -> Path:
    """A game where White's king goes 29-25-29 and Black's 4-8-4, ``moves`` half-moves."""
    with path.open("w", encoding="utf-8") as file:
        file.write(f'[GameType "22"]\n[FEN "{fen}"]\n')
        for n in range(1, moves // 2, 2):
            file.write(f"{n}. 29-25 4-8 {n + 1}. 25-29 8-4\n")
        file.write(f"{end}\n")
    return path


def _in_a_child(script: str, *args: str | Path) -> list[list[str]]:
    """The words of each line ``script`` prints, run in a fresh interpreter: a peak of its own."""
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True, check=True
    )
    return [line.split() for line in done.stdout.splitlines()]


_GAME_RSS = """
import resource, sys
from pathlib import Path
from dama_diagrams.engine.games import load_games
for path in sys.argv[1:]:
    (game,) = load_games(Path(path), keep=False, wanted="25000...")
    found = game.found.to_fen() if game.found else "-"
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(game.length, game.final.to_fen(), found, peak_kb)
"""


@pytest.mark.slow
@pytest.mark.long
def test_a_long_legal_game_streams_in_flat_memory(tmp_path: Path) -> None:
    """Two kings shuffle back and forth, 100,000 moves: it ends where it began.

    One process checks a game of 10,000 moves, then the long one: its largest
    resident size must not grow by 2 MB, 20 bytes a move.  (Measured with the
    process's own peak, not tracemalloc, which made the check five times slower.)
    """
    short = _shuffle(tmp_path / "short.pdn", "W:WK29:BK4", 10_000, "1-1")
    long = _shuffle(tmp_path / "long.pdn", "W:WK29:BK4", 100_000, "1-1")
    (*_, short_peak), (length, final, found, long_peak) = _in_a_child(_GAME_RSS, short, long)
    assert (length, final, found) == ("100000", "W:WK29:BK4", "W:WK29:BK4")
    assert int(long_peak) - int(short_peak) < 2 * 1024, (short_peak, long_peak)  # kB


_ANIMATION_RSS = """
import resource, sys
from pathlib import Path
from dama_diagrams.engine.games import game_at
from dama_diagrams.render.animation import game_frames, write_animation
game = game_at(Path(sys.argv[1]), 1)
count = write_animation(game_frames(game, last=int(sys.argv[2])), Path(sys.argv[3]))
print(count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


@pytest.mark.slow
@pytest.mark.long
def test_render_game_streams_its_frames(tmp_path: Path) -> None:
    """300 frames take about the memory of 20: before, each cost 0.8 MB."""
    from PIL import Image, ImageChops

    from dama_diagrams.engine.games import game_at
    from dama_diagrams.render.animation import game_frames
    from dama_diagrams.render.png import svg_to_png

    path = _shuffle(tmp_path / "long.pdn", "W:WK29,K30:BK4,1", 400, "201. 30-26 *")
    peaks = {}
    for frames in (20, 301):
        out = tmp_path / f"{frames}.gif"
        ((count, peak),) = _in_a_child(_ANIMATION_RSS, path, str(frames - 1), out)
        assert int(count) == frames
        peaks[frames] = int(peak)
    assert peaks[301] - peaks[20] < 30 * 1024, peaks  # kB: far below 280 frames at 0.8 MB each
    with Image.open(tmp_path / "301.gif") as gif:
        assert gif.n_frames == 301
        gif.seek(300)
        last = gif.convert("RGB")
    # The last frame, put together from the changes of every frame before it, is
    # the picture of the position after 300 moves (the start again) as drawn directly.
    game = game_at(path, 1)
    *_, final = game_frames(game, first=299, last=300)
    assert game.positions[300].to_fen() == "W:WK29,K30:B1,K4"
    png = svg_to_png(final.picture.svg)
    expected = Image.open(io.BytesIO(png)).convert("RGB")
    difference = ImageChops.difference(last, expected).convert("L")
    assert sum(difference.histogram()[40:]) < 0.01 * 400 * 400  # only palette rounding
