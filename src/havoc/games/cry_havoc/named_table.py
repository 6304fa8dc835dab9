"""A table in IDs as a player writes it: the names instead of the IDs, in one language, as YAML.

The site offers the rulebook's stored examples as tables to start from (the Ask and Trogs
pages) and shows tables on "Describing the table": a Polish reader should meet "Mgielnia",
"Ludzie" and "faza Akcji" there, not ``foglands``, ``humans`` and ``actions``. The fields that
may hold a name are those the position format marks (``Spec.names``, ``KeySet.vocabulary``);
each name is the one the answers use (``words.NAMED``), and only one that reads back as the same
ID (``ui.vocabulary``) replaces it, so the table answers exactly as the one in IDs. Used when
the site is built, never on the answer path.
"""

from __future__ import annotations

from typing import Any

from havoc.formats.spec import Spec
from havoc.games.cry_havoc import words
from havoc.games.cry_havoc.position import TOP
from havoc.games.cry_havoc.ui import EXAMPLE_PREFIX, fold, lettered, vocabulary
from havoc.language.grammar import noun
from havoc.language.markup import is_id

# The vocabularies of IDs of one's own (no fixed choices): there a name in lowercase-kebab-case
# would be read as an ID of one's own, so such a name is not used.
_OWN_IDS = ("regions", "structures", "skills")


def name_of(what: str, key: str, lang: str) -> str:
    """``key`` of vocabulary ``what`` ("regions", "factions" …) by its name in ``lang``, or
    ``key`` itself where it has no name (a player's own Region) or its name would not read back
    as ``key``."""
    if not what or not isinstance(key, str):
        return key
    known, lettered = words.NAMED[what]
    if key in known:
        name = str(noun(known[key], lang))
    elif lettered is not None and len(key) == len(EXAMPLE_PREFIX) + 1 and key.startswith(EXAMPLE_PREFIX):
        name = str(noun(lettered, lang, letter=key[-1].upper()))
    else:
        return key
    if what in _OWN_IDS and is_id(name) and name != key:
        return key
    return name if vocabulary(what).get(fold(name)) == (key,) else key


def named(data: Any, lang: str, spec: Spec = TOP) -> Any:
    """``data`` (a position in IDs, as plain data) with every ID that has a name in ``lang``
    replaced by it; everything else as it is."""
    if spec.kind == "object" and spec.fields is not None and isinstance(data, dict):
        return {k: named(v, lang, spec.fields[k]) if k in spec.fields else v for k, v in data.items()}
    if spec.kind == "map" and isinstance(data, dict):
        keys = spec.keys.vocabulary if spec.keys is not None else spec.names
        item = spec.item
        return {name_of(keys, k, lang): named(v, lang, item) if item is not None else v for k, v in data.items()}
    if spec.kind == "list" and isinstance(data, list):
        item = spec.item
        return [named(x, lang, item) if item is not None else x for x in data]
    if spec.names and isinstance(data, str):
        return name_of(spec.names, data, lang)
    return data


def lettered_ids(data: Any) -> dict[str, str]:
    """The longer invented IDs of a table in IDs (``example-battle``, ``example-skill``) and the
    lettered IDs that stand for them (``example-a``): the answers already call them by that
    letter ("Region A", "Zdolność A"), and a lettered ID has a name a player can write."""
    regions = data.get("regions") if isinstance(data, dict) else None
    factions = data.get("factions") if isinstance(data, dict) else None
    groups: list[list[str]] = [list(regions) if isinstance(regions, dict) else []]
    skills: list[str] = []
    structures: list[str] = []
    for state in (factions or {}).values() if isinstance(factions, dict) else ():
        if isinstance(state, dict) and isinstance(state.get("skills"), dict):
            skills += list(state["skills"])
    for region in (regions or {}).values() if isinstance(regions, dict) else ():
        for s in region.get("structures", ()) if isinstance(region, dict) else ():
            if isinstance(s, dict) and isinstance(s.get("type"), str):
                structures.append(s["type"])
    groups += [skills, structures]
    out: dict[str, str] = {}
    for ids in groups:
        for key, letter in lettered([k for k in ids if isinstance(k, str)]).items():
            if key != EXAMPLE_PREFIX + letter.lower() and len(letter) == 1:
                out[key] = EXAMPLE_PREFIX + letter.lower()
    return out


def renamed(data: Any, ids: dict[str, str]) -> Any:
    """``data`` with every string (key, value or list item) that is one of ``ids`` replaced."""
    if isinstance(data, dict):
        return {renamed(k, ids): renamed(v, ids) for k, v in data.items()}
    if isinstance(data, list):
        return [renamed(x, ids) for x in data]
    return ids.get(data, data) if isinstance(data, str) else data


def example(position: Any, question: Any, lang: str) -> tuple[str, Any]:
    """A stored example (position and question in IDs, as plain data) as a player starts from
    it in ``lang``: the table as YAML with names (:func:`named_yaml`; a longer invented ID as
    its letter, "Region A") and the question, its IDs renamed the same way."""
    ids = lettered_ids(position)
    return named_yaml(renamed(position, ids), lang), renamed(question, ids)


def as_written(position: Any, lang: str) -> str:
    """A table in IDs as a player writes it in ``lang`` (the docs' tables): :func:`example`'s."""
    return named_yaml(renamed(position, lettered_ids(position)), lang)


def named_yaml(data: Any, lang: str) -> str:
    """The position ``data`` as the YAML a player would write in ``lang``: names, the fields in
    their order, short lists and mappings on one line."""
    import yaml

    return str(
        yaml.safe_dump(named(data, lang), allow_unicode=True, sort_keys=False, default_flow_style=None, width=200)
    )
