"""Captures step by step: frames, their order and timing, and the animated files.

The positions are worked out by hand: a white man on 30 jumps the black men on
26, 18 and 11 (30x21x14x7: three landings), and a man on 19 jumps 15 and 7 to
land on 3, its crowning row (19x12x3), where it is crowned as the move ends.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image, ImageSequence

from dama_diagrams.diagram import VerifiedDiagram, parse_diagram, verify
from dama_diagrams.render import animate, capture_frames
from dama_diagrams.render.steps import FINAL_MS, START_MS, STEP_MS
from tests.conftest import run_cli

THREE = 'position: "W:W30:B26,18,11"\nclaim: multi-capture\nmove: 30x21x14x7\n'
CROWNS = 'position: "W:W19:B15,7,28"\nclaim: multi-capture\nmove: 19x12x3\n'


def _verified(text: str, name: str = "anim") -> VerifiedDiagram:
    return verify(parse_diagram(text.encode(), f"diagrams/{name}.yaml"))


def _pieces(svg: str) -> dict[int, str]:
    """Square -> class of every piece drawn (for example 'white man')."""
    found = re.findall(r'class="piece ([a-z ]+)" data-square="(\d+)"', svg)
    return {int(square): kind for kind, square in found}


def test_a_three_landing_capture_has_start_each_landing_and_the_final_position() -> None:
    frames = capture_frames(_verified(THREE))
    boards = [_pieces(frame.picture.svg) for frame in frames]
    assert len(frames) == 5  # start, 21, 14, 7, final
    assert boards[0] == {30: "white man", 26: "black man", 18: "black man", 11: "black man"}
    # The jumped men stay on the board until the move is complete (they come off at the end).
    assert boards[1] == {21: "white man", 26: "black man", 18: "black man", 11: "black man"}
    assert boards[2] == {14: "white man", 26: "black man", 18: "black man", 11: "black man"}
    assert boards[3] == {7: "white man", 26: "black man", 18: "black man", 11: "black man"}
    assert boards[4] == {7: "white man"}
    assert [frame.milliseconds for frame in frames] == [
        START_MS,
        STEP_MS,
        STEP_MS,
        STEP_MS,
        FINAL_MS,
    ]
    assert FINAL_MS > STEP_MS  # the last frame holds longer


def test_a_man_reaching_the_crowning_row_is_a_king_in_the_last_frames() -> None:
    frames = capture_frames(_verified(CROWNS))
    boards = [_pieces(frame.picture.svg) for frame in frames]
    assert [square for square, kind in boards[1].items() if kind.startswith("white")] == [12]
    assert boards[2][3] == "white king" and boards[-1] == {3: "white king", 28: "black man"}


def test_a_diagram_without_a_capture_is_one_frame() -> None:
    text = 'position: "W:W22:B4"\nclaim: move\nmove: 22-18\n'
    frames = capture_frames(_verified(text))
    assert len(frames) == 1
    gif = Image.open(io.BytesIO(animate(frames)))
    assert getattr(gif, "n_frames", 1) == 1


def test_the_gif_holds_every_frame_with_its_duration_and_is_the_same_every_run() -> None:
    frames = capture_frames(_verified(THREE))
    data = animate(frames)
    assert data == animate(capture_frames(_verified(THREE)))
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == 5 and gif.size == (400, 400)
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert durations == [frame.milliseconds for frame in frames]
    assert gif.info.get("loop") == 0  # loops forever


def test_webp_is_offered_too_and_is_the_same_every_run() -> None:
    frames = capture_frames(_verified(THREE))
    data = animate(frames, image_format="webp")
    assert data == animate(frames, image_format="webp")
    webp = Image.open(io.BytesIO(data))
    assert webp.format == "WEBP" and webp.n_frames == 5


def test_render_writes_gif_and_webp_files(tmp_path: Path) -> None:
    diagrams = tmp_path / "diagrams"
    diagrams.mkdir()
    (diagrams / "three.yaml").write_text(THREE)
    for image_format in ("gif", "webp"):
        result = run_cli("render", diagrams, "--out", tmp_path / "out", "--format", image_format)
        assert result.returncode == 0, result.stderr
        with Image.open(tmp_path / "out" / f"three.{image_format}") as image:
            assert getattr(image, "n_frames", 1) == 5
