"""What an answer read of the table, and what it took for granted (issue 39's interview).

A player should be asked only what the rules deciding their question look at. Rather than
declare, rule by rule, which fields of a table each fact reads (a second copy of what the facts'
code already says), the answer is computed once on a *watched* copy of the table: every field
of the table the answer reads (a Region's Battle token, a faction's VP, the phase …) is noted as
it is read, by the same code that answers. What was read but not written in the table the
player sent is what the answer **assumed** (its default: no Battle token, 0 VP, the Actions
phase) — exactly the facts worth asking next, and never more than the answer used, since a field
the answer did not read is never listed.

The watched copy answers exactly as the table does (the same values, only noted); a test holds
that over every stored example (``tests/test_interview.py``).
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.games.cry_havoc.places import SEP, key_label, path_steps, region_keys, steps_said
from havoc.games.cry_havoc.position import MAX_REGIONS, TOP, FactionState, Position, Region
from havoc.games.cry_havoc.ui import faction_name, value_text
from havoc.language.i18n import ui

if TYPE_CHECKING:
    from typing import Any

    from havoc.engine.rulebook.model import Ruleset

# A record's attribute -> the table's key it comes from (the rest are the key with "-" for "_");
# attributes that no key of the table gives (rule parameters, an ID) are not watched.
_TOP_KEYS = {"scoring_enabled_by": "scoring", "final_round": "scoring", "events": "scoring"}
_REGION_KEYS = {"neighbours": "adjacent"}
_UNWATCHED = {"name", "unit_totals", "last_round", "id", "factions", "regions"}
# Read by every answer and chosen before the game starts, not a fact of the table to ask about.
_SETTINGS = {"variant", "players"}


def _key(attr: str, renamed: dict[str, str]) -> str:
    return renamed.get(attr, attr.replace("_", "-"))


def _watch(cls: type, renamed: dict[str, str], path: Any) -> type:
    """A subclass of the record ``cls`` whose field reads are noted (``path(self, key)``)."""
    watched = {n for n in cls.__record_fields__ if n not in _UNWATCHED}  # type: ignore[attr-defined]

    class Watched(cls):  # type: ignore[misc]
        __slots__ = ("_seen",)

        def __getattribute__(self, name: str) -> Any:
            value = object.__getattribute__(self, name)
            if name in watched:
                try:
                    seen = object.__getattribute__(self, "_seen")
                except AttributeError:  # a copy made by record.replace: no longer watched
                    seen = None
                if seen is not None:
                    seen.setdefault(path(self, _key(name, renamed)), value)  # the value first read
            return value

    Watched.__name__ = Watched.__qualname__ = f"Watched{cls.__name__}"
    return Watched


_WatchedRegion = _watch(Region, _REGION_KEYS, lambda self, key: f"regions.{self.id}.{key}")
_WatchedFaction = _watch(FactionState, {}, lambda self, key: f"factions.{object.__getattribute__(self, '_who')}.{key}")


class _Faction(_WatchedFaction):  # type: ignore[valid-type,misc]
    """A faction's state that knows whose it is (the path of what is read)."""

    __slots__ = ("_who",)


_WatchedTop = _watch(Position, _TOP_KEYS, lambda self, key: key)


class _Table(_WatchedTop):  # type: ignore[valid-type,misc]
    """The watched table: its Regions and factions watched too, a faction not listed included."""

    __slots__ = ()

    def faction(self, name: str) -> FactionState:
        state = Position.faction(self, name)
        if isinstance(state, _Faction):
            return state
        copy: FactionState = _copy(_Faction, state)  # a faction the table does not list: its defaults, watched
        object.__setattr__(copy, "_who", name)
        object.__setattr__(copy, "_seen", object.__getattribute__(self, "_seen"))
        return copy


def _copy(cls: type, record: Any) -> Any:
    names = type(record).__record_fields__
    return cls(*(object.__getattribute__(record, n) for n in names))


def watched(pos: Position) -> tuple[Position, dict[str, Any]]:
    """A copy of ``pos`` that notes each field an answer reads, and the notes (in reading order):
    each field's path with the value the answer read."""
    seen: dict[str, Any] = {}
    regions = {}
    for rid, region in pos.regions.items():
        copy = _copy(_WatchedRegion, region)
        object.__setattr__(copy, "_seen", seen)
        regions[rid] = copy
    factions = {}
    for who, state in pos.factions.items():
        fcopy = _copy(_Faction, state)
        object.__setattr__(fcopy, "_who", who)
        object.__setattr__(fcopy, "_seen", seen)
        factions[who] = fcopy
    table = _copy(_Table, pos)
    object.__setattr__(table, "regions", regions)
    object.__setattr__(table, "factions", factions)
    object.__setattr__(table, "_seen", seen)
    return table, seen


def given_fields(data: Any, pos: Position) -> set[str]:
    """The fields the table as sent writes (its keys), by the paths :func:`watched` notes."""
    out: set[str] = set()
    if not isinstance(data, dict):
        return out
    out |= {str(k) for k in data if k not in ("regions", "factions")}
    regions = data.get("regions")
    if isinstance(regions, dict):
        typed = list(regions)
        ids = list(pos.regions)
        keys = dict(zip(typed, ids, strict=False)) if len(typed) == len(ids) else {k: k for k in typed}
        for key, fields in regions.items():
            if isinstance(fields, dict):
                out |= {f"regions.{keys.get(key, key)}.{f}" for f in fields}
    factions = data.get("factions")
    if isinstance(factions, dict):
        for key, fields in factions.items():
            if isinstance(fields, dict):
                out |= {f"factions.{key}.{f}" for f in fields}
    return out


