"""Questions put to the assistant: one mapping (YAML/JSON) or the compact CLI words.

A query names its kind (``ask: move``) and the few things the kind needs. Validation works
like the position's: every error names the field and what was expected, with a line number
when the query came from a file.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.errors import Code, InputError, Problem
from havoc.core.record import field, record
from havoc.formats.spec import MAX_INT, Invalid, Reader, Spec, _is_id_quick, _is_ldict, suggest, too_long
from havoc.games.cry_havoc import kind as registry
from havoc.games.cry_havoc.contract import FACTIONS, OBJECTIVES
from havoc.games.cry_havoc.fields import KINDS as KINDS  # (the question fields live in fields.py)
from havoc.games.cry_havoc.fields import MOST_WORDS
from havoc.games.cry_havoc.fields import PLACEMENT as PLACEMENT
from havoc.games.cry_havoc.fields import QFIELDS as QFIELDS
from havoc.games.cry_havoc.position import Position
from havoc.games.cry_havoc.ui import faction_name, not_a_player, nui, region_names, ui
from havoc.games.cry_havoc.ui import message_language as _ml

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, Final

QTOP: Final = Spec("object", "A question about a position.", fields=QFIELDS, required=("ask",))


@record(frozen=True)
class Query:
    """A validated question."""

    kind: str
    faction: str | None = None
    frm: str | None = None
    to: str | None = None
    via: tuple[str, ...] = ()
    region: str | None = None
    units: int | None = None
    points: int | None = None
    structure: str | None = None
    deck: str | None = None
    card: str | None = None
    card_terrain: str | None = None
    skill: str | None = None
    activations: int = 0
    during_action: bool | None = None
    moved_this_action: bool = False
    cost: int | None = None
    other_cost: int = 0
    position: int | None = None
    objectives: dict[str, dict[str, int]] = field(default_factory=dict)
    capture_from: str | None = None
    card_units: dict[str, int] = field(default_factory=dict)
    of: str | None = None
    item: str | None = None
    experience: str | None = None
    name: str = "query"

    def as_dict(self) -> dict[str, Any]:
        """The query as the mapping form (what an example stores)."""
        out: dict[str, Any] = {"ask": self.kind}
        for key, attr in _ATTRS.items():
            value = getattr(self, attr)
            if value in (None, (), {}, False) or (key == "activations" and value == 0):
                continue
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


_ATTRS: Final = {
    "faction": "faction",
    "from": "frm",
    "to": "to",
    "via": "via",
    "region": "region",
    "units": "units",
    "points": "points",
    "structure": "structure",
    "deck": "deck",
    "card": "card",
    "card-terrain": "card_terrain",
    "skill": "skill",
    "activations": "activations",
    "during-action": "during_action",
    "moved-this-action": "moved_this_action",
    "cost": "cost",
    "other-cost": "other_cost",
    "position": "position",
    "objectives": "objectives",
    "capture-from": "capture_from",
    "card-units": "card_units",
    "of": "of",
    "item": "item",
    "experience": "experience",
}


def parse_query(data: Any, pos: Position, name: str = "query", *, typed: bool = False) -> Query:
    """Validate a query mapping against the position it is about. ``typed``: the question was
    typed in compact words, so its problems name the kind and fields as the reader types them
    ("z", not "from", for a Polish reader); a file's question is named by its own keys, and may
    give them and its values in a reader's words as the compact form does ("z: Mgielnia")."""
    r = Reader(name)
    d = _read_plain(data)
    if d is None:  # a file's question (lines to point at, words perhaps a reader's), or a field not plainly right
        data, typed = _file_words(data, pos, name, typed)
        d = r.read(data, QTOP, "", data.line if _is_ldict(data) else None)
        if typed:
            r.problems = [_renamed(p, _typed_names(_ml())) for p in r.problems]
    say = _typed_names(_ml()) if typed else _machine_names
    if r.problems or not isinstance(d, dict):
        raise InputError(r.problems or [Problem(name, None, ui("expected a mapping", _ml()), code=Code.FIELD_TYPE)])

    def line(key: str) -> int | None:
        return data.line_of(key) if _is_ldict(data) else None

    kind: str = d["ask"]
    declared = registry.get(kind)
    for key in declared.needs if declared else ():
        if key not in d:
            r.problem(
                getattr(data, "line", None),
                "",
                ui("this {kind} question needs {field}", _ml()).format(kind=say(kind), field=repr(say(key))),
                code=Code.QUERY_MISSING,
            )
    faction = d.get("faction", pos.turn)
    if faction is None and not (declared and declared.no_actor):
        r.problem(
            getattr(data, "line", None),
            "faction",
            ui("which faction asks? give {field} (or {turn} in the position)", _ml()).format(
                field=field_word("faction"), turn=_table_key("turn")
            ),
            code=Code.QUERY_MISSING,
        )
    elif faction is not None and faction not in pos.players and faction != "trogs":
        r.problem(
            line("faction"),
            say("faction"),
            not_a_player(faction, pos.players, _ml()),
            code=Code.FIELD_VALUE,
        )
    for key in ("from", "to", "region"):
        if key in d and d[key] not in pos.regions:
            r.problem(
                line(key),
                say(key),
                ui("unknown Region {name}; list it under the position's {field}", _ml()).format(
                    name=repr(d[key]), field=_table_key("regions")
                )
                + suggest(d[key], list(pos.regions)),
                code=Code.POSITION_UNKNOWN_REGION,
            )
    for i, rid in enumerate(d.get("via", ())):
        if rid not in pos.regions:
            r.problem(
                line("via"),
                f"{say('via')}[{i}]",
                ui("unknown Region {name}; list it under the position's {field}", _ml()).format(
                    name=repr(rid), field=_table_key("regions")
                )
                + suggest(rid, list(pos.regions)),
                code=Code.POSITION_UNKNOWN_REGION,
            )
    if "from" in d and "to" in d and d["from"] == d["to"] and not d.get("via"):
        r.problem(
            line("to"),
            say("to"),
            ui("a move goes into another Region; {frm} and {to} are the same", _ml()).format(
                frm=say("from"), to=say("to")
            ),
            code=Code.FIELD_VALUE,
        )
    _check_names(r, d, pos, faction, line, say)
    if "card-units" in d and "card" not in d:
        r.problem(
            line("card-units"),
            say("card-units"),
            ui("name the card that adds or removes Units ({field})", _ml()).format(field=field_word("card")),
            code=Code.QUERY_MISSING,
        )
    if kind == "how-many" and d.get("of") == "may-leave" and "from" not in d:
        r.problem(
            getattr(data, "line", None),
            "",
            ui("how many may leave: give {field}, the Region they leave", _ml()).format(field=field_word("from")),
            code=Code.QUERY_MISSING,
        )
    if not r.problems and faction is not None:
        _check_counts(r, d, pos, kind, faction, line, say)
    if r.problems:
        raise InputError(r.problems)
    return _query(kind, faction, d, name)


