"""Where a problem is, in the reader's words: the one wording of a field path for every error.

The validators locate a problem by the field's machine path (``regions.example-a.units.humans``);
programs, and the pages placing an error next to its input, keep reading that. A person is told
the same place by the table's names and the fields' labels, in their language: "Region A ›
Oddziały (units) › Ludzie" (the key a file writes after the label, as ``--help`` shows it). An
English reader writes the keys as they are, so gets them with the names: "Region A › units ›
Humans". The CLI says this in its error lines, the API as each problem's ``where`` (see
:func:`worded`).

A table's fields are worded here (:func:`where`, given the table's top Spec); a question's field
by the word the compact form types for it ("do", as ``--help`` lists it) in
:mod:`havoc.games.cry_havoc.question_places`, which words the rest of its path here. This
module imports neither the table's nor the question's reader: they import it, on an error.
"""

from __future__ import annotations

from itertools import islice

from havoc import TYPE_CHECKING
from havoc.core.errors import Problem, split_field
from havoc.games.cry_havoc import words
from havoc.games.cry_havoc.contract import OBJECTIVES
from havoc.games.cry_havoc.ui import faction_name, fold, objective_name, region_names, skill_name, structure_name
from havoc.language.i18n import message_language, translator, ui
from havoc.language.markup import is_id

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from havoc.formats.spec import Spec

SEP = " › "


def worded(problems: list[Problem], say: Callable[[str, str], str]) -> list[Problem]:
    """The problems, each naming a field given its place in words (``where``), in the language
    of errors: ``say(path, lang)`` words a field's path ("" when it is no field it knows)."""
    lang = message_language()
    out = []
    for p in problems:
        field = "" if p.where else split_field(p.message)[0]
        said = say(field, lang) if field else ""
        out.append(p._replace(where=said) if said else p)
    return out


def region_keys(data: object, most: int) -> list[str]:
    """The Region keys of a table as read (a table that did not validate, too), at most ``most``
    of them (a table of more Regions is refused for that, and only its first ones are lettered)."""
    regions = data.get("regions") if isinstance(data, dict) else None
    if not isinstance(regions, dict):
        return []
    return [k for k in islice(regions, most) if isinstance(k, str)]


def where(path: str, top: Spec, lang: str, regions: Iterable[str] = ()) -> str:
    """A table's field path in the reader's words ("" when its first step is no field of ``top``,
    the table's Spec); ``regions``: the table's Region keys (how its invented Regions are lettered)."""
    steps = path_steps(path)
    if not steps or not isinstance(steps[0], str):
        return ""
    assert top.fields is not None
    first = steps[0]
    if first not in top.fields:
        return ""
    spec = top.fields[first]
    # "Region A", "Ludzie": a Region or a faction is said by its name alone
    said = [] if spec.kind == "map" and len(steps) > 1 else [label(first, lang)]
    return SEP.join(said + steps_said(spec, steps[1:], lang, regions, hint=True))


def units_path(region: str, faction: str, lang: str = "en", regions: Iterable[str] = ()) -> str:
    """Where a table lists a faction's Units in a Region, to show an error's reader where to look.

    English keeps the file's path (``regions.foglands.units.humans``), which is what an English
    table writes. Another language's reader gets the place as every other error of a table words
    it ("Mgielnia › Oddziały (units) › Ludzie"; :mod:`havoc.games.cry_havoc.places`): the names
    and the fields' labels, each key a file writes after its label, never a bare machine name.
    ``regions``: the table's Region keys, which letter its invented Regions ("Region B")."""
    path = f"regions.{region}.units.{faction}"
    if lang == "en":
        return path
    from havoc.games.cry_havoc.position import TOP

    return where(path, TOP, lang, regions) or path


def steps_said(spec: Spec | None, steps: list[str | int], lang: str, regions: Iterable[str], hint: bool) -> list[str]:
    """The steps of a path below the field ``spec``, each in words: a list's item by its number,
    an object's field by its label (``hint``: the key after it, as a table's file writes it), a
    map's key by its name."""
    said = []
    keys = list(regions)
    for step in steps:
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
    return said


def path_steps(path: str) -> list[str | int]:
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
    assert spec.fields is not None
    if key not in spec.fields:
        return key  # an unknown key: as the reader typed it
    if spec.fields.keys() == set(OBJECTIVES):  # the Units one side placed on each objective
        if lang == "en":
            return key
        name = objective_name(key, lang)
        return f"{name} ({key})" if hint else name
    return label(key, lang, hint)


def _name(vocabulary: str, key: str, lang: str, regions: list[str]) -> str:
    """A map's key by its name: a faction, a Region of the table, a Skill; a key the table
    wrote as a name ("Mgielnia", "Ludzie") as it is."""
    if vocabulary == "factions":
        return str(faction_name(key, lang)) if key in words.FACTIONS else key
    if vocabulary == "regions":
        if not is_id(key):
            return key
        return str(region_names([*regions, key] if key not in regions else regions, lang)[key])
    if vocabulary == "skills":
        return str(skill_name(key, lang))
    if vocabulary == "structures":
        return str(structure_name(key, lang))
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


def key_label(key: str, lang: str) -> str | None:
    """A key's label in ``lang`` even where it spells the key ("Region" for region), or None."""
    said = _own_label(key, lang)
    if said is None:
        text = words.KEYS.get(key) or words.VALUES.get(key)
        said = translator(lang).text("", text) if text else None
    return said or None


def label(key: str, lang: str, hint: bool = True) -> str:
    """A field's key as its reader knows it: English keeps the key (what a file writes); another
    language says its label, with ``hint`` the key after it ("Oddziały (units)")."""
    if lang == "en":
        return key
    said = _own_label(key, lang)
    if said is None:
        text = words.KEYS.get(key) or words.VALUES.get(key)
        said = translator(lang).text("", text) if text else None
    if not said or fold(said) == key:
        return key
    return f"{said} ({key})" if hint else said
