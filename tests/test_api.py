"""The public surface: what `import dama_diagrams` promises."""

import dama_diagrams


def test_all_is_sorted_and_exported() -> None:
    assert dama_diagrams.__all__ == sorted(dama_diagrams.__all__)
    for name in dama_diagrams.__all__:
        assert hasattr(dama_diagrams, name), name


def test_design_example() -> None:
    position = dama_diagrams.Position.from_fen("W:W31:B12,20,28")
    assert [str(m) for m in position.legal_moves()] == ["31x24x15x8"]
    assert position.play("31x24x15x8").is_game_over()