def _value(path: str, value: Any, lang: str) -> str:
    """The value the answer read for ``path``, in words (what it assumed)."""
    if value is None or value == () or value == {} or value == frozenset():
        return ui("none", lang)
    if isinstance(value, str) and path.rsplit(".", 1)[-1] in ("turn", "control", "hq"):
        return str(faction_name(value, lang))
    return value_text(value, lang) if isinstance(value, (bool, int, str, tuple, list)) else ""


def interview(rs: Ruleset, data: Any, query: Any, lang: str, stated: Any = None) -> dict[str, Any]:
    """The answer to ``query`` on the table ``data``, with each field of the table it read: given
    or assumed (with the value it assumed), in reading order, in the asker's words.

    ``stated`` is what a typed question says of the table (``POST /api/understand``'s
    ``position``), laid over ``data`` — a pasted table's too, which the page cannot merge itself."""
    from havoc.assistant.api import answer_for  # the answer as POST /api/ask gives it, its ruleset named
    from havoc.formats.spec import overlaid, plain
    from havoc.games.cry_havoc import parse_position, parse_question

    if isinstance(data, str):  # a pasted table (YAML or JSON text), as POST /api/ask takes it
        from havoc.formats.yamlio import MOST_VALUES, YamlError, loads
        from havoc.games.cry_havoc import parse_position_text

        text = data
        try:
            data = loads(text, "position", lines=False, most=MOST_VALUES)
            if stated:
                data = overlaid(plain(data), stated)
            pos = parse_position(data, rs)
        except (YamlError, InputError):
            if stated:
                raise
            parse_position_text(text, rs)  # read again only to locate its problems by line, as /api/ask does
            raise
    else:
        if stated:
            data = overlaid(data, stated)
        pos = parse_position(data, rs)
    question = parse_question(query, pos)
    table, seen = watched(pos)
    result = answer_for(rs, table, question, lang)
    given = given_fields(data, pos)
    keys = region_keys(data, MAX_REGIONS)
    read = []
    for path, value in seen.items():
        top = path.split(".")[0]
        if top in _SETTINGS:
            continue
        is_given = path in given or (top not in ("regions", "factions") and top in given)
        steps = steps_said(TOP, path_steps(path), lang, keys, False)
        if top in ("regions", "factions"):
            steps = steps[1:]  # "Region A › Battle", not "Regions › Region A › Battle"
        if lang == "en":  # a field by its label ("Humans › VP"), as Polish says it, not by its file key
            raw = {str(x) for x in path_steps(path)}
            steps = [(key_label(s, lang) or s.replace("-", " ")) if s in raw else s for s in steps]
        words = SEP.join(steps)
        item: dict[str, Any] = {"field": path, "where": words, "given": is_given}
        if not is_given:
            item["assumed"] = _value(path, value, lang)
        read.append(item)
    assumed = [r for r in read if not r["given"]]
    summary = (
        ui("Assumed (not on the table): {facts}.", lang).format(
            facts="; ".join(f"{r['where']}: {r['assumed']}" for r in assumed)
        )
        if assumed
        else ui("Nothing assumed: every fact the answer read is on the table.", lang)
    )
    return {"answer": result.to_dict(), "read": read, "assumed": assumed, "summary": summary}


def lookup(rs: Any, fields: dict[str, Any], lang: str) -> dict[str, Any]:
    """``POST /api/interview``: ``{"position", "question", "as-of"?, "stated"?}`` (the language is
    the request's; ``stated``: a typed question's situation, laid over the table)."""
    unknown = [k for k in fields if k not in ("position", "question", "as-of", "stated")]
    if unknown:
        raise InputError(
            [
                Problem(
                    "request",
                    None,
                    f"{unknown[0]}: " + ui("This field is not part of the request.", lang),
                    code=Code.FIELD_UNKNOWN,
                )
            ]
        )
    for name in ("position", "question"):
        given = fields.get(name)
        if not isinstance(given, dict) and not (name == "position" and isinstance(given, str)):
            message = f"{name}: " + ui("expected a mapping (key: value)", lang)
            raise InputError([Problem("request", None, message, code=Code.FIELD_TYPE)])
    stated = fields.get("stated")
    if stated is not None and not isinstance(stated, dict):
        message = "stated: " + ui("expected a mapping (key: value)", lang)
        raise InputError([Problem("request", None, message, code=Code.FIELD_TYPE)])
    cut = fields.get("as-of")
    if cut is not None:  # the rules of an earlier layer, as POST /api/ask takes them
        from havoc.assistant.api import rules_as_of

        try:
            rs = rules_as_of(rs, cut, lang)
        except InputError as exc:
            problem = exc.problems[0]
            raise InputError([Problem("request", None, "as-of: " + problem.message, code=problem.code)]) from None
    return interview(rs, fields["position"], fields["question"], lang, stated)
