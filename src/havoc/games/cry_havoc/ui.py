"""The assistant's own interface strings (Yes/No, labels), translated through the catalogs.

Every string is written as a literal ``ui("…")`` call so a test (and an extractor) can find
them all; their Polish lives in ``locales/pl/LC_MESSAGES/havoc.po`` under context ``ui``.
"""

from __future__ import annotations

from havoc import TYPE_CHECKING
from havoc.core.memo import memo
from havoc.games.cry_havoc import words
from havoc.language.grammar import Noun, noun
from havoc.language.i18n import UI_CONTEXT as CONTEXT
from havoc.language.i18n import message_language, nui, set_message_language, translator, ui, yes_no

if TYPE_CHECKING:
    from collections.abc import Iterable

    from havoc.core.errors import Problem
    from havoc.games.cry_havoc.kind import QuestionKind

__all__ = [
    "CONTEXT",
    "faction_name",
    "faction_owner",
    "fold",
    "form_label",
    "kind_label",
    "message_language",
    "nui",
    "reset",
    "set_message_language",
    "translator",
    "ui",
    "value_text",
    "vocabulary",
    "yes_no",
]


def reset() -> None:
    """Forget loaded catalogs (after the locales changed, e.g. in tests)."""
    translator.cache_clear()
    _labels.clear()
    _words.clear()
    _kind_labels_of.clear()
    _kinds.clear()
    _factions.clear()
    _region_names.cache_clear()
    _vocabularies.clear()
    from havoc.engine.interpreter import answer

    answer._texts.clear()


def _faction_names(lang: str) -> dict[str, Noun]:
    return {key: noun(name, lang) for key, name in words.FACTIONS.items()}


_factions: dict[str, dict[str, Noun]] = {}


def faction_name(faction: str, lang: str = "en") -> Noun:
    """A faction by its name in ``lang``, declinable (``{faction:dat}``: "Pielgrzymom")."""
    names = _factions.get(lang)
    if names is None:
        names = _factions[lang] = _faction_names(lang)
    return names.get(faction) or Noun.plain(faction)


EXAMPLE_PREFIX = "example-"


def lettered(keys: Iterable[str]) -> dict[str, str]:
    """The letter of each invented (``example-…``) ID among ``keys``, in order: ``example-b`` is
    B; a longer one (``example-battle``) takes the first letter no other ID uses."""
    keys = list(dict.fromkeys(keys))
    n = len(EXAMPLE_PREFIX)
    used = {k[n:].upper() for k in keys if len(k) == n + 1 and k.startswith(EXAMPLE_PREFIX)}
    free = (c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in used)
    out: dict[str, str] = {}
    for key in keys:
        if key.startswith(EXAMPLE_PREFIX):
            rest = key[n:]
            out[key] = rest.upper() if len(rest) == 1 else next(free, rest)
    return out


def region_names(keys: Iterable[str], lang: str = "en") -> dict[str, Noun]:
    """Every Region of a table by name: the six known from the rulebook by their names, the
    invented ones as "Region A", "Region B" …, a player's own ID as "Region north".

    Named once per table and language (every question about a table names its Regions)."""
    return dict(_region_names(tuple(dict.fromkeys(keys)), lang))


@memo(256)
def _region_names(keys: tuple[str, ...], lang: str) -> dict[str, Noun]:
    letters = lettered(keys)
    out: dict[str, Noun] = {}
    for key in keys:
        if key in words.KNOWN_REGIONS:
            name = noun(words.KNOWN_REGIONS[key], lang)
            out[key] = _placed(name, _region_to(key, lang), _region_in(key, lang))
        elif key in letters or _plain_id(key):  # a player's own ID ("north"): declined as "z Regionu north"
            letter = letters.get(key, key)
            name = noun(words.EXAMPLE_REGION, lang, letter=letter)
            to = ui("to Region {letter}", lang).format(letter=letter)
            out[key] = _placed(name, to, ui("in Region {letter}", lang).format(letter=letter))
        else:
            out[key] = Noun.plain(key)
    return out


