"""The manual's reference pages, written from the code they describe, so they cannot drift.

A Markdown extension (``markdown_extensions: [dama_diagrams.cli.reference]`` in
the manual's ``mkdocs.yml``): a line that is only ``[[reference: NAME]]`` becomes
the Markdown of that reference, before the page is parsed, so its headings
reach the table of contents like any other. The names:

- ``commands``: every command and option of ``dama-diagrams``, from
  :func:`build_parser` (the parser the command line runs);
- ``diagram-format``: the keys and claims of a diagram file, from the JSON
  Schema that ``dama-diagrams schema`` prints;
- ``configuration``: the options of the MkDocs plugin and of the ``dama``
  fence's Markdown extension, from their config classes.

An unknown name stops the build at the page's line, as a wrong claim does.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from ..errors import DamaError

MARKER = re.compile(r"^\[\[reference: *([a-z-]+)\]\]$")
"""A line that asks for a reference page's text."""

USAGE_WIDTH = 88
"""The usage lines are wrapped as on a terminal this wide, whatever the build's terminal is."""


def _cell(text: str) -> str:
    """Plain text, shown as written in one cell of a Markdown table (``<lang>`` stays text)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for character in "\\`*_[]|":
        text = text.replace(character, "\\" + character)
    return " ".join(text.split())


def _markdown_cell(markdown: str) -> str:
    """Markdown kept as Markdown, on one line of a table."""
    return " ".join(markdown.replace("|", "\\|").split())


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = parser._get_formatter()
    text = formatter._expand_help(action) if action.help else ""
    return _cell(text)


def _default(action: argparse.Action) -> str:
    if action.default in (None, argparse.SUPPRESS, False, True) or action.nargs == 0:
        return ""
    if isinstance(action.default, list | tuple) and not action.default:
        return ""
    return f"`{action.default}`"


def _name(action: argparse.Action) -> str:
    if action.option_strings:
        names = ", ".join(f"`{name}`" for name in action.option_strings)
        if action.nargs != 0:
            metavar = action.metavar or action.dest.upper()
            names += f" `{metavar}`" if isinstance(metavar, str) else ""
        return names
    metavar = action.metavar if isinstance(action.metavar, str) else action.dest
    return f"`{metavar}`"


def _arguments(parser: argparse.ArgumentParser) -> Iterator[str]:
    actions = [action for action in parser._actions if action.help != argparse.SUPPRESS]
    actions = [
        action
        for action in actions
        if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)
    ]
    if not actions:
        return
    yield "| argument | what it does | default |"
    yield "| --- | --- | --- |"
    for action in actions:
        choices = ""
        if action.choices is not None and not isinstance(action.choices, dict):
            choices = " (" + ", ".join(f"`{choice}`" for choice in action.choices) + ")"
        yield f"| {_name(action)} | {_help(parser, action)}{choices} | {_default(action)} |"


def commands_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """Every command of ``dama-diagrams``: its summary, its usage and a table of its arguments."""
    if parser is None:
        from . import build_parser

        parser = build_parser()
    commands = _subcommands(parser)
    summaries = _summaries(parser)
    lines = [
        f"`{parser.prog}` has {len(commands)} commands; `{parser.prog} COMMAND --help` "
        "prints what this page says of one.",
        "",
        "```text",
        _usage(parser),
        "```",
        "",
        *_arguments(parser),
        "",
        "| command | what it does |",
        "| --- | --- |",
        *(f"| [`{name}`](#{name}) | {_cell(summaries.get(name, ''))} |" for name in commands),
    ]
    for name, command in commands.items():
        summary = _cell(summaries.get(name, ""))
        lines += ["", f"## {name}", "", summary[:1].upper() + summary[1:] + "."]
        if command.description and command.description != summaries.get(name):
            lines += ["", _cell(command.description)]
        lines += ["", "```text", _usage(command), "```", "", *_arguments(command)]
        if command.epilog:
            lines += ["", _cell(command.epilog)]
    return "\n".join(lines) + "\n"


def _kind(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return " or ".join(f"`{value}`".lower() for value in map(str, schema["enum"]))
    if "oneOf" in schema:
        return " or ".join(_kind(option) for option in schema["oneOf"])
    kind = schema.get("type", "")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        items = schema.get("items", {})
        return "a list: " + str(items["description"] if "description" in items else _kind(items))
    if kind == "object" and "properties" in schema:
        return "a mapping of " + ", ".join(f"`{key}`" for key in schema["properties"])
    if kind == "string" and "maxLength" in schema:
        return f"text of at most {schema['maxLength']:,} characters"
    if kind == "integer" and "minimum" in schema:
        return f"a number from {schema['minimum']}" + (
            f" to {schema['maximum']}" if "maximum" in schema else ""
        )
    words = {"string": "text", "boolean": "`true` or `false`", "object": "a mapping"}
    return words.get(str(kind), str(kind))


def diagram_format_markdown() -> str:
    """The keys of a diagram file and what each claim takes, from its JSON Schema."""
    from ..diagram.json_schema import diagram_schema

    schema = diagram_schema()
    required = set(schema["required"])
    lines = [
        f"{schema['description']}",
        "",
        "## Keys",
        "",
        "| key | value | required |",
        "| --- | --- | --- |",
    ]
    for key, value in schema["properties"].items():
        what = _kind(value)
        if "description" in value:
            described = _cell(value["description"])
            what = described if what == "text" else f"{described}: {what}"
        mark = "yes" if key in required else ""
        lines.append(f"| `{key}` | {_markdown_cell(what)} | {mark} |")
    lines += [
        "",
        "## Claims",
        "",
        "| claim | needs | takes too | refuses |",
        "| --- | --- | --- | --- |",
    ]
    keys = [key for key in schema["properties"] if key not in ("position", "claim")]
    for rule in schema["allOf"]:
        claim = rule["if"]["properties"]["claim"]["const"]
        then = rule["then"]
        needed = [[key] for key in then.get("required", [])]
        if "oneOf" in then:
            needed.append([key for option in then["oneOf"] for key in option["required"]])
        refused = [key for key, value in then.get("properties", {}).items() if value is False]
        named = {key for keys_ in needed for key in keys_}
        takes = [key for key in keys if key not in refused and key not in named]
        needs = ", ".join(" or ".join(f"`{key}`" for key in one) for one in needed)
        lines.append(
            f"| `{claim}` | {needs or '-'} "
            f"| {', '.join(f'`{k}`' for k in takes)} | {', '.join(f'`{k}`' for k in refused)} |"
        )
    lines += ["", "## Reasons by claim", ""]
    for rule in schema["allOf"]:
        reason = rule["then"].get("properties", {}).get("reason")
        if isinstance(reason, dict):
            claim = rule["if"]["properties"]["claim"]["const"]
            lines.append(f"- `{claim}`: {_kind(reason)}")
    for key in ("show", "exercise"):
        lines += ["", f"## `{key}`", "", "| key | value |", "| --- | --- |"]
        for name, value in schema["properties"][key]["properties"].items():
            lines.append(f"| `{name}` | {_markdown_cell(_kind(value))} |")
    return "\n".join(lines) + "\n"


def _attribute_docs(cls: type) -> dict[str, str]:
    """The docstring under each attribute of a class, as its source writes it."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body if isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for first, second in pairwise(body):
        if (
            isinstance(first, ast.Assign | ast.AnnAssign)
            and isinstance(second, ast.Expr)
            and isinstance(second.value, ast.Constant)
            and isinstance(second.value.value, str)
        ):
            target = first.targets[0] if isinstance(first, ast.Assign) else first.target
            if isinstance(target, ast.Name):
                docs[target.id] = " ".join(second.value.value.split()).replace("``", "`")
    return docs


