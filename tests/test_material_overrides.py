"""Our theme overrides are copies of Material's templates: they must not drift from it.

``dama_diagrams/site/templates/overrides/`` holds modified copies of Material for
MkDocs templates (the ``site_meta`` and ``htmltitle`` blocks of ``base.html`` in
``main.html``; ``partials/alternate.html``; ``partials/footer.html``;
``partials/copyright.html``; ``partials/language.html``;
``404.html``).  Material has
no smaller hook for these changes, so the copies stay, and these tests pin the
upstream text each copy was made from: a SHA-256 taken from the tested Material
release.  When Material changes one of those texts, the matching test fails, and
the copy must be brought up to date by hand.

The blocks of ``base.html`` are hashed on their own, not the whole file, because
the rest of ``base.html`` changes with every release (asset hashes).  Inside the
``site_meta`` block, the installed version in the generator tag
(``mkdocs-material-9.8.2``) is replaced by ``mkdocs-material-{version}`` before
hashing, so that a patch release that changes nothing else does not fail.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.resources
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_project, run_cli

ROOT = Path(__file__).resolve().parent.parent
OVERRIDES = "dama_diagrams/site/templates/overrides"

# The Material minor release the recorded hashes were taken from (9.8.2), and
# that pyproject.toml's site extra pins (mkdocs-material>=9.8,<9.9).
TESTED_MINOR = (9, 8)

# Upstream file (under material/templates/) -> SHA-256 of its text in Material 9.8.2.
COPIED_FILES = {
    "partials/alternate.html": "572b1d4dae611aa5fd65107edec95e44331b6141abf86834ea4dc6c1ddd7241b",
    "partials/footer.html": "50c2a75f013b7b03fb97f381860c77df8fd5d13d68f90d3281754b68f69ec894",
    "partials/copyright.html": "bc86bca3bf75070fe5d72e2a3463bdddf87c10f4d6459c945fe81c5d384e35ea",
    "404.html": "80c93494b5432b1bcdf292caeb67a0653c45b37372f49e08ad4a70ca695a7495",
    "partials/language.html": "3a44516f305006ac794f51a45ad7b532cf270916d8e92e8c42784e58b2eff0a3",
}

# Block of material/templates/base.html -> SHA-256 of its text in Material 9.8.2,
# from "{% block NAME %}" to its "{% endblock %}", version normalised (see above).
COPIED_BLOCKS = {
    "site_meta": "1d45f6db7602643832d1d2a73ae14445b55146f34627b350bc435ba28a4d269f",
    "htmltitle": "8ebd0d3f80cb7be8baa6a77ed0759e9d08eba8a72047270089a452cd911f83ef",
}


def material_version() -> str:
    return importlib.metadata.version("mkdocs-material")


def release(version: str) -> tuple[int, ...]:
    """The leading numbers of a version: ``"9.8.2"`` -> ``(9, 8, 2)``."""
    match = re.match(r"\d+(?:\.\d+)*", version)
    assert match, f"cannot read the version {version!r}"
    return tuple(int(part) for part in match.group().split("."))


def dotted(numbers: tuple[int, ...]) -> str:
    return ".".join(map(str, numbers))


def upstream_text(name: str) -> str:
    """The text of one of the installed Material's templates (``name`` under templates/)."""
    return (importlib.resources.files("material") / "templates" / name).read_text("utf-8")


def upstream_block(name: str) -> str:
    """One ``{% block %}`` of the installed Material's base.html, version normalised."""
    text = upstream_text("base.html")
    start_tag, end_tag = f"{{% block {name} %}}", "{% endblock %}"
    assert start_tag in text, (
        f"Material {material_version()}: base.html has no {start_tag}, which "
        f"{OVERRIDES}/main.html overrides; find where Material moved it and port main.html"
    )
    start = text.index(start_tag)
    end = text.index(end_tag, start) + len(end_tag)
    block = text[start:end]
    return block.replace(f"mkdocs-material-{material_version()}", "mkdocs-material-{version}")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def drift_message(upstream: str, override: str, recorded: str, found: str) -> str:
    return (
        f"Material {material_version()} changed {upstream}, which {OVERRIDES}/{override} "
        f"is a modified copy of (recorded sha256 {recorded}, now {found}). "
        f"Diff the old and new upstream text, port the change into {override} while "
        f"keeping our modifications, then record the new hash in "
        f"tests/test_material_overrides.py (and the version in {override}'s header comment)."
    )