def _check_names(
    r: Reader, d: dict[str, Any], pos: Position, faction: str | None, line: Callable[[str], int | None], say: Any
) -> None:
    """The Structure and Skill a question names: each names something (a known one, the table's
    own, an invented one), and the asking faction holds the Skill."""
    if "structure" not in d and "skill" not in d:  # nothing to check: the typed words are not imported
        return
    from havoc.games.cry_havoc.typed import known_thing, unknown_thing

    for key in ("structure", "skill"):
        if key in d and not known_thing(key, d[key], pos):
            r.problem(line(key), say(key), unknown_thing(key, d[key], pos, _ml()), code=Code.FIELD_VALUE)
    if "skill" in d and faction is not None and known_thing("skill", d["skill"], pos):
        skills = pos.faction(faction).skills
        if d["skill"] not in skills:
            known = list(skills)
            # a Skill by its name with its ID after it ("Zwiad (scouting)"), for a file's question too
            skill = say.skill if isinstance(say, _Typed) else _Typed(_ml()).skill if _ml() != "en" else str
            shown = [skill(k) for k in known]
            listed = (
                ui("the position lists {skills}", _ml()).format(skills=", ".join(shown))
                if known
                else ui("list it under the position's {path}", _ml()).format(
                    path=_table_path(f"factions.{faction}.skills")
                )
            )
            r.problem(
                line("skill"),
                say("skill"),
                ui("the {faction} have no Skill {name}", _ml()).format(
                    faction=faction_name(faction, _ml()),
                    name=repr(skill(d["skill"])),
                )
                + "; "
                + listed
                + suggest(d["skill"], known),
                code=Code.FIELD_VALUE,
            )


def _file_words(data: Any, pos: Position, name: str, typed: bool) -> tuple[Any, bool]:
    """A question file's mapping in machine words (:func:`havoc.games.cry_havoc.typed.mapping_to_machine`;
    other data as it is), and whether its problems name the fields in the reader's words (as a
    compact question's, or as the file's own keys were typed); a word that names nothing is an
    input error; so is a list past its limit, found before any name is read."""
    bounds = Reader(name)
    if not bounds.bounded(data, QTOP, "", data.line if _is_ldict(data) else None):
        raise InputError(bounds.problems)
    if not _is_ldict(data):
        return data, typed
    from havoc.games.cry_havoc.typed import mapping_to_machine

    data, unread, typed_keys = mapping_to_machine(data, pos, name, _ml())
    if unread:
        raise InputError(unread)
    return data, typed or typed_keys


