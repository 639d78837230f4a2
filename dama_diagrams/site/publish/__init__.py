"""Stage 5 of the site, publishing: every language built in parallel and swapped in atomically.

Takes the project (its diagrams, templates, catalogs and ``mkdocs.yml``).
Gives ``site/``, replaced only when everything built (:mod:`.output`), or the
PDFs alone.  :mod:`.language` generates one language in memory with the
earlier rooms; :mod:`.build` (``dama-diagrams build``) runs MkDocs and Typst
for every language in worker processes (:mod:`.workers`); :mod:`.booklets` is
``dama-diagrams booklet``.
"""

from .build import BuildReport, build_site, choose_languages
from .language import LanguageSources, generate_language

__all__ = ["BuildReport", "LanguageSources", "build_site", "choose_languages", "generate_language"]
