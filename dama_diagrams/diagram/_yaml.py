"""Strict YAML: the one reader for diagram files, the page list and mkdocs.yml.

Every YAML file of the project is small and written by hand, and some come from
strangers (a contributed diagram or page list), so all are read the
same way: safe loading only (no tag builds an object, so no code can run), no
anchors or aliases (an "alias bomb" repeats a node until memory runs out), and
every error carries the line of the node it concerns.

Two entry points share that loader:

- :func:`compose_yaml`, for diagram files: located :class:`YamlValue` nodes,
  with tags, merge keys, non-text keys, duplicate keys and deep nesting refused;
- :func:`load_yaml`, for the site's files: the plain data and its composed node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import yaml
from yaml.events import AliasEvent, Event
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .._files import MAX_TEXT_BYTES, read_project_file
from ..errors import DamaError

MAX_DEPTH = 8
"""A diagram needs three levels (file, position, squares); deeper nesting is refused."""

Scalar: TypeAlias = str | int | float | bool | None

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_TAG}{name}" for name in ("null", "bool", "int", "float", "str", "timestamp")}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _alias_message(where: str) -> str:
    return (
        f"YAML anchors and aliases (&name, *name) are not allowed {where}; "
        "write each value out in full"
    )


DIAGRAM_ALIAS_MESSAGE = _alias_message("in a diagram file")
SITE_ALIAS_MESSAGE = _alias_message("here")

_TYPE_NAMES = {
    str: "text",
    int: "a number",
    float: "a number",
    bool: "true/false",
    type(None): "empty",
    list: "a list",
    dict: "a mapping",
}


class YamlError(Exception):
    """Raised inside the loader; the caller turns it into its own located DamaError."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class YamlValue:
    """A YAML value and the line it is on (1-based).

    ``data`` is a scalar, a ``list`` of YamlValue, or a ``dict`` of str to
    YamlValue.  For a mapping entry whose value is a collection or empty,
    ``line`` is the key's line: that is where a reader looks for it.
    """

    data: Scalar | list[YamlValue] | dict[str, YamlValue]
    line: int

    @property
    def type_name(self) -> str:
        return _TYPE_NAMES.get(type(self.data), type(self.data).__name__)


_DECIMAL = re.compile(r"[-+]?[0-9]+\Z")
"""A whole number in plain digits: the only number YAML may read here (``match`` anchors it)."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters but tab and line feed: a YAML escape (``"\\x1b"``) can write them."""


def _plain_resolvers() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """YAML's implicit types, cut down to what the project's files need.

    Only null, true/false, decimal whole numbers and merge keys (refused later,
    with a message) are recognised; everything else is text.  YAML 1.1 would
    also turn ``0x_``, ``1_0``, ``1:30``, ``1e3`` and ``2024-02-30`` into numbers
    and dates, some of which PyYAML then fails to convert.
    """
    keep = {f"{_TAG}null", f"{_TAG}bool", f"{_TAG}merge"}
    table: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items():
        table[first] = [(tag, regexp) for tag, regexp in resolvers if tag in keep]
    for first in "-+0123456789":
        table.setdefault(first, []).append((f"{_TAG}int", _DECIMAL))
    return table


_PLAIN_RESOLVERS = _plain_resolvers()
_PLAIN_TAGS = frozenset(f"{_TAG}{name}" for name in ("str", "int", "bool", "null"))


class _PlainCLoader(yaml.CSafeLoader):
    """libyaml's safe loader with :func:`_plain_resolvers`."""

    yaml_implicit_resolvers = _PLAIN_RESOLVERS


