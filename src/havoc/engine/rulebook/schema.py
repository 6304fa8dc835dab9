"""Field-level reading of rule files: types, required and unknown keys, with locations.

The hand-walked half of the one schema framework (:mod:`havoc.formats.spec`): its ID pattern and
:func:`~havoc.formats.spec.plain` are spec's.

Every check records a :class:`Problem` naming file and line and goes on, so one run of
``havoc check`` reports every problem of a file, not just the first.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Set as AbstractSet
from typing import Any

from havoc.core.errors import Code, Problem
from havoc.formats.spec import ID_PATTERN
from havoc.formats.yamlio import LDict, LList

ID_RE = re.compile(ID_PATTERN)


class Reader:
    """Reads one file's values, collecting located problems instead of raising."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file = file
        self.problems = problems

    def problem(self, line: int | None, message: str, code: str = Code.FIELD_VALUE) -> None:
        self.problems.append(Problem(self.file, line, message, code=code))

    def mapping(
        self,
        value: Any,
        what: str,
        line: int,
        allowed: AbstractSet[str],
        required: AbstractSet[str] = frozenset(),
    ) -> LDict | None:
        if not isinstance(value, LDict):
            self.problem(line, f"{what}: expected a mapping, found {_kind(value)}", code=Code.FIELD_TYPE)
            return None
        for key in value:
            if key not in allowed:
                hint = difflib.get_close_matches(key, sorted(allowed), n=1)
                extra = f" (did you mean {hint[0]!r}?)" if hint else ""
                self.problem(value.line_of(key), f"{what}: unknown field {key!r}{extra}", code=Code.FIELD_UNKNOWN)
        for key in sorted(required - set(value)):
            self.problem(value.line, f"{what}: missing required field {key!r}", code=Code.FIELD_MISSING)
        return value

    def text(self, d: LDict, key: str, what: str, required: bool = False) -> str | None:
        if key not in d:
            return None
        value = d[key]
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.problem(
            d.line_of(key), f"{what}.{key}: expected non-empty text, found {_kind(value)}", code=Code.FIELD_TYPE
        )
        return None

    def ident(self, d: LDict, key: str, what: str) -> str | None:
        value = d.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not ID_RE.match(value):
            self.problem(
                d.line_of(key),
                f"{what}.{key}: expected an ID in lowercase-kebab-case, found {value!r}",
                code=Code.FIELD_VALUE,
            )
            return None
        return value

    def id_list(self, d: LDict, key: str, what: str) -> tuple[str, ...]:
        value = d.get(key)
        if value is None:
            return ()
        if not isinstance(value, LList):
            self.problem(
                d.line_of(key), f"{what}.{key}: expected a list of IDs, found {_kind(value)}", code=Code.FIELD_TYPE
            )
            return ()
        out: list[str] = []
        for item, line in zip(value, value.item_lines, strict=False):
            if not isinstance(item, str) or not ID_RE.match(item):
                self.problem(
                    line, f"{what}.{key}: expected an ID in lowercase-kebab-case, found {item!r}", code=Code.FIELD_VALUE
                )
            else:
                out.append(item)
        return tuple(out)

    def items(self, d: LDict, key: str, what: str) -> list[tuple[Any, int]]:
        value = d.get(key)
        if value is None:
            return []
        if not isinstance(value, LList):
            self.problem(d.line_of(key), f"{what}.{key}: expected a list, found {_kind(value)}", code=Code.FIELD_TYPE)
            return []
        return list(zip(value, value.item_lines, strict=False))


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return "text" if value.strip() else "empty text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
