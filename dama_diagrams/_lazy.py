"""Names a package exports but imports only when first used, to keep ``import`` fast."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping, Sequence


def lazy_names(
    package: str,
    where: Mapping[str, str],
    namespace: MutableMapping[str, object],
    exported: Sequence[str],
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__`` for names found in ``package.<where[name]>``."""

    def getattr_(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *exported})

    return getattr_, dir_