def _placed(name: Noun, to: str, in_: str) -> Noun:
    """A Region's name that also says where to and where, as ``{region:to}`` and ``{region:in}``:
    the preposition belongs to the name in Polish ("na Wybrzeże Feralas", "do Mgielni"; "na
    Wybrzeżu Feralas", "w Mgielni"), so the catalog holds both per Region. A sentence's English
    needs neither (its own "in {region}"); its Polish says ``{region:in}``."""
    return Noun({**name.forms, "to": to, "in": in_})


def _region_to(key: str, lang: str) -> str:
    """Where to, for a Region known by name: one literal per Region (each its own catalog entry,
    since the preposition a Polish name takes is the name's own, not the sentence's)."""
    if key == "foglands":
        return ui("to Foglands", lang)
    if key == "feralas-banks":
        return ui("to Feralas Banks", lang)
    if key == "sapos-deep":
        return ui("to Sapos Deep", lang)
    if key == "scorch":
        return ui("to Scorch", lang)
    if key == "camerons-sea":
        return ui("to Cameron's Sea", lang)
    if key == "world-caverns":
        return ui("to World Caverns", lang)
    return ui("to Region {letter}", lang).format(letter=key)


def _region_in(key: str, lang: str) -> str:
    """Where, for a Region known by name (as :func:`_region_to`: the preposition is the name's)."""
    if key == "foglands":
        return ui("in Foglands", lang)
    if key == "feralas-banks":
        return ui("in Feralas Banks", lang)
    if key == "sapos-deep":
        return ui("in Sapos Deep", lang)
    if key == "scorch":
        return ui("in Scorch", lang)
    if key == "camerons-sea":
        return ui("in Cameron's Sea", lang)
    if key == "world-caverns":
        return ui("in World Caverns", lang)
    return ui("in Region {letter}", lang).format(letter=key)


_ID_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ID_REST = _ID_FIRST | {"_", "-"}


def _plain_id(key: str) -> bool:
    """``re.fullmatch(r"[a-z0-9][a-z0-9_-]*", key)``, without importing re on every start-up."""
    return bool(key) and key[0] in _ID_FIRST and all(c in _ID_REST for c in key)


def _named(key: str | None, known: dict[str, str], example: str, lang: str) -> Noun:
    if not key:
        return Noun.plain("?")
    if key in known:
        return noun(known[key], lang)
    if key.startswith(EXAMPLE_PREFIX):
        return noun(example, lang, letter=lettered([key])[key])
    if _plain_id(key):  # a table's own ID ("harvest"): named with its kind, "użyć Zdolności harvest", as a Region is
        return noun(example, lang, letter=key)
    return Noun.plain(key)


def faction_flag(faction: str, key: str, value: object, lang: str = "en") -> str | None:
    """A faction's yes/no flag of a table as a sentence about it: "Pielgrzymi spasowali",
    "Maszyny spasowały". The verb agrees with the faction's name (Polish past plural has two
    genders), so each faction's sentence is its own catalog entry. None for any other key."""
    if key != "passed" or not isinstance(value, bool) or faction not in words.FACTIONS:
        return None
    if value:
        return _passed(faction, lang)
    if faction == "humans":
        return ui("The Humans have not passed", lang)
    if faction == "pilgrims":
        return ui("The Pilgrims have not passed", lang)
    if faction == "machines":
        return ui("The Machines have not passed", lang)
    return ui("The Trogs have not passed", lang)


def _passed(faction: str, lang: str) -> str:
    if faction == "humans":
        return ui("The Humans have passed", lang)
    if faction == "pilgrims":
        return ui("The Pilgrims have passed", lang)
    if faction == "machines":
        return ui("The Machines have passed", lang)
    return ui("The Trogs have passed", lang)