def configuration_markdown() -> str:
    """The options of the ``dama-diagrams`` MkDocs plugin and of the fence's extension."""
    from ..site.fence.extension import DamaFenceExtension
    from ..site.servers.plugin import DamaDiagramsConfig

    docs = _attribute_docs(DamaDiagramsConfig)
    lines = [
        "## The `dama-diagrams` plugin",
        "",
        "The rules site's plugin, under `plugins:` in `mkdocs.yml`.",
        "",
        "| key | type | default | what it sets |",
        "| --- | --- | --- | --- |",
    ]
    for key, option in DamaDiagramsConfig._schema:
        kind = getattr(option, "_type", "")
        kind = getattr(kind, "__name__", str(kind))
        lines.append(
            f"| `{key}` | {kind} | `{option.default!r}` | {_markdown_cell(docs.get(key, ''))} |"
        )
    lines += [
        "",
        "## The `dama_diagrams.fence` extension",
        "",
        "The `dama` fence, under `markdown_extensions:` in any site's `mkdocs.yml`.",
        "",
        "| key | default | what it sets |",
        "| --- | --- | --- |",
    ]
    for key, (default, what) in DamaFenceExtension().config.items():
        lines.append(f"| `{key}` | `{default!r}` | {_cell(what)} |")
    return "\n".join(lines) + "\n"


