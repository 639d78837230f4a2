"""The board editor's server without a browser: its checks, the engine's answers, its saves.

Most tests call :meth:`Editor.respond` directly (data in, data out); those
about the HTTP side (sizes, a foreign ``Host``) talk to one real server on
127.0.0.1, started once for the module.  The positions and their answers come
from the FID rules (Art. 6.9: ``W:WK30:B10,12,18,K20,K26,27``, only
30x21x14x5 is legal, by rule 4, king met first) and from the board itself
(squares 1-32, twelve pieces a side, White's men crowned on 1-4).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from dama_diagrams.diagram import verify_paths
from dama_diagrams.site import SiteError
from dama_diagrams.site.editor import Editor, listen_editor
from dama_diagrams.site.editor.checks import MAX_BODY

ROOT = Path(__file__).resolve().parent.parent
PORT = 8010
HEADERS = {"Host": f"127.0.0.1:{PORT}", "Content-Type": "application/json"}
RULE_4 = "W:WK30:B10,12,18,K20,K26,27"
"""FID Art. 6.9 (ordering): two captures of three pieces and one king each."""


def shipped_project(folder: Path, *, diagrams: bool = True) -> Path:
    """A copy of the project's games and mkdocs.yml, and of its 37 diagrams (else none)."""
    project = folder / "project"
    if diagrams:
        shutil.copytree(ROOT / "diagrams", project / "diagrams")
    else:
        (project / "diagrams").mkdir(parents=True)
    shutil.copytree(ROOT / "games", project / "games")
    shutil.copy(ROOT / "mkdocs.yml", project)
    return project


def small_project(folder: Path) -> Path:
    """A project with three diagrams: enough to open, edit and save beside."""
    project = folder / "project"
    (project / "diagrams").mkdir(parents=True)
    for name in ("priority-king-first", "man-move", "initial-position"):
        shutil.copy(ROOT / "diagrams" / f"{name}.yaml", project / "diagrams")
    shutil.copy(ROOT / "mkdocs.yml", project)
    return project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return small_project(tmp_path)


@pytest.fixture
def editor(project: Path) -> Editor:
    return Editor(project, PORT)


def call(
    editor: Editor, path: str, data: object, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    response = editor.respond("POST", path, headers or HEADERS, body)
    assert response.content_type.startswith("application/json")
    return response.status, json.loads(response.body)


def rule_4_diagram(**changes: object) -> dict[str, object]:
    fields: dict[str, object] = {
        "position": RULE_4,
        "claim": "priority",
        "move": "30x21x14x5",
        "rule": "king-first",
        "rejected": ["30x23x16x7"],
        "title": "King met first",
        "caption": "{move} meets its king sooner than {rejected}.",
    }
    return {**fields, **changes}


def files_of(project: Path) -> list[str]:
    return sorted(path.name for path in (project / "diagrams").iterdir())


# == Names ====================================================================


@pytest.mark.parametrize(
    "name",
    ["../x", "a/b", ".hidden", "a" * 65, "a\x00b", "", "Capital", "x.yaml", "-lead", "a b", 7],
)
def test_a_hostile_name_is_refused_and_nothing_is_written(
    editor: Editor, project: Path, name: object
) -> None:
    before = sorted(p.relative_to(project.parent) for p in project.parent.rglob("*"))
    status, answer = call(editor, "/api/save", {"name": name, "diagram": rule_4_diagram()})
    assert status == 400
    assert "name" in answer["error"]
    assert sorted(p.relative_to(project.parent) for p in project.parent.rglob("*")) == before


def test_a_good_name_is_saved_inside_diagrams_and_verifies(editor: Editor, project: Path) -> None:
    status, answer = call(editor, "/api/save", {"name": "my-rule-4", "diagram": rule_4_diagram()})
    assert status == 200, answer
    assert answer["saved"] == "diagrams/my-rule-4.yaml"
    assert "update-translations" in answer["message"]
    report = verify_paths([project / "diagrams"])
    assert report.ok, [str(f.error) for f in report.failures]
    assert "my-rule-4.yaml" in files_of(project)
    assert not [name for name in files_of(project) if name.endswith(".tmp")]


# == Who may ask ==============================================================


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "evil.example:8010", "Content-Type": "application/json"}, 403),
        ({"Host": "127.0.0.1:9999", "Content-Type": "application/json"}, 403),
        ({**HEADERS, "Origin": "http://evil.example"}, 403),
        ({**HEADERS, "Origin": "null"}, 403),
        ({**HEADERS, "Origin": f"http://127.0.0.1:{PORT + 1}"}, 403),
        ({**HEADERS, "Sec-Fetch-Site": "cross-site"}, 403),
        ({"Host": f"127.0.0.1:{PORT}", "Content-Type": "text/plain"}, 415),
        ({"Host": f"127.0.0.1:{PORT}", "Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({**HEADERS, "Origin": f"http://127.0.0.1:{PORT}"}, 200),
        ({**HEADERS, "Host": f"localhost:{PORT}", "Origin": f"http://localhost:{PORT}"}, 200),
    ],
)
def test_only_the_editors_own_page_may_post(
    editor: Editor, project: Path, headers: dict[str, str], status: int
) -> None:
    got, answer = call(editor, "/api/save", {"name": "x", "diagram": rule_4_diagram()}, headers)
    assert got == status, answer
    assert ("x.yaml" in files_of(project)) == (status == 200)


