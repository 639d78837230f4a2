"""A fence's figure on its own, for a notebook: Jupyter shows a verified diagram as a page would.

The same figure as a ``dama`` fence (:func:`.figure.inline_figure`): board,
caption, move, legend and the engine's line, in one of the fence's languages.
A notebook's output has no page around it, and not every notebook runs
scripts (GitHub's viewer runs none, an untrusted notebook neither).  So the
figure brings its style as a ``<style>`` whose rules all stay inside its
``.dama-fence`` wrapper, and the step controls' scripts as a ``data:``
address; without them it is the complete diagram, as a page without
JavaScript shows it.  Nothing is read but the package's own files.
"""

from __future__ import annotations

import base64
import html

from ...diagram.claims import VerifiedDiagram
from ...errors import DamaError
from .assets import SCOPE, fence_css, fence_scripts
from .figure import DEFAULT_LANGUAGE, inline_figure
from .words import LANGUAGES, fence_catalog


def notebook_html(verified: VerifiedDiagram, language: str = DEFAULT_LANGUAGE) -> str:
    """The figure of ``verified`` in ``language`` (one of :data:`.LANGUAGES`), its style inside."""
    if language not in LANGUAGES:
        raise DamaError(
            f"the figure speaks {', '.join(LANGUAGES)}, not {language!r}: "
            f'choose one of them, as lang="it"'
        )
    block = inline_figure(verified, fence_catalog(language), title=True)
    script = base64.b64encode(fence_scripts().encode("utf-8")).decode("ascii")
    return (
        f'<div class="{SCOPE}" lang="{html.escape(language)}">\n'
        f"<style>\n{fence_css()}\n</style>\n"
        f'<script src="data:text/javascript;base64,{script}"></script>\n'
        f"{block}\n</div>"
    )
