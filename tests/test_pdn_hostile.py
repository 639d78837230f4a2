"""PDN input that breaks things on purpose: never a traceback, one located line per
broken game, the games around it still read, and memory that stays flat for a game
of any length (review items 3, 4, 5 and 11 of 2026-12-01)."""

from __future__ import annotations

import io
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dama_diagrams.engine.games import Game, load_games, write_game
from dama_diagrams.engine.pdn import MAX_DEPTH, PdnError
from tests.conftest import run_cli
from tests.test_pdn import INITIAL, _reference_play

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