def region_phrase(key: str, regions: Noun, lang: str = "en") -> str | None:
    """A position key that reads as a phrase before Region names, with their case
    ("sąsiaduje z Mgielnią, Wybrzeżem Feralas"); None for a key shown as "key: value"."""
    if key == "adjacent":
        return ui("adjacent to {regions}", lang).format(regions=regions)
    return None


def phase_name(key: str, lang: str = "en") -> Noun:
    """A phase by its name ("faza Akcji"), declinable ("krok {phase:gen}")."""
    return noun(words.PHASES[key], lang) if key in words.PHASES else Noun.plain(key)


def deck_name(key: str, lang: str = "en") -> Noun:
    """A Tactics deck by its name ("talia Gór"), declinable ("z {deck:gen}": "z talii Gór")."""
    return noun(words.DECKS[key], lang) if key in words.DECKS else Noun.plain(key)


def item_name(key: str, lang: str = "en") -> Noun:
    """What may be placed ("Kryształ", "Budowla"), declinable ("umieścić {item:acc}")."""
    return noun(words.ITEMS[key], lang) if key in words.ITEMS else Noun.plain(key)


def structure_name(key: str | None, lang: str = "en") -> Noun:
    """A Structure type by its printed name ("Żniwiarka"), an invented one as "Structure A"."""
    return _named(key, words.STRUCTURES, words.EXAMPLE_STRUCTURE, lang)


def structures_text(value: object, lang: str = "en") -> str | None:
    """A Region's Structures as a reader names them: "Żniwiarka (Pielgrzymi), Budowla A (Maszyny)";
    None when ``value`` is not a list of ``{type, owner}``."""
    if not isinstance(value, list) or not value:
        return None
    names = []
    for s in value:
        if not isinstance(s, dict) or not isinstance(s.get("type"), str) or not isinstance(s.get("owner"), str):
            return None
        names.append(f"{structure_name(s['type'], lang)} ({faction_name(s['owner'], lang)})")
    return ", ".join(names)


def events_text(value: object, lang: str = "en") -> str | None:
    """The Event stacks of the Score track as a reader says them ("na polach 15, 25 (2 żetony)
    Toru Punktacji"); None when ``value`` is not a list of ``{at, tokens}``."""
    if not isinstance(value, list) or not value:
        return None
    spots = []
    for e in value:
        if not isinstance(e, dict) or not isinstance(e.get("at"), int) or set(e) - {"at", "tokens"}:
            return None
        n = e.get("tokens", 1)
        if not isinstance(n, int):
            return None
        spots.append(str(e["at"]) if n == 1 else f"{e['at']} ({n} {nui('token', 'tokens', n, lang)})")
    return ui("on spots {spots} of the Score track", lang).format(spots=", ".join(spots))


def objective_name(obj: str, lang: str) -> str:
    """A Battle objective by its name in ``lang`` (a set-aside option, the Prisoner's source, an
    error's place)."""
    return {
        "control": ui("Region Control", lang),
        "prisoners": ui("Capture Prisoners", lang),
        "attrition": ui("Attrition", lang),
    }[obj]


def skill_name(key: str | None, lang: str = "en") -> Noun:
    """A Skill by its printed name ("Zwiad"), an invented one as "Skill A"."""
    return _named(key, words.SKILLS, words.EXAMPLE_SKILL, lang)


def not_a_player(faction: str, players: Iterable[str], lang: str = "en") -> str:
    """A faction named in a table or a question that does not play, said by names ("Maszyn nie
    ma wśród graczy (Ludzie, Pielgrzymi)"): one message for the table's checks and the question's."""
    return ui("no {faction} among the players ({players})", lang).format(
        faction=faction_name(faction, lang), players=", ".join(str(faction_name(p, lang)) for p in players)
    )