def field_word(key: str) -> str:
    """A question's field named in a message: the machine key in English; the word a reader
    types for it with the key after it ("z (from)"), as ``--help`` lists them."""
    lang = _ml()
    if lang == "en":
        return key
    from havoc.games.cry_havoc.typed import typed_word

    word = typed_word(key, lang)
    return key if word == key else f"{word} ({key})"


def _table_key(key: str) -> str:
    """A table's key named in a message, as the error places word it ("Regiony (regions)")."""
    from havoc.games.cry_havoc.places import label

    return label(key, _ml())


def _table_path(path: str) -> str:
    """A table's field path named in a message, in words ("Ludzie › Zdolności (skills)")."""
    from havoc.games.cry_havoc.places import where
    from havoc.games.cry_havoc.position import TOP

    return where(path, TOP, _ml()) or path


def _machine_names(word: str) -> str:
    return word


class _Typed:
    """A kind or field as a reader of ``lang`` types it; a Skill by its name, its ID after it."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, word: str) -> str:
        from havoc.games.cry_havoc.typed import typed_word

        return typed_word(word, self.lang)

    def skill(self, key: str) -> str:
        from havoc.games.cry_havoc.ui import skill_name
        from havoc.games.cry_havoc.words import SKILLS

        if key not in SKILLS and not key.startswith("example-"):  # the table's own word: as it wrote it
            return key
        name = str(skill_name(key, self.lang))
        return key if name == key else f"{name} ({key})"


def _typed_names(lang: str) -> Callable[[str], str]:
    """The namer of a compact question's problems: the machine words in English."""
    return _machine_names if lang == "en" else _Typed(lang)


def _renamed(problem: Problem, say: Callable[[str], str]) -> Problem:
    """A Reader's problem about a field ("units: …", "via[1]: …") naming the field as typed."""
    head, sep, rest = problem.message.partition(": ")
    key, bracket, index = head.partition("[")
    if not sep or key not in QFIELDS or say(key) == key:
        return problem
    return problem._replace(message=f"{say(key)}{bracket}{index}{sep}{rest}")


def _query(kind: str, faction: str | None, d: dict[str, Any], name: str) -> Query:
    """The Query of a validated question's fields."""
    given: dict[str, Any] = {}  # the fields the question gives (the others keep the Query's defaults)
    for key, value in d.items():
        attr = _ATTRS.get(key)
        if attr is None or attr == "faction":
            continue
        if key == "via":
            value = tuple(value)
        elif key == "objectives":
            value = {k: dict(v) for k, v in value.items()}
        elif key == "card-units":
            value = dict(value)
        given[attr] = value
    return Query(kind=kind, faction=faction, name=name, **given)


def _read_plain(data: Any) -> dict[str, Any] | None:
    """What the Reader gives for a plain mapping (JSON, the compact words) whose every field is
    right, as most questions are: the format's compiled quick check (the Reader's own first try),
    without the Reader; None when it refuses any field (the Reader then says what is wrong, and
    where)."""
    if data.__class__ is not dict:  # a file's question keeps its lines for the Reader
        return None
    try:
        found: dict[str, Any] = _QUICK_QUESTION(data)
    except Invalid:
        return None
    return found


_QUICK_QUESTION: Final = QTOP.quick()


