"""The package draws its own architecture: data flows one way, engine → diagram → render → site.

Every import in every module is read (lazy imports inside functions too), and
none may reach a later stage.  ``cli.py`` and the package's own ``__init__``
sit above all stages; ``errors.py`` below them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "dama_diagrams"
STAGES = ("errors", "engine", "diagram", "render", "site")
"""In order: a module may import its own stage and earlier ones."""


def _stage(module: str) -> str | None:
    """The stage of a dotted module name inside the package, or None for cli/__init__."""
    parts = module.split(".")
    if parts[0] != "dama_diagrams" or len(parts) < 2:
        return None
    return parts[1].removesuffix(".py") if parts[1] in STAGES else None


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import of the package in ``path``."""
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    package = list(relative.parts[:-1])  # what a relative import starts from, __init__ too
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            found.extend((node.lineno, name) for name in names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return [(line, name) for line, name in found if name.startswith("dama_diagrams")]


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_later_stage(path: Path) -> None:
    relative = path.relative_to(PACKAGE)
    own = relative.parts[0].removesuffix(".py")
    if own not in STAGES:
        return  # cli.py, __main__.py and __init__.py may use every stage
    for line, module in _imports(path):
        target = _stage(module)
        if target is not None:
            assert STAGES.index(target) <= STAGES.index(own), (
                f"{relative}:{line} imports {module}: the {own} stage may not use the later "
                f"{target} stage"
            )


def test_the_layout_check_sees_relative_imports() -> None:
    figures = PACKAGE / "site" / "figures.py"
    assert "dama_diagrams.render.figure" in {m for _, m in _imports(figures)}
    claims = PACKAGE / "diagram" / "claims.py"
    assert any(m.startswith("dama_diagrams.engine") for _, m in _imports(claims))


def test_no_module_is_crowded() -> None:
    lines = {p.relative_to(PACKAGE): len(p.read_text().splitlines()) for p in MODULES}
    assert max(lines.values()) <= 650, max(lines.items(), key=lambda item: item[1])
