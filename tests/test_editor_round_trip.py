"""The editor edits an opened file, it does not rewrite it: what the author did not touch stays.

Each of the project's own diagram files is opened and saved back through a
real editor server on 127.0.0.1 (a copy of the project, so the checkout is
never written): the bytes must come back unchanged, whether the request sends
every field the open gave or only those the page edits today.  Then edits by
hand: a caption changed in a diagram whose position is given as moves from
the start keeps those moves, its comment and its move; an edit that would
lose a key of the file (moves from the start, a rejected quiet move, both
steps of a man, the display options) is refused and the file left as it was.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.diagram import verify_paths
from dama_diagrams.engine.move import Move
from dama_diagrams.engine.position import Position
from dama_diagrams.site.editor.checks import EditorError
from dama_diagrams.site.editor.drafts import draft_from_json, read_diagram
from dama_diagrams.site.editor.yaml_text import draft_of, file_text
from tests.test_editor_api import serving, shipped_project

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(path.name for path in (ROOT / "diagrams").glob("*.yaml"))
PAGE_SENDS = ("position", "origin", "claim", "move", "moves", "rule", "rejected", "reason", "show")
"""The fields the page sends today besides title, caption and exercise (editor.js, diagram())."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """A copy of the project's diagrams, games and mkdocs.yml, and its editor on a free port."""
    project = shipped_project(tmp_path_factory.mktemp("round-trip"))
    with serving(project) as port:
        yield port, project


