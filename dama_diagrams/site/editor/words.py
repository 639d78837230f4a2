"""The editor's words in each language: the site's own catalogs, shipped with the package.

The editor's English is the source, as a page template's is: the page
(``static/editor.html``, a Jinja2 template: ``{{ _("...") }}``), its script
(``static/editor.js``: ``t("...")``) and the server's sentences (``tr(lang,
"...")`` in this folder's modules).  ``babel.cfg`` names those files, so
``dama-diagrams update-translations`` puts their messages (no context) in
``docs/locales`` beside the site's.  An author's project has none of these
catalogs, yet the editor speaks the six languages of the rules site: ``python
scripts/editor_words.py`` copies the translations into ``words.json`` beside
this module, and ``tests/test_editor_words.py`` checks that the copy matches
the catalogs.  What the site already translates (the figure, the priority
table, the engine's sentence, the rules' names) comes from the fence's words
(:func:`..fence.words.fence_catalog`), never from a second translation here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup

from ...diagram.claims import VerifiedDiagram
from .._common import SiteError
from ..fence.words import (
    LANGUAGES,
    current_translations,
    fence_catalog,
    read_words,
)
from ..i18n.reading import DEFAULT_LANGUAGE, native_name
from ..i18n.safe_text import catalog_html
from ..pages.figures import engine_sentence, figure_view, rule_label

__all__ = [
    "LANGUAGES",
    "LanguageError",
    "catalog_words",
    "check_language",
    "editor_words",
    "language_menu",
    "page_text",
    "rules_out",
    "script_json",
    "script_words",
    "tr",
    "verdict",
]

SOURCES = "dama_diagrams/site/editor/"
"""Where the editor's English is written: a message used there is one of its words."""

Words = dict[str, dict[str, str]]
"""Language, then English, then its translation."""

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_TAG = re.compile(r"(<[^>]*>)")


class LanguageError(SiteError):
    """A language the editor does not speak."""


def check_language(language: object) -> str:
    """``language`` if the editor speaks it, else a :class:`LanguageError` naming the six."""
    if not isinstance(language, str) or language not in LANGUAGES:
        shown = repr(language)[:20]
        raise LanguageError(
            f"the editor speaks {', '.join(LANGUAGES)}, not {shown}: choose one of them"
        )
    return language


def catalog_words(project_root: Path) -> Words:
    """The editor's messages of every language but English, as the project's catalogs have them.

    Only translations that are current for their English: the others show the
    English, as on the site.
    """
    return {
        language: {
            english: entry.shown
            for (context, english), entry in entries
            if context is None and any(path.startswith(SOURCES) for path, _ in entry.sources)
        }
        for language, entries in current_translations(project_root).items()
    }


@lru_cache(maxsize=1)
def shipped_words() -> Words:
    """The words the package ships."""
    words: Words = read_words(__package__)
    return words


def editor_words(language: str) -> dict[str, str]:
    """English to ``language``: every translated message of the editor (none for English)."""
    return shipped_words().get(check_language(language), {})


def tr(language: str, english: str, /, **values: object) -> str:
    """The server's sentence ``english`` in ``language``, its ``{name}`` placeholders filled.

    The English is the message (``babel.cfg`` extracts ``tr``'s second argument),
    so a message not yet translated shows in English.
    """
    text = editor_words(language).get(english, english)
    return _PLACEHOLDER.sub(
        lambda match: str(values[match.group(1)]) if match.group(1) in values else match.group(0),
        text,
    )


def page_text(language: str, english: str) -> Markup:
    """One of the page's messages as safe HTML, for its template's ``_()``.

    Catalog text is Markdown (`code`, *emphasis*) made safe by the site's own
    cleaner; quotes are escaped too, so that the text may stand in an attribute.
    """
    clean = catalog_html(editor_words(language).get(english, english), inline=True)
    return Markup(
        "".join(
            part if _TAG.fullmatch(part) else part.replace('"', "&quot;").replace("'", "&#39;")
            for part in _TAG.split(clean)
        )
    )


def script_words(language: str) -> Markup:
    """The words of the page's script in ``language``, for the page (:func:`script_json`)."""
    return script_json(editor_words(language))


def script_json(words: Mapping[str, str]) -> Markup:
    """``words`` as JSON safe inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` are written as ``\\u003c``…, so no translation can
    close the script element or open a comment.
    """
    text = json.dumps(words, ensure_ascii=False, sort_keys=True)
    for character, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(character, escaped)
    return Markup(text)


def language_menu(language: str) -> list[dict[str, object]]:
    """The page's language menu: each language's code, its name in itself, whether it is on."""
    return [
        {"code": code, "name": native_name(code), "current": code == language} for code in LANGUAGES
    ]


def verdict(verified: VerifiedDiagram, language: str) -> str:
    """What the engine confirms of a diagram, in ``language``: a claim's line, the preview's.

    English keeps ``verify``'s own line; another language has the sentence its
    figure shows on the site (:func:`..pages.figures.engine_sentence`), begun
    with a capital.
    """
    if check_language(language) == DEFAULT_LANGUAGE:
        return verified.summary
    said = engine_sentence(figure_view(verified), fence_catalog(language))
    return said[:1].upper() + said[1:]


def rules_out(rule: str, rejected: Sequence[str], language: str) -> str:
    """'rule 2 (capture with a king) rules out 22x13x6', in ``language``: a claim's label."""
    catalog = fence_catalog(check_language(language))
    return tr(
        language,
        "{rule} rules out {moves}",
        rule=rule_label(rule, catalog),
        moves=catalog.join(list(rejected)),
    )
