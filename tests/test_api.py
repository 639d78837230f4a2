"""The public surface: what `import dama_diagrams` promises."""

from pathlib import Path

import dama_diagrams


def test_all_is_sorted_and_exported() -> None:
    assert dama_diagrams.__all__ == sorted(dama_diagrams.__all__)
    for name in dama_diagrams.__all__:
        assert hasattr(dama_diagrams, name), name


def test_design_example() -> None:
    position = dama_diagrams.Position.from_fen("W:W31:B12,20,28")
    assert [str(m) for m in position.legal_moves()] == ["31x24x15x8"]
    assert position.play("31x24x15x8").is_game_over()


def test_every_stage_lists_only_names_it_has() -> None:
    import importlib

    for stage in ("engine", "diagram", "render", "site"):
        module = importlib.import_module(f"dama_diagrams.{stage}")
        assert len(set(module.__all__)) == len(module.__all__), stage  # ruff keeps it sorted
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{stage}.{name}"


def test_a_diagram_goes_from_yaml_to_picture_through_the_top_level(tmp_path: Path) -> None:
    path = tmp_path / "capture.yaml"
    path.write_text('position: "W:W31:B12,20,28"\nclaim: capture\nmove: 31x24x15x8\n')
    verified = dama_diagrams.verify(dama_diagrams.load_diagram(path))
    assert verified.legal_moves == (dama_diagrams.Move.parse("31x24x15x8"),)
    picture = dama_diagrams.diagram_svg(verified)
    assert picture.svg.startswith("<svg") and picture.width > 0 and picture.height > 0