PAGES: dict[str, Callable[[], str]] = {
    "commands": commands_markdown,
    "diagram-format": diagram_format_markdown,
    "configuration": configuration_markdown,
}
"""Each reference by the name its marker line gives."""


FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^\s`]*)")
"""The opening line of a fenced block at the start of a line: its fence, and its language."""


def with_sources(lines: list[str]) -> list[str]:
    """Each ``dama`` fence of a page, after a ``yaml`` block of its text: what the reader writes.

    Fences inside another fenced block (an example of Markdown) are left alone, and
    the ``dama`` fences themselves are kept as they are, so the engine still checks
    each one at its line in the page as written.
    """
    out: list[str] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            out.append(lines[index])
            index += 1
            continue
        fence = opening[1]
        end = index + 1
        while end < len(lines) and not (
            lines[end].startswith(fence[0] * len(fence)) and not lines[end].strip(fence[0])
        ):
            end += 1
        block = lines[index : end + 1]
        if opening[2] == "dama" and end < len(lines):
            out += [f'{fence}yaml title="dama"', *block[1:-1], fence]
        out += block
        index = end + 1
    return out


ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|exc|obj):(`[^`]+`)")
"""A Sphinx role in a docstring (``:func:`verify```): Markdown shows it as its code span."""


class _ReferencePreprocessor(Preprocessor):
    def __init__(self, md: Markdown, sources: bool) -> None:
        super().__init__(md)
        self.sources = sources

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        if self.sources:
            lines = with_sources(lines)
        lines = [ROLE.sub(r"\1", line) for line in lines]
        for number, line in enumerate(lines, start=1):
            found = MARKER.match(line.strip())
            if found is None:
                out.append(line)
                continue
            make = PAGES.get(found[1])
            if make is None:
                page = getattr(self.md, "dama_page", None) or "the page"
                raise DamaError(
                    f"{page}:{number}: no reference named {found[1]!r}; "
                    f"write one of {', '.join(PAGES)}"
                )
            out += make().splitlines()
        return out


class ReferenceExtension(Extension):
    """Replaces each ``[[reference: NAME]]`` line with that reference's Markdown.

    With ``sources: true``, each ``dama`` fence of a page also shows its own text
    before its figure (:func:`with_sources`), as a manual's examples do.  The
    docstrings mkdocstrings converts with it show a Sphinx role (``:mod:`.engine```)
    as its code span.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.config = {"sources": [False, "show each dama fence's text before its figure"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        sources = bool(self.getConfig("sources"))
        md.preprocessors.register(_ReferencePreprocessor(md, sources), "dama_reference", 40)


def makeExtension(**kwargs: Any) -> ReferenceExtension:  # noqa: N802 (Python-Markdown's name)
    """What Python-Markdown calls for ``markdown_extensions: [dama_diagrams.cli.reference]``."""
    return ReferenceExtension(**kwargs)
