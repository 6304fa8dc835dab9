"""The rules assistant as a Python API: the same operations as ``havoc ask`` and the game's shortcuts.

Positions may be given as the game's position object, a mapping (the YAML/JSON form), a path,
or ``"-"`` for standard input; questions as the game's question object, a mapping
(``{"ask": "move", …}``) or the compact words (``"move humans from=a to=b"``). What a position
and a question are is the ruleset's game's business (:mod:`havoc.engine.game`).
Every question function returns an :class:`~havoc.engine.interpreter.answer.Answer`.

The error contract: every public function here raises only

- :class:`~havoc.core.errors.InputError` for anything the caller passed (a position, question,
  faction, language or ruleset name that is malformed, impossible or unknown; a file that
  cannot be read), with located problems; the CLI exits 2;
- :class:`~havoc.core.errors.RulebookError` when the rules themselves are broken; the CLI exits 1.

Any other exception is a bug; the fuzz suite (tests/test_fuzz.py, ``make fuzz``) counts them.
"""

from __future__ import annotations

import sys
from _collections_abc import Callable, Mapping, Sequence  # collections.abc without importing collections

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem, RulebookError
from havoc.engine import rulebook
from havoc.engine.game import declared_shortcuts, shortcuts
from havoc.engine.game import of as game_of
from havoc.engine.interpreter.answer import Answer
from havoc.engine.rulebook.model import Ruleset
from havoc.language import i18n
from havoc.language.i18n import LANGUAGES, ui

if TYPE_CHECKING:
    from typing import Any
else:
    Any = object  # named only in annotations and aliases

if TYPE_CHECKING:
    from havoc.engine.game import Game
    from havoc.search import Hit

Position = Any  # the game's position object
Query = Any  # the game's question object
PositionLike = Any  # a position object, a mapping, a path or "-"
QueryLike = Any  # a question object, a mapping, or the compact words


def _game(rs: Ruleset) -> Game:
    """The ruleset's game; asking a ruleset that has none is the caller's input error."""
    try:
        return game_of(rs)
    except RulebookError as exc:
        if rs.game:
            raise
        raise InputError(exc.problems) from None


def load_position(source: PositionLike, rs: Ruleset | None = None) -> Position:
    """A validated position from a position object, a mapping, a file path or ``"-"`` (stdin)."""
    game = _game(rs or load_ruleset())
    if game.is_position(source):
        return source
    if isinstance(source, Mapping):
        return game.parse_position(source, rs)
    if isinstance(source, str) and source == "-":
        return game.parse_position_text(_read_stdin(), rs, "<stdin>")
    paths = sys.modules.get("pathlib")  # a Path can only be given if pathlib is imported
    if not isinstance(source, str) and not (paths and isinstance(source, paths.Path)):
        raise InputError(
            [
                Problem(
                    "position",
                    None,
                    f"expected a mapping, a file path or '-', found {type(source).__name__}",
                    code=Code.REQUEST_SHAPE,
                )
            ]
        )
    from havoc.core.safeio import plain_path

    return _cached(plain_path(source), rs, game)  # the name as str(Path(source)) writes it


def _read_stdin() -> str:
    """Standard input, bounded and strictly UTF-8 (a stray byte is a located error, not a traceback)."""
    from havoc.core import safeio

    try:
        return safeio.decode_utf8(safeio.read_stream(getattr(sys.stdin, "buffer", sys.stdin), safeio.MAX_BYTES))
    except safeio.ReadError as exc:
        raise InputError([Problem("<stdin>", None, str(exc), code=exc.code)]) from None


def _cached(path: str, rs: Ruleset | None, game: Game) -> Position:
    """A position file validated before (same bytes, same rules, same code) comes from the cache.

    Players ask several questions about one table; the cache spares each later question the
    YAML parser and the validation, which are most of a short process's work. The file is
    read once (bounded, regular files only): the key and the position come from those bytes.
    """
    from havoc.core import cache, safeio  # not havoc.formats.yamlio: a cache hit never imports the YAML parser

    try:
        data = safeio.read_bytes(path, safeio.MAX_BYTES)
    except safeio.ReadError as exc:
        raise InputError([Problem(str(path), None, str(exc), code=exc.code)]) from None
    code = [*game.code_files(), __file__]  # (this module's too: how the entries are laid out, see _named_key)
    made_by = cache.remembered("position code", code, lambda: cache.digest(*(cache.code_bytes(c) for c in code)))
    key = cache.digest(data, (rs.fingerprint if rs is not None else "no rules").encode(), made_by.encode())
    cached: Any = cache.get("position", key, object)
    if _is_languages(cached):  # read through names: kept under a key of the catalogs read too
        cached = cache.get("position", _named_key(key, cached), object)
    if cached is not None and game.is_position(cached):
        cached.name = str(path)
        return cached
    try:
        text = safeio.decode_utf8(data)
    except safeio.ReadError as exc:
        raise InputError([Problem(str(path), None, str(exc), code=exc.code)]) from None
    pos = game.parse_position_text(text, rs, str(path))
    languages = i18n.catalogs_read()
    if languages:
        cache.put("position", key, languages)
        cache.put("position", _named_key(key, languages), pos)
    else:
        cache.put("position", key, pos)
    return pos


