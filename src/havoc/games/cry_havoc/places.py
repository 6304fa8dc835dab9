"""Where a problem is, in the reader's words: the one wording of a field path for every error.

The validators locate a problem by the field's machine path (``regions.example-a.units.humans``);
programs, and the pages placing an error next to its input, keep reading that. A person is told
the same place by the table's names and the fields' labels, in their language: "Region A ›
Oddziały (units) › Ludzie" (the key a file writes after the label, as ``--help`` shows it); a
question's field by the word the compact form types for it ("do", as ``--help`` lists it). An
English reader writes the keys as they are, so gets them with the names: "Region A › units ›
Humans". The CLI says this in its error lines, the API as each problem's ``where`` (see
:func:`worded`).
"""

from __future__ import annotations

from havoc.errors import Problem, split_field
from havoc.i18n import message_language, translator, ui
from havoc.markup import is_id

TYPE_CHECKING = False  # typing's flag without importing typing (start-up time: see havoc.tuples)
if TYPE_CHECKING:
    from collections.abc import Iterable

    from havoc.spec import Spec

SEP = " › "


def worded(problems: list[Problem], part: str, regions: Iterable[str]) -> list[Problem]:
    """The problems, each naming a field given its place in words (``where``), in the language
    of errors. ``part``: "position" (a table's fields) or "question" (a question's, the solo
    Trogs' too); ``regions``: the table's Region keys (how its invented Regions are lettered)."""
    lang = message_language()
    keys = [k for k in regions if isinstance(k, str)]
    out = []
    for p in problems:
        field = "" if p.where else split_field(p.message)[0]
        said = where(field, part, lang, keys) if field else ""
        out.append(p._replace(where=said) if said else p)
    return out


def region_keys(data: object) -> list[str]:
    """The Region keys of a table as read (a table that did not validate, too)."""
    regions = data.get("regions") if isinstance(data, dict) else None
    return [k for k in regions if isinstance(k, str)] if isinstance(regions, dict) else []


def where(path: str, part: str, lang: str, regions: Iterable[str] = ()) -> str:
    """A field path in the reader's words ("" when its first step is no field of ``part``)."""
    steps = _steps(path)
    if not steps or not isinstance(steps[0], str):
        return ""
    top = _question_spec() if part == "question" else _position_spec()
    assert top.fields is not None
    first = steps[0]
    if part == "question":
        key = _question_key(first, top)
        if key is None:  # a table's field the question's check found wrong (the solo Trogs' variant)
            return where(path, "position", lang, regions)
        first, said = key, [_question_label(key, lang)]
    elif first in top.fields:
        said = [_label(first, lang)]
    else:
        return ""
    hint = part == "position"  # a table's keys are written in a file: each after its label
    spec: Spec | None = top.fields.get(first)
    if part == "position" and spec is not None and spec.kind == "map" and len(steps) > 1:
        said = []  # "Region A", "Ludzie": a Region or a faction is said by its name alone
    keys = list(regions)
    for step in steps[1:]:
        if isinstance(step, int):
            said.append(ui("no. {n}", lang).format(n=step + 1))
            spec = spec.item if spec is not None and spec.kind == "list" else None
        elif spec is not None and spec.kind == "object" and spec.fields is not None:
            said.append(_field(spec, step, lang, hint))
            spec = spec.fields.get(step)
        elif spec is not None and spec.kind == "map":
            vocabulary = spec.keys.vocabulary if spec.keys is not None else spec.names
            said.append(_name(vocabulary, step, lang, keys))
            spec = spec.item
        else:
            said.append(step)
            spec = None
    return SEP.join(said)


def _steps(path: str) -> list[str | int]:
    """``regions.north.structures[1].type`` as ["regions", "north", "structures", 1, "type"]."""
    out: list[str | int] = []
    for part in path.split("."):
        head, *indexes = part.split("[")
        if head:
            out.append(head)
        for index in indexes:
            if not index.endswith("]") or not index[:-1].isdigit():
                return []
            out.append(int(index[:-1]))
    return out


