"""The ``dama-diagrams`` command line: a thin shell around the library.

Exit codes: 0 when everything holds, 1 when a claim or an input is wrong
(printed as one ``path:line: message`` line each), 2 for a bad command line.
Each module here adds a group of commands; none holds rules or site logic.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from .._interrupts import set_off_by_interrupt
from ..errors import DamaError
from ._context import SITE_EXTRA, Handler, missing_extra
from ._diagram_commands import add_render, add_schema, add_verify
from ._engine_commands import add_commands as add_engine_commands
from ._engine_commands import add_game_commands
from ._find_command import FIND_CLAIMS, add_find
from ._output import printing_safely
from ._site_commands import add_site_commands, add_update_translations

__all__ = ["FIND_CLAIMS", "SITE_EXTRA", "build_parser", "main", "version"]


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked for."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(f"{parser.prog} {version()}")
        parser.exit()


def version() -> str:
    """The version of the installed package, as ``pyproject.toml`` gives it (its one place)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("dama-diagrams")
    except PackageNotFoundError:  # the sources on sys.path without an install
        return "unknown (not installed: pip install -e .)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dama-diagrams",
        description="Engine-checked Italian draughts diagrams and their rules site.",
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version of dama-diagrams and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_engine_commands(commands)
    add_verify(commands)
    add_schema(commands)
    add_game_commands(commands)
    add_render(commands)
    add_site_commands(commands)
    add_find(commands)
    add_update_translations(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it).

    Every line printed meanwhile, to ``out``, stdout or stderr, goes through
    :mod:`._output`: whatever names it shows, it starts no terminal escape and
    no GitHub Actions command.
    """
    with printing_safely(out) as stream:
        return _run(argv, stream)


def _run(argv: Sequence[str] | None, stream: TextIO) -> int:
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, stream)
    except DamaError as error:
        print(f"dama-diagrams: {error}" if error.path is None else str(error), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (as with `| head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as error:
        # A folder that cannot be written, a file where a folder should be, ...
        print(f"dama-diagrams: {error}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if missing not in SITE_EXTRA:
            raise
        print(f"dama-diagrams: {missing_extra(args.command, missing)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if set_off_by_interrupt(error):  # Ctrl-C inside Python's lock code
            return 130
        raise


if __name__ == "__main__":
    sys.exit(main())