class StrictLoader(yaml.SafeLoader):
    """PyYAML's pure-Python safe loader, refusing aliases (and deep nesting) while composing.

    Refusing while composing is what stops an alias bomb: nothing is expanded.
    The site's files refuse anchors too (``refuse_anchors``).  A diagram file
    must read the same with libyaml, whose nodes keep no anchors, so there a
    lone anchor passes and an alias is reported at the anchored node, as
    :func:`_to_value` does for libyaml; diagrams also set ``max_depth``.
    """

    yaml_implicit_resolvers = _PLAIN_RESOLVERS

    def __init__(
        self,
        stream: str,
        *,
        alias_message: str = SITE_ALIAS_MESSAGE,
        refuse_anchors: bool = True,
        max_depth: int | None = None,
    ):
        super().__init__(stream)
        self.alias_message = alias_message
        self.refuse_anchors = refuse_anchors
        self.max_depth = max_depth
        self._depth = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event: Event = self.peek_event()  # type: ignore[no-untyped-call]
        line = event.start_mark.line + 1 if event.start_mark else 1
        if isinstance(event, AliasEvent):
            anchored = self.anchors.get(event.anchor)
            mark = anchored.start_mark if anchored is not None else None
            raise YamlError(mark.line + 1 if mark else line, self.alias_message)
        if self.refuse_anchors and getattr(event, "anchor", None) is not None:
            raise YamlError(line, self.alias_message)
        if self.max_depth is None:
            return super().compose_node(parent, index)
        self._depth += 1
        try:
            if self._depth > self.max_depth:
                raise YamlError(line, _too_deep())
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_scalar(self, node: Node) -> Any:
        """Every scalar the site reads (text, numbers, true/false), checked where it stands."""
        if node.tag not in _PLAIN_TAGS:
            tag = node.tag.replace(_TAG, "!!")
            raise YamlError(
                node.start_mark.line + 1,
                f"the tag {tag} is not allowed here: only text, whole numbers and true/false "
                "are read; remove the tag",
            )
        value = super().construct_scalar(node)  # type: ignore[arg-type]
        _check_scalar(node, str(value))
        return value


def _check_scalar(node: Node, value: str) -> None:
    """Refuse what Python can read but not use: a lone surrogate, a control, an endless number."""
    line = node.start_mark.line + 1
    control = _CONTROL.search(value)
    if control:
        raise YamlError(
            line,
            f"the text holds the control character U+{ord(control[0]):04X} (an escape such as "
            f"\\x{ord(control[0]):02x}), which no page or catalog can show; remove it",
        )
    surrogate = _SURROGATE.search(value)
    if surrogate:
        code = f"\\u{ord(surrogate[0]):04x}"
        raise YamlError(
            line, f"the text holds {code}, half of a character that no file can store; remove it"
        )
    if node.tag in (f"{_TAG}int", f"{_TAG}float") and len(value) > _MAX_NUMBER:
        raise YamlError(line, f"the number {value[:12]}... is far too long; shorten it")
    if node.tag == f"{_TAG}int" and not _DECIMAL.fullmatch(value):
        raise YamlError(line, f"{value[:20]!r} is not a whole number; write digits only")
    if node.tag == f"{_TAG}bool" and value.lower() not in _CONSTRUCTOR.bool_values:
        raise YamlError(line, f"{value[:20]!r} is not true or false")


_MAX_NUMBER = 100
"""Far more digits than any file here needs, and far fewer than Python's limit (4,300)."""


def _too_deep() -> str:
    return f"the YAML is nested more than {MAX_DEPTH} levels deep; a diagram file is flat"


# == Diagram files: located values ============================================

USE_LIBYAML: bool = bool(getattr(yaml, "__with_libyaml__", False))
"""Compose with libyaml when available (much faster); tests run both loaders."""