def faction_owner(faction: str, lang: str = "en") -> str:
    """A faction's name as the owner of something ("the Humans' Move"), for ``{owner}`` slots.

    English adds the possessive ending (just an apostrophe after a plural in -s); other
    languages get the name as it is and say the owner their own way in the translation.
    """
    name = faction_name(faction, lang)
    if lang != "en":
        return name
    return name + ("'" if name.endswith("s") else "'s")


def value_text(value: object, lang: str = "en", values: str | None = None) -> str:
    """A fact or figure value for people: booleans as yes/no, lists joined, game words named.

    ``values`` is the vocabulary list a fact's values come from, where that names them apart
    from the same word elsewhere: ``ocean`` of the ``decks`` is "the Ocean deck" ("talia
    Oceanu"), not the terrain "Ocean"."""
    if values == "decks" and isinstance(value, str) and value in words.DECKS:
        return str(deck_name(value, lang))
    if isinstance(value, bool):
        return ui("yes", lang) if value else ui("no", lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v, lang) for v in value) if value else "—"
    if value == "":
        return "—"
    if isinstance(value, str):
        named = _words.get(lang)
        if named is None:
            named = _words[lang] = _value_words(lang)
        found = named.get(value)
        if found is None and value.startswith("tiebreak-"):  # a tie-breaker a kind names itself
            found = _kind_figure_labels(lang).get(value)
        return value if found is None else found
    return str(value)


def _value_words(lang: str) -> dict[str, str]:
    """Phases, terrains and factions, the string values facts report, as words."""
    return {
        **_faction_names(lang),
        **{k: noun(name, lang) for k, name in words.PHASES.items()},
        **{k: noun(name, lang) for k, name in words.TERRAINS.items()},
        "own": noun(words.DECKS["own"], lang),
        **{k: noun(name, lang) for k, name in words.EXPERIENCE.items()},
        **{k: noun(name, lang) for k, name in words.ITEMS.items()},
        **{k: noun(name, lang) for k, name in words.TROG_TOKENS.items()},
        # the steps of each phase (vocabulary.yaml); the Actions phase's are phrases
        **{k: noun(name, lang) for k, name in words.STEPS.items()},
        "before-action": ui("before an action", lang),
        "during-action": ui("during an action", lang),
        "after-action": ui("after an action", lang),
        "ready": ui("ready", lang),
        "exhausted": ui("exhausted", lang),
        **{k: structure_name(k, lang) for k in words.STRUCTURES},
        **{k: skill_name(k, lang) for k in words.SKILLS},
        # "tie-broken-by" lists tie-breaker figures: name them as their labels do (a kind's own
        # tie-breakers are looked up in value_text, so naming a value imports no kind's module)
        **{k: v for k, v in _shared_figure_labels(lang).items() if k.startswith("tiebreak-")},
    }


_words: dict[str, dict[str, str]] = {}


def _figure_labels(lang: str) -> dict[str, str]:
    """Labels of the figures the rules and mechanisms report (unknown ones show their ID): the
    ones several kinds give, here, then the ones a kind declares itself (``figure_words``)."""
    return {**_shared_figure_labels(lang), **_kind_figure_labels(lang)}


def _kind_figure_labels(lang: str) -> dict[str, str]:
    """The figure labels the kinds declare themselves, from the kinds' manifest (the verified
    cache ``havoc check`` writes: no kind's module is imported to name a figure; only when the
    manifest is missing or stale is it made again from the declarations)."""
    found = _kind_labels_of.get(lang)
    if found is None:
        from havoc.games.cry_havoc import kind as registry

        found = _kind_labels_of[lang] = {name: ui(label, lang) for name, label in registry.kind_figure_words().items()}
    return found


_kind_labels_of: dict[str, dict[str, str]] = {}


