"""Stage 6 of the site, the servers: the site on 127.0.0.1 for its authors.

Takes a built ``site/`` or the project itself.  Gives pages over HTTP, rebuilt
when a source changes.  :mod:`.preview` serves the
built site as a host would publish it; :mod:`.serve` rebuilds on every edit,
all languages through :mod:`..publish` or one language through ``mkdocs
serve`` and the MkDocs plugin (:mod:`.plugin`, also the way to use the pages
from a plain ``mkdocs build``).  When a rebuild fails, :mod:`.rebuild` keeps
the last good pages on screen and says why.
"""

from .preview import preview_site
from .serve import serve_all, serve_site

__all__ = ["preview_site", "serve_all", "serve_site"]