def test_a_foreign_host_cannot_even_read_the_page(editor: Editor) -> None:
    """DNS rebinding: evil.example resolving to 127.0.0.1 still names another host."""
    response = editor.respond("GET", "/", {"Host": "evil.example:8010"}, b"")
    assert response.status == 403
    assert b"127.0.0.1" in response.body
    assert editor.respond("GET", "/", {"Host": f"127.0.0.1:{PORT}"}, b"").status == 200


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b"\xff\xfe", "UTF-8"),
        (b"[" * 100_000, "JSON"),
    ],
)
def test_broken_json_is_a_400_with_a_message(editor: Editor, body: bytes, words: str) -> None:
    status, answer = call(editor, "/api/position", body)
    assert status == 400
    assert words in answer["error"]


def test_unknown_addresses_and_wrong_types_are_4xx(editor: Editor) -> None:
    assert call(editor, "/api/nothing", {})[0] == 404
    assert call(editor, "/api/position", {"position": 5})[0] == 400
    status, answer = call(editor, "/api/save", {"name": "x", "diagram": {"position": [1]}})
    assert status == 400 and "text" in answer["error"]


# == The engine's answers =====================================================


def test_square_33_is_off_the_board(editor: Editor) -> None:
    status, answer = call(editor, "/api/position", {"position": "W:W21:B1", "cycle": 33})
    assert status == 422 and "off the board" in answer["error"]
    status, answer = call(editor, "/api/position", {"position": "W:W33:B1"})
    assert status == 422 and "off the board" in answer["error"]


def test_a_thirteenth_piece_is_refused_with_the_engines_message(editor: Editor) -> None:
    twelve = "W:W17-28:B1"  # 12 white men, square 13 empty
    status, answer = call(editor, "/api/position", {"position": twelve, "cycle": 13})
    assert status == 200
    assert answer["squares"]["13"] == "black man"  # white man and white king skipped
    assert len(answer["refused"]) == 2
    assert all("at most 12" in refusal for refusal in answer["refused"])
    status, answer = call(editor, "/api/position", {"position": "W:W17-29:B1"})
    assert status == 422 and "13 pieces" in answer["error"]


def test_a_man_on_its_crowning_row_is_refused(editor: Editor) -> None:
    status, answer = call(editor, "/api/position", {"position": "W:W30:B20", "cycle": 2})
    assert status == 200
    assert answer["squares"]["2"] == "white king"
    assert len(answer["refused"]) == 1 and "crowning row" in answer["refused"][0]
    status, answer = call(editor, "/api/position", {"position": "W:W2:B20"})
    assert status == 422 and "crowning row" in answer["error"]
    # Black's men are crowned on 29-32: a black man on 30 is refused, a black king kept.
    status, answer = call(editor, "/api/position", {"position": "W:WK30:B20", "cycle": 30})
    assert answer["squares"]["30"] == "black king", answer
    assert "crowning row" in answer["refused"][0]


def test_a_click_cycles_empty_white_man_white_king_black_man_black_king(editor: Editor) -> None:
    seen, position = [], "W:W30:B5"
    for _ in range(5):
        _, answer = call(editor, "/api/position", {"position": position, "cycle": 18})
        position = answer["fen"]
        seen.append(answer["squares"].get("18", "empty"))
    assert seen == ["white man", "white king", "black man", "black king", "empty"]


def test_the_rule_4_position_is_explained_as_the_fid_rules_say(editor: Editor) -> None:
    status, answer = call(editor, "/api/position", {"position": RULE_4})
    assert status == 200
    assert answer["legal"] == ["30x21x14x5"]
    table = answer["explain"]
    assert "<table>" in table
    rejected_row = table[table.index("30x23x16x7") :]
    assert "rule 4 (king met first)" in rejected_row
    assert answer["game_over"] is None


def test_the_claims_offered_are_those_the_engine_confirms(editor: Editor) -> None:
    status, answer = call(editor, "/api/position", {"position": RULE_4, "move": "30x21x14x5"})
    assert status == 200
    assert answer["claims"][0]["claim"] == "priority"  # offered first: it says the most
    claims = {(c["claim"], c.get("rule")): c for c in answer["claims"]}
    assert claims[("priority", "king-first")]["rejected"] == ["30x23x16x7"]
    assert ("capture", None) in claims and ("multi-capture", None) in claims
    assert ("move", None) not in claims  # a capture is no plain move
    assert ("priority", "most-pieces") not in claims  # both take three pieces
    _, answer = call(editor, "/api/position", {"position": RULE_4, "move": "30x23x16x7"})
    assert [(c["claim"], c["reason"]) for c in answer["claims"]] == [("illegal", "priority")]


def test_game_over_is_said_and_offered(editor: Editor) -> None:
    _, answer = call(editor, "/api/position", {"position": "B:W28,31:B24"})  # Black is blocked
    assert answer["game_over"] == {"winner": "white", "reason": "blocked"}
    first = answer["claims"][0]  # the claim that says most comes first
    assert {"claim": "game-over", "reason": "blocked"}.items() <= first.items()
    assert [claim["claim"] for claim in answer["claims"]] == ["game-over", "setup"]


