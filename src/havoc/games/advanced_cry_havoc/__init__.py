"""Advanced Cry Havoc 2 on the havoc engine: its charts, read from the rule tables.

This game has no position-based assistant: its package answers no question kinds, and offers
chart lookups instead (:mod:`.lookups`, the ``havoc charts`` command, :mod:`.api`). The names
below are the :class:`havoc.game.Game` protocol, kept minimal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc.errors import InputError, Problem

if TYPE_CHECKING:
    from havoc.errors import Problem as _P
    from havoc.interpreter.answer import Answer
    from havoc.rulebook.model import Ruleset

_HERE = Path(__file__).resolve().parent

COMMANDS: Mapping[str, str] = {"charts": "havoc.games.advanced_cry_havoc.cli"}
# The lookups the site's in-browser engine answers (``POST /api/charts?ruleset=…``, see
# havoc.webapi): the same function, and so the same JSON, as ``havoc charts … --json``.
LOOKUPS: Mapping[str, str] = {"charts": "havoc.games.advanced_cry_havoc.charts:lookup"}
SITE_EXTENSION = "havoc.games.advanced_cry_havoc.lookup_page"  # the site's chart lookup page


def _no_positions(name: str) -> InputError:
    return InputError(
        [Problem(name, None, "Advanced Cry Havoc has no position-based assistant; use `havoc charts` for lookups")]
    )


def parse_position(data: Any, rs: Ruleset | None, name: str = "position") -> Any:
    raise _no_positions(name)


def parse_position_text(text: str, rs: Ruleset | None, name: str = "position") -> Any:
    raise _no_positions(name)


def is_position(value: object) -> bool:
    return False


def position_schema(rs: Ruleset | None) -> dict[str, Any]:
    return {"type": "object", "description": "Advanced Cry Havoc has no positions", "not": {}}


def code_files() -> Sequence[Path]:
    return (_HERE / "__init__.py",)


def parse_question(data: Mapping[str, Any], pos: Any, name: str = "query") -> Any:
    raise _no_positions("query")


def parse_compact(words: Sequence[str], pos: Any) -> Any:
    raise _no_positions("query")


def is_question(value: object) -> bool:
    return False


def question_schema() -> dict[str, Any]:
    return {"type": "object", "not": {}}


def answer(rs: Ruleset, pos: Any, question: Any, lang: str) -> Answer:
    raise _no_positions("query")


def resolve_fact(name: str) -> Any:
    return None  # no facts: nothing is evaluated against a position


def question_kinds() -> Mapping[str, Any]:
    return {}


def mechanism_rules(rs: Ruleset) -> frozenset[str]:
    """The charts the lookups read: each lookup answers from its rule's table and cites it."""
    from havoc.games.advanced_cry_havoc import tables

    return frozenset(v for k, v in vars(tables).items() if k.isupper() and isinstance(v, str) and v.startswith("acv-"))


def check_rules(rs: Ruleset) -> list[_P]:
    """Every chart cell the lookups read parses (see :mod:`.tables`), located at its rule."""
    from havoc.games.advanced_cry_havoc.tables import check_rules as check

    return check(rs)


class _Labels:
    """Words for identifiers: this game has none beyond its rule texts."""

    __slots__ = ()

    def name(self, key: str, lang: str) -> str:
        return key

    def figure(self, name: str, lang: str) -> str:
        return name

    def figures(self, lang: str) -> dict[str, str]:
        return {}

    def value(self, value: object, lang: str) -> str:
        return str(value)

    def kind(self, kind: str, lang: str) -> str:
        return kind

    def unit(self, unit: str, n: int, lang: str) -> str:
        return unit

    def has(self, what: str, name: str) -> bool:
        return False

    def parties(self) -> tuple[str, ...]:
        return ()

    def subject(self, head: str, lang: str) -> str:
        return ""


LABELS = _Labels()


def labels() -> _Labels:
    return LABELS