def _check_counts(
    r: Reader, d: dict[str, Any], pos: Position, kind: str, faction: str, line: Any, say: Callable[[str], str]
) -> None:
    """A count the question gives must fit what is on the table; a mismatch is an input error.

    A question that moves 5 Units out of a Region holding 3 describes a table that does not
    exist: answering it (yes or no) would be an answer to another game. Only a card named in
    the question (``card`` with ``card-units``) changes how many Units a Battle involves.
    Recruiting more than the Reserve holds stays a rules "no": the book itself says a
    Reserve is limited and an empty one allows no Recruit (glossary, "Rezerwa").
    """
    if _counts_fit(d, pos, kind, faction):
        return
    units = d["units"]
    if kind in ("move", "retreat") and "from" in d:
        have = pos.regions[d["from"]].units.get(faction, 0)
        if units > have:
            from havoc.games.cry_havoc.places import units_path  # (an error's wording: loaded on an error only)

            r.problem(
                line("units"),
                say("units"),
                nui(
                    "{units} Unit, but the {faction} have {have} in {region} ({path})",
                    "{units} Units, but the {faction} have {have} in {region} ({path})",
                    units,
                    _ml(),
                ).format(
                    units=units,
                    faction=faction_name(faction, _ml()),
                    have=have,
                    region=region_names(pos.regions, _ml())[d["from"]],
                    path=units_path(d["from"], faction, _ml(), pos.regions),
                ),
                code=Code.POSITION_UNITS,
            )
    elif kind == "prisoners":
        have = pos.held_by_others(faction)
        if units > have:
            r.problem(
                line("units"),
                say("units"),
                nui(
                    "asked for {units}, but only {have} Unit of the {faction} is held as a Prisoner ({path})",
                    "asked for {units}, but only {have} Units of the {faction} are held as Prisoners ({path})",
                    have,
                    _ml(),
                ).format(
                    units=units, have=have, faction=faction_name(faction, _ml()), path=f"factions.*.prisoners.{faction}"
                ),
                code=Code.POSITION_UNITS,
            )


def _counts_fit(d: dict[str, Any], pos: Position, kind: str, faction: str) -> bool:
    """The count a question gives fits the table (see :func:`_check_counts`)."""
    units = d.get("units")
    if units is None:
        return True
    if kind in ("move", "retreat") and "from" in d:
        return bool(units <= pos.regions[d["from"]].units.get(faction, 0))
    if kind == "prisoners":
        return bool(units <= pos.held_by_others(faction))
    return True


def parse_query_text(text: str, pos: Position, name: str = "query") -> Query:
    from havoc.formats.yamlio import MOST_VALUES, YamlError, loads

    try:
        data = loads(text, name, most=MOST_VALUES)
    except YamlError as exc:
        raise InputError([exc.problem]) from None
    return parse_query(data, pos, name)


# --- the compact form of the command line ------------------------------------------


def _bare_field(kind: str, word: str, pos: Position, data: Mapping[str, Any]) -> str | None:
    """The field a bare word of a compact question fills: the first of the kind's ``bare`` fields
    not given yet whose values include it (one of an enum's choices, or a Region of the table)."""
    declared = registry.get(kind)
    for name in declared.bare if declared else ():
        if name in data:
            continue
        spec = QFIELDS[name]
        if word in (spec.choices or ()) if spec.kind == "enum" else word in pos.regions:
            return name
    return None


def parse_compact(words: Sequence[str], pos: Position) -> Query:
    """``move humans from=foglands to=scorch units=2`` → a Query (via the mapping form); the
    same question in a reader's words (``ruch ludzie z=Mgielnia do=Pogorzelisko oddziały=2``)
    is read back to those machine words first (:mod:`havoc.games.cry_havoc.typed`)."""
    name = ui("query", _ml())  # where errors point: the question on the command line
    if not words:
        raise InputError(
            [
                Problem(
                    name,
                    None,
                    ui("no question given; e.g. `move humans from=foglands to=scorch units=2`", _ml()),
                    code=Code.QUERY_EMPTY,
                )
            ]
        )
    if len(words) > MOST_WORDS:  # before any word is read
        raise InputError([Problem(name, None, too_long(MOST_WORDS, len(words)), code=Code.FIELD_TOO_MANY)])
    quick = _quick_compact(words, pos, name)
    if quick is not None:
        return quick
    given = words  # as typed: what the problems below quote
    if all(w.__class__ is str for w in words):  # the words a reader types in their language (havoc.…typed)
        from havoc.games.cry_havoc.typed import to_machine

        words, unread = to_machine(words, pos, name, _ml())
        if unread:
            raise InputError(unread)
    data: dict[str, Any] = {}
    problems: list[Problem] = []
    kind, rest = words[0], list(words[1:])
    data["ask"] = kind
    placement: dict[str, dict[str, int]] = {}
    for typed, word in zip(given[1:], rest, strict=True):
        if "=" not in word:
            if word in FACTIONS and "faction" not in data:
                data["faction"] = word
            elif (bare := _bare_field(kind, word, pos, data)) is not None:
                data[bare] = word  # `retreat pilgrims foglands`: the kind says a bare Region is `from`
            else:
                problems.append(
                    Problem(
                        name,
                        None,
                        ui("{word}: expected key=value (e.g. units=2), a faction or a region", _ml()).format(
                            word=repr(typed)
                        ),
                        code=Code.QUERY_WORD,
                    )
                )
            continue
        key, _, raw = word.partition("=")
        if key in FACTIONS:
            counts = raw.split("/")
            try:
                nums = [int(c) for c in counts]
            except ValueError:
                nums = []
            if len(nums) == len(OBJECTIVES) and any(
                n < 0 for n in nums
            ):  # a count, too small: not a malformed placement
                problems.append(
                    Problem(
                        name,
                        None,
                        f"{typed!r}: "
                        + ui("expected a whole number ≥ {least}, found {found}", _ml()).format(
                            least=0, found=min(nums)
                        ),
                        code=Code.FIELD_VALUE,
                    )
                )
                continue
            if len(nums) != len(OBJECTIVES):
                problems.append(
                    Problem(
                        name,
                        None,
                        ui("{word}: a placement is {key}=CONTROL/PRISONERS/ATTRITION, e.g. {key}=3/1/0", _ml()).format(
                            word=repr(typed), key=typed.partition("=")[0]
                        ),
                        code=Code.QUERY_WORD,
                    )
                )
                continue
            placement[key] = dict(zip(OBJECTIVES, nums, strict=True))
            continue
        spec = QFIELDS.get(key)
        if spec is None:
            problems.append(
                Problem(
                    name,
                    None,
                    ui("unknown field {name}{hint}; expected one of {choices}", _ml()).format(
                        name=repr(key), hint=suggest(key, list(QFIELDS)), choices=", ".join(QFIELDS)
                    ),
                    code=Code.QUERY_FIELD,
                )
            )
            continue
        data[key] = _word_value(raw, spec)
    if placement:
        data["objectives"] = placement
    if problems:
        raise InputError(problems)
    return parse_query(data, pos, name, typed=True)


