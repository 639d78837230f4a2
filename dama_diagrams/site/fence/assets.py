"""The figure's style and scripts, inside the page, for a site of any theme.

A site that uses the fence did not copy this project's ``dama.css`` and
scripts, and its theme may be Material, MkDocs' own or none at all.  So the
first figure of each page brings them along (as ``data:`` addresses): the figure's rules of
``templates/dama.css`` (those about figures, legends, the engine's line and
the step controls), scoped to the fence's ``.dama-fence`` wrapper instead of
Material's ``.md-typeset``, with a fallback for every Material colour
variable; and ``dama-pages.js`` with ``dama-steps.js``, the site's own
scripts.  Everything is read from the files the site serves, so the two
cannot differ.
"""

from __future__ import annotations

import base64
import functools
import re

from .._common import TEMPLATES

SCOPE = "dama-fence"
"""The class of the element around each fence's figure."""

FIGURE_PARTS = ("dama-figure", "dama-steps", "dama-legend", "dama-caption", "dama-engine")
"""A rule of dama.css belongs to the figure when its selector names one of these."""

FALLBACKS = {
    "--md-default-fg-color": "currentColor",
    "--md-default-fg-color--light": "currentColor",
    "--md-default-fg-color--lighter": "rgba(127, 127, 127, .5)",
    "--md-default-bg-color": "transparent",
    "--md-accent-fg-color": "#2c6b4c",
}
"""Material's colours the figure's rules use, and what stands in for them on other themes."""

_RULE = re.compile(r"(?P<selector>[^{}@]+)\{(?P<body>[^{}]*)\}")
_VARIABLE = re.compile(r"var\((--md-[a-z-]+)\)")


@functools.cache
def fence_css() -> str:
    """The figure's rules of ``dama.css``, for any theme (one line between rules)."""
    source = (TEMPLATES / "dama.css").read_text(encoding="utf-8")
    top_level = _without_at_rules(re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL))
    rules = []
    for match in _RULE.finditer(top_level):
        selector = " ".join(match["selector"].split())
        if not any(part in selector for part in FIGURE_PARTS) or "> ul.dama-legend" in selector:
            continue
        selector = selector.replace(".md-typeset", f".{SCOPE}")
        body = _VARIABLE.sub(_with_fallback, " ".join(match["body"].split()))
        rules.append(f"{selector} {{ {body} }}")
    return "\n".join(rules)


def _with_fallback(match: re.Match[str]) -> str:
    name = match[1]
    fallback = FALLBACKS.get(name)
    return f"var({name}, {fallback})" if fallback else match[0]


def _without_at_rules(css: str) -> str:
    """The stylesheet without its ``@media`` blocks (they concern the site's own pages)."""
    kept = []
    depth = 0
    inside_at = False
    index = 0
    while index < len(css):
        if depth == 0 and css.startswith("@", index):
            inside_at = True
        char = css[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and inside_at:
                inside_at = False
                index += 1
                continue
        if not inside_at:
            kept.append(char)
        index += 1
    return "".join(kept)


@functools.cache
def fence_scripts() -> str:
    """The site's scripts that a figure needs: the shared helpers, then the step controls."""
    return "\n".join(
        (TEMPLATES / name).read_text(encoding="utf-8")
        for name in ("dama-pages.js", "dama-steps.js")
    )


def assets_html() -> str:
    """The style and scripts as HTML, once per page, before its first figure.

    Both are ``data:`` addresses, not text inside the page: a site's search
    (MkDocs' own indexes every text of a page) then finds the figure's
    words, never its CSS or JavaScript.  The script waits for the page to
    load before it looks for figures.
    """
    style = _address("text/css", fence_css())
    script = _address("text/javascript", fence_scripts())
    return f'<link rel="stylesheet" href="{style}">\n<script src="{script}"></script>'


def _address(kind: str, text: str) -> str:
    return f"data:{kind};base64,{base64.b64encode(text.encode('utf-8')).decode('ascii')}"