def post(port: int, path: str, data: object) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    try:
        connection.request("POST", path, body=json.dumps(data).encode(), headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def opened(port: int, name: str) -> dict[str, Any]:
    status, answer = post(port, "/api/open", {"name": name})
    assert status == 200, answer
    return answer


def save(port: int, name: str, diagram: dict[str, Any], digest: str) -> tuple[int, dict[str, Any]]:
    return post(port, "/api/save", {"name": name, "diagram": diagram, "opened": digest})


def played(*moves: str) -> str:
    """The board after ``moves`` from the start, as the engine plays them."""
    position = Position.initial()
    for move in moves:
        position = position.play(Move.parse(move))
    return position.to_fen()


def as_the_page_sends(fields: dict[str, Any]) -> dict[str, Any]:
    sent = {key: fields[key] for key in PAGE_SENDS}
    sent.update(title=fields["title"] or "", caption=fields["caption"] or "")
    sent["exercise"] = fields["exercise"]
    sent["note"] = ""  # a source note goes only into a new file
    return sent


# == Opened and saved unchanged: the same bytes ===============================


@pytest.mark.parametrize("file", FILES)
def test_an_opened_file_saved_unchanged_keeps_its_bytes(
    server: tuple[int, Path], file: str
) -> None:
    port, project = server
    path = project / "diagrams" / file
    before = path.read_bytes()
    name = path.stem
    answer = opened(port, name)
    for diagram in (answer["diagram"], as_the_page_sends(answer["diagram"])):
        status, saved = save(port, name, diagram, answer["opened"])
        assert status == 200, saved
        assert saved["written"] is False and saved["yaml"] == before.decode("utf-8")
        assert path.read_bytes() == before


@pytest.mark.parametrize("file", FILES)
def test_the_fields_with_their_origin_give_the_same_text(file: str) -> None:
    """draft_of with the file's text names how it gives the position; sent back, nothing moves."""
    text = (ROOT / "diagrams" / file).read_text(encoding="utf-8")
    fields = draft_of(read_diagram(text, file.removesuffix(".yaml")), text)
    assert "origin" in fields
    assert file_text(draft_from_json({"diagram": fields}), text) == text


def test_the_origin_is_how_the_file_gives_the_position() -> None:
    def origin(name: str) -> object:
        text = (ROOT / "diagrams" / f"{name}.yaml").read_text(encoding="utf-8")
        return draft_of(read_diagram(text, name), text)["origin"]

    assert origin("notation-example") == {"moves": ["22-18", "11-14", "18x11"]}
    assert origin("example-shot") == {"game": "games/example.pdn", "after": "5."}
    assert origin("board-numbers") == {"turn": "white", "white": [], "black": []}
    assert origin("man-move") is None  # a FEN


# == Edits keep what the author did not touch =================================


def test_a_new_caption_keeps_the_moves_the_comment_and_the_move(server: tuple[int, Path]) -> None:
    port, project = server
    path = project / "diagrams" / "notation-example.yaml"
    before = path.read_text().splitlines()
    answer = opened(port, "notation-example")
    caption = "After {sequence}, Black takes back with {move}."
    for diagram in (answer["diagram"], as_the_page_sends(answer["diagram"])):
        status, saved = save(
            port, "notation-example", {**diagram, "caption": caption}, answer["opened"]
        )
        assert status == 200 and saved["written"] is True, saved
        after = path.read_text().splitlines()
        changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
        assert changed == [(before[-1], f'caption: "{caption}"')]
        assert after[0].startswith("# 1. 22-18 11-14 2. 18x11 7x14")
        assert "position: {moves: [22-18, 11-14, 18x11]}" in after
        assert "move: 7x14" in after
        assert verify_paths([path]).ok
        path.write_text("\n".join(before) + "\n")
        answer = opened(port, "notation-example")


def test_a_new_board_does_not_silently_drop_moves_from_the_start(server: tuple[int, Path]) -> None:
    """E17: one click in a {moves} diagram must not turn it into a FEN behind the author's back."""
    port, project = server
    path = project / "diagrams" / "notation-example.yaml"
    before = path.read_bytes()
    answer = opened(port, "notation-example")
    fields = as_the_page_sends(answer["diagram"])
    del fields["origin"]  # a request that does not say what becomes of the moves
    clicked = {**fields, "position": played("22-18", "11-14")}  # one move less: another board
    assert clicked["position"] != fields["position"]
    for route in ("/api/preview", "/api/save"):
        data = {"name": "notation-example", "diagram": clicked, "opened": answer["opened"]}
        status, refused = post(port, route, data)
        assert status == 422, refused
        assert "moves from the start" in refused["error"]
        assert "{moves: [22-18, 11-14, 18x11]}" in refused["error"]
    assert path.read_bytes() == before
    # said on purpose (origin: null), the new board is written as a FEN
    status, previewed = post(
        port,
        "/api/preview",
        {
            "name": "notation-example",
            "diagram": {
                **clicked,
                "origin": None,
                "claim": "setup",
                "move": None,
                "caption": "White to move.",
            },
            "opened": answer["opened"],
        },
    )
    assert status == 200, previewed
    assert 'position: "W:' in previewed["yaml"] and "moves:" not in previewed["yaml"]
    assert path.read_bytes() == before  # a preview writes nothing


def test_moves_from_the_start_that_give_another_board_are_refused() -> None:
    text = (ROOT / "diagrams" / "notation-example.yaml").read_text(encoding="utf-8")
    fields = draft_of(read_diagram(text, "notation-example"), text)
    for origin, board in (
        ({"moves": ["22-18", "11-14"]}, fields["position"]),  # other moves, the file's board
        (fields["origin"], played("22-18", "11-14")),  # the file's moves, another board
    ):
        wrong = {**fields, "origin": origin, "position": board}
        with pytest.raises(EditorError, match=r"origin gives the position .*not the board"):
            file_text(draft_from_json({"diagram": wrong}), text)


@pytest.mark.parametrize(
    ("file", "left_out", "said"),
    [
        ("capture-compulsory", "rejected", "rejected: [24-20] would be lost"),
        ("man-move", "moves", "moves: [22-18, 22-19] would be lost"),
        ("priority-king-first", "rule", "rule: king-first would be lost"),
    ],
)
def test_the_files_own_claim_sent_without_one_of_its_keys_is_refused(
    server: tuple[int, Path], file: str, left_out: str, said: str
) -> None:
    port, project = server
    path = project / "diagrams" / f"{file}.yaml"
    before = path.read_bytes()
    answer = opened(port, file)
    diagram = {key: value for key, value in answer["diagram"].items() if key != left_out}
    status, refused = save(port, file, {**diagram, "title": "Edited"}, answer["opened"])
    assert status == 422 and said in refused["error"], refused
    assert path.read_bytes() == before


def test_a_rejected_quiet_move_and_both_steps_of_a_man_survive_a_caption_edit(
    server: tuple[int, Path],
) -> None:
    port, project = server
    for file, kept in (
        ("capture-compulsory", "rejected: [24-20]   # a quiet move is not allowed"),
        ("man-move", "moves: [22-18, 22-19]   # both forward squares"),
        ("king-moves", "moves: [18-13, 18-14, 18-21, 18-22]"),
    ):
        path = project / "diagrams" / f"{file}.yaml"
        before = path.read_text()
        answer = opened(port, file)
        diagram = {**as_the_page_sends(answer["diagram"]), "title": "Edited"}
        status, saved = save(port, file, diagram, answer["opened"])
        assert status == 200 and saved["written"] is True, saved
        assert kept in path.read_text() and 'title: "Edited"' in path.read_text()
        assert verify_paths([path]).ok
        path.write_text(before)


def test_show_is_kept_when_left_out_and_set_when_sent(server: tuple[int, Path]) -> None:
    port, project = server
    path = project / "diagrams" / "board-numbers.yaml"
    before = path.read_text()
    answer = opened(port, "board-numbers")
    assert answer["diagram"]["show"] == {"numbers": "all"}
    page = as_the_page_sends(answer["diagram"])  # no show: the page cannot edit it yet
    status, saved = save(port, "board-numbers", {**page, "title": "Numbers"}, answer["opened"])
    assert status == 200, saved
    assert "show: {numbers: all}\n" in path.read_text()
    answer = opened(port, "board-numbers")
    flipped = {**page, "title": "Numbers", "show": {"numbers": "all", "flip": True}}
    status, saved = save(port, "board-numbers", flipped, answer["opened"])
    assert status == 200, saved
    assert "show: {numbers: all, flip: true}\n" in path.read_text()
    assert verify_paths([path]).ok
    path.write_text(before)


def test_a_board_given_as_a_mapping_is_written_as_one(server: tuple[int, Path]) -> None:
    port, project = server
    path = project / "diagrams" / "board-numbers.yaml"
    before = path.read_text()
    answer = opened(port, "board-numbers")
    page = {**as_the_page_sends(answer["diagram"]), "position": "W:WK22,30:B5"}
    del page["origin"]  # as the page sends a mapping's board changed by hand: "as written"
    status, saved = save(port, "board-numbers", page, answer["opened"])
    assert status == 200, saved
    text = path.read_text()
    assert "position: {turn: white, white: [K22, 30], black: [5]}\n" in text
    assert text.startswith("# An empty board") and "show: {numbers: all}" in text
    assert verify_paths([path]).ok
    path.write_text(before)


def test_a_new_file_may_give_its_position_as_moves_from_the_start(
    server: tuple[int, Path],
) -> None:
    port, project = server
    diagram = {
        "position": played("22-18"),
        "origin": {"moves": ["22-18"]},
        "claim": "setup",
        "title": "After 22-18",
        "caption": "The position after {sequence}.",
    }
    status, saved = post(port, "/api/save", {"name": "after-22-18", "diagram": diagram})
    assert status == 200, saved
    path = project / "diagrams" / "after-22-18.yaml"
    comment, rest = path.read_text().split("\n", 1)
    assert comment.startswith("# ") and "initial" not in comment  # the engine's verdict
    assert rest.startswith("position: {moves: [22-18]}\nclaim: setup\n")
    assert verify_paths([path]).ok
    path.unlink()


def test_a_new_file_starts_with_its_source_note_and_the_engines_verdict(
    server: tuple[int, Path],
) -> None:
    """As find --yaml writes: why the file holds is the first thing its reader sees."""
    port, project = server
    diagram = {
        "position": "W:W22,24:B18",
        "claim": "capture",
        "move": "22x13",
        "rejected": ["24-20"],
        "note": "FID rules, art. 6.2",
    }
    status, saved = post(port, "/api/save", {"name": "noted", "diagram": diagram})
    assert status == 200, saved
    lines = (project / "diagrams" / "noted.yaml").read_text().splitlines()
    assert lines[0] == "# FID rules, art. 6.2"
    # the capture 22x13 is the only legal move; 24-20 is ruled out by it
    assert lines[1].startswith("# ") and "22x13" in lines[1] and "24-20" in lines[1]
    assert lines[2] == 'position: "W:W22,24:B18"'
    assert verify_paths([project / "diagrams" / "noted.yaml"]).ok
    broken = {**diagram, "note": "FID rules\n# claim: setup"}
    status, refused = post(port, "/api/save", {"name": "noted-2", "diagram": broken})
    assert status == 422 and "line breaks" in refused["error"]
    assert not (project / "diagrams" / "noted-2.yaml").exists()
    (project / "diagrams" / "noted.yaml").unlink()
