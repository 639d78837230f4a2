"""Every diagram the project ships, made again in the board editor from an empty board.

For each file of ``diagrams/``, a real Chromium drives the editor page as an
author would, from what the file says: the board set up square by square with
the palette (or the moves played from the start, or a game's position chosen
in the game form), the move chosen in the list (or played on the board when
it is not legal), the claim chosen among those the engine offers, the steps
it rules out ticked, the display options, the title, the caption and the
exercise typed in, then *Save*.  The file the editor wrote must give the same
diagram as the shipped one: the same board, claim, moves, rule, reason, display
options, words, exercise and moves from the start.  The shipped files are the
independent answer: they were written by hand and checked against the FID rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.diagram._yaml import compose_yaml
from dama_diagrams.diagram.schema import Diagram, load_diagram
from tests.conftest import PageOpener
from tests.test_editor_api import serving, shipped_project

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(path.stem for path in (ROOT / "diagrams").glob("*.yaml"))
PIECE = {(True, False): "white man", (True, True): "white king"}
PIECE |= {(False, False): "black man", (False, True): "black king"}


@pytest.fixture(scope="module")
def editor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The editor of a project with the games and no diagram yet."""
    project = shipped_project(tmp_path_factory.mktemp("made"), diagrams=False)
    with serving(project) as port:
        yield f"http://127.0.0.1:{port}/", project


@pytest.fixture
def page(new_page: PageOpener, editor: tuple[str, Path]) -> Iterator[Any]:
    opened = new_page(viewport={"width": 1280, "height": 900})
    opened.goto(editor[0])
    opened.wait_for_selector("#moves button")
    yield opened
    assert new_page.errors == []


def written_position(name: str) -> object:
    """How the shipped file gives its board: a FEN, or a mapping (moves, a game, pieces)."""
    text = (ROOT / "diagrams" / f"{name}.yaml").read_bytes()
    root = compose_yaml(text.decode("utf-8"))
    assert isinstance(root.data, dict)
    return plain(root.data["position"])


def plain(node: Any) -> object:
    """A composed YAML node as plain data: texts, numbers, lists and mappings."""
    data = node.data
    if isinstance(data, dict):
        return {key: plain(value) for key, value in data.items()}
    if isinstance(data, list):
        return [plain(item) for item in data]
    return data


def wait_for_fen(page: Any, fen: str) -> None:
    page.wait_for_function("fen => document.querySelector('#fen').value === fen", arg=fen)


def set_up_board(page: Any, diagram: Diagram) -> None:
    """An empty board, then each piece put with the palette, then the side to move."""
    page.click("#empty-board")
    wait_for_fen(page, "W:W:B")
    pieces = diagram.position.pieces()
    by_kind: dict[str, list[int]] = {}
    for square, piece in sorted(pieces.items()):
        kind = PIECE[(piece.color.value == "white", piece.king)]
        by_kind.setdefault(kind, []).append(square)
    for kind, squares in by_kind.items():
        page.check(f'input[name="palette"][value="{kind}"]')
        for square in squares:
            page.click(f'#board [data-square="{square}"]')
    if diagram.position.turn.value == "black":
        page.click("#turn")
    wait_for_fen(page, diagram.position.to_fen())


def play_from_the_start(page: Any, moves: list[str]) -> None:
    """Each move chosen in the list and played on the board: the moves are kept."""
    for move in moves:
        page.locator("#moves button", has_text=move).first.click()
        page.wait_for_function(
            "move => document.querySelector('#chosen').textContent.includes(move)", arg=move
        )
        page.click("#play-move")
        page.wait_for_function(
            "move => document.querySelector('#origin-now').textContent.includes(move)", arg=move
        )


def choose_game_position(page: Any, origin: dict[str, object]) -> None:
    page.select_option("#game-file", str(origin["game"]))
    page.fill("#game-number", str(origin.get("number", 1)))
    page.click("#game-read")
    page.wait_for_function("() => document.querySelector('#game-after').options.length > 1")
    page.select_option("#game-after", str(origin.get("after", "")))
    page.click("#game-show")
    page.wait_for_function(
        "() => document.querySelector('#origin-now').textContent.includes('game')"
    )


def choose_move(page: Any, diagram: Diagram) -> None:
    """The move in the list of legal moves, or played square by square when it is not legal."""
    move = diagram.move if diagram.move is not None else diagram.moves[0]
    shown = str(move)
    if diagram.claim.value == "illegal":
        page.check('input[name="mode"][value="play"]')
        for square in move.squares:
            page.click(f'#board [data-square="{square}"]')
    else:
        page.locator("#moves button").filter(has_text=shown).first.click()
    page.wait_for_function(
        "move => document.querySelector('#chosen').textContent.includes(move)", arg=shown
    )