_QUICK_REGIONS: Final = frozenset({"from", "to", "region"})
_QUICK_COUNTS: Final = frozenset({"units", "points"})  # whole numbers from 0 (QFIELDS)
_QUICK_FIELDS: Final = _QUICK_REGIONS | _QUICK_COUNTS  # (with "ask" and "faction": what _quick_compact reads)
_KIND_SET: Final = frozenset(KINDS)
_FACTION_SET: Final = frozenset(FACTIONS)


def _quick_compact(words: Sequence[str], pos: Position, name: str) -> Query | None:
    """The common compact question (a kind, the asking faction, Regions of the table, counts)
    read straight to its Query, as the full reading reads it; None for any other shape and for
    anything wrong, which the full reading then reads and words as it always did."""
    kind = words[0]
    if kind.__class__ is not str or kind not in _KIND_SET:
        return None
    declared = registry.get(kind)
    if declared is None:
        return None
    d: dict[str, Any] = {"ask": kind}
    regions = pos.regions
    for word in words[1:]:
        if word.__class__ is not str:
            return None
        key, eq, raw = word.partition("=")
        if not eq:
            if word in _FACTION_SET and "faction" not in d:
                d["faction"] = word
                continue
            return None
        if key in _QUICK_COUNTS:
            try:
                value = int(raw)
            except ValueError:
                return None
            if value < 0 or value > MAX_INT:
                return None
            d[key] = value
        elif key in _QUICK_REGIONS:
            if raw not in regions or not _is_id_quick(raw):
                return None
            d[key] = raw
        else:
            return None
    for key in declared.needs:
        if key not in d:
            return None
    faction = d.get("faction", pos.turn)
    if faction is None:
        if not declared.no_actor:
            return None
    elif (faction not in pos.players and faction != "trogs") or not _counts_fit(d, pos, kind, faction):
        return None
    frm = d.get("from")
    if frm is not None and frm == d.get("to"):
        return None
    # _query(kind, faction, d, name): none of these fields is one it converts
    return Query(kind=kind, faction=faction, name=name, **{_ATTRS[k]: v for k, v in d.items() if k in _QUICK_FIELDS})


def _word_value(raw: str, spec: Spec) -> Any:
    if spec.kind == "int":
        try:
            return int(raw)
        except ValueError:
            return raw
    if spec.kind == "bool":
        low = raw.lower()
        from havoc.language.languages import no_words, yes_words

        if low in yes_words():
            return True
        if low in no_words():
            return False
        return raw
    if spec.kind == "list":
        return [w for w in raw.split(",") if w]
    if spec.kind == "map":
        # card-units=humans:1,pilgrims:-1
        out: dict[str, Any] = {}
        for part in (w for w in raw.split(",") if w):
            key, _, num = part.partition(":")
            try:
                out[key] = int(num)
            except ValueError:
                out[key] = num
        return out
    return raw
