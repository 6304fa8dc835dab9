"""Safe, bounded YAML reading that remembers where every value came from.

Rule files and positions come from people; a hostile or broken file must give a located error,
not a traceback or a hang. So: a size limit before parsing, no anchors/aliases (an alias bomb
is rejected at the first reuse), a nesting limit, and line numbers on every mapping and list so
later validation can point at the offending line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from havoc.core.errors import Code, Problem
from havoc.core.safeio import MAX_BYTES

MAX_DEPTH = 64
MOST_VALUES = 1536
"""Values (scalars, lists, mappings, aliases) a table or a request written in YAML may hold:
twice a table of the whole printed board (32 Regions, each with its terrain, Units, control,
Crystals and neighbours: about 750); each value costs about 4 µs to construct (JSON's a tenth of
that), which keeps the costliest YAML body the limits accept within 20 ms of CPU.
Checked on the parser's event stream, before a node is composed or a value constructed (a 256 KiB body
of 85,000 values cost seconds); rule files, which are ours, have no such limit."""

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


def _m(msgid: str) -> str:
    """A message in the language of this command or request (English unless one chose another)."""
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    return msgid if lang == "en" else ui(msgid, lang)


def _yaml_words(problem: str) -> str:
    """PyYAML's description of a syntax error in the reader's words: the common ones are
    translated, any other is named only by its line in a language other than English."""
    from havoc.language.i18n import message_language, ui

    lang = message_language()
    if lang == "en":
        return problem
    known = {
        "did not find expected ',' or ']'": ui("a list in [brackets] is not closed, or a comma is missing", lang),
        "did not find expected ',' or '}'": ui("a mapping in curly braces is not closed, or a comma is missing", lang),
        "did not find expected key": ui("a key is missing or the indentation is wrong", lang),
        "did not find expected '-' indicator": ui("a list item ('- ') is missing or the indentation is wrong", lang),
        "did not find expected node content": ui("a value is missing", lang),
        "mapping values are not allowed in this context": ui(
            "a colon where no key may start (quote the text or fix the indentation)", lang
        ),
        "mapping values are not allowed here": ui(
            "a colon where no key may start (quote the text or fix the indentation)", lang
        ),
        "could not find expected ':'": ui("a key without its colon", lang),
        "found character that cannot start any token": ui(
            "a character that cannot start a value here (a tab? indent with spaces)", lang
        ),
        "found character '\\t' that cannot start any token": ui("a tab character: indent with spaces", lang),
        "found unexpected end of stream": ui("the text ends before a quote or bracket is closed", lang),
        "found unknown escape character": ui("an unknown escape sequence after a backslash", lang),
    }
    # libyaml says "did not find expected ',' or ']'", the pure-Python parser "expected ',' or ']', but got …"
    found = known.get(problem) or known.get("did not find " + problem.split(", but ")[0])
    return found or ui("the text does not follow the YAML syntax here", lang)


def _literal_messages() -> None:
    """The messages built with :func:`_m`, as literal ``ui()`` calls for the catalog extraction."""
    from havoc.language.i18n import nui, ui

    ui("YAML anchors and aliases (&name / *name) are not allowed here")
    ui("nesting deeper than {n} levels")
    ui("a mapping key must be a plain value")
    ui("duplicate key {key}")
    ui("file is larger than the limit of {limit} bytes")
    ui("not UTF-8 text (character {at})")
    ui("not valid YAML: {what}")
    ui("not a usable value: {what}")
    ui("nesting too deep")
    ui("expected a mapping (key: value) at the top level")
    nui("more than {most} value", "more than {most} values", 2)


class YamlProblem(Exception):
    def __init__(self, line: int | None, message: str, code: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.code = code


class _Loader(_BaseLoader):  # type: ignore[misc]
    def __init__(self, stream: str, most: int | None = None) -> None:
        super().__init__(stream)
        self._depth = 0
        self._most = most  # the most nodes composed (None: no limit)
        self._nodes = 0

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        """Called by the composer (C or Python) for every node before it is composed: the count
        of values, stopped at ``most`` while the text is being parsed (explicit tags included)."""
        self._nodes += 1
        if self._most is not None and self._nodes > self._most:
            from havoc.language.i18n import message_language, nui

            said = nui("more than {most} value", "more than {most} values", self._most, message_language())
            raise YamlProblem(None, said.format(most=self._most), Code.YAML_TOO_MANY)
        super().descend_resolver(current_node, current_index)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise YamlProblem(
                node.start_mark.line + 1,
                _m("YAML anchors and aliases (&name / *name) are not allowed here"),
                Code.YAML_ALIAS,
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise YamlProblem(
                    node.start_mark.line + 1,
                    _m("nesting deeper than {n} levels").format(n=MAX_DEPTH),
                    Code.YAML_TOO_DEEP,
                )
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
            raise YamlProblem(key_node.start_mark.line + 1, _m("a mapping key must be a plain value"), Code.YAML_KEY)
        skey = str(key) if not isinstance(key, str) else key
        if skey in result:
            raise YamlProblem(
                key_node.start_mark.line + 1, _m("duplicate key {key}").format(key=repr(skey)), Code.YAML_DUPLICATE_KEY
            )
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


class _PlainLoader(_Loader):
    """The same checks (no aliases, depth, plain unique keys) into plain dicts and lists: no line
    of every key and item is kept, for input that is read and then located only when wrong."""


def _construct_plain_mapping(loader: _Loader, node: yaml.MappingNode) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node)
        if not isinstance(key, (str, int, float, bool)):
            raise YamlProblem(key_node.start_mark.line + 1, _m("a mapping key must be a plain value"), Code.YAML_KEY)
        skey = str(key) if not isinstance(key, str) else key
        if skey in result:
            raise YamlProblem(
                key_node.start_mark.line + 1, _m("duplicate key {key}").format(key=repr(skey)), Code.YAML_DUPLICATE_KEY
            )
        result[skey] = loader.construct_object(value_node)
    return result


def _construct_plain_sequence(loader: _Loader, node: yaml.SequenceNode) -> list[Any]:
    return [loader.construct_object(child) for child in node.value]


_PlainLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_plain_mapping)
_PlainLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_plain_sequence)


# The C parser composes the whole node tree recursively before any constructor runs, so a
# deep file overflows the C stack (a segfault, no message) before MAX_DEPTH is ever checked.
# The pre-scan bounds the depth the composer can reach: flow brackets still open, plus the
# width of a line's leading indentation and block indicators (each block level needs at
# least one column). It over-counts (a bracket inside a quoted string), never under-counts;
# the bound is far above MAX_DEPTH so real files pass and the constructor reports the line.
MAX_COMPOSE_DEPTH = 1000
_BLOCK_PREFIX = re.compile(r"^(?:[ \t]+|[-?:](?=[ \t]|$)|[&!][^ \t]*)*", re.M)
_FLOW = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> int | None:
    """The line where nesting could pass :data:`MAX_COMPOSE_DEPTH`, or None when it cannot."""
    prefixes = _BLOCK_PREFIX.findall(text)
    block = max(map(len, prefixes), default=0)
    if block > MAX_COMPOSE_DEPTH:
        widest = max(range(len(prefixes)), key=lambda i: len(prefixes[i]))
        return _line_of_prefix(text, widest)
    budget = MAX_COMPOSE_DEPTH - block
    if text.count("[") + text.count("{") <= budget:
        return None
    depth = 0
    for m in _FLOW.finditer(text):
        depth = depth + 1 if m.group() in "[{" else max(depth - 1, 0)
        if depth > budget:
            return text.count("\n", 0, m.start()) + 1
    return None


def _line_of_prefix(text: str, index: int) -> int:
    line = 1
    for i, m in enumerate(_BLOCK_PREFIX.finditer(text)):
        if i == index:
            return text.count("\n", 0, m.start()) + 1
    return line


_NOT_VALUE_STARTS = bytes(b for b in range(256) if b not in b"\n,:[{*")
_INDICATORS = (b"- ", b"-\n", b"-\t", b"? ", b"?\n", b"?\t")


def _values_at_most(raw: bytes) -> int:
    """An upper bound of the values in a YAML text (its UTF-8 bytes), counted in C: after the
    first, each value begins after a line break, a comma, a colon, an opening bracket or a block
    indicator (``- ``, ``? ``), or is an alias (``*``). Over-counts (a colon in a text), never
    under-counts."""
    return 1 + len(raw.translate(None, _NOT_VALUE_STARTS)) + sum(raw.count(i) for i in _INDICATORS)


def _stream_check(text: str, raw: bytes, most: int | None, mapping: bool) -> None:
    """Refuse, from the parser's events and before anything is composed, a text whose top level
    is not a mapping (``mapping``) or that plainly holds more than ``most`` values (it may hold
    more than twice as many, :func:`_values_at_most`); a syntax error met on the way is raised
    as the full parse would raise it."""
    # (a text that may hold up to twice the limit is counted by the composer itself, in the one
    # parse: see _Loader.descend_resolver; past that it is plainly hostile, and counted here)
    count = most is not None and _values_at_most(raw) > 2 * most
    if not count and not mapping:
        return
    parser = _BaseLoader(text)
    values = depth = 0
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            if not isinstance(event, yaml.NodeEvent):
                continue
            mark = event.start_mark
            line = mark.line + 1 if mark is not None else None
            if values == 0 and mapping and not isinstance(event, yaml.MappingStartEvent):
                raise YamlProblem(line, _m("expected a mapping (key: value) at the top level"), Code.YAML_NOT_MAPPING)
            values += 1
            if not count:
                return  # (the top level was all that was asked)
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:  # (said as the constructor says it, before the parser's own limit)
                    raise YamlProblem(
                        line, _m("nesting deeper than {n} levels").format(n=MAX_DEPTH), Code.YAML_TOO_DEEP
                    )
            if most is not None and values > most:
                from havoc.language.i18n import message_language, nui

                text_ = nui("more than {most} value", "more than {most} values", most, message_language())
                raise YamlProblem(line, text_.format(most=most), Code.YAML_TOO_MANY)
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" not in str(exc.problem):
            raise
        # libyaml's own limit (1,000 open brackets, met while it looks ahead for a key): said
        # as the constructor's limit is
        at = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        raise YamlProblem(at, _m("nesting deeper than {n} levels").format(n=MAX_DEPTH), Code.YAML_TOO_DEEP) from None
    finally:
        parser.dispose()


def loads(text: str, name: str, lines: bool = True, most: int | None = None, mapping: bool = False) -> Any:
    """Parse YAML (or JSON) text; raise :class:`YamlError` with the line on any problem.

    Mappings and lists come as :class:`LDict`/:class:`LList` (knowing their lines), or with
    ``lines=False`` as plain dicts and lists (faster; the same text, checks and errors).
    ``most``: the most values the text may hold, and ``mapping``: its top level must be a
    mapping; both refused from the parser's first events (:func:`_stream_check`)."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise YamlError(
            Problem(
                name,
                None,
                _m("file is larger than the limit of {limit} bytes").format(limit=f"{MAX_BYTES:,}"),
                code=Code.INPUT_TOO_LARGE,
            )
        )
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise YamlError(
            Problem(
                name, None, _m("not UTF-8 text (character {at})").format(at=exc.start + 1), code=Code.INPUT_NOT_UTF8
            )
        ) from None
    try:
        # the parser's events (not the composer's recursion) first: a list at the top, too many
        # values or a syntax error among them is refused before the text is scanned for its depth
        _stream_check(text, raw, most, mapping)
        deep = _too_deep(text)
        if deep is not None:
            raise YamlProblem(deep, _m("nesting deeper than {n} levels").format(n=MAX_DEPTH), Code.YAML_TOO_DEEP)
        loader = _Loader(text, most) if lines else _PlainLoader(text, most)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except YamlProblem as exc:
        raise YamlError(Problem(name, exc.line, exc.message, code=exc.code)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = _yaml_words(exc.problem or exc.context or "malformed YAML")
        raise YamlError(
            Problem(name, line, _m("not valid YAML: {what}").format(what=what), code=Code.YAML_SYNTAX)
        ) from None
    except yaml.YAMLError as exc:
        raise YamlError(
            Problem(name, None, _m("not valid YAML: {what}").format(what=_yaml_words(str(exc))), code=Code.YAML_SYNTAX)
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4300 digits)
        raise YamlError(
            Problem(name, None, _m("not a usable value: {what}").format(what=str(exc)[:80]), code=Code.YAML_VALUE)
        ) from None
    except (RecursionError, MemoryError):
        raise YamlError(Problem(name, None, _m("nesting too deep"), code=Code.YAML_TOO_DEEP)) from None


def read_text(path: Path, display: str | None = None) -> str:
    """The UTF-8 text of a regular file of at most :data:`MAX_BYTES` (counted as read)."""
    from havoc.core import safeio

    name = display or str(path)
    try:
        return safeio.decode_utf8(safeio.read_bytes(path, MAX_BYTES))
    except safeio.ReadError as exc:
        raise YamlError(Problem(name, None, str(exc), code=exc.code)) from None


def load_file(path: Path, display: str | None = None) -> Any:
    """Read and parse a YAML file: only a regular file, bounded by the bytes actually read."""
    name = display or str(path)
    return loads(read_text(path, name), name)


class YamlError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