def compose_yaml(text: str, *, libyaml: bool | None = None) -> YamlValue | None:
    """Parse YAML text into located values; ``None`` for an empty document.

    Nothing is constructed from tags, so no code can run.  Raises
    :class:`YamlError` for anything a diagram file must not contain.
    """
    use_c = USE_LIBYAML if libyaml is None else libyaml
    try:
        loader = (
            _PlainCLoader(text)
            if use_c
            else StrictLoader(
                text,
                alias_message=DIAGRAM_ALIAS_MESSAGE,
                refuse_anchors=False,
                max_depth=MAX_DEPTH,
            )
        )
    except yaml.reader.ReaderError as error:  # the pure-Python reader checks every character
        raise _refused_character(error, text) from None
    try:
        node = loader.get_single_node()
    except yaml.reader.ReaderError as error:  # libyaml's, as it reads
        raise _refused_character(error, text) from None
    except yaml.MarkedYAMLError as error:
        raise _yaml_problem(error, text.rstrip()) from None
    except RecursionError:
        raise YamlError(1, _too_deep()) from None
    finally:
        loader.dispose()
    if node is None:
        return None
    return _to_value(node, None, 1, set())


def _refused_character(error: yaml.reader.ReaderError, text: str) -> YamlError:
    """A character that YAML refuses, at its line (libyaml counts bytes: found by the character)."""
    code = int(error.character)  # text, not bytes, is read here: always a code point
    line = text.count("\n", 0, max(text.find(chr(code)), 0)) + 1
    return YamlError(
        line,
        f"the text holds U+{code:04X}, a character YAML does not allow (a control character "
        "or a noncharacter); remove it",
    )


def _yaml_problem(error: yaml.MarkedYAMLError, text: str) -> YamlError:
    problem = error.problem or "unreadable YAML"
    mark = error.problem_mark or error.context_mark
    if mark is not None and mark.index >= len(text) and error.context_mark is not None:
        # An unclosed quote or bracket: where it opened is the line to fix.
        mark = error.context_mark
    # A problem found at the end of the stream belongs to the last line of text.
    line = min(mark.line + 1 if mark is not None else 1, text.count("\n") + 1)
    if "nesting depth" in problem:
        return YamlError(line, _too_deep())
    if "expected a single document" in str(error.context):
        return YamlError(line, "the file holds several YAML documents (---); keep one")
    if error.context:
        problem = f"{error.context}: {problem}"
    return YamlError(
        line, f"this is not valid YAML ({problem}); check the indentation and the quotes"
    )


def _to_value(node: Node, key_line: int | None, depth: int, seen: set[int]) -> YamlValue:
    """Turn a composed node into a YamlValue, checking tags, aliases and keys."""
    line = node.start_mark.line + 1
    if id(node) in seen:
        # libyaml resolves an alias to the anchored node itself: seeing it twice.
        raise YamlError(line, DIAGRAM_ALIAS_MESSAGE)
    seen.add(id(node))
    if depth > MAX_DEPTH:
        raise YamlError(line, _too_deep())
    if isinstance(node, ScalarNode) and node.tag in _SCALAR_TAGS:
        data = _scalar(node)
        return YamlValue(data, line if data is not None or key_line is None else key_line)
    if isinstance(node, SequenceNode) and node.tag == f"{_TAG}seq":
        items = [_to_value(item, None, depth + 1, seen) for item in node.value]
        return YamlValue(items, key_line or line)
    if isinstance(node, MappingNode) and node.tag == f"{_TAG}map":
        return YamlValue(_mapping(node, depth, seen), key_line or line)
    tag = node.tag.replace(_TAG, "!!")
    raise YamlError(
        line,
        f"the tag {tag} is not allowed in a diagram file: only plain YAML values "
        "(text, numbers, true/false, lists and mappings) are read; remove the tag",
    )


_MAX_DIGITS = 12
"""No number in a diagram needs more; Python refuses to convert very long ones."""


def _scalar(node: ScalarNode) -> Scalar:
    if node.tag != f"{_TAG}int" or len(node.value) <= _MAX_DIGITS:
        _check_scalar(node, str(node.value))
    if node.tag in (f"{_TAG}str", f"{_TAG}timestamp"):
        return str(node.value)
    if node.tag == f"{_TAG}null":
        return None
    if node.tag == f"{_TAG}bool":
        return bool(_CONSTRUCTOR.construct_yaml_bool(node))
    if node.tag == f"{_TAG}int":
        if len(node.value) > _MAX_DIGITS:
            raise YamlError(
                node.start_mark.line + 1,
                f"the number {node.value[:12]}... is far too long; squares are 1-32",
            )
        return int(_CONSTRUCTOR.construct_yaml_int(node))
    try:
        return float(_CONSTRUCTOR.construct_yaml_float(node))
    except ValueError:
        raise YamlError(node.start_mark.line + 1, f"{node.value[:20]!r} is not a number") from None