def check_copied_file(name: str) -> None:
    recorded, found = COPIED_FILES[name], sha256(upstream_text(name))
    assert found == recorded, drift_message(f"templates/{name}", name, recorded, found)


def check_copied_block(name: str) -> None:
    recorded, found = COPIED_BLOCKS[name], sha256(upstream_block(name))
    assert found == recorded, drift_message(
        f"the {{% block {name} %}} of templates/base.html", "main.html", recorded, found
    )


def test_copied_alternate_partial_matches_installed_material() -> None:
    check_copied_file("partials/alternate.html")


def test_copied_footer_matches_installed_material() -> None:
    check_copied_file("partials/footer.html")


def test_copied_copyright_matches_installed_material() -> None:
    check_copied_file("partials/copyright.html")


def test_copied_language_partial_matches_installed_material() -> None:
    check_copied_file("partials/language.html")


def test_copied_404_page_matches_installed_material() -> None:
    check_copied_file("404.html")


def test_copied_site_meta_block_matches_installed_material() -> None:
    check_copied_block("site_meta")


def test_copied_htmltitle_block_matches_installed_material() -> None:
    check_copied_block("htmltitle")


@pytest.mark.parametrize("name", sorted(COPIED_FILES))
def test_every_copied_partial_has_an_override(name: str) -> None:
    assert (ROOT / OVERRIDES / name).is_file(), f"{OVERRIDES}/{name} is gone: drop its hash"


def pinned_material_range() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ``>=LOW,<HIGH`` of mkdocs-material in pyproject.toml's ``site`` extra."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        dependencies = tomllib.load(file)["project"]["optional-dependencies"]["site"]
    pins = [dep for dep in dependencies if re.match(r"mkdocs-material\b", dep)]
    assert len(pins) == 1, f"pyproject.toml should list mkdocs-material once, not {pins}"
    match = re.fullmatch(r"mkdocs-material>=([\d.]+),<([\d.]+)", pins[0].replace(" ", ""))
    assert match, f"pin mkdocs-material as '>=X.Y,<X.Y+1' in pyproject.toml, not {pins[0]!r}"
    return release(match.group(1)), release(match.group(2))


def test_material_is_pinned_to_the_tested_minor_release() -> None:
    low, high = pinned_material_range()
    assert (low, high) == (TESTED_MINOR, (TESTED_MINOR[0], TESTED_MINOR[1] + 1)), (
        f"pyproject.toml pins mkdocs-material to >={dotted(low)},<{dotted(high)}, but the "
        f"override hashes were recorded from {dotted(TESTED_MINOR)}: re-check the overrides "
        "against the new release and update TESTED_MINOR and the hashes with the pin"
    )


def test_installed_material_is_within_the_pinned_range() -> None:
    low, high = pinned_material_range()
    installed = release(material_version())
    assert low <= installed < high, (
        f"mkdocs-material {material_version()} is installed, outside the pinned range "
        f">={dotted(low)},<{dotted(high)}: reinstall with pip install -e '.[test]'"
    )


def test_the_shared_theme_copies_what_mkdocs_copies() -> None:
    """The build lists Material once per process, without its dot folders (``.icons``).

    MkDocs' own listing of the theme, through its own filter, must give the
    same static files, in the same order: nothing Material ships goes missing.
    """
    import jinja2
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files

    from dama_diagrams.site.builder.templates import share_theme

    def theme_files() -> list[tuple[str, str]]:
        files = Files([])
        files.add_files_from_theme(config.theme.get_env(), config)
        return [(file.src_uri, file.dest_uri) for file in files]

    config = load_config(config_file=str(ROOT / "mkdocs.yml"))
    by_mkdocs = theme_files()
    share_theme(config.theme)
    shared, again = theme_files(), theme_files()

    assert shared == again == by_mkdocs
    names = {source for source, _ in by_mkdocs}
    assert "assets/javascripts/lunr/min/lunr.it.min.js" in names  # a file of every site
    listed = jinja2.FileSystemLoader(config.theme.dirs).list_templates()
    icons = [name for name in listed if name.startswith(".icons/")]
    assert len(icons) > 10_000  # Material's icons, which no site copies
    assert not names & set(icons)


