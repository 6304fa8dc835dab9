"""The rules assistant as a Python API: the same operations as ``havoc ask/legal/battle/score``.

Positions may be given as a :class:`~havoc.position.Position`, a mapping (the YAML/JSON form),
a path, or ``"-"`` for standard input; questions as a :class:`~havoc.interpreter.query.Query`,
a mapping (``{"ask": "move", …}``) or the compact words (``"move humans from=a to=b"``).
Every function returns an :class:`~havoc.interpreter.answer.Answer`; bad input raises
:class:`~havoc.errors.InputError` with located problems, nothing else.
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
    from havoc.search import Hit

PositionLike = Position | Mapping[str, Any] | str | Path
QueryLike = Query | Mapping[str, Any] | str | Sequence[str]


def load_position(source: PositionLike, rs: Ruleset | None = None) -> Position:
    """A validated position from a Position, a mapping, a file path or ``"-"`` (stdin)."""
    if isinstance(source, Position):
        return source
    if isinstance(source, Mapping):
        return positions.parse(source, rs)
    if str(source) == "-":
        return positions.parse_text(sys.stdin.read(2_000_000), rs, "<stdin>")
    if rs is not None:
        return _cached(Path(source), rs)
    return positions.load(source, rs)


_CODE = (Path(positions.__file__), Path(positions.__file__).parent / "interpreter" / "contract.py")


def _cached(path: Path, rs: Ruleset) -> Position:
    """A position file validated before (same bytes, same rules, same code) comes from the cache.

    Players ask several questions about one table; the cache spares each later question the
    YAML parser and the validation, which are most of a short process's work.
    """
    import hashlib
    import pickle

    from havoc.rulebook.cache import cache_dir

    try:
        data = path.read_bytes() if path.stat().st_size <= 1_000_000 else None
    except OSError:
        data = None
    if data is None:
        return positions.load(path, rs)  # reports the unreadable or oversized file
    h = hashlib.sha256(data)
    h.update(rs.fingerprint.encode())
    for code in _CODE:
        h.update(code.read_bytes())
    file = cache_dir() / f"position-{h.hexdigest()[:32]}.pickle"
    try:
        with file.open("rb") as fh:
            pos = pickle.load(fh)
        if isinstance(pos, Position):
            pos.name = str(path)
            return pos
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return positions.load(path, rs)  # reports it
    pos = positions.parse_text(text, rs, str(path))
    _store(file, pos)
    return pos


def _store(file: Path, pos: Position) -> None:
    import os
    import pickle
    import tempfile

    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(pos, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, file)
    except OSError:
        pass


def prepare(source: PositionLike, ruleset: str = rulebook.DEFAULT_RULESET) -> tuple[Ruleset, Position]:
    """The (cached) ruleset and the validated position."""
    rs = rulebook.load(ruleset)
    return rs, load_position(source, rs)


def load_query(query: QueryLike, pos: Position) -> Query:
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
    """Answer one question about one position."""
    rs, pos = prepare(position, ruleset)
    return answer_for(rs, pos, load_query(query, pos), lang)


def legal(
    position: PositionLike, faction: str | None = None, lang: str = "en", ruleset: str = rulebook.DEFAULT_RULESET
) -> Answer:
    """What ``faction`` (default: whose turn it is) may do now, with the limits."""
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
    """Resolve the Battle in ``region`` from the Units on the objectives (or list the order)."""
    rs, pos = prepare(position, ruleset)
    data: dict[str, Any] = {"ask": "battle"}
    if region:
        data["region"] = region
    if objectives:
        data["objectives"] = {k: dict(v) for k, v in objectives.items()}
    if faction:
        data["faction"] = faction
    return answer_for(rs, pos, parse_query(data, pos), lang)


def score(
    position: PositionLike, faction: str | None = None, lang: str = "en", ruleset: str = rulebook.DEFAULT_RULESET
) -> Answer:
    """What each faction scores this round (``faction``'s own figures first)."""
    rs, pos = prepare(position, ruleset)
    data: dict[str, Any] = {"ask": "score"}
    if faction:
        data["faction"] = faction
    return answer_for(rs, pos, parse_query(data, pos), lang)


def schema(ruleset: str | None = rulebook.DEFAULT_RULESET) -> dict[str, Any]:
    """The JSON Schema of positions (with the rules' limits when a ruleset is named)."""
    rs = rulebook.load(ruleset) if ruleset else None
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
    "lookup",
    "position_schema",
    "prepare",
    "schema",
    "score",
]

position_schema = positions.position_schema