def label_clashes(kinds: Iterable[QuestionKind] | None = None) -> list[Problem]:
    """A kind's own figure word for a figure the shared labels already name (``havoc check``):
    the shared label is looked up first, so the kind's words would never be shown."""
    from havoc.games.cry_havoc import kind as registry

    shared = _shared_figure_labels("en")
    return [
        k.problem(f"figure_words names {name!r}, which ui.py's shared figure labels already name")
        for k in (registry.all_kinds() if kinds is None else kinds)
        for name in k.figure_words
        if name in shared
    ]


def _shared_figure_labels(lang: str) -> dict[str, str]:
    return {
        "may-leave": ui("may leave", lang),
        "must-discard": ui("must discard", lang),
        "may-recruit": ui("may recruit", lang),
        "points-left": ui("points left", lang),
        "points-missing": ui("points missing", lang),
        "events-moved": ui("Event tokens passed", lang),
        "buy-back-turn": ui("place in the buy-back order (Initiative order)", lang),
        "points-needed": ui("Move points needed", lang),
        "upcoming-position": ui("new Upcoming Initiative spot", lang),
        "position": ui("Upcoming Initiative spot", lang),
        "gains-control": ui("gains Control", lang),
        "region-vp": ui("VP for Regions", lang),
        "crystal-vp": ui("VP for Crystals", lang),
        "prisoners-vp": ui("VP for prisoners", lang),
        "vp": ui("VP", lang),
        "vp-gained": ui("VP gained", lang),
        "total-vp": ui("VP after scoring", lang),
        "buy-back-cost": ui("VP to pay", lang),
        "crystals-added": ui("Crystals added", lang),
        "wins-control": ui("wins Region Control", lang),
        "places-control-token": ui("puts its Control token", lang),
        "places-nest": ui("a Trog Nest token instead", lang),
        "survivors-to-hq": ui("survivors go to the HQ", lang),
        "to": ui("destination", lang),
        "placement": ui("Units on the objectives", lang),
        "build": ui("the Trogs build", lang),  # the solo Trogs' build decision: {Structure: Region}
        "wins": ui("objectives won", lang),
        "battle": ui("a Battle follows", lang),
        "to-hq": ui("Units sent to the HQ", lang),
        "control-vp": ui("VP for Region Control", lang),
        "takes-prisoners": ui("takes prisoners", lang),
        "prisoners-taken": ui("prisoners taken", lang),
        "kills": ui("Units killed", lang),
        "kill-vp": ui("VP for kills", lang),
        "control-winner": ui("Region Control won by", lang),
        "prisoners-by": ui("prisoners taken by", lang),
        "kills-by": ui("Units killed by", lang),
        "survivors": ui("Units left", lang),
        "retreat-to": ui("may retreat to", lang),
        "to-reserve": ui("to the Reserve", lang),
        "control-token": ui("Control token", lang),
        "nest": ui("Trog Nest token", lang),
        "nest-options": ui("Trog Nest may go on", lang),
        "final-vp": ui("VP", lang),
        "tiebreak-prisoners": ui("prisoners held", lang),
        "tiebreak-initiative": ui("Initiative spot", lang),
        "tiebreak-trogs": ui("the Trogs win ties", lang),
        "winner": ui("winner", lang),
        "ranking": ui("ranking", lang),
        "tie-broken-by": ui("tie broken by", lang),
        "destinations": ui("may retreat to", lang),
        "actions": ui("actions", lang),
        "order": ui("Battle order", lang),
        "not-fought": ui("no Battle", lang),
        "may-buy-back": ui("may buy back", lang),
        "upcoming-order": ui("Upcoming Initiative track after the card", lang),
        "vp-to-spend": ui("VP to pay from (after scoring Prisoners)", lang),
        "units-lost": ui("Units sent back to the Reserve", lang),
        "units-in-region": ui("Units in the Region", lang),
        "returned": ui("Units back in the Region", lang),
        "retreated": ui("Units that retreat", lang),
        "reveals-exploration": ui("reveals an Exploration token", lang),
        "reveals-trog-token": ui("reveals a Trog token", lang),
        "trogs-join-army": ui("the Trog Units join the Trog player", lang),
        "trogs-from-hq": ui("the Trog Units come from the Trog HQ", lang),
        "places-battle-token": ui("places a Battle token", lang),
        "battle-token": ui("Battle token", lang),
        "two-player-board-side": ui("board side for two players", lang),
        "hq-units": ui("Units with each HQ", lang),
        "hq-control-tokens": ui("Control tokens with each HQ", lang),
        "skills": ui("Skills per player", lang),
        "trog-hq-units": ui("Trog Units in World Caverns", lang),
        "tunnels": ui("Tunnel tokens", lang),
        "tokens-as-printed": ui("tokens and Crystals as printed on the map", lang),
    }