@pytest.mark.parametrize(
    ("squares", "status", "move"),
    [
        ([30, 5], "move", "30x21x14x5"),
        ([30, 21], "more", None),
        ([30, 21, 14, 5], "move", "30x21x14x5"),
        ([30, 7], "illegal", "30x23x16x7"),  # a complete capture, which rule 4 rules out
        ([30, 23, 7], "illegal", "30x23x16x7"),
        ([30, 23], "more", None),  # E4: a ruled-out capture goes on, landing by landing
        ([30, 23, 16], "more", None),
        ([30, 23, 16, 7], "illegal", "30x23x16x7"),
        ([30, 15], "illegal", "30x15"),  # 15 is on no diagonal of 30
        ([30, 26], "illegal", "30-26"),
    ],
)
def test_clicks_resolve_to_the_legal_move_or_say_why_not(
    editor: Editor, squares: list[int], status: str, move: str | None
) -> None:
    got, answer = call(editor, "/api/resolve", {"position": RULE_4, "squares": squares})
    assert got == 200, answer
    assert answer["status"] == status
    if move is not None:
        assert answer["move"] == move
    if status == "illegal":
        assert "not legal" in answer["message"]


def test_a_ruled_out_capture_clicked_landing_by_landing_says_which_rule_in_words(
    editor: Editor,
) -> None:
    """The editor review's position: 22x13x6 takes two men, as 27x20x11 does with the king.

    Rule 2 (capture with a king) rules 22x13x6 out; clicked 22, 13, 6, the editor
    follows it to its end and names the rule in words, not by its id (E4, E22).
    """
    position = "W:W19,22,K27,29,31,32:B10,15,18,23"
    said = call(editor, "/api/resolve", {"position": position, "squares": [22, 13]})[1]
    assert said["status"] == "more" and said["moves"] == ["22x13x6"]
    assert "rule it out" in said["message"]
    said = call(editor, "/api/resolve", {"position": position, "squares": [22, 13, 6]})[1]
    assert said["status"] == "illegal" and said["move"] == "22x13x6"
    assert said["reason"] == "priority"
    assert "rule 2 (capture with a king)" in said["message"]
    assert "with-king" not in said["message"]


def test_clicks_on_no_square_are_refused(editor: Editor) -> None:
    status, answer = call(editor, "/api/resolve", {"position": RULE_4, "squares": [30, 33]})
    assert status == 422 and "off the board" in answer["error"]
    assert call(editor, "/api/resolve", {"position": RULE_4, "squares": [30]})[0] == 422


# == Saving ===================================================================


def test_a_claim_the_engine_refutes_is_not_saved(editor: Editor, project: Path) -> None:
    wrong = rule_4_diagram(rule="most-pieces")  # both captures take three pieces
    status, answer = call(editor, "/api/save", {"name": "wrong-rule", "diagram": wrong})
    assert status == 422
    assert answer["error"].startswith("diagrams/wrong-rule.yaml:")
    assert "most-pieces does not decide" in answer["error"]
    assert "wrong-rule.yaml" not in files_of(project)
    status, answer = call(editor, "/api/preview", {"diagram": wrong})
    assert status == 422 and "most-pieces" in answer["error"]


def test_an_existing_name_is_not_overwritten(editor: Editor, project: Path) -> None:
    before = (project / "diagrams" / "man-move.yaml").read_bytes()
    status, answer = call(editor, "/api/save", {"name": "man-move", "diagram": rule_4_diagram()})
    assert status == 409 and "already exists" in answer["error"]
    assert (project / "diagrams" / "man-move.yaml").read_bytes() == before


def test_a_twin_yml_file_is_not_shadowed(editor: Editor, project: Path) -> None:
    (project / "diagrams" / "twin.yml").write_text("position: x\n")
    status, answer = call(editor, "/api/save", {"name": "twin", "diagram": rule_4_diagram()})
    assert status == 409 and "twin.yml" in answer["error"]


