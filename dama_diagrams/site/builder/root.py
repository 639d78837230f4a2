"""The site's root: the language chooser (``index.html``) and the root ``404.html``.

Both list every language of the site.  The 404 page is served at any address
that has no page, so its links are absolute, from the site's path (``/`` or,
with a ``site_url`` under a sub-path, that path); a reader who asked for a
missing page of a language is sent on to that language's own 404 page.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

import jinja2

from .._common import TEMPLATES
from ..i18n import load_catalog, native_name


def site_path(site_url: str | None) -> str:
    """The path the site is served under: ``/``, or ``/regole/`` for ``https://x.org/regole``."""
    if not site_url:
        return "/"
    path = urlsplit(site_url).path or "/"
    return path if path.endswith("/") else f"{path}/"


def root_pages(
    project_root: Path, languages: Sequence[str], default: str, *, base: str
) -> dict[str, str]:
    """``index.html`` and ``404.html`` of the site's root, for ``languages``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    template = env.get_template("root_index.html")
    entries = _entries(project_root, languages)
    shared = {"languages": entries, "default": default}
    return {
        "index.html": template.render(**shared, base="", not_found=False),
        "404.html": template.render(**shared, base=base, not_found=True),
    }


def _entries(project_root: Path, languages: Sequence[str]) -> list[dict[str, str]]:
    entries = []
    for code in languages:
        catalog = load_catalog(project_root, code)
        entries.append(
            {
                "code": code,
                "name": native_name(code),
                "title": catalog.text("site.name"),
                "description": catalog.text("site.description"),
                "choose": catalog.text("site.root_choose"),
                "not_found": catalog.text("site.not_found"),
                "not_found_text": catalog.text("site.not_found_text"),
            }
        )
    return entries