def test_a_process_that_compiled_the_theme_compiles_none_of_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a build's workers inherit: every template of the theme, compiled, in any language."""
    import jinja2
    from mkdocs.theme import Theme

    from dama_diagrams.site._common import OVERRIDES
    from dama_diagrams.site.builder import compiled_theme  # noqa: F401  # compiles on import
    from dama_diagrams.site.builder.templates import share_theme

    compiled: list[str] = []
    compile_for_real = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: Any, name: str | None = None, *a: Any) -> Any:
        compiled.append(str(name))
        return compile_for_real(self, source, name, *a)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    theme = Theme(name="material", custom_dir=str(OVERRIDES), language="de")
    share_theme(theme)
    environment = theme.get_env()
    names = environment.list_templates(extensions=["html"])
    for name in ("main.html", "base.html", "partials/header.html", "partials/languages/de.html"):
        assert name in names
        environment.get_template(name)
    assert compiled == []
    fresh = jinja2.Environment(loader=jinja2.DictLoader({"page.html": "{{ 1 }}"}))
    assert fresh.get_template("page.html").render() == "1"
    assert compiled == ["page.html"]  # the count sees a compile


# ------------------------------------------------------------------------------
# Round 3 of the hostile review, M01-M02: the types in ``mkdocs.yml`` are checked.
#
# A palette or a plugin list of the wrong type is one line at its place in
# ``mkdocs.yml``, never a traceback; the one-scheme palette Material accepts builds.


PALETTE = re.compile(r"^  palette:\n(?:    .*\n)+", re.M)
PLUGINS = re.compile(r"^plugins:\n(?:  - .*\n)+", re.M)


def _edited(project: Path, pattern: re.Pattern[str], replacement: str) -> int:
    """``mkdocs.yml`` with the part ``pattern`` matches replaced; the line where it starts."""
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    match = pattern.search(text)
    assert match is not None
    config.write_text(text[: match.start()] + replacement + text[match.end() :], "utf-8")
    return text.count("\n", 0, match.start()) + 1


@pytest.mark.parametrize(
    "palette", ["palette: 3\n", "palette: slate\n", "palette: [3]\n", "palette: [{toggle: 3}]\n"]
)
def test_a_palette_of_the_wrong_type_is_one_line(tmp_path: Path, palette: str) -> None:
    project = copy_project(tmp_path)
    line = _edited(project, PALETTE, "  " + palette)
    result = run_cli("build", "--lang", "en", "--out", tmp_path / "site", cwd=project)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    (printed,) = result.stderr.strip().splitlines()
    assert printed.startswith(f"mkdocs.yml:{line}: theme.palette must be a list of color schemes")


@pytest.mark.parametrize("plugins", ["plugins:\n", "plugins: 3\n", "plugins: [3]\n"])
def test_plugins_of_the_wrong_type_are_one_line(tmp_path: Path, plugins: str) -> None:
    project = copy_project(tmp_path)
    line = _edited(project, PLUGINS, plugins)
    result = run_cli("build", "--lang", "en", "--out", tmp_path / "site", cwd=project)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    (printed,) = result.stderr.strip().splitlines()
    assert printed.startswith(f"mkdocs.yml:{line}: plugins must be a list of plugin names")


def test_a_palette_of_one_scheme_builds(tmp_path: Path) -> None:
    """``palette: {scheme: slate}``, a form Material accepts (before: a ValueError)."""
    project = copy_project(tmp_path)
    _edited(project, PALETTE, "  palette:\n    scheme: slate\n    primary: brown\n")
    site = tmp_path / "site"
    result = run_cli("build", "--lang", "en", "--out", site, cwd=project)
    assert result.returncode == 0, result.stderr
    assert 'data-md-color-scheme="slate"' in (site / "en" / "index.html").read_text("utf-8")