def _kind_labels(lang: str) -> dict[str, str]:
    """Names of the question kinds, for people (help, site, answers, the legal-actions report):
    each kind's declared label, the one place its words are (read from the kinds' manifest)."""
    out = _kinds.get(lang)
    if out is None:
        from havoc.games.cry_havoc import kind as registry

        out = {name: ui(label, lang) for name, label in registry.labels().items()}
        out["trogs"] = ui("What do the solo Trogs do?", lang)  # the solo variant's decider (not a question kind)
        _kinds[lang] = out
    return out


_kinds: dict[str, dict[str, str]] = {}


def unit_text(unit: str, n: int, lang: str = "en") -> str:
    """A parameter's unit ("cards", "VP") counted for ``n`` in ``lang`` (1 akcja, 2 akcje, 5 akcji)."""
    forms = {
        "actions": lambda: nui("action", "actions", n, lang),
        "activations": lambda: nui("activation", "activations", n, lang),
        "tokens": lambda: nui("token", "tokens", n, lang),
        "cards": lambda: nui("card", "cards", n, lang),
        "VP": lambda: nui("VP", "VP", n, lang),
        "units": lambda: nui("Unit", "Units", n, lang),
        "skills": lambda: nui("Skill", "Skills", n, lang),
        "tiles": lambda: nui("tile", "tiles", n, lang),
        "crystals": lambda: nui("Crystal", "Crystals", n, lang),
        "pieces": lambda: nui("piece", "pieces", n, lang),
        "players": lambda: nui("player", "players", n, lang),
        "Build points": lambda: nui("Build point", "Build points", n, lang),
        "spots": lambda: nui("spot", "spots", n, lang),
        "rounds": lambda: nui("round", "rounds", n, lang),
        "factions": lambda: nui("faction", "factions", n, lang),
        "decks": lambda: nui("deck", "decks", n, lang),
    }.get(unit)
    return forms() if forms else ""


def kind_label(kind: str, lang: str = "en") -> str:
    """A question kind as a word in ``lang`` (the ID when unknown)."""
    return _kind_labels(lang).get(kind, kind)


def form_label(kind: str, lang: str = "en") -> str:
    """A question kind as its form names it ("Who wins the Battle?"), else its label, in ``lang``."""
    from havoc.games.cry_havoc import kind as registry

    found = registry.get(kind)
    if found is None:
        return kind
    label = found.form_label or found.label
    return ui(label, lang)


def has_label(what: str, name: str) -> bool:
    """Whether a figure or question kind has words of its own (the site warns when not)."""
    return name in (_figure_labels("en") if what == "figure" else _kind_labels("en"))


_labels: dict[str, dict[str, str]] = {}


def figure_label(name: str, lang: str = "en") -> str:
    """A figure's label: the shared ones first (no kind names one of those, ``label_clashes``),
    then the kinds' own (whose modules are imported only for such a figure)."""
    labels = _labels.get(lang)
    if labels is None:
        labels = _labels[lang] = _shared_figure_labels(lang)
    found = labels.get(name)
    if found is None:
        found = _kind_figure_labels(lang).get(name, name)
    return found


# --- names a table may give instead of IDs ----------------------------------------------


