"""``python -m dama_diagrams`` runs the command line."""

from ._start import run

run()