def test_two_saves_of_one_new_name_at_once_keep_exactly_one(editor: Editor, project: Path) -> None:
    results: list[int] = []

    def save(title: str) -> None:
        diagram = rule_4_diagram(title=title)
        results.append(call(editor, "/api/save", {"name": "race", "diagram": diagram})[0])

    threads = [threading.Thread(target=save, args=(f"Tab {n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [200, 409, 409, 409]
    assert [n for n in files_of(project) if "race" in n] == ["race.yaml"]


def test_a_failed_write_leaves_no_file_and_no_temporary(
    editor: Editor, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "link", full_disk)
    status, answer = call(editor, "/api/save", {"name": "full", "diagram": rule_4_diagram()})
    assert status == 422 and "No space left" in answer["error"]
    assert files_of(project) == sorted(
        ["priority-king-first.yaml", "man-move.yaml", "initial-position.yaml"]
    )


def open_file(editor: Editor, name: str) -> dict[str, Any]:
    status, answer = call(editor, "/api/open", {"name": name})
    assert status == 200, answer
    return answer


def test_an_opened_file_saved_unchanged_is_not_rewritten(editor: Editor, project: Path) -> None:
    path = project / "diagrams" / "priority-king-first.yaml"
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    opened = open_file(editor, "priority-king-first")
    request = {"name": "priority-king-first", "diagram": opened["diagram"]}
    status, answer = call(editor, "/api/save", {**request, "opened": opened["opened"]})
    assert status == 200 and answer["written"] is False
    assert "not rewritten" in answer["message"]
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp


def test_an_edited_file_keeps_its_comments_and_key_order(editor: Editor, project: Path) -> None:
    path = project / "diagrams" / "priority-king-first.yaml"
    before = path.read_text().splitlines()
    opened = open_file(editor, "priority-king-first")
    diagram = {**opened["diagram"], "caption": "A new caption: {move}."}
    request = {"name": "priority-king-first", "diagram": diagram, "opened": opened["opened"]}
    status, answer = call(editor, "/api/save", request)
    assert status == 200 and answer["written"] is True, answer
    after = path.read_text().splitlines()
    assert after[0] == before[0] == "# FID Art. 6.9 (ordering)"
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed == [(before[-1], 'caption: "A new caption: {move}."')]
    assert verify_paths([path]).ok


def test_every_project_diagram_is_kept_byte_for_byte_when_unchanged() -> None:
    """The round trip itself: each real file, opened and saved back with no change."""
    from dama_diagrams.site.editor.drafts import draft_from_json, read_diagram
    from dama_diagrams.site.editor.yaml_text import draft_of, file_text

    for path in sorted((ROOT / "diagrams").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        draft = draft_from_json({"diagram": draft_of(read_diagram(text, path.stem))})
        assert file_text(draft, text) == text, path.name


def test_a_new_key_takes_its_place_and_a_removed_one_leaves_the_rest() -> None:
    """Keys go in the order diagram files write them, whatever the file's own order."""
    from dama_diagrams.site.editor.drafts import draft_from_json, read_diagram
    from dama_diagrams.site.editor.yaml_text import draft_of, file_text

    original = (
        "# top\n"
        'position: "W:W30,32:B27"  # FEN\n'
        "claim: capture\n"
        "move: 30x23\n"
        'caption: "c"\n'
        "exercise:\n"
        "  ask: move   # the one move\n"
        '  question: "Q?"\n'
        "show: {numbers: none}\n"
    )
    fields = draft_of(read_diagram(original, "x"))
    fields["title"] = "Added"
    fields["exercise"] = None
    text = file_text(draft_from_json({"diagram": fields}), original)
    assert text == (
        "# top\n"
        'position: "W:W30,32:B27"  # FEN\n'
        "claim: capture\n"
        "move: 30x23\n"
        'title: "Added"\n'
        'caption: "c"\n'
        "show: {numbers: none}\n"
    )


def test_changed_on_disk_since_opened_is_refused(editor: Editor, project: Path) -> None:
    path = project / "diagrams" / "priority-king-first.yaml"
    opened = open_file(editor, "priority-king-first")
    other_tab = path.read_text().replace("Rule 4: king met first", "Saved by another tab")
    path.write_text(other_tab)
    diagram = {**opened["diagram"], "title": "Mine"}
    request = {"name": "priority-king-first", "diagram": diagram, "opened": opened["opened"]}
    status, answer = call(editor, "/api/save", request)
    assert status == 409 and "changed on disk" in answer["error"]
    assert path.read_text() == other_tab


def test_another_existing_file_is_replaced_only_knowingly(editor: Editor, project: Path) -> None:
    """Issue 54: a save under another file's name is refused, with what to send to replace it."""
    path = project / "diagrams" / "man-move.yaml"
    before = path.read_bytes()
    request = {"name": "man-move", "diagram": rule_4_diagram()}
    status, answer = call(editor, "/api/save", request)
    assert status == 409 and "already exists" in answer["error"]
    assert answer["exists"] == hashlib.sha256(before).hexdigest()
    assert path.read_bytes() == before
    # the digest of another file, or none at all, replaces nothing
    for wrong in ["0" * 64, hashlib.sha256(b"other").hexdigest()]:
        status, refused = call(editor, "/api/save", {**request, "replace": wrong})
        assert status == 409 and "changed on disk" in refused["error"], refused
        assert refused["exists"] == answer["exists"]
        assert path.read_bytes() == before
    status, refused = call(editor, "/api/save", {**request, "replace": 7})
    assert status == 400 and "replace" in refused["error"]
    both = {**request, "replace": answer["exists"], "opened": answer["exists"]}
    status, refused = call(editor, "/api/save", both)
    assert status == 400 and "not both" in refused["error"]
    assert path.read_bytes() == before
    # confirmed: replaced whole, as a new diagram (nothing of the old file's text is kept)
    status, saved = call(editor, "/api/save", {**request, "replace": answer["exists"]})
    assert status == 200, saved
    assert path.read_bytes() != before and "30x21x14x5" in path.read_text()
    assert "man" not in path.read_text().split("\n", 1)[0]
    assert verify_paths([path]).ok
    assert not [name for name in files_of(project) if name.endswith(".tmp")]


def test_a_replace_confirmed_after_another_tab_saved_is_refused(
    editor: Editor, project: Path
) -> None:
    path = project / "diagrams" / "man-move.yaml"
    request = {"name": "man-move", "diagram": rule_4_diagram()}
    _, answer = call(editor, "/api/save", request)
    path.write_text(path.read_text().replace("title:", "# another tab\ntitle:"))
    meanwhile = path.read_bytes()
    status, refused = call(editor, "/api/save", {**request, "replace": answer["exists"]})
    assert status == 409 and "not replaced" in refused["error"]
    assert refused["exists"] == hashlib.sha256(meanwhile).hexdigest()
    assert path.read_bytes() == meanwhile
    path.unlink()  # gone before the author confirmed: written new, nothing lost
    status, saved = call(editor, "/api/save", {**request, "replace": refused["exists"]})
    assert status == 200 and path.exists(), saved


def test_the_start_names_a_draft_key_per_project_folder(tmp_path: Path) -> None:
    keys = set()
    for folder in ("one", "two"):
        project = small_project(tmp_path / folder)
        response = Editor(project, PORT).respond("GET", "/api/start", HEADERS, b"")
        key = json.loads(response.body)["project"]
        assert len(key) == 16 and str(project) not in key
        keys.add(key)
    again = Editor(tmp_path / "one" / "project", PORT).respond("GET", "/api/start", HEADERS, b"")
    assert json.loads(again.body)["project"] in keys and len(keys) == 2


def test_an_exercise_is_saved_when_the_engine_judges_its_answer(
    editor: Editor, project: Path
) -> None:
    """FID Art. 5.6: a man captures forward; capturing is compulsory, so 30x23 is the answer."""
    exercise = {
        "position": "W:W30,32:B27",
        "claim": "capture",
        "move": "30x23",
        "title": "Take it",
        "caption": "{move} is compulsory.",
        "exercise": {"ask": "move", "question": "White to play: which move?"},
    }
    status, answer = call(editor, "/api/save", {"name": "take-it", "diagram": exercise})
    assert status == 200, answer
    assert "exercise:" in (project / "diagrams" / "take-it.yaml").read_text()
    assert verify_paths([project / "diagrams" / "take-it.yaml"]).ok
    # any-move asks for a free choice: with one legal move there is none, and verify says so
    exercise["exercise"] = {"ask": "any-move", "question": "White to play: which move?"}
    status, answer = call(editor, "/api/save", {"name": "take-it-2", "diagram": exercise})
    assert status == 422 and answer["error"].startswith("diagrams/take-it-2.yaml:")


# == The HTTP side ============================================================


@contextmanager
def serving(project: Path, lang: str = "en") -> Iterator[int]:
    """The editor of ``project`` (``editor --lang <lang>``) on a free port of 127.0.0.1, for
    as long as the block runs: its port."""
    running = listen_editor(project, 0, lang)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    try:
        yield running.server_address[1]
    finally:
        running.shutdown()
        running.server_close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    project = small_project(tmp_path_factory.mktemp("editor-http"))
    with serving(project) as port:
        yield port, project


def request(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def test_the_server_refuses_a_too_large_body(server: tuple[int, Path]) -> None:
    port, _ = server
    body = b'{"position": "' + b"x" * MAX_BODY + b'"}'
    status, answer, _ = request(
        port, "POST", "/api/position", body, {"Content-Type": "application/json"}
    )
    assert status == 413 and b"at most" in answer


def test_the_server_refuses_a_foreign_host_and_origin(server: tuple[int, Path]) -> None:
    port, project = server
    body = json.dumps({"name": "evil", "diagram": rule_4_diagram()}).encode()
    status, answer, _ = request(port, "GET", "/", headers={"Host": f"evil.example:{port}"})
    assert status == 403 and json.loads(answer)["error"]
    cross = {"Content-Type": "application/json", "Origin": "http://evil.example"}
    status, _, _ = request(port, "POST", "/api/save", body, cross)
    assert status == 403
    status, _, _ = request(port, "POST", "/api/save", body, {"Content-Type": "text/plain"})
    assert status == 415
    status, answer, _ = request(port, "OPTIONS", "/api/save", headers={"Origin": "http://e.x"})
    assert status >= 400 and b"Access-Control" not in answer
    assert not (project / "diagrams" / "evil.yaml").exists()


def test_the_page_comes_with_a_strict_policy(server: tuple[int, Path]) -> None:
    port, _ = server
    status, page, headers = request(port, "GET", "/")
    assert status == 200 and b'role="grid"' in page
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    for asset in ("editor.js", "editor.css", "figure.css", "figure.js", "favicon.svg"):
        assert request(port, "GET", f"/assets/{asset}")[0] == 200, asset
    assert request(port, "GET", "/assets/../server.py")[0] == 404


def test_a_port_in_use_is_one_clear_message(server: tuple[int, Path]) -> None:
    port, project = server
    with pytest.raises(SiteError, match=f"port {port} is in use; choose another with --port"):
        listen_editor(project, port)


def test_the_wheel_ships_the_editors_page() -> None:
    """pip install . (not -e) must bring the page: pyproject's package data names it."""
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["dama_diagrams"]
    static = ROOT / "dama_diagrams" / "site" / "editor" / "static"
    words = ROOT / "dama_diagrams" / "site" / "editor" / "words.json"  # its six languages
    for path in [*static.iterdir(), words]:
        relative = path.relative_to(ROOT / "dama_diagrams").as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative


def test_the_command_says_when_its_port_is_taken(
    server: tuple[int, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dama_diagrams.cli import main

    port, project = server
    monkeypatch.chdir(project)
    assert main(["editor", "--port", str(port)]) == 1
    error = capsys.readouterr().err
    assert error == (
        f"dama-diagrams: port {port} is in use; choose another with --port, "
        f"such as --port {port + 1}\n"
    )


def test_a_diagrams_folder_that_leaves_the_project_is_not_written(
    tmp_path: Path,
) -> None:
    project = small_project(tmp_path)
    outside = tmp_path / "outside"
    (project / "diagrams").rename(outside)
    (project / "diagrams").symlink_to(outside)
    editor = Editor(project, PORT)
    status, answer = call(editor, "/api/save", {"name": "x", "diagram": rule_4_diagram()})
    assert status == 422 and "leaves the project" in answer["error"]
    assert not (outside / "x.yaml").exists()


def raw_request(
    port: int, method: str, path: str, headers: list[tuple[str, str]], body: bytes = b""
) -> tuple[int, dict[str, Any]]:
    """A request with exactly these header lines, in their case, repeated if listed twice."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in [*headers, ("Content-Length", str(len(body)))]:
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_header_names_are_read_in_any_case(server: tuple[int, Path]) -> None:
    """RFC 9110, 5.1: names are case-insensitive; Node's fetch sends them in lower case."""
    port, project = server
    own = f"127.0.0.1:{port}"
    body = json.dumps({"name": "lower-case", "diagram": rule_4_diagram()}).encode()
    lower = [("host", own), ("content-type", "application/json")]
    for evil in (
        [*lower, ("origin", "http://evil.example")],
        [*lower, ("ORIGIN", "http://evil.example")],
        [*lower, ("sec-fetch-site", "cross-site")],
    ):
        status, answer = raw_request(port, "POST", "/api/save", evil, body)
        assert status == 403, answer
    assert raw_request(port, "POST", "/api/save", [("host", own)], body)[0] == 415
    assert raw_request(port, "GET", "/api/start", [("HOST", "evil.example")])[0] == 403
    assert not (project / "diagrams" / "lower-case.yaml").exists()
    position = json.dumps({"position": RULE_4}).encode()
    status, answer = raw_request(
        port, "POST", "/api/position", [*lower, ("origin", f"http://{own}")], position
    )
    assert status == 200 and answer["legal"] == ["30x21x14x5"], answer


def test_a_header_the_editor_reads_sent_twice_is_refused(server: tuple[int, Path]) -> None:
    """Which Origin would count is a guess: the editor's own, then another site's, in other case."""
    port, project = server
    own = f"127.0.0.1:{port}"
    body = json.dumps({"name": "twice", "diagram": rule_4_diagram()}).encode()
    headers = [("Host", own), ("Content-Type", "application/json"), ("Origin", f"http://{own}")]
    status, answer = raw_request(
        port, "POST", "/api/save", [*headers, ("origin", "http://evil.example")], body
    )
    assert status == 400 and answer["error"] == (
        "the request sends the origin header twice; send it once"
    )
    assert not (project / "diagrams" / "twice.yaml").exists()


@pytest.mark.parametrize(
    "body",
    [
        b'{"position": "W:W21:B10", "cycle": ' + b"9" * 5000 + b"}",  # Python converts 4,300
        b'{"name": "big", "diagram": {"position": "W:W21:B10", "title": -' + b"1" * 5000 + b"}}",
    ],
    ids=["cycle", "title"],
)
def test_a_number_of_5000_digits_is_a_bad_request_not_a_failure(
    server: tuple[int, Path], body: bytes, capfd: pytest.CaptureFixture[str]
) -> None:
    port, _ = server
    headers = [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json")]
    path = "/api/position" if b"cycle" in body else "/api/preview"
    status, answer = raw_request(port, "POST", path, headers, body)
    assert status == 400
    assert answer["error"] == (
        "the request holds a number of 5,000 digits, longer than any field takes (at most 100; "
        "a square is 1 to 32); send the field's real value"
    )
    assert "editor" not in capfd.readouterr().err  # no "the editor failed" line


def test_a_diagrams_folder_that_leaves_the_project_is_neither_listed_nor_read(
    tmp_path: Path,
) -> None:
    """The save refused it; the list and the open showed its names and its text."""
    project = small_project(tmp_path)
    outside = tmp_path / "outside"
    (project / "diagrams").rename(outside)
    (outside / "secret-one.yaml").write_text("password: hunter2\n", encoding="utf-8")
    (project / "diagrams").symlink_to(outside)
    with serving(project) as port:
        own = [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json")]
        status, start = raw_request(port, "GET", "/api/start", own[:1])
        assert status == 200 and start["diagrams"] == []
        for name in ("secret-one", "man-move"):
            body = json.dumps({"name": name}).encode()
            status, answer = raw_request(port, "POST", "/api/open", own, body)
            assert status == 422, answer
            assert answer["error"] == (
                f"diagrams/{name}.yaml: is a symbolic link to a file outside the project; "
                "keep the file inside the project (copy it in)"
            )
        body = json.dumps({"name": "x", "diagram": rule_4_diagram()}).encode()
        status, answer = raw_request(port, "POST", "/api/save", own, body)
        assert status == 422 and "leaves the project" in answer["error"]
    assert sorted(path.name for path in outside.iterdir()) == [
        "initial-position.yaml", "man-move.yaml", "priority-king-first.yaml", "secret-one.yaml"
    ]  # fmt: skip


def test_a_fifo_in_diagrams_is_neither_listed_nor_waited_on(server: tuple[int, Path]) -> None:
    port, project = server
    os.mkfifo(project / "diagrams" / "pipe.yaml")
    try:
        own = [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json")]
        status, start = raw_request(port, "GET", "/api/start", own[:1])
        assert status == 200 and "pipe" not in start["diagrams"] and "man-move" in start["diagrams"]
        status, answer = raw_request(port, "POST", "/api/open", own, b'{"name": "pipe"}')
        assert status == 422 and "a FIFO (named pipe), not a regular file" in answer["error"]
    finally:
        (project / "diagrams" / "pipe.yaml").unlink()


# -- the engine's verdict first (issue 54, review E1, E3, E8, E15) -------------------

REVIEW_E1 = "W:W19,22,K27,29,31,32:B10,15,18,23"
"""The review's position: 19x12 (1 piece) falls to rule 1, 22x13x6 (2, a man) to rule 2."""


def test_the_claim_the_engine_names_is_offered_first(editor: Editor) -> None:
    status, answer = call(editor, "/api/position", {"position": REVIEW_E1, "move": "27x20x11"})
    assert status == 200
    assert "rule 2 (capture with a king) decides" in answer["explain_summary"]
    first, second = answer["claims"][:2]
    assert (first["claim"], first["rule"], first["rejected"]) == (
        "priority",
        "with-king",
        ["22x13x6"],
    )
    assert first["rules_out"] == "rule 2 (capture with a king) rules out 22x13x6"
    assert (second["rule"], second["rejected"]) == ("most-pieces", ["19x12"])
    # the rule menu lists only the rules of claims that hold; no illegal reason, no game over
    assert answer["holding"] == {
        "rules": ["with-king", "most-pieces"], "illegal_reasons": [], "game_over_reasons": []
    }  # fmt: skip
    # the offered default saves as it is
    # what its caption may use: no {moves} (one move) and no {sequence} (a FEN position)
    assert first["placeholders"] == ["move", "start", "end", "captured", "count", "rejected"]
    said = ("summary", "rules_out", "placeholders")
    fields = {key: value for key, value in first.items() if key not in said}
    diagram = {**fields, "position": REVIEW_E1, "title": "Rule 2", "caption": "{move} first."}
    status, saved = call(editor, "/api/save", {"name": "rule-2-review", "diagram": diagram})
    assert status == 200, saved


def test_an_illegal_move_offers_the_one_reason_that_holds(editor: Editor) -> None:
    # 19x12 takes one piece where 27x20x11 takes two: only the priority rules forbid it
    status, answer = call(editor, "/api/position", {"position": REVIEW_E1, "move": "19x12"})
    assert status == 200
    assert [option["claim"] for option in answer["claims"]] == ["illegal"]
    assert answer["holding"]["illegal_reasons"] == [answer["claims"][0]["reason"]]


def test_an_empty_board_offers_no_winner(editor: Editor) -> None:
    # White to move has no piece, and neither has Black: nobody wins
    status, answer = call(editor, "/api/position", {"position": "W:W:B"})
    assert status == 200
    assert answer["game_over"] is None
    assert [option["claim"] for option in answer["claims"]] == ["setup"]
    assert answer["holding"]["game_over_reasons"] == []
    diagram = {"position": "W:W:B", "claim": "game-over", "reason": "no-pieces"}
    status, refused = call(editor, "/api/preview", {"diagram": diagram})
    assert status == 422 and "the board is empty" in refused["error"]


def test_a_blocked_side_offers_game_over_first(editor: Editor) -> None:
    # the review's blocked position: White's one man has no legal move
    status, answer = call(editor, "/api/position", {"position": "W:W29:B22,25,26"})
    assert status == 200
    assert answer["game_over"] == {"winner": "black", "reason": "blocked"}
    assert [option["claim"] for option in answer["claims"]] == ["game-over", "setup"]


def test_a_caption_placeholder_the_claim_cannot_fill_is_refused(editor: Editor) -> None:
    diagram = {
        "position": "W:W22:B4", "claim": "move", "move": "22-18",
        "title": "A step", "caption": "After {move}, White takes {captured}.",
    }  # fmt: skip
    status, answer = call(editor, "/api/preview", {"diagram": diagram})
    assert status == 422
    assert "{captured} would print nothing" in answer["error"]
    assert "this diagram can fill {move}, {start}, {end}" in answer["error"]


def test_the_page_is_told_every_placeholder(editor: Editor) -> None:
    response = editor.respond("GET", "/api/start", HEADERS, b"")
    placeholders = json.loads(response.body)["placeholders"]
    assert placeholders == [
        "move", "moves", "start", "end", "captured", "count", "rejected", "sequence"
    ]  # fmt: skip
    status, answer = call(editor, "/api/position", {"position": "W:W21-32:B1-12"})
    assert status == 200 and answer["claims"][0]["placeholders"] == []  # the initial position


# -- six languages (issue 54): the site's catalogs, the site's words for the game ---------------


def page(editor: Editor, target: str = "/") -> tuple[int, str]:
    response = editor.respond("GET", target, HEADERS, b"")
    return response.status, response.body.decode("utf-8")


def test_the_page_speaks_the_editors_language_or_the_one_asked(project: Path) -> None:
    status, italian = page(Editor(project, PORT, lang="it"))
    assert status == 200 and '<html lang="it">' in italian
    assert "<h1>Editor della damiera</h1>" in italian
    assert '<a href="/?lang=en" hreflang="en" lang="en">English</a>' in italian
    assert 'hreflang="it" lang="it" aria-current="page">Italiano</a>' in italian
    status, german = page(Editor(project, PORT, lang="it"), "/?lang=de")
    assert status == 200 and '<html lang="de">' in german and "<h1>Brett-Editor</h1>" in german
    status, english = page(Editor(project, PORT))
    assert status == 200 and '<html lang="en">' in english and "<h1>Board editor</h1>" in english


def test_the_page_gives_its_script_the_words_of_its_language(editor: Editor) -> None:
    _, italian = page(editor, "/?lang=it")
    found = re.search(
        r'<script type="application/json" id="editor-words">(.*?)</script>', italian, re.S
    )
    assert found is not None
    words = json.loads(found.group(1))
    assert words["Square {square}: {content}."] == "Casella {square}: {content}."
    assert words["white king"] == "dama bianca"  # docs/terms.yaml: king is dama
    _, english = page(editor)
    assert '<script type="application/json" id="editor-words">{}</script>' in english


@pytest.mark.parametrize("target", ["/?lang=xx", "/api/start?lang=EN", "/?lang=%3Cscript%3E"])
def test_a_language_the_editor_does_not_speak_is_refused_in_the_address(
    editor: Editor, target: str
) -> None:
    response = editor.respond("GET", target, HEADERS, b"")
    assert response.status == 400
    assert "the editor speaks nl, it, en, de, fr, es" in json.loads(response.body)["error"]


def test_a_language_the_editor_does_not_speak_is_refused_in_a_request(editor: Editor) -> None:
    status, answer = call(editor, "/api/position", {"position": RULE_4, "lang": "pt"})
    assert status == 400 and answer["error"].startswith("the editor speaks nl, it, en, de, fr, es")
    with pytest.raises(SiteError, match="not 'xx'"):
        Editor(ROOT, PORT, lang="xx")


def test_the_engine_speaks_the_language_of_the_request(editor: Editor) -> None:
    """FID Art. 6.9 in Italian: the site's own table and sentence, rule 4 named as the site does."""
    status, answer = call(
        editor, "/api/position", {"position": RULE_4, "move": "30x21x14x5", "lang": "it"}
    )
    assert status == 200
    assert answer["explain_summary"] == (
        "30x21x14x5 è l\u2019unica mossa regolare; "
        "decide la regola 4 (la dama incontrata per prima)."
    )
    assert "regola 4 (la dama incontrata per prima)" in answer["explain"]
    assert "Capture" not in answer["explain"]  # the table's heads are Italian too
    priority = next(claim for claim in answer["claims"] if claim["claim"] == "priority")
    assert priority["rules_out"] == (
        "la regola 4 (la dama incontrata per prima) esclude 30x23x16x7"
    )
    assert priority["summary"].startswith("30x21x14x5 è l\u2019unica mossa regolare")
    status, start = raw_get(editor, "/api/start?lang=it")
    assert status == 200
    king_first = {"value": "king-first", "label": "regola 4 (la dama incontrata per prima)"}
    assert start["rules"][3] == king_first
    assert start["asks"][0]["label"] == "l\u2019unica mossa che le regole consentono"


def raw_get(editor: Editor, target: str) -> tuple[int, dict[str, Any]]:
    response = editor.respond("GET", target, HEADERS, b"")
    return response.status, json.loads(response.body)


def test_a_refused_square_and_a_click_are_said_in_the_language(editor: Editor) -> None:
    # square 1 is White's crowning row: a white man cannot stand there (the engine's words)
    status, answer = call(editor, "/api/position", {"position": "W:W:B", "cycle": 1, "lang": "de"})
    assert status == 200
    assert answer["refused"][0].startswith("weißer einfacher Stein auf 1 abgelehnt: ")
    status, answer = call(
        editor, "/api/resolve", {"position": RULE_4, "squares": [30, 29], "lang": "fr"}
    )
    assert status == 200 and answer["message"].startswith("30x29 est interdit\u00a0: ")


def test_the_preview_is_the_sites_figure_in_the_language(editor: Editor) -> None:
    diagram = {
        **{"position": RULE_4, "claim": "priority", "move": "30x21x14x5"},
        **{"rule": "king-first", "rejected": ["30x23x16x7"], "title": "", "caption": ""},
    }
    status, answer = call(editor, "/api/preview", {"diagram": diagram, "lang": "es"})
    assert status == 200
    assert "casilla de salida" in answer["figure"]  # the site's Spanish legend: start square
    assert answer["summary"].startswith("30x21x14x5 es la única jugada válida")


def test_the_save_is_said_in_the_language(editor: Editor, project: Path) -> None:
    diagram = {"position": RULE_4, "claim": "setup", "title": "", "caption": ""}
    request = {"name": "saved-in-dutch", "diagram": diagram, "lang": "nl"}
    status, answer = call(editor, "/api/save", request)
    assert status == 200, answer
    assert answer["message"].startswith("diagrams/saved-in-dutch.yaml opgeslagen.")
    assert 'figure("saved-in-dutch")' in answer["message"]


def test_the_command_refuses_a_language_it_does_not_speak_in_one_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dama_diagrams.cli import main

    monkeypatch.chdir(project)
    assert main(["editor", "--lang", "pt"]) == 1  # refused before the port is bound
    assert capsys.readouterr().err == (
        "dama-diagrams: the editor speaks nl, it, en, de, fr, es, not 'pt': choose one of them\n"
    )
