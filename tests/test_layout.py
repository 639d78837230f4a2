"""The package draws its own architecture: data flows one way, engine → diagram → render → site.

Every import in every module is read (lazy imports inside functions too), and
none may reach a later stage.  ``cli.py`` and the package's own ``__init__``
sit above all stages; ``errors.py`` below them.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

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
    figures = PACKAGE / "site" / "pages" / "figures.py"
    assert "dama_diagrams.render.figure" in {m for _, m in _imports(figures)}
    claims = PACKAGE / "diagram" / "claims.py"
    assert any(m.startswith("dama_diagrams.engine") for _, m in _imports(claims))


def test_no_module_is_crowded() -> None:
    lines = {p.relative_to(PACKAGE): len(p.read_text().splitlines()) for p in MODULES}
    assert max(lines.values()) <= 600, max(lines.items(), key=lambda item: item[1])


def _import_graph() -> Any:
    """grimp's graph of the package: every import, lazy and TYPE_CHECKING ones too."""
    import grimp

    return grimp.build_graph("dama_diagrams", cache_dir=None)


def test_no_circle_of_imports_anywhere() -> None:
    """No module reaches itself again through the modules it imports (grimp, not our parser)."""
    graph = _import_graph()
    circles = []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                circles.append(" -> ".join([module, *back]))
    assert not circles, "\n".join(circles)


def test_the_circle_check_finds_a_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above is not blind: two modules that import each other are found."""
    package = tmp_path / "circle_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f() -> None:\n    from .a import x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import grimp

    graph = grimp.build_graph("circle_probe", cache_dir=None)
    assert graph.find_shortest_chain(importer="circle_probe.b", imported="circle_probe.a")
    assert graph.find_shortest_chain(importer="circle_probe.a", imported="circle_probe.b")


ROOMS = ("i18n", "pages", "booklet", "builder", "publish", "servers", "fence", "editor")
"""The site's rooms, in the order data flows through them (``site/__init__``'s docstring)."""


def test_each_room_of_the_site_imports_only_earlier_rooms() -> None:
    for path in sorted((PACKAGE / "site").rglob("*.py")):
        own = path.relative_to(PACKAGE / "site").parts[0]
        if own not in ROOMS:
            continue  # __init__, _common, messages: shared by all
        for line, module in _imports(path):
            parts = module.split(".")
            if parts[:2] != ["dama_diagrams", "site"] or len(parts) < 3 or parts[2] not in ROOMS:
                continue
            assert ROOMS.index(parts[2]) <= ROOMS.index(own), (
                f"site/{path.relative_to(PACKAGE / 'site')}:{line} imports {module}: the "
                f"{own} room may not use the later {parts[2]} room"
            )


def test_each_room_says_which_stage_it_is() -> None:
    """The docstring of each room names its place, what it takes and what it gives."""
    import importlib

    site_doc = importlib.import_module("dama_diagrams.site").__doc__ or ""
    for number, room in enumerate(ROOMS, start=1):
        doc = importlib.import_module(f"dama_diagrams.site.{room}").__doc__ or ""
        assert doc.startswith(f"Stage {number} of the site"), (room, doc[:80])
        assert "Takes" in doc and "Gives" in doc, room
        assert f"{number}. :mod:`.{room}`" in site_doc, room
    loose = sorted(
        path.name
        for path in (PACKAGE / "site").glob("*.py")
        if path.name not in {"__init__.py", "_common.py", "messages.py"}
    )
    assert not loose, f"modules outside every room of site/: {loose}"


def test_no_module_uses_a_librarys_undocumented_modules() -> None:
    """cairosvg's API is its top level (``svg2png`` and friends), not its submodules."""
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                assert not name.startswith("cairosvg."), (
                    f"{path.relative_to(PACKAGE)}:{node.lineno} imports {name}"
                )