def fold(text: str) -> str:
    """A name as typed, folded exactly as the Ask page folds it (``fold`` in havoc-ask.js): no
    case, no diacritics (ł as l: a phone's keyboard may lack them), words joined by "-". An ID
    folds to itself; "Głębia Sapos" to "glebia-sapos". The one folding of names: a table's
    (position.py) and a typed question's (typed.py) alike; remembered, as names recur."""
    found = _folds.get(text)
    if found is None:
        if len(_folds) >= _FOLDS_MOST:
            _folds.clear()
        found = _folds[text] = text if _plain_id(text) and "_" not in text else _folded(text)
    return found


_folds: dict[str, str] = {}
_FOLDS_MOST = 4096


def _folded(text: str) -> str:
    import unicodedata

    # the page's steps, in its order: NFD, accents off, ł as l, lower case, other runs as "-"
    text = "".join(c for c in unicodedata.normalize("NFD", text.strip()) if not "\u0300" <= c <= "\u036f")
    out: list[str] = []
    dash = False
    for c in text.replace("ł", "l").replace("Ł", "L").lower():
        if "a" <= c <= "z" or "0" <= c <= "9":
            if dash and out:
                out.append("-")
            out.append(c)
            dash = False
        else:
            dash = True
    return "".join(out)


def vocabulary(what: str) -> dict[str, tuple[str, ...]]:
    """Every name a table may give one kind of thing (``words.NAMED``: "regions", "factions",
    "phases" …) instead of its ID, folded (:func:`fold`), with the IDs it names (more than one:
    the name is ambiguous). The names are those the answers use in every language ("Mgielnia",
    "faza Akcji") and the Ask page's words for the same things ("Akcje"), from the catalogs;
    an invented thing's lettered name ("Region A", "Budowla B") names ``example-a``,
    ``example-b``; and each ID names itself."""
    found = _vocabularies.get(what)
    if found is None:
        found = _vocabularies[what] = _vocabulary(what)
    return found


_vocabularies: dict[str, dict[str, tuple[str, ...]]] = {}


def _vocabulary(what: str) -> dict[str, tuple[str, ...]]:
    from havoc.language.i18n import LANGUAGES

    known, lettered_name = words.NAMED[what]
    names: dict[str, dict[str, None]] = {}

    def add(name: str, key: str) -> None:
        folded = fold(name)
        if folded:
            names.setdefault(folded, {})[key] = None

    for key in known:
        add(key, key)
    for lang in LANGUAGES:
        page = translator(lang) if lang != "en" else None  # the Ask page's words (site catalog, no context)
        for key, msgid in known.items():
            add(str(noun(msgid, lang)), key)
            label = words.VALUES.get(key) if what != "regions" else msgid
            if label is not None:
                add(page.text("", label) if page is not None else label, key)
        if lettered_name is not None:
            for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
                add(str(noun(lettered_name, lang, letter=letter)), EXAMPLE_PREFIX + letter.lower())
    return {name: tuple(keys) for name, keys in names.items()}


def known_names(what: str, lang: str, keys: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """The things of one kind a table may name, as the reader knows them, with their IDs:
    ("Mgielnia", "foglands"), ("north", "north") (``keys``: only these, e.g. a table's Regions)."""
    known, _ = words.NAMED[what]
    out = []
    for key in known if keys is None else keys:
        if what == "regions":  # a player's own ID ("north") is shown as it is
            own = key not in known and not key.startswith(EXAMPLE_PREFIX)
            name = key if own else str(region_names([key], lang)[key])
        elif key in known:
            name = str(noun(known[key], lang))
        else:
            name = key
        out.append((name, key))
    return out


def names_text(names: list[tuple[str, str]]) -> str:
    """Things by name, each with its ID where that differs: "Mgielnia (foglands), north"."""
    return ", ".join(key if fold(name) == key else f"{name} ({key})" for name, key in names)
