"""The ``dama`` fence, in ``mkdocs.yml``: ``markdown_extensions: [dama_diagrams.fence]``.

A short, stable address for the Markdown extension of
:mod:`dama_diagrams.site.fence.extension` (``makeExtension``, which
Python-Markdown looks for here) and for the formatter and validators of
:mod:`dama_diagrams.site.fence.superfences` (``custom_fences``), which say
what they do.
"""

from __future__ import annotations

from .site.fence.extension import DamaFenceExtension, makeExtension
from .site.fence.superfences import (
    FenceError,
    dama_fence,
    format,
    validator,
    validator_de,
    validator_en,
    validator_es,
    validator_fr,
    validator_it,
    validator_nl,
)

__all__ = [
    "DamaFenceExtension",
    "FenceError",
    "dama_fence",
    "format",
    "makeExtension",
    "validator",
    "validator_de",
    "validator_en",
    "validator_es",
    "validator_fr",
    "validator_it",
    "validator_nl",
]
