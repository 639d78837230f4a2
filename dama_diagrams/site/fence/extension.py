"""The ``dama`` fence as one Python-Markdown extension: no fence goes out unchecked.

``markdown_extensions: [pymdownx.superfences, dama_diagrams.fence]`` in
``mkdocs.yml`` (MkDocs, ProperDocs, Zensical), or
``extensions=["pymdownx.superfences", DamaFenceExtension()]`` in Python.

superfences shows a fence whose opening line it cannot read (``lang=fr``
without quotes, ``DAMA``, ``lang = "fr"``) as code, so its claim would be
published unchecked.  This extension reads every page before superfences does:
a ``dama`` fence superfences would not take stops the conversion at its line,
and after the conversion, a ``dama`` fence that was never drawn stops it too.
It also adds the ``dama`` fence to superfences when ``custom_fences`` does not
list it, speaking ``lang`` (else the site's ``theme.language``, else English).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from ...diagram.markdown import FENCE_LANGUAGE, dama_fences, header_error
from ...errors import DamaError
from .superfences import FenceError, Setting, format, page_state, validator_for
from .words import LANGUAGES

SUPERFENCES = "fenced_code_block"
"""The name superfences registers its preprocessor under (Python-Markdown's own fences too)."""


class DamaFenceExtension(Extension):
    """Checks every ``dama`` fence of a page, and adds the fence to superfences where missing."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "lang": ["", "the figures' language (nl it en de fr es); else the site's, else en"],
            "root": ["", "the folder file: and games are read from; else the site's folder"],
            "page": ["", "the page's name in error messages; else the file the site converts"],
        }
        super().__init__(**kwargs)
        language = str(self.getConfig("lang") or "")
        if language and language not in LANGUAGES:
            raise DamaError(f"the dama fence speaks {', '.join(LANGUAGES)}, not {language!r}")
        root = str(self.getConfig("root") or "")
        self.setting = Setting(
            str(self.getConfig("page") or "") or None, Path(root).resolve() if root else None
        )
        self.language = language or None

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802  (Python-Markdown's name)
        md.registerExtension(self)
        self.md = md
        # Before superfences (25), after the whitespace is normalised (30).
        md.preprocessors.register(_Guard(md, self), "dama_fence_guard", 26)
        md.postprocessors.register(_AllDrawn(md), "dama_fence_all_drawn", 0)

    def reset(self) -> None:
        """``md.reset()``: the next page starts afresh, its figure ids and numbers too."""
        md = getattr(self, "md", None)
        if md is not None and hasattr(md, "_dama_fence_page"):
            del md._dama_fence_page

    def superfences_entry(self, superfences: Any) -> None:
        """Add the ``dama`` fence to superfences' fences, unless ``custom_fences`` has it.

        The entry is written as superfences keeps its own (the same keys from
        pymdown-extensions 10 to 13), not through ``extend_super_fences``, whose
        arguments changed between them.
        """
        if any(entry.get("name") == FENCE_LANGUAGE for entry in superfences.superfences):
            return
        superfences.superfences.append(
            {
                "name": FENCE_LANGUAGE,
                "test": _is_dama,
                "formatter": functools.partial(
                    _formatter, draw=functools.partial(format, setting=self.setting)
                ),
                "validator": validator_for(self.language),
                "reset": None,
            }
        )


def _is_dama(language: str) -> bool:
    return language == FENCE_LANGUAGE


def _formatter(
    draw: Any, src: str = "", language: str = "", options: Any = None, md: Any = None, **kw: Any
) -> str:
    """superfences' call of a fence's formatter, handed on as ``custom_fences`` would."""
    kw.pop("class_name", None)
    result: str = draw(src, language, FENCE_LANGUAGE, options or {}, md, **kw)
    return result


class _Guard(Preprocessor):
    """Refuses a page whose ``dama`` fence superfences would show as code."""

    def __init__(self, md: Markdown, extension: DamaFenceExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        state = page_state(self.md, self.extension.setting)
        superfences = None
        if SUPERFENCES in self.md.preprocessors:
            superfences = getattr(self.md.preprocessors[SUPERFENCES], "extension", None)
        if not isinstance(getattr(superfences, "superfences", None), list):
            raise FenceError(
                "the dama fence needs pymdownx.superfences: add it to markdown_extensions, "
                "before dama_diagrams.fence",
                path=state.page,
                line=state.fences[0].line if state.fences else None,
            )
        self.extension.superfences_entry(superfences)
        # The page as written, then as the converter has it (with what snippets or
        # macros added): a fence superfences would show as code is refused in either.
        converted = dama_fences("\n".join(lines))
        state.expected = len(converted)
        for fence in (*state.fences, *converted):
            problem = header_error(fence, state.page)
            if problem is not None:
                raise FenceError(problem.message, path=problem.path, line=problem.line)
        return lines


class _AllDrawn(Postprocessor):
    """Refuses a page on which a ``dama`` fence was never drawn, whatever hid it."""

    def run(self, text: str) -> str:
        state = getattr(self.md, "_dama_fence_page", None)
        if state is None or state.shown >= state.expected:
            return text
        missed = [fence for index, fence in enumerate(state.fences) if index not in state.used]
        line = missed[0].line if missed else None
        raise FenceError(
            "this dama fence was not drawn, so its claim was not checked: another "
            "extension took it, or superfences did not read it; "
            "dama-diagrams verify says what is wrong with it",
            path=state.page,
            line=line,
        )


def makeExtension(**kwargs: Any) -> DamaFenceExtension:  # noqa: N802  (Python-Markdown's name)
    """The extension, as ``markdown_extensions: [dama_diagrams.fence]`` loads it."""
    return DamaFenceExtension(**kwargs)
