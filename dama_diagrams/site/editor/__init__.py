"""Stage 8 of the site, the editor: a board on 127.0.0.1 where authors make diagram files.

Takes the project's ``diagrams/`` folder, the engine (every legal move, the
priority table, the claims that hold: :mod:`.analysis`), the verification of
``dama-diagrams verify`` and the figure code of :mod:`..pages` and
:mod:`..fence` (:mod:`.drafts`).  Gives ``dama-diagrams editor``: a page whose
plain script sends the board to the server and shows what the engine says,
and files written whole, only inside ``diagrams/`` and only once they verify
(:mod:`.files`), behind the request checks of :mod:`.checks` (:mod:`.server`).
The page's script, styles and HTML are package data in ``static/``.
"""

from .server import DEFAULT_PORT, Editor, listen_editor, run_editor

__all__ = ["DEFAULT_PORT", "Editor", "listen_editor", "run_editor"]
