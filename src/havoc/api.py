"""The rules assistant as a Python API: the same operations as ``havoc ask/legal/battle/score``.

Positions may be given as a :class:`~havoc.position.Position`, a mapping (the YAML/JSON form),
a path, or ``"-"`` for standard input; questions as a :class:`~havoc.interpreter.query.Query`,
a mapping (``{"ask": "move", …}``) or the compact words (``"move humans from=a to=b"``).
Every question function returns an :class:`~havoc.interpreter.answer.Answer`.

The error contract: every public function here raises only

- :class:`~havoc.errors.InputError` for anything the caller passed (a position, question,
  faction, language or ruleset name that is malformed, impossible or unknown; a file that
  cannot be read), with located problems; the CLI exits 2;
- :class:`~havoc.errors.RulebookError` when the rules themselves are broken; the CLI exits 1.

Any other exception is a bug; the fuzz suite (tests/test_fuzz.py, ``make fuzz``) counts them.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from havoc import position as positions
from havoc import rulebook
from havoc.errors import InputError, Problem
from havoc.interpreter.answer import Answer
from havoc.interpreter.query import Query, parse_compact, parse_query
from havoc.position import Position
from havoc.rulebook.model import Ruleset

if TYPE_CHECKING:
    from havoc.games.cry_havoc.solo import TrogDecision
    from havoc.search import Hit

PositionLike = Position | Mapping[str, Any] | str | Path
QueryLike = Query | Mapping[str, Any] | str | Sequence[str]


def load_position(source: PositionLike, rs: Ruleset | None = None) -> Position:
    """A validated position from a Position, a mapping, a file path or ``"-"`` (stdin)."""
    if isinstance(source, Position):
        return source
    if isinstance(source, Mapping):
        return positions.parse(source, rs)
    if isinstance(source, str) and source == "-":
        return positions.parse_text(_read_stdin(), rs, "<stdin>")
    if not isinstance(source, (str, Path)):
        raise InputError(
            [Problem("position", None, f"expected a mapping, a file path or '-', found {type(source).__name__}")]
        )
    if rs is not None:
        return _cached(Path(source), rs)
    return positions.load(source, rs)


def _read_stdin() -> str:
    """Standard input, bounded and strictly UTF-8 (a stray byte is a located error, not a traceback)."""
    from havoc import safeio

    try:
        return safeio.decode_utf8(safeio.read_stream(getattr(sys.stdin, "buffer", sys.stdin), safeio.MAX_BYTES))
    except safeio.ReadError as exc:
        raise InputError([Problem("<stdin>", None, str(exc))]) from None


_CODE = (Path(positions.__file__), Path(positions.__file__).parent / "interpreter" / "contract.py")


def _cached(path: Path, rs: Ruleset) -> Position:
    """A position file validated before (same bytes, same rules, same code) comes from the cache.

    Players ask several questions about one table; the cache spares each later question the
    YAML parser and the validation, which are most of a short process's work. The file is
    read once (bounded, regular files only): the key and the position come from those bytes.
    """
    from havoc import cache, safeio  # not havoc.yamlio: a cache hit never imports the YAML parser

    try:
        data = safeio.read_bytes(path, safeio.MAX_BYTES)
    except safeio.ReadError as exc:
        raise InputError([Problem(str(path), None, str(exc))]) from None
    chunks = [data, rs.fingerprint.encode()]
    for code in _CODE:
        try:
            chunks.append(code.read_bytes())
        except OSError:
            chunks.append(b"\0missing")
    key = cache.digest(*chunks)
    pos = cache.get("position", key, Position)
    if pos is not None:
        pos.name = str(path)
        return pos
    try:
        text = safeio.decode_utf8(data)
    except safeio.ReadError as exc:
        raise InputError([Problem(str(path), None, str(exc))]) from None
    pos = positions.parse_text(text, rs, str(path))
    cache.put("position", key, pos)
    return pos


def load_ruleset(ruleset: str = rulebook.DEFAULT_RULESET) -> Ruleset:
    """The (cached) ruleset; a ruleset name that does not exist is the caller's input error.

    Raises InputError for an unknown ruleset, RulebookError when the named rules are broken.
    """
    try:
        return rulebook.load(ruleset)
    except rulebook.UnknownRuleset as exc:
        raise InputError(exc.problems) from None


def prepare(source: PositionLike, ruleset: str = rulebook.DEFAULT_RULESET) -> tuple[Ruleset, Position]:
    """The (cached) ruleset and the validated position.

    Raises InputError (bad position or ruleset name) or RulebookError (broken rules), nothing else.
    """
    rs = load_ruleset(ruleset)
    return rs, load_position(source, rs)


def load_query(query: QueryLike, pos: Position) -> Query:
    """A validated question from a Query, a mapping or compact words; raises InputError only."""
    if isinstance(query, Query):
        return query
    if isinstance(query, Mapping):
        return parse_query(query, pos)
    if isinstance(query, str):
        return parse_compact(query.split(), pos)
    if isinstance(query, Sequence):
        return parse_compact([str(w) for w in query], pos)
    raise InputError([Problem("query", None, f"expected a mapping or question words, found {type(query).__name__}")])


def answer_for(rs: Ruleset, pos: Position, query: Query, lang: str = "en") -> Answer:
    """Answer a validated query (the fast path the benchmarks measure)."""
    from havoc.interpreter.queries import answer

    _check_lang(lang)
    return answer(rs, pos, query, lang)


def ask(position: PositionLike, query: QueryLike, lang: str = "en", ruleset: str = rulebook.DEFAULT_RULESET) -> Answer:
    """Answer one question about one position.

    Raises InputError (bad input) or RulebookError (broken rules) only.
    """
    rs, pos = prepare(position, ruleset)
    return answer_for(rs, pos, load_query(query, pos), lang)


def legal(
    position: PositionLike, faction: str | None = None, lang: str = "en", ruleset: str = rulebook.DEFAULT_RULESET
) -> Answer:
    """What ``faction`` (default: whose turn it is) may do now, with the limits.

    Raises InputError (bad input) or RulebookError (broken rules) only.
    """
    rs, pos = prepare(position, ruleset)
    data: dict[str, Any] = {"ask": "legal"}
    if faction:
        data["faction"] = faction
    return answer_for(rs, pos, parse_query(data, pos), lang)


def battle(
    position: PositionLike,
    region: str | None = None,
    objectives: Mapping[str, Mapping[str, int]] | None = None,
    faction: str | None = None,
    lang: str = "en",
    ruleset: str = rulebook.DEFAULT_RULESET,
) -> Answer:
    """Resolve the Battle in ``region`` from the Units on the objectives (or list the order).

    Raises InputError (bad input) or RulebookError (broken rules) only.
    """
    rs, pos = prepare(position, ruleset)
    data: dict[str, Any] = {"ask": "battle"}
    if region:
        data["region"] = region
    if objectives:
        if not isinstance(objectives, Mapping):
            raise InputError([Problem("query", None, "objectives: expected a mapping of factions")])
        data["objectives"] = {k: dict(v) if isinstance(v, Mapping) else v for k, v in objectives.items()}
    if faction:
        data["faction"] = faction
    return answer_for(rs, pos, parse_query(data, pos), lang)


def score(
    position: PositionLike, faction: str | None = None, lang: str = "en", ruleset: str = rulebook.DEFAULT_RULESET
) -> Answer:
    """What each faction scores this round (``faction``'s own figures first).

    Raises InputError (bad input) or RulebookError (broken rules) only.
    """
    rs, pos = prepare(position, ruleset)
    data: dict[str, Any] = {"ask": "score"}
    if faction:
        data["faction"] = faction
    return answer_for(rs, pos, parse_query(data, pos), lang)


def trogs(
    position: PositionLike,
    query: Mapping[str, Any],
    lang: str = "en",
    ruleset: str = rulebook.DEFAULT_RULESET,
) -> TrogDecision:
    """What the solo variant's Trogs do (``{"decide": "move", "units": 4}`` …), and why.

    Raises InputError (bad input, a position that is not a solo one) or RulebookError only.
    """
    from havoc.games.cry_havoc.solo import decide

    _check_lang(lang)
    if not isinstance(query, Mapping):
        raise InputError([Problem("query", None, f"expected a mapping, found {type(query).__name__}")])
    rs, pos = prepare(position, ruleset)
    return decide(rs, pos, query, lang)


def schema(ruleset: str | None = rulebook.DEFAULT_RULESET) -> dict[str, Any]:
    """The JSON Schema of positions (with the rules' limits when a ruleset is named)."""
    rs = load_ruleset(ruleset) if ruleset else None
    return positions.position_schema(rs)


def lookup(text: str, lang: str = "en", limit: int = 10) -> list[Hit]:
    """The rules that answer a few words (English or Polish), best first, shown in ``lang``:
    the same search as ``havoc lookup`` and the site's search page."""
    from havoc.search import lookup as search_lookup

    _check_lang(lang)
    return search_lookup(text, lang, limit)


def _check_lang(lang: str) -> None:
    from havoc.i18n import LANGUAGES

    if lang not in LANGUAGES:
        raise InputError([Problem("lang", None, f"expected one of {', '.join(LANGUAGES)}, found {lang!r}")])


__all__ = [
    "Answer",
    "ask",
    "battle",
    "legal",
    "load_position",
    "load_query",
    "load_ruleset",
    "lookup",
    "position_schema",
    "prepare",
    "schema",
    "score",
    "trogs",
]

position_schema = positions.position_schema