def _field(spec: Spec, key: str, lang: str, hint: bool) -> str:
    """A field of an object by its label; a Battle objective by its name ("Pojmanie Jeńców")."""
    from havoc.games.cry_havoc.fields import PLACEMENT

    assert spec.fields is not None
    if key not in spec.fields:
        return key  # an unknown key: as the reader typed it
    if spec is PLACEMENT:
        from havoc.games.cry_havoc.solo.engine import objective_name

        if lang == "en":
            return key
        name = objective_name(key, lang)
        return f"{name} ({key})" if hint else name
    return _label(key, lang, hint)


def _name(vocabulary: str, key: str, lang: str, regions: list[str]) -> str:
    """A map's key by its name: a faction, a Region of the table, a Skill; a key the table
    wrote as a name ("Mgielnia", "Ludzie") as it is."""
    from havoc.games.cry_havoc import ui as names
    from havoc.games.cry_havoc import words

    if vocabulary == "factions":
        return str(names.faction_name(key, lang)) if key in words.FACTIONS else key
    if vocabulary == "regions":
        if not is_id(key):
            return key
        return str(names.region_names([*regions, key] if key not in regions else regions, lang)[key])
    if vocabulary == "skills":
        return str(names.skill_name(key, lang))
    if vocabulary == "structures":
        return str(names.structure_name(key, lang))
    return key


def _own_label(key: str, lang: str) -> str | None:
    """A table's key with a label of its own here: none among the site's words (words.KEYS,
    words.VALUES), or theirs reads as a table's line, not as a place ("sąsiaduje z", "kart na ręce")."""
    own = {
        "tunnel": lambda: ui("Tunnel", lang),
        "at": lambda: ui("spot on the Score track", lang),
        "tokens": lambda: ui("Event tokens", lang),
        "events": lambda: ui("Event stacks", lang),
        "hand": lambda: ui("cards in hand", lang),
        "adjacent": lambda: ui("neighbouring Regions", lang),
        "passed": lambda: ui("passing in the Tactics step", lang),
        "enabled-by": lambda: ui("enabled by", lang),
    }.get(key)
    return own() if own else None


def _label(key: str, lang: str, hint: bool = True) -> str:
    """A table's key as its reader knows it: English keeps the key (what a file writes); another
    language says its label, with ``hint`` the key after it ("Oddziały (units)")."""
    if lang == "en":
        return key
    from havoc.games.cry_havoc import words
    from havoc.games.cry_havoc.ui import fold

    label = _own_label(key, lang)
    if label is None:
        text = words.KEYS.get(key) or words.VALUES.get(key)
        label = translator(lang).text("", text) if text else None
    if not label or fold(label) == key:
        return key
    return f"{label} ({key})" if hint else label


def _question_key(step: str, top: Spec) -> str | None:
    """A question's field as its machine key: the key, or the word a reader typed for it ("do")."""
    assert top.fields is not None
    if step in top.fields:
        return step
    from havoc.games.cry_havoc.typed import Ambiguous, lexicon

    try:
        found = lexicon(message_language()).fields.find(step)
    except Ambiguous:
        return None
    return found if found in top.fields else _solo_key(step)


def _solo_key(step: str) -> str | None:
    """A solo Trogs question's field typed in a reader's words ("oddziały" for units)."""
    from havoc.games.cry_havoc.solo.engine import FIELDS
    from havoc.games.cry_havoc.typed import typed_word
    from havoc.games.cry_havoc.ui import fold
    from havoc.i18n import LANGUAGES

    for key in FIELDS:
        if any(fold(typed_word(key, lang)) == fold(step) for lang in LANGUAGES):
            return key
    return None


def _question_label(key: str, lang: str) -> str:
    """A question's field by the word the compact form types for it ("do" for to, as the reader
    types it and ``--help`` lists it); one it never types (``objectives``) by its label."""
    from havoc.games.cry_havoc.typed import typed_word
    from havoc.games.cry_havoc.ui import fold

    word = typed_word(key, lang)
    return _label(key, lang, hint=False) if fold(word) == key else word


def _position_spec() -> Spec:
    from havoc.games.cry_havoc.position import TOP

    return TOP


def _question_spec() -> Spec:
    """The fields a question may have: the question format's and the solo Trogs' own."""
    from havoc.games.cry_havoc.query import QTOP
    from havoc.games.cry_havoc.solo.engine import FIELDS
    from havoc.spec import Spec

    assert QTOP.fields is not None
    return Spec("object", QTOP.doc, fields={**FIELDS, **QTOP.fields, "decide": Spec("id", "A Trog decision.")})
