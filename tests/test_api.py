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

    rooms = ("i18n", "pages", "booklet", "builder", "publish", "servers")
    for stage in ("engine", "diagram", "render", "site", *(f"site.{room}" for room in rooms)):
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


def test_the_site_package_loads_its_rooms_only_when_a_name_is_used() -> None:
    """``verify`` and ``game`` need the project's layout, not MkDocs: importing it cost 0.6 s."""
    import subprocess
    import sys

    probe = (
        "import sys, dama_diagrams.site._common, dama_diagrams.site as site\n"
        "print(sorted(m for m in ('mkdocs', 'material', 'dama_diagrams.site.publish') "
        "if m in sys.modules))\n"
        "site.build_site\n"
        "print('dama_diagrams.site.publish' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "True"]
