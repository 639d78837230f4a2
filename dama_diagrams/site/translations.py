"""Locale catalogs: every word of the site, one YAML file per language.

A catalog is nested YAML (``docs/locales/<lang>.yml``) read as flat dotted
keys.  Lookups are strict: a missing or empty key is an error that names the
language, the key and the file, because a silent fallback would publish a page
with a hole in it.  An entry that starts with :data:`UNTRANSLATED` is a
placeholder copied from English by :func:`scaffold_language`; it is shown, and
the page says that it is not fully translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..diagram._yaml import load_yaml, read_utf8
from ..errors import DamaError, shorten

DEFAULT_LANGUAGE = "en"
UNTRANSLATED = "[untranslated] "
LOCALES_DIR = Path("docs") / "locales"
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z]{2,4})?")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
COMPUTED_PREFIXES = (
    "engine.",
    "position.",
    "rules.",
    "meta.",
    "site.",
    "alt.",
    "steps.",
    "legend.",
)
"""Keys that code looks up by a computed name; a build that needs none of them
is normal, so they are never reported as unused."""


class CatalogError(DamaError):
    """A catalog is malformed, or lacks a key that a page needs."""


@dataclass
class Catalog:
    """The flattened entries of one language, and which of them were used."""

    language: str
    path: Path
    entries: dict[str, str]
    used: set[str] = field(default_factory=set)
    untranslated_used: set[str] = field(default_factory=set)

    def text(self, key: str, /, **params: str) -> str:
        """The entry ``key`` with its ``{name}`` placeholders filled in."""
        raw = self.entries.get(key)
        self.used.add(key)
        if raw is None:
            raise self.error(f"key '{key}' is missing")
        if raw.startswith(UNTRANSLATED):
            self.untranslated_used.add(key)
            raw = raw[len(UNTRANSLATED) :]
        if not raw.strip():
            raise self.error(f"key '{key}' is empty")
        return fill(raw, params, lambda message: self.error(f"key '{key}': {message}"))

    def join(self, items: Sequence[str], *, escape: Callable[[str], str] = str) -> str:
        """'a, b and c' with this language's word for 'and' (``escape``-d, for raw HTML)."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {escape(self.text('ui.and'))} {items[-1]}"

    def error(self, message: str) -> CatalogError:
        return CatalogError(f"{self.language}: {message} in {self.path.as_posix()}")

    def unused_keys(self) -> list[str]:
        """Keys no page or figure asked for: likely leftovers of a removed page."""
        return sorted(
            key
            for key in self.entries
            if key not in self.used and not key.startswith(COMPUTED_PREFIXES)
        )


def fill(raw: str, params: Mapping[str, str], error: Any) -> str:
    """Replace ``{name}`` placeholders; a missing or unknown one is an error.

    Only lowercase ``{name}`` patterns are placeholders, so code with braces
    passes through untouched.  (Pages show every other brace literally: an
    attribute list could set ``onclick``, see :func:`dama_diagrams.site._markdown.safe_markdown`.)
    """
    found = set(PLACEHOLDER.findall(raw))
    unknown = sorted(found - params.keys())
    if unknown:
        raise error(f"unknown placeholder {{{unknown[0]}}}")
    lost = sorted(params.keys() - found)
    if lost:
        raise error(f"placeholder {{{lost[0]}}} is missing")
    return PLACEHOLDER.sub(lambda match: params[match.group(1)], raw)


def catalog_path(project_root: Path, language: str) -> Path:
    return project_root / LOCALES_DIR / f"{language}.yml"


def available_languages(project_root: Path) -> list[str]:
    """Every language that has a catalog, in alphabetical order of its code."""
    folder = project_root / LOCALES_DIR
    return sorted(path.stem for path in folder.glob("*.yml") if LANGUAGE_CODE.fullmatch(path.stem))


_CACHE: dict[Path, tuple[tuple[int, int], dict[str, str]]] = {}
"""Parsed catalogs by file, with the file's (mtime, size): YAML parsing is the
slow part of a build, and the language menu needs every catalog's name."""


def load_catalog(project_root: Path, language: str) -> Catalog:
    path = catalog_path(project_root, language)
    shown = path.relative_to(project_root) if path.is_relative_to(project_root) else path
    if not path.is_file():
        raise CatalogError(f"{language}: no catalog at {shown.as_posix()}")
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == stamp:
        return Catalog(language, shown, cached[1])
    entries = _read_catalog(path, language, shown)
    _CACHE[path] = (stamp, entries)
    return Catalog(language, shown, entries)