def _is_languages(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(lang, str) for lang in value)


def _named_key(key: str, languages: tuple[str, ...]) -> str:
    """The key of a position whose reading may have gone through the catalogs of ``languages``
    (names in place of IDs: "Mgielnia", "Ludzie"): its own key and each catalog's, as now.

    A table written in IDs (nearly all) is read without a catalog and keyed by its bytes, its
    rules and the code alone; it never pays for hashing the catalogs. One read while a catalog
    was loaded is taken to depend on it: a translator's edit of a name must reach a table
    that uses the name, which a cached copy read with the old name would hide."""
    from havoc.core import cache

    return cache.digest(key.encode(), *(f"{lang}:{i18n.catalog_key(lang)}".encode() for lang in languages))


def load_ruleset(ruleset: str | None = None) -> Ruleset:
    """The (cached) ruleset; a ruleset name that does not exist is the caller's input error.

    Raises InputError for an unknown ruleset, RulebookError when the named rules are broken.
    """
    try:
        return rulebook.load(ruleset)
    except rulebook.UnknownRuleset as exc:
        raise InputError(exc.problems) from None


def rules_as_of(rs: Ruleset, cut: object, lang: str = "en") -> Ruleset:
    """The rules of ``rs`` as they stood at ``cut`` (a layer or a date: :meth:`Ruleset.as_of`);
    an InputError naming ``as-of`` (and the layers there are), in ``lang``, for anything else."""
    if not isinstance(cut, str):
        raise InputError([Problem("as-of", None, ui("expected text", lang), code=Code.FIELD_TYPE)])
    try:
        return rs.as_of(cut)
    except ValueError:
        message = ui(
            "no layer of these rules is called {name}; expected one of {choices}, or a date (YYYY-MM-DD)", lang
        )
        choices = ", ".join(rs.layer_names())
        raise InputError(
            [Problem("as-of", None, message.format(name=repr(cut), choices=choices), code=Code.FIELD_VALUE)]
        ) from None


def prepare(source: PositionLike, ruleset: str | None = None) -> tuple[Ruleset, Position]:
    """The (cached) ruleset and the validated position.

    Raises InputError (bad position or ruleset name) or RulebookError (broken rules), nothing else.
    """
    rs = load_ruleset(ruleset)
    return rs, load_position(source, rs)


def load_query(query: QueryLike, pos: Position, rs: Ruleset | None = None) -> Query:
    """A validated question from a question object, a mapping or compact words; raises InputError only."""
    game = _game(rs or load_ruleset())
    if game.is_question(query):
        return query
    if isinstance(query, Mapping):
        return game.parse_question(query, pos)
    if isinstance(query, str):
        return game.parse_compact(query.split(), pos)
    if isinstance(query, Sequence):
        return game.parse_compact([str(w) for w in query], pos)
    raise InputError(
        [
            Problem(
                "query",
                None,
                f"expected a mapping or question words, found {type(query).__name__}",
                code=Code.REQUEST_SHAPE,
            )
        ]
    )


def answer_for(rs: Ruleset, pos: Position, query: Query, lang: str = "en") -> Answer:
    """Answer a validated query (the fast path the benchmarks measure)."""
    _check_lang(lang)
    answer = _game(rs).answer(rs, pos, query, lang)
    variant = getattr(pos, "variant", None)
    answer.ruleset = rs.provenance(variant if isinstance(variant, str) else None, lang)
    return answer


def ask(position: PositionLike, query: QueryLike, lang: str = "en", ruleset: str | None = None) -> Answer:
    """Answer one question about one position.

    Raises InputError (bad input) or RulebookError (broken rules) only.
    """
    rs, pos = prepare(position, ruleset)
    return answer_for(rs, pos, load_query(query, pos, rs), lang)


