"""The locale catalogs: complete, consistent, strict, and easy to extend."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dama_diagrams.site.translations import (
    PLACEHOLDER,
    UNTRANSLATED,
    Catalog,
    CatalogError,
    available_languages,
    catalog_status,
    format_status,
    load_catalog,
    scaffold_language,
)

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = load_catalog(ROOT, "en").entries
TERMS = {
    "nl": ("schijf", "dam"),
    "it": ("pedina", "dama"),
    "en": ("man", "king"),
    "de": ("Stein", "Dame"),
    "fr": ("pion", "dame"),
    "es": ("peón", "dama"),
}


@pytest.mark.parametrize("language", sorted(TERMS))
def test_catalog_has_every_english_key(language: str) -> None:
    entries = load_catalog(ROOT, language).entries
    assert sorted(entries) == sorted(REFERENCE)
    assert all(value.strip() for value in entries.values())
    assert not [key for key, value in entries.items() if value.startswith(UNTRANSLATED)]


@pytest.mark.parametrize("language", sorted(TERMS))
def test_catalog_keeps_every_placeholder(language: str) -> None:
    entries = load_catalog(ROOT, language).entries
    for key, english in REFERENCE.items():
        assert set(PLACEHOLDER.findall(entries[key])) == set(PLACEHOLDER.findall(english)), key


@pytest.mark.parametrize("language", sorted(TERMS))
def test_catalog_uses_the_established_draughts_terms(language: str) -> None:
    man, king = TERMS[language]
    entries = load_catalog(ROOT, language).entries
    assert man in entries["legend.king"] or man in entries["position.man"]
    assert king.lower() in entries["position.king"].lower()


def test_every_required_language_has_a_catalog() -> None:
    assert set(TERMS) <= set(available_languages(ROOT))


def test_missing_key_names_language_key_and_file() -> None:
    catalog = Catalog("nl", Path("docs/locales/nl.yml"), {"a": "tekst"})
    with pytest.raises(CatalogError, match=r"nl: key 'b' is missing in docs/locales/nl.yml"):
        catalog.text("b")


def test_empty_key_is_an_error() -> None:
    catalog = Catalog("fr", Path("docs/locales/fr.yml"), {"a": "  "})
    with pytest.raises(CatalogError, match="key 'a' is empty"):
        catalog.text("a")


def test_placeholders_must_match_exactly() -> None:
    catalog = Catalog("de", Path("de.yml"), {"a": "Zug {move}", "b": "ohne"})
    assert catalog.text("a", move="22-19") == "Zug 22-19"
    with pytest.raises(CatalogError, match="unknown placeholder"):
        catalog.text("a")
    with pytest.raises(CatalogError, match=r"placeholder \{move\} is missing"):
        catalog.text("b", move="22-19")


def test_unused_keys_are_reported() -> None:
    catalog = Catalog("it", Path("it.yml"), {"used": "x", "stale": "y", "engine.any": "z"})
    catalog.text("used")
    assert catalog.unused_keys() == ["stale"]


def test_unquoted_yes_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs" / "locales").mkdir(parents=True)
    (tmp_path / "docs" / "locales" / "xx.yml").write_text("explain:\n  yes: si\n")
    with pytest.raises(CatalogError, match="quote it"):
        load_catalog(tmp_path, "xx")


def test_new_language_is_scaffolded_from_english(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    path = scaffold_language(tmp_path, "pt")
    entries = load_catalog(tmp_path, "pt").entries
    assert sorted(entries) == sorted(REFERENCE)
    assert all(value.startswith(UNTRANSLATED) for value in entries.values())
    assert path.name == "pt.yml"
    with pytest.raises(CatalogError, match="already exists"):
        scaffold_language(tmp_path, "pt")


def test_status_shows_completeness(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    scaffold_language(tmp_path, "pt")
    status = {entry.language: entry for entry in catalog_status(tmp_path)}
    assert status["nl"].complete and status["nl"].percent == 100.0
    assert status["pt"].translated == 0 and not status["pt"].complete
    text = format_status(list(status.values()))
    assert "pt" in text and "untranslated" in text