def _read_catalog(path: Path, language: str, shown: Path) -> dict[str, str]:
    prefix = f"{language}: "
    text = read_utf8(path, shown.as_posix(), CatalogError, prefix)
    data, _ = load_yaml(text, shown.as_posix(), CatalogError, prefix)
    if not isinstance(data, dict):
        raise CatalogError(f"{language}: the catalog must be a mapping", path=shown.as_posix())
    return flatten(data, language, shown)


def flatten(data: Mapping[Any, Any], language: str, path: Path, prefix: str = "") -> dict[str, str]:
    """Nested mappings to dotted keys; every leaf must be text."""
    entries: dict[str, str] = {}
    for raw_key, value in data.items():
        key = f"{prefix}{raw_key}"
        if not isinstance(raw_key, str):
            raise CatalogError(
                f"{language}: key '{prefix}{raw_key}' is read as {type(raw_key).__name__}, "
                f"not text (quote it) in {path.as_posix()}"
            )
        if isinstance(value, dict):
            entries.update(flatten(value, language, path, f"{key}."))
        elif isinstance(value, str):
            entries[key] = value.strip()
        else:
            raise CatalogError(
                f"{language}: key '{key}' must hold text, not {type(value).__name__} "
                f"(quote the value) in {path.as_posix()}"
            )
    return entries


def nest(entries: Mapping[str, str]) -> dict[str, Any]:
    """Dotted keys back to nested mappings, in the order given."""
    tree: dict[str, Any] = {}
    for key, value in entries.items():
        node = tree
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


# --- scaffolding and status -------------------------------------------------


class _CatalogDumper(yaml.SafeDumper):
    """Writes multi-line entries as ``|`` blocks, so a translator sees paragraphs."""


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_CatalogDumper.add_representer(str, _represent_text)


def scaffold_language(project_root: Path, language: str) -> Path:
    """Write a new catalog copied from English, every entry marked untranslated."""
    if not LANGUAGE_CODE.fullmatch(language):
        raise CatalogError(f"{shorten(language)} is not a language code such as 'pt' or 'pt-BR'")
    target = catalog_path(project_root, language)
    if target.exists():
        raise CatalogError(f"{language}: a catalog already exists at {target}")
    source = load_catalog(project_root, DEFAULT_LANGUAGE)
    marked = {
        key: value if key == "meta.name" else UNTRANSLATED + value
        for key, value in source.entries.items()
    }
    marked["meta.name"] = UNTRANSLATED + language
    header = (
        f"# Catalog for '{language}', scaffolded from English.\n"
        f"# Translate each entry and remove its '{UNTRANSLATED.strip()}' mark.\n"
        "# Keep every {placeholder} as it is.\n"
    )
    body = yaml.dump(
        nest(marked), Dumper=_CatalogDumper, allow_unicode=True, sort_keys=False, width=100
    )
    target.write_text(header + body, encoding="utf-8")
    return target


@dataclass(frozen=True)
class LanguageStatus:
    """How complete one catalog is, measured against the English one."""

    language: str
    total: int
    translated: int
    untranslated: tuple[str, ...]
    missing: tuple[str, ...]
    extra: tuple[str, ...]

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0

    @property
    def complete(self) -> bool:
        return not self.untranslated and not self.missing


def catalog_status(project_root: Path) -> list[LanguageStatus]:
    """Completeness of every catalog, for ``dama-diagrams status``."""
    reference = load_catalog(project_root, DEFAULT_LANGUAGE).entries
    report = []
    for language in available_languages(project_root):
        entries = load_catalog(project_root, language).entries
        untranslated = tuple(
            key
            for key in reference
            if key in entries and (entries[key].startswith(UNTRANSLATED) or not entries[key])
        )
        missing = tuple(key for key in reference if key not in entries)
        extra = tuple(key for key in entries if key not in reference)
        done = len(reference) - len(untranslated) - len(missing)
        report.append(LanguageStatus(language, len(reference), done, untranslated, missing, extra))
    return report


def format_status(statuses: list[LanguageStatus]) -> str:
    """The status table as plain text, one language a line."""
    lines = []
    for status in statuses:
        line = f"{status.language:6} {status.percent:5.1f}%  {status.translated}/{status.total}"
        notes = []
        if status.untranslated:
            notes.append(f"{len(status.untranslated)} untranslated")
        if status.missing:
            notes.append(f"{len(status.missing)} missing")
        if status.extra:
            notes.append(f"{len(status.extra)} not in English")
        lines.append(line + ("  (" + ", ".join(notes) + ")" if notes else ""))
    return "\n".join(lines)
