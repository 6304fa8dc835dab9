"""One schema framework: a tree of :class:`Spec` describes a format once; :class:`Reader`
validates input against it with located problems (in the reader's language), and
:func:`json_schema` publishes the same tree as JSON Schema for editors. Positions, questions
and the rule files are described with it.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, Problem
from havoc.language.i18n import LANGUAGES, message_language, nui, ui
from havoc.language.markup import is_id

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, Final

# PyYAML (through havoc.formats.yamlio) is never imported here: line-aware mappings and lists from
# havoc.formats.yamlio are recognised by their line bookkeeping.


def _is_ldict(value: Any) -> bool:
    return isinstance(value, dict) and hasattr(value, "key_lines")


def _is_llist(value: Any) -> bool:
    return isinstance(value, list) and hasattr(value, "item_lines")


def _lines(value: Any) -> Any:
    """The value as its line-aware self (after _is_ldict/_is_llist said it is one)."""
    return value


ID_PATTERN: Final = r"^[a-z0-9][a-z0-9-]*$"
MAX_INT: Final = 1_000_000  # no count on a game table comes near; bounds every figure derived from one
MOST_PROBLEMS: Final = 50
"""Problems a :class:`Reader` words: after these it says only "and more problems" and stops
walking. A table of 85,000 wrong values must not cost 85,000 worded (and located, and suggested)
messages of which an answer lists 50."""


def plain(value: Any) -> Any:
    """Line-aware (or any) mappings and lists as plain JSON-like values with text keys: what a
    cache entry or an API document holds, never havoc.formats.yamlio's types."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def overlaid(table: Any, stated: Any) -> Any:
    """``stated`` (a partial table: what a typed question says of the table) laid over ``table``:
    mappings merged key by key, anything else replaced. The one merge of ``havoc ask --text``,
    the interview's ``stated`` and the Ask page, so a sentence means the same table everywhere."""
    if not isinstance(stated, dict) or not isinstance(table, dict):
        return stated
    out = dict(table)
    for key, value in stated.items():
        out[key] = overlaid(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


class KeySet:
    """The keys a mapping may have (a game's factions, say) and how to say that a key is not one."""

    __slots__ = ("names", "unknown", "vocabulary")

    def __init__(self, names: tuple[str, ...], unknown: Callable[[str, str, str], str], vocabulary: str = "") -> None:
        self.names = names
        self.unknown = unknown  # (name, choices, lang) -> the message
        self.vocabulary = vocabulary  # names a key may be written as instead (see by_ids), if any


class Spec:
    """One field of the format: its kind, what it means, and its limits."""

    __slots__ = (
        "_quick",
        "choices",
        "doc",
        "fields",
        "item",
        "keys",
        "kind",
        "minimum",
        "most",
        "names",
        "required",
    )

    def __init__(
        self,
        kind: str,
        doc: str,
        minimum: int | None = None,
        choices: tuple[str, ...] = (),
        item: Spec | None = None,
        keys: KeySet | None = None,
        fields: Mapping[str, Spec] | None = None,
        required: tuple[str, ...] = (),
        names: str = "",
        most: int | None = None,
    ) -> None:
        self.kind = kind  # int | bool | enum | id | text | any | list | map | object
        self.doc = doc
        self.minimum = minimum
        self.choices = choices
        self.item = item  # list items, map values
        self.keys = keys  # map keys: a fixed set (KeySet), else IDs
        self.fields = fields  # object fields
        self.required = required
        # the vocabulary whose names the value (an enum or id; a map's keys) may be written as
        # instead of an ID ("Mgielnia" for foglands): see by_ids
        self.names = names
        # a list's or map's most items: checked before anything is read of its items (names
        # resolved, problems worded), so a long list costs one comparison and one problem
        self.most = most
        self._quick: Callable[[Any], Any] | None = None  # see quick(), made on first use

    def quick(self) -> Callable[[Any], Any]:
        """This spec as one function of the value: what :meth:`Reader.read` gives for valid data,
        raising :class:`Invalid` at the first thing wrong (without saying what or where)."""
        if self._quick is None:
            self._quick = _compile(self)
        return self._quick


class Invalid(Exception):
    """Raised by a :meth:`Spec.quick` function: the value has a problem (the Reader says which)."""


def _compile(spec: Spec) -> Callable[[Any], Any]:
    """A spec's quick check (see :meth:`Spec.quick`): the same tests as :meth:`Reader.walk`, in
    closures that skip paths, lines and messages; :meth:`Reader.read` walks any value they refuse
    again, so the located problems come from one place."""
    return _COMPILERS.get(spec.kind, _c_object)(spec)


_IDS_SEEN: set[str] = set()
"""Texts found to be IDs (a table's Region and faction IDs recur in every table sent): a set
lookup instead of a character walk. Only exact ``str`` values are kept, at most
:data:`_IDS_SEEN_MOST` of them (a hostile stream of new IDs only empties it now and then)."""
_IDS_SEEN_MOST: Final = 4096


def _is_id_quick(value: Any) -> bool:
    """``isinstance(value, str) and is_id(value)``, remembering the IDs it has seen."""
    if value.__class__ is str:
        if value in _IDS_SEEN:
            return True
        if not is_id(value):
            return False
        if len(_IDS_SEEN) >= _IDS_SEEN_MOST:
            _IDS_SEEN.clear()
        _IDS_SEEN.add(value)
        return True
    return isinstance(value, str) and is_id(value)


def _c_int(spec: Spec) -> Callable[[Any], Any]:
    least = spec.minimum if spec.minimum is not None else float("-inf")

    def whole(value: Any) -> Any:
        if value.__class__ is not int:  # (a bool is not an int here; 3.0 is 3)
            if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_INT:
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise Invalid
        if value < least or value > MAX_INT:
            raise Invalid
        return value

    return whole


def _c_any(spec: Spec) -> Callable[[Any], Any]:
    return lambda value: value


def _c_typed(spec: Spec) -> Callable[[Any], Any]:
    want = str if spec.kind == "text" else bool

    def typed(value: Any) -> Any:
        if not isinstance(value, want):
            raise Invalid
        return value

    return typed


def _c_enum(spec: Spec) -> Callable[[Any], Any]:
    choices, names = spec.choices, frozenset(spec.choices)

    def enum(value: Any) -> Any:
        # a plain text is looked up; another value is compared as the walk compares it
        if value.__class__ is str:
            if value not in names:
                raise Invalid
        elif not isinstance(value, str) or value not in choices:
            raise Invalid
        return value

    return enum


def _c_id(spec: Spec) -> Callable[[Any], Any]:
    seen, match = _IDS_SEEN, _is_id_quick

    def ident(value: Any) -> Any:
        if (value.__class__ is not str or value not in seen) and not match(value):
            raise Invalid
        return value

    return ident


def _all_ids(values: Any) -> bool:
    """Whether every one of ``values`` (a list, or a mapping's keys) is an ID: one already seen is
    a set lookup, any other is matched letter by letter."""
    seen, match = _IDS_SEEN, _is_id_quick
    for v in values:  # noqa: SIM110 - a plain loop: all() over a generator costs a new table ~10 µs
        if (v.__class__ is not str or v not in seen) and not match(v):
            return False
    return True


def _c_list(spec: Spec) -> Callable[[Any], Any]:
    assert spec.item is not None
    each = spec.item.quick()
    most = spec.most if spec.most is not None else float("inf")
    if spec.item.kind == "id":  # a list of IDs (a Region's neighbours) is checked in one pass

        def ids(value: Any) -> Any:
            if not isinstance(value, list) or len(value) > most or not _all_ids(value):
                raise Invalid
            return list(value)

        return ids

    def items(value: Any) -> Any:
        if not isinstance(value, list) or len(value) > most:
            raise Invalid
        return [each(v) for v in value]

    return items


def _c_map(spec: Spec) -> Callable[[Any], Any]:
    keys = spec.keys
    assert spec.item is not None
    each = spec.item.quick()
    most = spec.most if spec.most is not None else float("inf")
    if isinstance(keys, KeySet):
        names = frozenset(keys.names)  # (only texts: a key of another type is never one of them)

        def named(value: Any) -> Any:
            if not isinstance(value, dict) or not value.keys() <= names:
                raise Invalid
            return {key: each(item) for key, item in value.items()}

        return named

    def mapping(value: Any) -> Any:
        if not isinstance(value, dict) or len(value) > most or not _all_ids(value):
            raise Invalid
        return {key: each(item) for key, item in value.items()}

    return mapping


def _c_object(spec: Spec) -> Callable[[Any], Any]:
    required = frozenset(spec.required)
    assert spec.fields is not None
    fields = {key: field.quick() for key, field in spec.fields.items()}  # a spec is a tree: no cycle
    known = frozenset(fields)

    def obj(value: Any) -> Any:
        if not isinstance(value, dict) or not value.keys() <= known or not required <= value.keys():
            raise Invalid
        return {key: fields[key](item) for key, item in value.items()}

    return obj


_COMPILERS: Final[dict[str, Callable[[Spec], Callable[[Any], Any]]]] = {
    "int": _c_int,
    "any": _c_any,
    "text": _c_typed,
    "bool": _c_typed,
    "enum": _c_enum,
    "id": _c_id,
    "list": _c_list,
    "map": _c_map,
}


_BAD: Final = object()


def _ml() -> str:
    """The language of error messages (set by the command from ``--lang``)."""
    return message_language()


def _kind(value: Any) -> str:
    lang = message_language()
    if value is None:
        return ui("nothing", lang)
    if isinstance(value, bool):
        return ui("a boolean", lang)
    if isinstance(value, (int, float)):
        return f"{value!r}"
    if isinstance(value, str):
        return f"{value!r}" if len(value) <= 40 else ui("a long text", lang)
    if isinstance(value, list):
        return ui("a list", lang)
    if isinstance(value, dict):
        return ui("a mapping", lang)
    return type(value).__name__


def suggest(name: str, known: list[str] | tuple[str, ...]) -> str:
    """' (did you mean 'x'?)' for a near miss, else ''."""
    import difflib

    hint = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return " " + ui("(did you mean {name}?)", _ml()).format(name=repr(hint[0])) if hint else ""


class Reader:
    """Walks a value against a :class:`Spec`, collecting located problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.full = False  # MOST_PROBLEMS said, and "and more problems": nothing more is walked

    def problem(self, line: int | None, path: str, message: str, code: str = Code.FIELD_VALUE) -> Problem | None:
        """Note a problem (``code``: which, see :mod:`havoc.core.codes`); the one noted (None: the
        list is full, see :data:`MOST_PROBLEMS`)."""
        if self.full:
            return None
        if len(self.problems) >= MOST_PROBLEMS:
            self.full = True
            self.problems.append(more_problems(self.file))
            return None
        found = Problem(self.file, line, f"{path}: {message}" if path else message, code=code)
        self.problems.append(found)
        return found

    def bounded(self, value: Any, spec: Spec, path: str = "", line: int | None = None) -> bool:
        """Whether every list and map in ``value`` is within its spec's ``most``; each one past
        it is a located problem. Only lists and maps within their limits are entered, and no
        name is read, so this costs at most the limits' product of steps: it runs before the
        names of a table are resolved or anything is worded about its items."""
        kind = spec.kind
        if kind == "list" or kind == "map":
            if not isinstance(value, list if kind == "list" else dict) or spec.item is None:
                return True  # (a value of another type is the Reader's to word)
            if spec.most is not None and len(value) > spec.most:
                self.problem(line, path, too_long(spec.most, len(value)), code=Code.FIELD_TOO_MANY)
                return False
            item = spec.item
            if item.kind in _LEAVES:
                return True
            ok = True
            if isinstance(value, list):
                lines = _lines(value).item_lines if _is_llist(value) else None
                for i, v in enumerate(value):
                    at = lines[i] if lines and i < len(lines) else line
                    ok = self.bounded(v, item, f"{path}[{i}]", at) and ok
            else:
                for key, v in value.items():
                    at = _lines(value).line_of(key) if _is_ldict(value) else line
                    ok = self.bounded(v, item, f"{path}.{key}", at) and ok
            return ok
        if kind == "object" and isinstance(value, dict) and spec.fields:
            if len(value) > len(spec.fields) + MOST_PROBLEMS:  # more unknown fields than are listed
                for key in value:
                    if key not in spec.fields:
                        self.unknown_field(value, key, spec, path, line)
                        if self.full:
                            break
                return False
            ok = True
            for key, v in value.items():
                child = spec.fields.get(key) if isinstance(key, str) else None
                if child is not None and child.kind not in _LEAVES:
                    at = _lines(value).line_of(key) if _is_ldict(value) else line
                    ok = self.bounded(v, child, f"{path}.{key}" if path else key, at) and ok
            return ok
        return True

    def unknown_field(self, value: Any, key: Any, spec: Spec, path: str, line: int | None) -> None:
        """The problem of a field ``spec`` (an object's) does not have."""
        assert spec.fields is not None
        known = list(spec.fields)
        self.problem(
            _lines(value).line_of(key) if _is_ldict(value) else line,
            path,
            ui("unknown field {name}{hint}; expected one of {choices}", _ml()).format(
                name=repr(key), hint=suggest(str(key), known), choices=", ".join(known)
            ),
            code=Code.FIELD_UNKNOWN,
        )

    def read(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        """The value as the spec reads it; its problems, located, added to :attr:`problems`.

        Valid data (nearly all) takes the spec's quick check; only a value it refuses is walked
        again field by field to say what is wrong and where (the same result either way)."""
        try:
            return spec.quick()(value)
        except Invalid:
            return self.walk(value, spec, path, line)

    def walk(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        kind = spec.kind
        if kind == "int":
            if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_INT:
                value = int(value)  # 3.0 is 3; 1e300 is refused below as what it is, not a 301-digit int
            if isinstance(value, bool) or not isinstance(value, int):
                self.problem(line, path, _at_least(spec.minimum, _kind(value)), code=Code.FIELD_TYPE)
                return _BAD
            if spec.minimum is not None and value < spec.minimum:
                self.problem(line, path, _at_least(spec.minimum, _short_number(value)), code=Code.FIELD_VALUE)
                return _BAD
            if value > MAX_INT:
                found = _short_number(value)
                self.problem(
                    line,
                    path,
                    ui("expected a whole number ≤ {most}, found {found}", _ml()).format(most=MAX_INT, found=found),
                    code=Code.FIELD_VALUE,
                )
                return _BAD
            return value
        if kind == "any":
            return value
        if kind == "text":
            if not isinstance(value, str):
                self.problem(
                    line,
                    path,
                    ui("expected a text, found {found}", _ml()).format(found=_kind(value)),
                    code=Code.FIELD_TYPE,
                )
                return _BAD
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                self.problem(
                    line,
                    path,
                    ui("expected true or false, found {found}", _ml()).format(found=_kind(value)),
                    code=Code.FIELD_TYPE,
                )
                return _BAD
            return value
        if kind == "enum":
            if not isinstance(value, str) or value not in spec.choices:
                near = suggest(value, spec.choices) if isinstance(value, str) else ""
                self.problem(
                    line,
                    path,
                    ui("expected one of {choices}, found {found}", _ml()).format(
                        choices=", ".join(spec.choices), found=_kind(value)
                    )
                    + near,
                    code=Code.FIELD_VALUE,
                )
                return _BAD
            return value
        if kind == "id":
            if not isinstance(value, str) or not is_id(value):
                self.problem(
                    line,
                    path,
                    ui("expected an ID in lowercase-kebab-case (like example-a), found {found}", _ml()).format(
                        found=_kind(value)
                    ),
                    code=Code.FIELD_TYPE,
                )
                return _BAD
            return value
        if kind == "list":
            return self._list(value, spec, path, line)
        if kind == "map":
            return self._map(value, spec, path, line)
        return self._object(value, spec, path, line)

    def _list(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        if not isinstance(value, list):
            self.problem(
                line, path, ui("expected a list, found {found}", _ml()).format(found=_kind(value)), code=Code.FIELD_TYPE
            )
            return _BAD
        assert spec.item is not None
        if spec.most is not None and len(value) > spec.most:
            self.problem(line, path, too_long(spec.most, len(value)), code=Code.FIELD_TOO_MANY)
            return _BAD
        lines = _lines(value).item_lines if _is_llist(value) else [None] * len(value)
        out = []
        for i, (item, item_line) in enumerate(zip(value, lines, strict=False)):
            if self.full:
                break
            got = self.walk(item, spec.item, f"{path}[{i}]", item_line or line)
            if got is not _BAD:
                out.append(got)
        return out

    def _map(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        if not isinstance(value, dict):
            self.problem(
                line,
                path,
                ui("expected a mapping, found {found}", _ml()).format(found=_kind(value)),
                code=Code.FIELD_TYPE,
            )
            return _BAD
        assert spec.item is not None
        if spec.most is not None and len(value) > spec.most:
            self.problem(line, path, too_long(spec.most, len(value)), code=Code.FIELD_TOO_MANY)
            return _BAD
        out: dict[str, Any] = {}
        for key, item in value.items():
            if self.full:
                break
            key_line = _lines(value).line_of(key) if _is_ldict(value) else line
            sub = f"{path}.{key}"
            if isinstance(spec.keys, KeySet):
                if not isinstance(key, str) or key not in spec.keys.names:
                    self.problem(
                        key_line,
                        sub,
                        spec.keys.unknown(repr(key), ", ".join(spec.keys.names), _ml())
                        + (suggest(key, spec.keys.names) if isinstance(key, str) else ""),
                        code=Code.FIELD_UNKNOWN,
                    )
                    continue
            elif not isinstance(key, str) or not is_id(key):
                self.problem(
                    key_line,
                    sub,
                    ui("expected an ID in lowercase-kebab-case (like example-a) as the key", _ml()),
                    code=Code.FIELD_TYPE,
                )
                continue
            got = self.walk(item, spec.item, sub, key_line)
            if got is not _BAD:
                out[key] = got
        return out

    def _object(self, value: Any, spec: Spec, path: str, line: int | None) -> Any:
        if not isinstance(value, dict):
            self.problem(
                line,
                path,
                ui("expected a mapping, found {found}", _ml()).format(found=_kind(value)),
                code=Code.FIELD_TYPE,
            )
            return _BAD
        assert spec.fields is not None
        out: dict[str, Any] = {}
        for key, item in value.items():
            if self.full:
                break
            key_line = _lines(value).line_of(key) if _is_ldict(value) else line
            sub = f"{path}.{key}" if path else str(key)
            fspec = spec.fields.get(key)
            if fspec is None:
                self.unknown_field(value, key, spec, path, line)
                continue
            got = self.walk(item, fspec, sub, key_line)
            if got is not _BAD:
                out[key] = got
        for key in spec.required:
            if key not in value:
                # located at the field itself, so a form marks the field and a reader sees its
                # name in words (the path is worded by the format's reader), never a raw key
                self.problem(
                    _lines(value).line if _is_ldict(value) else line,
                    f"{path}.{key}" if path else str(key),
                    ui("required, but not given", _ml()),
                    code=Code.FIELD_MISSING,
                )
        return out


class Names:
    """How :func:`by_ids` reads names: a format's own subclass knows its vocabularies."""

    def name(self, vocabulary: str, text: str, path: str, line: int | None, choices: tuple[str, ...]) -> str:
        """The ID ``text`` names (or ``text`` itself, left to the Reader); says what is wrong
        with a name that names nothing or more than one thing. ``choices``: an enum's IDs."""
        return text

    def renamed(self, path: str, typed: str) -> None:
        """The key at ``path`` (by IDs) was written as ``typed``."""

    def twice(self, path: str, first: str, second: str, line: int | None) -> None:
        """Two keys of one mapping (at ``path``, as typed) name the same thing."""


_LEAVES: Final = frozenset({"int", "bool", "text", "any", "enum", "id"})


def by_ids(value: Any, spec: Spec, names: Names, path: str = "", ids: str = "", line: int | None = None) -> Any:
    """``value`` with every name written where the spec allows one (``Spec.names``,
    ``KeySet.vocabulary``) replaced by the ID it names, as ``names`` reads it; line-aware
    mappings and lists stay line-aware (their lines then locate the Reader's problems).

    ``path`` is the place as typed, ``ids`` the same place by IDs (as the Reader will name it).
    Only a table that fails the quick check is read this way: one written in IDs never is."""
    kind = spec.kind
    if kind == "enum" or kind == "id":
        if spec.names and isinstance(value, str) and value not in spec.choices:
            return names.name(spec.names, value, path, line, spec.choices)
        return value
    if kind == "list":
        if not isinstance(value, list) or spec.item is None or (spec.most is not None and len(value) > spec.most):
            return value  # (a list past its limit is refused as it is: no name in it is read)
        lines = _lines(value).item_lines if _is_llist(value) else None
        items = [
            by_ids(v, spec.item, names, f"{path}[{i}]", f"{ids}[{i}]", lines[i] if lines and i < len(lines) else line)
            for i, v in enumerate(value)
        ]
        if not _is_llist(value):
            return items
        out_list: Any = value.__class__(items)
        out_list.line, out_list.item_lines = _lines(value).line, lines
        return out_list
    if (kind != "map" and kind != "object") or not isinstance(value, dict):
        return value
    if spec.most is not None and len(value) > spec.most:
        return value
    keyset = spec.keys if isinstance(spec.keys, KeySet) else None
    vocabulary = (keyset.vocabulary if keyset else spec.names) if kind == "map" else ""
    out: dict[Any, Any] = {}
    typed: dict[Any, Any] = {}
    key_lines: dict[Any, int] = {}
    for key, item in value.items():
        key_line = _lines(value).line_of(key) if _is_ldict(value) else line
        sub = f"{path}.{key}" if path else str(key)
        new = key
        if vocabulary and isinstance(key, str) and not (keyset and key in keyset.names):
            new = names.name(vocabulary, key, sub, key_line, keyset.names if keyset else ())
        sub_ids = f"{ids}.{new}" if ids else str(new)
        if new in out:
            names.twice(path, str(typed[new]), str(key), key_line)
            continue
        if new != key:
            names.renamed(sub_ids, str(key))
        child = spec.item if kind == "map" else (spec.fields or {}).get(key)
        if child is None or (not child.names and child.kind in _LEAVES):  # (nothing named below)
            out[new] = item
        else:
            out[new] = by_ids(item, child, names, sub, sub_ids, key_line)
        typed[new] = key
        if key_line is not None:
            key_lines[new] = key_line
    if not _is_ldict(value):
        return out
    out_dict: Any = value.__class__(out)
    out_dict.line, out_dict.key_lines = _lines(value).line, key_lines
    return out_dict


def too_long(most: int, count: int) -> str:
    """What a list or map longer than its limit is told (the limit in the plural it needs)."""
    text = nui(
        "too long: at most {most} item, found {count}", "too long: at most {most} items, found {count}", most, _ml()
    )
    return text.format(most=most, count=count)


def more_problems(file: str) -> Problem:
    """The last of a problem list cut at :data:`MOST_PROBLEMS`: the rest were not looked for."""
    return Problem(file, None, ui("and more problems", _ml()), code=Code.MORE_PROBLEMS)


def is_more(problem: Problem) -> bool:
    """Whether ``problem`` is :func:`more_problems`' (in any language)."""
    if problem.line is not None:
        return False
    return any(problem.message == ui("and more problems", lang) for lang in LANGUAGES)


def _at_least(minimum: int | None, found: str) -> str:
    if minimum is None:
        return ui("expected a whole number, found {found}", _ml()).format(found=found)
    return ui("expected a whole number ≥ {least}, found {found}", _ml()).format(least=minimum, found=found)


def _short_number(value: int) -> str:
    """A number as a message shows it: a 300-digit integer is not printed whole."""
    if abs(value) < 10**30:
        return str(value)
    digits = int(value.bit_length() * 0.30103) + 1
    return ui("a number of about {digits} digits", _ml()).format(digits=digits)


def json_schema(spec: Spec) -> dict[str, Any]:
    out: dict[str, Any] = {"description": spec.doc}
    if spec.kind == "any":
        return out
    if spec.kind == "text":
        out["type"] = "string"
        return out
    if spec.kind == "int":
        out.update(type="integer", minimum=spec.minimum or 0)
    elif spec.kind == "bool":
        out["type"] = "boolean"
    elif spec.kind == "enum":
        out.update(type="string", enum=list(spec.choices))
    elif spec.kind == "id":
        out.update(type="string", pattern=ID_PATTERN)
    elif spec.kind == "list":
        assert spec.item is not None
        out.update(type="array", items=json_schema(spec.item))
        if spec.most is not None:
            out["maxItems"] = spec.most
    elif spec.kind == "map":
        assert spec.item is not None
        out["type"] = "object"
        if isinstance(spec.keys, KeySet):
            out["properties"] = {f: json_schema(spec.item) for f in spec.keys.names}
            out["additionalProperties"] = False
        else:
            out["propertyNames"] = {"pattern": ID_PATTERN}
            out["additionalProperties"] = json_schema(spec.item)
        if spec.most is not None:
            out["maxProperties"] = spec.most
    else:
        assert spec.fields is not None
        out.update(
            type="object",
            properties={k: json_schema(v) for k, v in spec.fields.items()},
            additionalProperties=False,
        )
        if spec.required:
            out["required"] = list(spec.required)
    return out


API_CONTEXT = "api"
"""The catalog context of the position's and question's field descriptions (``havoc catalog update``
adds them from the installed games' schemas)."""


def schema_descriptions(schema: Any) -> list[str]:
    """Every description in a JSON Schema, in order (what a translator translates)."""
    out: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                out.append(value)
            else:
                out.extend(schema_descriptions(value))
    elif isinstance(schema, list):
        for value in schema:
            out.extend(schema_descriptions(value))
    return out
