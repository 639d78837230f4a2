"""The ``dama`` fence, where ``mkdocs.yml`` names it: ``!!python/name:dama_diagrams.fence.format``.

A short, stable address for the formatter and validators of
:mod:`dama_diagrams.site.fence.superfences`, which say what they do.
"""

from __future__ import annotations

from .site.fence.superfences import (
    FenceError,
    dama_fence,
    format,
    validator,
    validator_de,
    validator_es,
    validator_fr,
    validator_it,
    validator_nl,
)

__all__ = [
    "FenceError",
    "dama_fence",
    "format",
    "validator",
    "validator_de",
    "validator_es",
    "validator_fr",
    "validator_it",
    "validator_nl",
]
