"""Argument types: each reads plain ASCII and refuses with a message of its own."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..errors import shorten

MAX_DEPTH = 40
"""Perft 10 already takes a minute; far deeper would only exhaust the stack."""

MAX_SECONDS = 3600
"""The longest search ``find`` accepts: an hour finds what a minute does not, or nothing."""


def port(text: str) -> int:
    """ASCII digits only: int() would also take Arabic digits, and isdigit() takes "²"."""
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a port from 1 to 65535")
    return int(text)


def decimal(what: str, within: Callable[[float], bool], bounds: str) -> Callable[[str], float]:
    """A decimal number in ASCII (float() would also take other digits), that ``within`` accepts.

    ``what`` names it when it is no number at all, ``bounds`` says what range it must be in.
    """

    def read(text: str) -> float:
        try:
            if not text.isascii() or "_" in text:  # float() takes "1_0" as 10
                raise ValueError(text)
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shorten(text)} is not {what}") from None
        if not within(number):
            raise argparse.ArgumentTypeError(bounds)
        return number

    return read


scale = decimal(
    "a number", lambda scale: 0.1 <= scale <= 10, "the scale must be between 0.1 and 10"
)
seconds = decimal(
    "a number of seconds",
    lambda seconds: 0 < seconds <= MAX_SECONDS,
    f"the time must be more than 0 and at most {MAX_SECONDS} s",
)


def depth(text: str) -> int:
    """Plain ASCII digits only: Python's int() would also take ``1_0`` and Arabic digits."""
    if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        raise argparse.ArgumentTypeError("the depth cannot be negative")
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{shorten(text)} is not a whole number")
    if len(text) > 3 or int(text) > MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"depth {text if len(text) <= 12 else shorten(text, 12)} would never finish; "
            f"choose at most {MAX_DEPTH}"
        )
    return int(text)


def whole(least: int, most: int) -> Callable[[str], int]:
    """A whole number from ``least`` to ``most``, in plain ASCII digits."""

    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or len(text) > 6:
            raise argparse.ArgumentTypeError(f"{shorten(text)} is not a whole number")
        if not least <= int(text) <= most:
            raise argparse.ArgumentTypeError(f"{text} is not from {least} to {most}")
        return int(text)

    return read
