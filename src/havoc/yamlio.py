"""Safe, bounded YAML reading that remembers where every value came from.

Rule files and positions come from people; a hostile or broken file must give a located error,
not a traceback or a hang. So: a size limit before parsing, no anchors/aliases (an alias bomb
is rejected at the first reuse), a nesting limit, and line numbers on every mapping and list so
later validation can point at the offending line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from havoc.errors import Problem

MAX_BYTES = 1_000_000
MAX_DEPTH = 64

_BaseLoader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LDict(dict[str, Any]):
    """A mapping that knows the line it starts on and the line of each key."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LList(list[Any]):
    """A list that knows the line it starts on and the line of each item."""

    line: int = 0
    item_lines: list[int]


class YamlProblem(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class _Loader(_BaseLoader):  # type: ignore[misc]
    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise YamlProblem(
                node.start_mark.line + 1,
                "YAML anchors and aliases (&name / *name) are not allowed here",
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise YamlProblem(node.start_mark.line + 1, f"nesting deeper than {MAX_DEPTH} levels")
            return super().construct_object(node, deep=True)
        finally:
            self._depth -= 1


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LDict:
    result = LDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node)
        if not isinstance(key, (str, int, float, bool)):
            raise YamlProblem(key_node.start_mark.line + 1, "a mapping key must be a plain value")
        skey = str(key) if not isinstance(key, str) else key
        if skey in result:
            raise YamlProblem(key_node.start_mark.line + 1, f"duplicate key {skey!r}")
        result[skey] = loader.construct_object(value_node)
        result.key_lines[skey] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LList:
    result = LList(loader.construct_object(child) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def loads(text: str, name: str) -> Any:
    """Parse YAML (or JSON) text; raise :class:`YamlError` with the line on any problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise YamlError(Problem(name, None, f"file is larger than {MAX_BYTES:,} bytes"))
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except YamlProblem as exc:
        raise YamlError(Problem(name, exc.line, exc.message)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = exc.problem or exc.context or "malformed YAML"
        raise YamlError(Problem(name, line, f"not valid YAML: {what}")) from None
    except yaml.YAMLError as exc:
        raise YamlError(Problem(name, None, f"not valid YAML: {exc}")) from None
    except RecursionError:
        raise YamlError(Problem(name, None, "nesting too deep")) from None


def load_file(path: Path, display: str | None = None) -> Any:
    """Read and parse a YAML file with the size limit checked before reading it all."""
    name = display or str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise YamlError(Problem(name, None, f"cannot read file: {exc.strerror}")) from None
    if size > MAX_BYTES:
        raise YamlError(Problem(name, None, f"file is {size:,} bytes; the limit is {MAX_BYTES:,}"))
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise YamlError(Problem(name, None, "file is not UTF-8 text")) from None
    except OSError as exc:
        raise YamlError(Problem(name, None, f"cannot read file: {exc.strerror}")) from None
    return loads(text, name)


class YamlError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