def choose_claim(page: Any, diagram: Diagram) -> None:
    wanted = {
        "claim": diagram.claim.value,
        "move": "" if diagram.move is None else str(diagram.move),
        "moves": " ".join(map(str, diagram.moves)),
        "rule": "" if diagram.rule is None else diagram.rule.value,
        "reason": "" if diagram.reason is None else diagram.reason.value,
    }
    found = page.wait_for_function(
        """wanted => {
            const options = [...document.querySelectorAll('#claim option')];
            const fits = o => Object.keys(wanted).every(k => o.dataset[k] === wanted[k]);
            const hit = options.find(fits);
            return hit ? hit.value : null;
        }""",
        arg=wanted,
    ).json_value()
    page.select_option("#claim", found)


def fill_the_rest(page: Any, diagram: Diagram) -> None:
    if diagram.claim.value == "capture":
        for step in diagram.rejected:
            page.check(f'#reject-steps input[value="{step}"]')
    defaults = type(diagram.show)()
    if diagram.show.numbers != defaults.numbers:
        page.select_option("#show-numbers", diagram.show.numbers)
    for key in ("arrows", "turn", "flip", "steps"):
        if getattr(diagram.show, key) != getattr(defaults, key):
            page.set_checked(f"#show-{key}", getattr(diagram.show, key))
    page.fill("#title", diagram.title or "")
    page.fill("#caption", diagram.caption or "")
    if diagram.exercise is not None:
        page.check("#is-exercise")
        page.select_option("#ask", diagram.exercise.ask.value)
        page.fill("#question", diagram.exercise.question)


def meaning(diagram: Diagram) -> dict[str, object]:
    """What a diagram says, whatever its file's name and layout."""
    return {
        "position": diagram.position.to_fen(),
        "claim": diagram.claim,
        "move": diagram.move,
        "moves": diagram.moves,
        "rule": diagram.rule,
        "rejected": diagram.rejected,
        "reason": diagram.reason,
        "show": diagram.show,
        "title": diagram.title,
        "caption": diagram.caption,
        "history": diagram.history,
        "exercise": diagram.exercise,
    }


@pytest.mark.parametrize("name", FILES)
def test_the_editor_makes_the_shipped_diagram_from_an_empty_board(
    page: Any, editor: tuple[str, Path], name: str
) -> None:
    shipped = load_diagram(ROOT / "diagrams" / f"{name}.yaml")
    written = written_position(name)
    if isinstance(written, dict) and "moves" in written:
        play_from_the_start(page, [str(move) for move in written["moves"]])
    elif isinstance(written, dict) and "game" in written:
        choose_game_position(page, written)
    else:
        set_up_board(page, shipped)
    wait_for_fen(page, shipped.position.to_fen())
    if shipped.move is not None or (shipped.moves and shipped.claim.value != "free-choice"):
        choose_move(page, shipped)
    choose_claim(page, shipped)
    fill_the_rest(page, shipped)
    page.wait_for_function("() => document.querySelector('#preview-summary').textContent !== ''")
    page.fill("#name", f"made-{name}")
    page.click("#save")
    page.wait_for_selector("#save-result:not(:empty)")
    assert page.inner_text("#save-error") == ""
    made = load_diagram(editor[1] / "diagrams" / f"made-{name}.yaml")
    assert meaning(made) == meaning(shipped)


@pytest.mark.parametrize(
    ("after", "said"),
    [
        ("5.", "as game 1 of games/example.pdn, after move 5."),  # White's fifth: one dot
        ("5...", "as game 1 of games/example.pdn, after move 5..."),  # Black's: three
        ("", "as the end of game 1 of games/example.pdn."),
    ],
)
def test_the_origin_line_names_the_games_move_as_written(page: Any, after: str, said: str) -> None:
    choose_game_position(page, {"game": "games/example.pdn", "after": after})
    assert page.inner_text("#origin-now") == f"The file gives this board {said}"


@pytest.fixture(scope="module")
def shipped_editor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The editor of a copy of the project's diagrams and games."""
    project = shipped_project(tmp_path_factory.mktemp("shipped"))
    with serving(project) as port:
        yield f"http://127.0.0.1:{port}/", project


@pytest.mark.parametrize("name", FILES)
def test_an_opened_file_saved_in_the_page_keeps_its_bytes(
    new_page: PageOpener, shipped_editor: tuple[str, Path], name: str
) -> None:
    """Opened, previewed and saved with no change, by the page itself: not one byte moves."""
    url, project = shipped_editor
    path = project / "diagrams" / f"{name}.yaml"
    before = path.read_bytes()
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(url)
    page.wait_for_selector("#moves button")
    page.select_option("#open-name", name)
    page.click("#open-form button")
    page.wait_for_function(
        "name => document.querySelector('#status').textContent.includes(name)", arg=name
    )
    page.wait_for_function("() => document.querySelector('#preview-summary').textContent !== ''")
    assert page.inner_text("#preview-error") == ""
    page.click("#save")
    page.wait_for_selector("#save-result:not(:empty)")
    assert page.inner_text("#save-error") == ""
    assert "unchanged" in page.inner_text("#save-result")
    assert path.read_bytes() == before
    assert new_page.errors == []