def _mapping(node: MappingNode, depth: int, seen: set[int]) -> dict[str, YamlValue]:
    result: dict[str, YamlValue] = {}
    first_line: dict[str, int] = {}
    for key_node, value_node in node.value:
        key_line = key_node.start_mark.line + 1
        if key_node.tag == f"{_TAG}merge":
            raise YamlError(key_line, "merge keys (<<) are not allowed; write each key out")
        key = _to_value(key_node, None, depth + 1, seen).data
        if not isinstance(key, str):
            shown = f"the key {key!r}" if isinstance(key_node, ScalarNode) else "a list or mapping"
            raise YamlError(key_line, f"{shown} is not a name; keys are words such as position:")
        if key in result:
            raise YamlError(
                key_line,
                f"duplicate key {key!r} (first on line {first_line[key]}); give each key once",
            )
        first_line[key] = key_line
        result[key] = _to_value(value_node, key_line, depth + 1, seen)
    return result


# == The site's files (docs/pages/nav.yml, mkdocs.yml): plain data ===============


_TAB_INDENT = re.compile(r"^ *\t", re.MULTILINE)


def diagram_text(data: bytes, limit: int) -> str:
    """A diagram file's bytes as UTF-8 text, with no tabs in indentation and no control
    characters; larger than ``limit`` bytes is refused at line 1."""
    if len(data) > limit:
        raise YamlError(
            1, f"the file is larger than {limit // 1024} KiB; a diagram file is a few lines"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise YamlError(
            line,
            f"the file is not UTF-8 text (byte 0x{data[error.start]:02x}); save it as UTF-8",
        ) from None
    tab = _TAB_INDENT.search(text)
    if tab:
        line = text.count("\n", 0, tab.start()) + 1
        raise YamlError(line, "a tab is used for indentation; YAML indents with spaces only")
    bad = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise YamlError(
            line, f"the file contains the control character U+{ord(bad.group()):04X}; remove it"
        )
    return text


def read_utf8(
    path: Path,
    shown: str,
    error: type[DamaError],
    prefix: str = "",
    *,
    inside: Path | None = None,
    limit: int = MAX_TEXT_BYTES,
) -> str:
    """The text of ``path``, read through :func:`read_project_file` (links, FIFOs, size).

    A file that is not UTF-8 is an ``error`` naming the file and line.
    """
    data = read_project_file(path, shown, error, inside=inside, limit=limit, prefix=prefix)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(
            f"{prefix}the file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
            path=shown,
            line=line,
        ) from None


def load_yaml(
    text: str, shown: str, error: type[DamaError], prefix: str = ""
) -> tuple[Any, Node | None]:
    """Safe YAML without anchors or aliases: the data and its composed node (for lines)."""
    try:
        loader = StrictLoader(text)
    except yaml.reader.ReaderError as exc:  # the reader checks every character up front
        raise error(
            f"{prefix}the file holds the control character U+{exc.character:04X}, which YAML "
            "does not allow; remove it",
            path=shown,
            line=text.count("\n", 0, exc.position) + 1,
        ) from None
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    except YamlError as exc:
        raise error(f"{prefix}{exc.message}", path=shown, line=exc.line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = f" ({exc.problem})" if exc.problem else ""
        raise error(f"{prefix}not valid YAML{problem}", path=shown, line=line) from None
    except yaml.YAMLError as exc:
        raise error(f"{prefix}not valid YAML ({exc})", path=shown) from None
    except RecursionError:
        raise error(f"{prefix}the YAML is nested too deeply", path=shown) from None
    finally:
        loader.dispose()
    return data, node