def shortcut(
    kind: str, position: PositionLike, *args: Any, lang: str = "en", ruleset: str | None = None, **fields: Any
) -> Answer:
    """Ask one of the question kinds the game declares as a shortcut (``SHORTCUTS``), its fields
    given positionally in the declared order or by name; ``havoc.assistant.api.<kind>(…)`` is this.

    Raises InputError (bad input, a kind the ruleset's game has no shortcut for) or RulebookError only.
    """
    rs, pos = prepare(position, ruleset)
    declared = shortcuts(_game(rs)).get(kind)
    if declared is None:
        known = ", ".join(shortcuts(_game(rs))) or "none"
        raise InputError(
            [
                Problem(
                    "ask",
                    None,
                    f"{kind!r} is no shortcut of this game; it has {known}",
                    code=Code.REQUEST_UNKNOWN_SHORTCUT,
                )
            ]
        )
    if len(args) > len(declared.fields):
        raise TypeError(f"{kind}() takes at most {len(declared.fields) + 1} positional arguments")
    given = dict(zip(declared.fields, args, strict=False))
    for name, value in fields.items():
        if name not in declared.fields or name in given:
            raise TypeError(f"{kind}() got an unexpected or repeated argument {name!r}")
        given[name] = value
    data: dict[str, Any] = {"ask": kind}
    for name in declared.fields:
        value = given.get(name)
        if value:  # an empty or missing field is left to the question's default
            data[name] = _plain(value)
    return answer_for(rs, pos, _game(rs).parse_question(data, pos), lang)


def _plain(value: Any) -> Any:
    """A field's mappings as plain dicts (a caller may pass any Mapping); the game validates the rest."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def __getattr__(name: str) -> Callable[..., Answer]:
    """``havoc.assistant.api.<kind>(position, *fields, lang=…, ruleset=…)`` for each shortcut an installed
    game declares (Cry Havoc's ``legal``, ``battle``, ``score``): :func:`shortcut` of that kind."""
    declared = None if name.startswith("_") else declared_shortcuts().get(name)
    if declared is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def ask_kind(position: PositionLike, *args: Any, **kwargs: Any) -> Answer:
        return shortcut(name, position, *args, **kwargs)

    ask_kind.__name__ = ask_kind.__qualname__ = name
    ask_kind.__doc__ = f"{declared.summary}\n\nFields, in order: {', '.join(declared.fields)}. See :func:`shortcut`."
    return ask_kind


def decide(
    position: PositionLike, name: str, query: Mapping[str, Any], lang: str = "en", ruleset: str | None = None
) -> Any:
    """One of the game's other deciders (``EXTRA_ANSWERS``, e.g. the solo variant's automated
    side): its decision, with the rule that decided it and what it set aside.

    Raises InputError (bad input, an unknown decider) or RulebookError only.
    """
    from havoc.engine import game

    _check_lang(lang)
    if not isinstance(query, Mapping):
        raise InputError(
            [Problem("query", None, f"expected a mapping, found {type(query).__name__}", code=Code.REQUEST_SHAPE)]
        )
    rs, pos = prepare(position, ruleset)
    deciders = game.extra_answers(_game(rs))
    if name not in deciders:
        known = ", ".join(sorted(deciders)) or "none"
        raise InputError(
            [
                Problem(
                    "decider",
                    None,
                    f"unknown decider {name!r}; this game has {known}",
                    code=Code.REQUEST_UNKNOWN_DECIDER,
                )
            ]
        )
    return deciders[name](rs, pos, query, lang)


def schema(ruleset: str | None = None, limits: bool = True) -> dict[str, Any]:
    """The JSON Schema of positions, with the rules' limits (rounds, tokens) unless ``limits`` is off."""
    rs = load_ruleset(ruleset)
    return _game(rs).position_schema(rs if limits else None)


def lookup(text: str, lang: str = "en", limit: int = 10) -> list[Hit]:
    """The rules that answer a few words (English or Polish), best first, shown in ``lang``:
    the same search as ``havoc lookup`` and the site's search page."""
    from havoc.search import lookup as search_lookup

    _check_lang(lang)
    return search_lookup(text, lang, limit)


def _check_lang(lang: str) -> None:
    if lang not in LANGUAGES:
        raise InputError(
            [
                Problem(
                    "lang", None, f"expected one of {', '.join(LANGUAGES)}, found {lang!r}", code=Code.REQUEST_LANGUAGE
                )
            ]
        )


__all__ = [
    "Answer",
    "ask",
    "decide",
    "load_position",
    "load_query",
    "load_ruleset",
    "lookup",
    "position_schema",
    "prepare",
    "schema",
    "shortcut",
]


def position_schema(rs: Ruleset | None = None) -> dict[str, Any]:
    """The JSON Schema of the positions of ``rs``'s game (default ruleset's when None; no limits)."""
    game = _game(rs or load_ruleset())
    return game.position_schema(rs)
