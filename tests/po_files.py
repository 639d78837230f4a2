"""Editing a copied project's PO catalogs in tests, the way a translator's PO editor does."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from dama_diagrams.site.i18n import catalog_path

MessageId = str | tuple[str, str]
"""A message by its English, or by (context, English) for the code's own messages."""


def translate(project: Path, language: str, texts: Mapping[MessageId, str]) -> Path:
    """Give messages new translations, read and written by Babel; unknown ones are added.

    Each translation is current (not fuzzy), so the build shows it.
    """
    path = catalog_path(project, language)
    with path.open("rb") as file:
        catalog = read_po(file, locale=language.replace("-", "_"))
    for key, text in texts.items():
        context, english = key if isinstance(key, tuple) else (None, key)
        message = catalog.get(english, context)
        if message is None:
            catalog.add(english, text, context=context)
        else:
            message.string = text
            message.flags.discard("fuzzy")
    with path.open("wb") as file:
        write_po(file, catalog, width=0, include_previous=True)
    return path


def translation(project: Path, language: str, key: MessageId) -> str:
    """The translation of one message, as the PO file holds it now."""
    context, english = key if isinstance(key, tuple) else (None, key)
    with catalog_path(project, language).open("rb") as file:
        message = read_po(file, locale=language.replace("-", "_")).get(english, context)
    assert message is not None, key
    return str(message.string)


def english_starting(project: Path, language: str, start: str) -> str:
    """The whole English of the one message that starts so (a paragraph of a template)."""
    with catalog_path(project, language).open("rb") as file:
        catalog = read_po(file, locale=language.replace("-", "_"))
    found = [str(m.id) for m in catalog if isinstance(m.id, str) and m.id.startswith(start)]
    assert len(found) == 1, found
    return found[0]


def msgstr_line(path: Path, english: str, context: str | None = None) -> int:
    """The line of the ``msgstr`` of a one-line message, counted from 1."""
    lines = path.read_text(encoding="utf-8").split("\n")
    wanted = f'msgid "{english}"'
    for number, line in enumerate(lines):
        if line == wanted and (context is None or lines[number - 1] == f'msgctxt "{context}"'):
            assert lines[number + 1].startswith("msgstr "), lines[number + 1]
            return number + 2
    raise AssertionError(f"no message {english!r} in {path}")
