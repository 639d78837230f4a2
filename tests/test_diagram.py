"""The diagram loader: strict schema, safe YAML, every error at its file and line."""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import dama_diagrams
from dama_diagrams.diagram._yaml import compose_yaml
from dama_diagrams.diagram.options import Claim, Show
from dama_diagrams.diagram.schema import MAX_FILE_BYTES, load_diagram, parse_diagram
from dama_diagrams.engine.board import Color
from dama_diagrams.engine.legality import IllegalReason
from dama_diagrams.engine.move import Move
from dama_diagrams.engine.position import GameOverReason, Position
from dama_diagrams.engine.priority import PriorityRule
from dama_diagrams.errors import DamaError, MoveNotationError, PositionError
from tests.conftest import copy_project, fails_cleanly, run_cli

BROKEN = Path(__file__).parent / "broken"

LOADERS = [
    pytest.param(True, id="libyaml", marks=pytest.mark.skipif(
        not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")),
    pytest.param(False, id="python"),
]  # fmt: skip

# Every broken input: (line, the gist of the message).  The file name is the case.
EXPECTED: dict[str, tuple[int, str]] = {
    "Bad_Id.yaml": (1, "'Bad_Id' is not a valid diagram id"),
    "alias-bomb.yaml": (2, "anchors and aliases (&name, *name) are not allowed"),
    "alias.yaml": (1, "anchors and aliases (&name, *name) are not allowed"),
    "bad-fen.yaml": (2, "FEN 'W21,22:B1' is not of the form"),
    "bad-flag.yaml": (3, "flip must be true or false, not 'yes please'"),
    "played-illegal-move.yaml": (
        6,
        "22-19 (move 2.) is not legal after the moves before it; the legal moves there are: 18x11",
    ),
    "played-with-pieces.yaml": (1, "position with moves: takes no other key, but has 'turn'"),
    "played-not-a-list.yaml": (1, "position: moves: must be a list of moves"),
    "bad-indentation.yaml": (2, "this is not valid YAML (while parsing a block mapping"),
    "bad-move-in-list.yaml": (7, "'21-14-5' is not a move"),
    "bad-move-string.yaml": (3, "'22/18' is not a move"),
    "bad-numbers.yaml": (3, "numbers must be all, marked or none (or true/false), not 'some'"),
    "bad-square-item.yaml": (4, "'X22' is not a square: write 21 for a man or K21 for a king"),
    "bad-turn.yaml": (3, "turn must be white or black, not 'w'"),
    "bool-square-item.yaml": (4, "true/false is not a square"),
    "broken-yaml.yaml": (1, "not valid YAML (while scanning a quoted scalar"),
    "control-character.yaml": (2, "the control character U+0007"),
    "deep-nesting.yaml": (2, "nested more than 8 levels deep"),
    "duplicate-key.yaml": (4, "duplicate key 'move' (first on line 3)"),
    "duplicate-square.yaml": (7, "square 22 is given twice"),
    "empty-moves.yaml": (3, "moves must be a list of moves, such as [22-18, 22-19], not an empty"),
    "empty.yaml": (1, "the file is empty"),
    "key-not-for-claim.yaml": (4, "'rule' does not belong in a move claim"),
    "list-key.yaml": (2, "a list or mapping is not a name; keys are words such as position:"),
    "list-not-mapping.yaml": (1, "the file is a list, but a diagram file is a mapping"),
    "local-tag.yaml": (1, "the tag !fen is not allowed"),
    "man-on-crowning-row.yaml": (4, "a white man cannot stand on 3"),
    "merge-key.yaml": (1, "merge keys (<<) are not allowed"),
    "missing-claim.yaml": (2, "the key 'claim' is missing"),
    "missing-position.yaml": (1, "the key 'position' is missing"),
    "move-and-moves.yaml": (4, "give exactly one of the two"),
    "move-listed-twice.yaml": (6, "22-18 is listed twice under moves"),
    "move-off-board.yaml": (3, "square 35 is off the board"),
    "non-text-key.yaml": (3, "the key 42 is not a name"),
    "not-utf8.yaml": (3, "the file is not UTF-8 text (byte 0xe9)"),
    "null-document.yaml": (1, "the file is empty"),
    "only-comments.yaml": (1, "the file is empty"),
    "position-missing-black.yaml": (2, "the position mapping needs 'black'"),
    "position-unknown-key.yaml": (4, "unknown key 'whites' in position: did you mean 'white'?"),
    "priority-missing-rejected.yaml": (2, "a priority claim needs 'rejected'"),
    "priority-missing-rule.yaml": (2, "a priority claim needs 'rule'"),
    "python-name-tag.yaml": (2, "the tag !!python/name:os.system is not allowed"),
    "python-tag-file.yaml": (3, "the tag !!python/object/apply:os.system is not allowed"),
    "python-tag.yaml": (2, "the tag !!python/object/apply:builtins.exec is not allowed"),
    "square-0-fen.yaml": (2, "square 0 is off the board (squares are 1-32)"),
    "square-33.yaml": (6, "square 33 is off the board (squares are 1-32)"),
    "tab-indent.yaml": (2, "a tab is used for indentation"),
    "text-not-mapping.yaml": (1, "the file is text, but a diagram file is a mapping"),
    "too-many-pieces-mapping.yaml": (7, "black has 13 pieces; a side has at most 12"),
    "too-many-pieces.yaml": (2, "white has 20 pieces; a side has at most 12"),
    "two-documents.yaml": (3, "several YAML documents"),
    "unclosed-list.yaml": (3, "not valid YAML (while parsing a flow sequence"),
    "unknown-claim.yaml": (2, "unknown claim 'mvoe': did you mean 'move'?"),
    "unknown-key.yaml": (3, "unknown key 'moev': did you mean 'move'?"),
    "unknown-reason.yaml": (4, "unknown reason 'backwards' for an illegal claim: did you mean"),
    "unknown-rule.yaml": (4, "unknown rule 'most-piece': did you mean 'most-pieces'?"),
    "unknown-show-option.yaml": (5, "unknown display option 'numbres': did you mean 'numbers'?"),
    "wrong-type-move.yaml": (
        3,
        "move must be a move in notation, such as 22-19 or 29x22x15, not a",
    ),
    "wrong-type-position.yaml": (1, "position must be a FEN such as"),
    "wrong-type-rejected.yaml": (
        5,
        "rejected must be a list of moves, such as [22-18, 22-19], not",
    ),
}


def parse(text: str, name: str = "diagrams/example.yaml") -> dama_diagrams.diagram.schema.Diagram:
    return parse_diagram(text.encode(), name)


def error_of(text: str | bytes, name: str = "diagrams/example.yaml") -> DamaError:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(DamaError) as caught:
        parse_diagram(data, name)
    return caught.value


# -- the broken corpus ---------------------------------------------------------


def test_the_broken_corpus_is_large_and_every_file_has_an_expectation() -> None:
    files = {path.name for path in BROKEN.iterdir()}
    assert len(files) >= 25
    assert files == set(EXPECTED)


@pytest.mark.parametrize("libyaml", LOADERS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_input_is_refused_at_its_line(name: str, libyaml: bool) -> None:
    line, gist = EXPECTED[name]
    path = f"tests/broken/{name}"
    with pytest.raises(DamaError) as caught:
        parse_diagram((BROKEN / name).read_bytes(), path, libyaml=libyaml)
    error = caught.value
    assert (error.path, error.line) == (path, line)
    assert str(error).startswith(f"{path}:{line}: ")
    assert gist in error.message
    assert "\n" not in str(error)


def test_load_diagram_reads_the_file_and_reports_its_path() -> None:
    with pytest.raises(DamaError, match=r"duplicate key") as caught:
        load_diagram(BROKEN / "duplicate-key.yaml")
    assert caught.value.path == str(BROKEN / "duplicate-key.yaml")


@pytest.mark.parametrize("libyaml", LOADERS)
@pytest.mark.parametrize("name", ["python-tag.yaml", "python-tag-file.yaml"])
def test_python_tag_runs_nothing(
    name: str, libyaml: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DamaError, match="tag !!python/"):
        parse_diagram((BROKEN / name).read_bytes(), name, libyaml=libyaml)
    assert not hasattr(dama_diagrams, "PWNED")
    assert list(tmp_path.iterdir()) == []


def test_the_python_tag_files_are_real_exploits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """So that the test above proves something: an unsafe loader does run them."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(dama_diagrams, "PWNED", False, raising=False)
    yaml.unsafe_load((BROKEN / "python-tag.yaml").read_text())
    assert dama_diagrams.PWNED is True  # type: ignore[attr-defined]
    yaml.unsafe_load((BROKEN / "python-tag-file.yaml").read_text())
    assert (tmp_path / "pwned-by-yaml").exists()


@pytest.mark.parametrize("libyaml", LOADERS)
def test_alias_bomb_fails_fast_without_eating_memory(libyaml: bool) -> None:
    data = (BROKEN / "alias-bomb.yaml").read_bytes()
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(DamaError, match="aliases"):
        parse_diagram(data, "alias-bomb.yaml", libyaml=libyaml)
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 5_000_000


def test_a_huge_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"claim: setup\n" + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(DamaError, match="larger than 64 KiB") as caught:
        load_diagram(path)
    assert caught.value.line == 1


def test_a_missing_file_is_a_clean_error(tmp_path: Path) -> None:
    with pytest.raises(DamaError, match="cannot read the file"):
        load_diagram(tmp_path / "nowhere.yaml")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_give_a_diagram_or_a_located_error(data: bytes) -> None:
    for libyaml in (True, False) if yaml.__with_libyaml__ else (False,):
        try:
            parse_diagram(data, "diagrams/fuzz.yaml", libyaml=libyaml)
        except DamaError as error:
            assert error.path == "diagrams/fuzz.yaml"
            assert error.line is not None and error.line >= 1


# -- what a good file gives ---------------------------------------------------


def test_a_position_can_be_played_from_the_start() -> None:
    """1. 22-18 11-14 2. 18x11, worked by hand: White's man on 11, Black's 11 and 14 gone."""
    diagram = parse("position: {moves: [22-18, 11-14, 18x11]}\nclaim: capture\nmove: 7x14\n")
    assert diagram.history == (Move.parse("22-18"), Move.parse("11-14"), Move.parse("18x11"))
    assert diagram.position.to_fen() == (
        "B:W11,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12"
    )


def test_a_priority_diagram_reads_every_key_with_its_line() -> None:
    diagram = parse(
        'position: "W:WK21,31:B10,18,27"\n'
        "claim: priority\n"
        "move: 31x22x13x6\n"
        "rule: most-pieces\n"
        "rejected:\n"
        "  - 21x14x5\n",
        "diagrams/priority-most-pieces.yaml",
    )
    assert diagram.id == "priority-most-pieces"
    assert diagram.position == Position.from_fen("W:WK21,31:B10,18,27")
    assert diagram.claim is Claim.PRIORITY
    assert diagram.move == Move.parse("31x22x13x6")
    assert diagram.rule is PriorityRule.MOST_PIECES
    assert diagram.rejected == (Move.parse("21x14x5"),)
    assert diagram.show == Show()
    assert [diagram.line(key) for key in ("position", "claim", "move", "rule")] == [1, 2, 3, 4]
    assert diagram.line("rejected") == 5
    assert diagram.line("rejected[0]") == 6


def test_position_mapping_equals_its_fen() -> None:
    diagram = parse(
        "position:\n  turn: white\n  white: [K21, 31]\n  black: [10, 18, 27]\nclaim: setup\n"
    )
    assert diagram.position == Position.from_fen("W:WK21,31:B10,18,27")
    assert diagram.line("white[0]") == 3


def test_position_mapping_takes_black_to_move_and_empty_sides() -> None:
    diagram = parse("position: {turn: black, white: [13, 22], black: []}\nclaim: setup\n")
    assert diagram.position.turn is Color.BLACK
    assert diagram.position.squares(Color.BLACK, king=False) == []


def test_reasons_are_typed_by_claim() -> None:
    illegal = parse('position: "W:W18:B22"\nclaim: illegal\nmove: 18x27\nreason: backward\n')
    over = parse('position: "B:W13:B"\nclaim: game-over\nreason: no-pieces\n')
    assert illegal.reason is IllegalReason.BACKWARD
    assert over.reason is GameOverReason.NO_PIECES


def test_a_game_over_reason_is_not_an_illegal_reason() -> None:
    error = error_of('position: "B:W13:B"\nclaim: game-over\nreason: backward\n')
    assert error.line == 3
    assert "the reasons are no-pieces or blocked" in error.message


@pytest.mark.parametrize(
    ("show", "expected"),
    [
        ("{numbers: all}", Show(numbers="all")),
        ("{numbers: true}", Show(numbers="all")),
        ("{numbers: false}", Show(numbers="none")),
        ("{numbers: none, arrows: false, flip: true}", Show("none", False, True)),
        ("{turn: false}", Show(turn=False)),
        ("{}", Show()),
    ],
)
def test_show_options(show: str, expected: Show) -> None:
    # A move claim, so that every option but steps applies.
    text = f'position: "W:W22:B4"\nclaim: move\nmove: 22-18\nshow: {show}\n'
    assert parse(text).show == expected


def test_unknown_key_without_a_close_match_lists_the_keys() -> None:
    error = error_of('position: "W:W22:B4"\nclaim: setup\nnotes: hello\n')
    assert error.line == 3
    assert "did you mean" not in error.message
    assert "a diagram file takes position, claim, move" in error.message
    assert error.message.endswith("show, title, caption or exercise")


def test_title_and_caption_are_keys_of_every_claim() -> None:
    diagram = parse('position: "W:W22:B4"\nclaim: setup\ntitle: A man\ncaption: hello\n')
    assert (diagram.title, diagram.caption) == ("A man", "hello")


def test_a_setup_claim_takes_no_move() -> None:
    error = error_of('position: "W:W22:B4"\nclaim: setup\nmove: 22-18\n')
    assert (error.line, error.message) == (
        3,
        "'move' does not belong in a setup claim, which takes no other key; "
        "remove it or change the claim",
    )


def test_a_move_cannot_also_be_rejected() -> None:
    error = error_of('position: "W:W22,24:B18"\nclaim: capture\nmove: 22x13\nrejected: [22x13]\n')
    assert error.line == 4
    assert "both the move and rejected" in error.message


def test_engine_errors_keep_their_type_and_gain_a_place() -> None:
    position = error_of('claim: setup\nposition: "W:W33:B1"\n')
    move = error_of('position: "W:W22:B4"\nclaim: move\nmove: 22-40\n')
    assert isinstance(position, PositionError)
    assert isinstance(move, MoveNotationError)
    assert (position.line, move.line) == (2, 3)


def test_standard_tags_and_a_byte_order_mark_are_fine() -> None:
    diagram = parse_diagram(
        b'\xef\xbb\xbfposition: !!str "W:W22:B4"\nclaim: setup\n', "diagrams/bom.yaml"
    )
    assert diagram.claim is Claim.SETUP


def test_tabs_inside_a_line_are_not_indentation() -> None:
    assert parse('position: "W:W22:B4"\t# a comment\nclaim: setup\n').claim is Claim.SETUP


@pytest.mark.parametrize("libyaml", LOADERS)
def test_both_loaders_give_the_same_values(libyaml: bool) -> None:
    # Only decimal whole numbers, true/false and null are typed: the rest is text, so
    # YAML 1.1's hex, binary, underscored, float and date forms can never fail to convert.
    text = "a: [1, K2, true, null, 1.5, 0x_, 0b_, 1_0, 2024-02-30, 1:30]\nb: {c: d}\n"
    root = compose_yaml(text, libyaml=libyaml)
    assert root is not None and isinstance(root.data, dict)
    items = root.data["a"].data
    assert isinstance(items, list)
    assert [item.data for item in items] == [
        1, "K2", True, None, "1.5", "0x_", "0b_", "1_0", "2024-02-30", "1:30"
    ]  # fmt: skip
    assert root.data["b"].line == 2


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DamaError, match="not a regular file"):
        dama_diagrams.diagram.schema.load_diagram(fifo)


def test_an_absurdly_long_number_is_a_located_error() -> None:
    error = error_of("position: {turn: white, white: [" + "1" * 5000 + "], black: [1]}\n")
    assert str(error).startswith("diagrams/example.yaml:1:")
    assert "far too long" in str(error)


def test_a_move_that_stays_put_is_refused_at_its_line() -> None:
    error = error_of('position: "W:W22:B4"\nclaim: illegal\nmove: 22-22\nreason: not-diagonal\n')
    assert str(error).startswith("diagrams/example.yaml:3:")
    assert "goes from 22 to 22" in str(error)


def test_a_setup_reached_by_moves_may_step_through_them() -> None:
    played = parse("position: {moves: [22-18, 11-14]}\nclaim: setup\nshow: {steps: true}\n")
    assert played.steps and played.game_steps
    quiet = parse("position: {moves: [22-18, 11-14]}\nclaim: setup\nshow: {steps: false}\n")
    assert not quiet.steps
    error = error_of('position: "W:W21-32:B1-12"\nclaim: setup\nshow: {steps: true}\n')
    assert error.line == 3 and "show.steps does not apply" in error.message


# -- texts for pages: the limits of any text that reaches Markdown ---------------------------

EXERCISE = 'position: "W:W22:B4"\nclaim: setup\n'
"""A setup whose title, caption and question the cases below fill in."""


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (
            ['caption: "' + "<![CDATA[" * 7000 + '"'],  # 9 characters, 7,000 times
            3,
            "caption is 63,000 characters long (at most 1,000); shorten it",
        ),
        (
            ['caption: "' + "[a](" * 21 + '"'],
            3,
            "caption has 21 '[' (at most 20), and each one slows the conversion of the whole "
            "text; keep a few links at most",
        ),
        (
            ['title: "' + "<em>" * 25 + 'deep"'],  # the paragraph, then 25 emphases
            3,
            "title nests its lists, quotes, emphasis or HTML elements 26 deep (at most 20); "
            "nest them less deeply",
        ),
        (
            ['caption: "> > > > a quote in a quote in a quote in a quote"'],
            3,
            "caption nests more than 3 list or quote markers on one line; nest them less deeply",
        ),
        (
            ['title: "A \u202eman"'],  # right-to-left override, the third character
            3,
            "title holds the control character U+202E at character 3, which no page or book "
            "shows as text; delete it",
        ),
        (
            ['caption: "The man moves.\\u2067"'],  # right-to-left isolate, as a YAML escape
            3,
            "caption holds the control character U+2067 at character 15",
        ),
        (
            ["title: A man", 'exercise: {ask: win, question: "Which \u202aone?"}'],
            4,
            "question holds the control character U+202A at character 7",
        ),
        (
            ['caption: "The man\\uFFFF moves."'],  # a noncharacter, as a YAML escape
            3,
            "caption holds the noncharacter U+FFFF at character 8, which no page, book or TBX "
            "file can hold; delete it",
        ),
    ],
    ids=[
        "cdata-63k",
        "brackets",
        "depth",
        "quotes",
        "bidi-title",
        "bidi-escape",
        "bidi-question",
        "noncharacter",
    ],
)
def test_a_text_for_pages_is_refused_at_its_line_past_the_markdown_limits(
    lines: list[str], line: int, message: str
) -> None:
    """A caption once passed in 0.3 s, then took 146 s in a fence and 161 s in a build."""
    started = time.perf_counter()
    error = error_of(EXERCISE + "\n".join(lines) + "\n")
    assert time.perf_counter() - started < 1
    assert str(error).startswith(f"diagrams/example.yaml:{line}: {message}"), str(error)


def test_a_text_at_the_markdown_limits_is_read() -> None:
    caption = "[a](https://example.org) " * 20
    caption += "x" * (1000 - len(caption))  # 1,000 characters, 20 '['
    title = "\u200fA man\u200e <em>moves</em>"  # marks of direction are text, not controls
    diagram = parse(EXERCISE + f'caption: "{caption}"\ntitle: "{title}"\n')
    assert diagram.caption == caption and diagram.title == title


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\u200b", "blank text (it holds only U+200B (ZERO WIDTH SPACE), which shows nothing)"),
        (
            "\u3164 \u2800",
            "blank text (it holds only U+3164 (HANGUL FILLER), U+0020 (SPACE), U+2800 (BRAILLE "
            "PATTERN BLANK), which show nothing)",
        ),
        ("\u3000\u00a0", "empty"),  # white space to Python too
        (
            "&#8203;",  # the page shows the reference as the character: U+200B
            "blank text (it holds only U+200B (ZERO WIDTH SPACE), written &#8203;, which shows "
            "nothing)",
        ),
        (
            "&nbsp; &#x3000;",
            "blank text (it holds only U+00A0 (NO-BREAK SPACE), U+0020 (SPACE), U+3000 "
            "(IDEOGRAPHIC SPACE), written &nbsp;, &#x3000;, which show nothing)",
        ),
    ],
    ids=["zero-width-space", "fillers", "spaces", "reference", "named-reference"],
)
@pytest.mark.parametrize("key", ["title", "caption", "question"])
def test_a_text_that_shows_nothing_is_refused_at_its_line_as_an_empty_one(
    key: str, text: str, shown: str
) -> None:
    """A title of U+200B would be an empty heading on the page and in the book (PDF/UA)."""
    lines = [f'{key}: "{text}"']
    if key == "question":
        lines = ["title: A man", f'exercise: {{ask: win, question: "{text}"}}']
    error = error_of(EXERCISE + "\n".join(lines) + "\n")
    assert str(error) == (
        f"diagrams/example.yaml:{2 + len(lines)}: {key} must be English text in quotes, not "
        f'{shown}: {key}: "…"'
    )


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (
            ['caption: "x &#x202E; gnp.exe The man on {start} may step forward."'],
            3,
            "caption holds the control character U+202E at character 3 (written &#x202E;), "
            "which no page or book shows as text; delete it",
        ),
        (['title: "&#8238;naM"'], 3, "title holds the control character U+202E at character 1"),
        (
            ["title: A man", 'exercise: {ask: win, question: "Which &#x2067;one&#x2069;?"}'],
            4,
            "question holds the control character U+2067 at character 7 (written &#x2067;)",
        ),
        (  # HTML keeps 0x81 as the C1 control (0x80 to 0x9F are otherwise Windows-1252)
            ['caption: "The man&#129; moves."'],
            3,
            "caption holds the control character U+0081 at character 8 (written &#129;)",
        ),
        (  # a reference needs no ';' in HTML, and any number of zeros
            ['caption: "The man &#x000202e moves."'],
            3,
            "caption holds the control character U+202E at character 9 (written &#x000202e)",
        ),
        (
            ['caption: "The man&#xFFFF; moves."'],
            3,
            "caption holds the noncharacter U+FFFF at character 8 (written &#xFFFF;), which no "
            "page, book or TBX file can hold; delete it",
        ),
    ],
    ids=["review-caption", "decimal", "isolates", "c1", "no-semicolon", "noncharacter"],
)
def test_a_control_character_written_as_a_reference_is_refused_where_it_is_written(
    lines: list[str], line: int, message: str
) -> None:
    """The page showed a raw U+202E, and the book the caption reversed: '...exe.png'."""
    error = error_of(EXERCISE + "\n".join(lines) + "\n")
    assert str(error).startswith(f"diagrams/example.yaml:{line}: {message}"), str(error)


@pytest.mark.parametrize(
    "caption",
    [
        "The man &amp;#x202E; moves.",  # the page shows the text '&#x202E;'
        "The man &lrm;moves&rlm;.",  # the marks of direction are text
        "The man moves&#133;",  # HTML reads 133 as Windows-1252: '…'
        "The man &#x26C0; moves.",  # a draughts man the book lacks: a warning, no refusal
        "The man &#99999999999999999999; moves.",  # past Unicode: U+FFFD
    ],
    ids=["escaped", "marks", "windows-1252", "glyph", "past-unicode"],
)
def test_a_reference_to_text_is_read_as_written(caption: str) -> None:
    assert parse(EXERCISE + f'caption: "{caption}"\n').caption == caption


def test_verify_refuses_a_bidi_override_written_as_a_reference_at_its_line(
    tmp_path: Path,
) -> None:
    """The review's caption, through the real command: one line at its place, no traceback."""
    folder = tmp_path / "diagrams"
    folder.mkdir()
    (folder / "man-move.yaml").write_text(
        'position: "W:W22:B4"\nclaim: setup\ncaption: "x &#x202E; gnp.exe The man"\n',
        encoding="utf-8",
    )
    result = run_cli("verify", "diagrams/man-move.yaml", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "diagrams/man-move.yaml:3: caption holds the control character U+202E at character 3 "
        "(written &#x202E;), which no page or book shows as text; delete it"
    ]


def test_a_character_the_book_cannot_print_is_a_warning_at_its_line() -> None:
    """The fonts Typst embeds lack the draughts men and emoji: the book shows U+FFFD for them."""
    diagram = parse(
        EXERCISE
        + 'title: "A man ⛀"\ncaption: "Forward only &#x1F600;"\n'
        + 'exercise: {ask: win, question: "Which one, ก?"}\n'
    )
    lack = "which the printed book's fonts lack: the book shows \ufffd in its place"
    assert [str(warning) for warning in diagram.book_warnings()] == [
        f"diagrams/example.yaml:3: the title has ⛀ (U+26C0 WHITE DRAUGHTS MAN), {lack}; "
        "write it another way",
        f"diagrams/example.yaml:4: the caption has 😀 (U+1F600 GRINNING FACE), {lack}; "
        "write it another way",
        f"diagrams/example.yaml:5: the question has ก (U+0E01 THAI CHARACTER KO KAI), {lack}; "
        "write it another way",
    ]
    plain = parse(EXERCISE + 'title: "Élan, Ж, Ω, € — «ok»"\ncaption: "Line\u2028break"\n')
    assert plain.book_warnings() == []


def test_a_diagram_from_text_reads_games_only_from_the_folder_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dama_diagrams import diagram_from_yaml

    (tmp_path / "games").mkdir()
    example = Path(__file__).resolve().parent.parent / "games" / "example.pdn"
    (tmp_path / "games" / "final.pdn").write_bytes(example.read_bytes())
    monkeypatch.chdir(tmp_path)
    text = "position: {game: games/final.pdn}\nclaim: setup\n"
    with pytest.raises(DamaError) as caught:
        diagram_from_yaml(text)
    assert caught.value.line == 1 and "base=" in caught.value.message
    final = "B:WK1,16,22,25,27,28,29,30,31,32:B2,3,4,6,7,8,11,12"  # games/example.pdn's end
    assert diagram_from_yaml(text, base=tmp_path).position.to_fen() == final
    with pytest.raises(DamaError, match="outside the project"):
        diagram_from_yaml("position: {game: /etc/passwd}\nclaim: setup\n", base=tmp_path)


# ------------------------------------------------------------------------------
# Diagram files that once broke the reader.
#
# From a hostile review (issue 9, items 7-12 and 14; issue 25): each input once gave a
# traceback, and is now one ``path:line: message`` and exit 1, run as a user runs the command.


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _exercise_line(project: Path, key: str) -> tuple[Path, list[str], int]:
    """A shipped exercise's file, its lines, and the index of the line that sets ``key``."""
    diagram = project / "diagrams" / "exercise-capture-compulsory.yaml"
    lines = diagram.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{key}:"))
    return diagram, lines, number


# --- 7. YAML 1.1 numbers and dates that PyYAML cannot convert --------------------------


@pytest.mark.slow
def test_hex_looking_claim_is_an_unknown_claim_at_its_line(project: Path) -> None:
    diagram = project / "diagrams" / "zz.yaml"
    diagram.write_text('position: "W:W31:B12"\nclaim: 0x_\n')
    message = fails_cleanly(run_cli("verify", "diagrams/zz.yaml", cwd=project), "zz.yaml:2:")
    assert "unknown claim '0x_'" in message


# --- 8. a square with 4,301 digits ----------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("square", ["1" * 4301, "K" + "1" * 4301])
def test_a_square_of_4301_digits_is_refused_and_not_echoed(project: Path, square: str) -> None:
    diagram = project / "diagrams" / "zz.yaml"
    diagram.write_text(
        f'position: {{turn: white, white: ["{square}"], black: [1]}}\nclaim: setup\n'
    )
    message = fails_cleanly(run_cli("verify", "diagrams/zz.yaml", cwd=project), "zz.yaml:1:")
    assert len(message) < 400


# --- issue 25: control characters written as YAML escapes -------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "escaped", "code"),
    [
        ("title", "\\x00", "U+0000"),  # NUL, ESC ... once reached the PO files and the HTML
        ("title", "\\e]0;pwn\\a", "U+001B"),  # a terminal escape (sets the window title)
        ("caption", "\\x7f", "U+007F"),
        ("question", "\\N", "U+0085"),  # NEL: once split a msgid across PO lines
    ],
)
def test_a_control_character_in_an_escape_is_refused_at_its_line(
    project: Path, key: str, escaped: str, code: str
) -> None:
    diagram, lines, number = _exercise_line(project, key)
    lines[number] = lines[number].replace('?"', f'? x{escaped}y"').replace('."', f'. x{escaped}y"')
    lines[number] = lines[number].replace('capture"', f'capture x{escaped}y"')
    assert escaped in lines[number]
    diagram.write_text("\n".join(lines) + "\n", encoding="utf-8")
    where = f"exercise-capture-compulsory.yaml:{number + 1}: the text holds the control character"
    message = fails_cleanly(run_cli("verify", "diagrams", cwd=project), where)
    assert code in message
    fails_cleanly(run_cli("build", "--lang", "en", cwd=project), where)
    assert not (project / "site").exists()


# --- Texts for pages: bound as every text that reaches Markdown, translations too -------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        (  # Python-Markdown is quadratic in '[': this passed verify, then took 161 s to build
            "caption",
            "<![CDATA[" * 7000,
            "caption is 63,000 characters long (at most 1,000); shorten it",
        ),
        ("title", "Compulsory \u202ecapture", "title holds the control character U+202E at"),
        ("question", "White \u2066to play?", "question holds the control character U+2066 at"),
        (  # an empty heading on the page, and one that PDF/UA refuses in the book
            "title",
            "\u200b",
            "title must be English text in quotes, not blank text (it holds only U+200B (ZERO "
            "WIDTH SPACE), which shows nothing)",
        ),
    ],
    ids=["quadratic-caption", "bidi-title", "bidi-question", "blank-title"],
)
def test_a_text_for_pages_past_the_markdown_limits_is_refused_at_its_line(
    project: Path, key: str, text: str, message: str
) -> None:
    """The limits that bound a translation bind the English of a diagram: same line, same words."""
    diagram, lines, number = _exercise_line(project, key)
    indent = lines[number][: len(lines[number]) - len(lines[number].lstrip())]
    lines[number] = f'{indent}{key}: "{text}"'
    diagram.write_text("\n".join(lines) + "\n", encoding="utf-8")
    where = f"diagrams/exercise-capture-compulsory.yaml:{number + 1}: {message}"
    for command in (("verify", "diagrams"), ("build", "--lang", "en")):
        started = time.perf_counter()
        result = run_cli(*command, cwd=project)
        assert time.perf_counter() - started < 20, command  # the caption's build took 161 s
        fails_cleanly(result, where)
    assert not (project / "site").exists()
