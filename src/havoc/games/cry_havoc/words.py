"""The words Cry Havoc's positions and questions show on the site, as English msgids.

The site extension declares them as labels (so they are in ``site.pot``) and shows them in the
reader's language; it names no game itself.
"""

from __future__ import annotations

# The six Region names known from the rulebook's examples (rules/README.md); examples and the Ask
# page show them by name, and other example Regions as "Region A", "Region B" ….
KNOWN_REGIONS = {
    "foglands": "Foglands",
    "feralas-banks": "Feralas Banks",
    "sapos-deep": "Sapos Deep",
    "scorch": "Scorch",
    "camerons-sea": "Cameron's Sea",
    "world-caverns": "World Caverns",
}
# An invented Region, by its letter ("example-b" is Region B).
EXAMPLE_REGION = "Region {letter}"

# Things a question names by ID that have a printed name (the Structures and Skills known from
# the sources, rules/README.md); an invented one (``example-…``) is lettered like a Region.
STRUCTURES = {
    "harvester": "Harvester",
    "power-orb": "Power Orb",
    "airfield": "Airfield",
    "artillery": "Artillery",
    "watchtower": "Watchtower",
}
EXAMPLE_STRUCTURE = "Structure {letter}"
SKILLS = {
    "scouting": "Scouting",
    "teleport": "Teleport",
}
EXAMPLE_SKILL = "Skill {letter}"
FACTIONS = {"humans": "Humans", "pilgrims": "Pilgrims", "machines": "Machines", "trogs": "Trogs"}

# Game words a sentence declines ("z talii Gór", "krok fazy Akcji"): phases, steps, terrains, the
# Tactics decks, experience levels, what may be placed and the Trog tokens (vocabulary.yaml).
PHASES = {
    "events": "Events phase",
    "draw-cards": "Draw Cards phase",
    "actions": "Actions phase",
    "battle-resolution": "Battle Resolution phase",
    "prisoners": "Prisoners phase",
    "scoring": "Scoring phase",
}
# The Actions phase's steps ("before an action") are phrases, not names: they do not decline.
STEPS = {
    "resolve-events": "Resolve Events",
    "update-initiative": "Update Initiative",
    "refresh-skills": "Refresh Skills",
    "draw": "Draw cards",
    "discard": "Discard",
    "add-crystal": "Add a Crystal",
    "place-units": "Place Units",
    "play-tactics": "Play Tactics cards",
    "resolve-objectives": "Resolve the objectives",
    "return-survivors": "Return survivors",
    "retreat": "Retreat",
    "remove-token": "Remove the Battle token",
    "score-prisoners": "Score Prisoners",
    "buy-back": "Buy back Prisoners",
    "score": "Score",
}
TERRAINS = {"mountains": "Mountains", "desert": "Desert", "jungle": "Jungle", "ocean": "Ocean"}
DECKS = {
    "own": "their own deck",
    "mountains": "the Mountains deck",
    "desert": "the Desert deck",
    "jungle": "the Jungle deck",
    "ocean": "the Ocean deck",
}
EXPERIENCE = {"beginner": "beginners", "experienced": "experienced players", "veteran": "veterans"}
ITEMS = {"crystal": "Crystal", "structure": "Structure"}
TROG_TOKENS = {"war-party": "Trog War Party", "nest": "Trog Nest"}

# What a table may call by a name instead of its ID ("Mgielnia:" for foglands, "Ludzie" for
# humans): each kind of thing by the names the answers give it (in every language) and, for
# invented ones, the lettered name ("Region A" is example-a). See ui.vocabulary.
NAMED = {
    "regions": (KNOWN_REGIONS, EXAMPLE_REGION),
    "factions": (FACTIONS, None),
    "structures": (STRUCTURES, EXAMPLE_STRUCTURE),
    "skills": (SKILLS, EXAMPLE_SKILL),
    "phases": (PHASES, None),
    "steps": (
        {
            **STEPS,
            "before-action": "before an action",
            "during-action": "during an action",
            "after-action": "after an action",
        },
        None,
    ),
    "terrains": (TERRAINS, None),
    "trog-tokens": (TROG_TOKENS, None),
    "skill-states": ({"ready": "ready", "exhausted": "exhausted"}, None),
}

# --- position and question keys -------------------------------------------------
KEYS = {
    key: text
    for key, text in {
        "players": "Players",
        "variant": "Variant",
        "round": "Round",
        "phase": "Phase",
        "step": "Step",
        "action-round": "Action round",
        "turn": "Turn",
        "initiative": "Initiative",
        "scoring-enabled": "Scoring enabled",
        "final-round": "Final round",
        "factions": "Factions",
        "regions": "Regions",
        "ask": "Question",
        "card": "Card",
        "card-units": "Units the card added or removed",
        "card-terrain": "Terrain of the card",
        "of": "How many",
        "item": "What is placed",
        "experience": "Experience",
        "faction": "Faction",
        "from": "From",
        "to": "To",
        "region": "Region",
        "units": "Units",
        "points": "Points",
        "other-cost": "Points spent on other Structures",
        "verdict": "Verdict",
        "control": "Control",
        "battle": "Battle",
        "token": "token",
        "attacker": "attacker",
        "to-play": "to play in the Tactics exchange",
        "adjacent": "adjacent to",
        "crystals": "Crystals",
        "structures": "Structures",
        "hand": "cards in hand",
        "vp": "VP",
        "reserve": "Reserve",
        "hq": "HQ",
        "outer": "outer",
        "terrain": "Terrain",
        "figures": "Figures",
        "rules": "Rules",
        "objectives": "Units on the objectives",
        "capture-from": "Prisoners taken from",
        "trog-token": "Trog token",
        "exploration": "Exploration token",
        "enabled-by": "enabled by",
        "passed": "passed",
        "controlled-at-action-start": "Controlled when the action began",
        "skills": "Skills",
        "skill": "Skill",
        "deck": "Deck",
        "owner": "owner",
        "type": "type",
        "position": "Upcoming Initiative spot",
        "decide": "Decide",
        "upcoming-initiative": "Upcoming Initiative track",
    }.items()
}


# Values that stand in positions and questions: shown as words, not codes, in the reader's
# language. Region IDs stay as code (the printed map's names are not in our sources). A question
# kind (`ask: move`) is named by its declared label (kinds/<kind>.py; see site_words); a name that
# is also a phase or step (discard, retreat, score, prisoners) is said as that here.
VALUES = {
    key: text
    for key, text in {
        "humans": "Humans",
        "pilgrims": "Pilgrims",
        "machines": "Machines",
        "trogs": "Trogs",
        "events": "Events",
        "draw-cards": "Draw Cards",
        "actions": "Actions",
        "battle-resolution": "Battle Resolution",
        "prisoners": "Prisoners",
        "scoring": "Scoring",
        "mountains": "Mountains",
        "desert": "Desert",
        "jungle": "Jungle",
        "ocean": "Ocean",
        "retreat": "Retreat",
        "discard": "Discard",
        "score": "Score",
        "may-leave": "may leave",
        "tiebreak-trogs": "the Trogs win ties",
        "may-recruit": "may recruit",
        "must-discard": "must discard",
        "may-buy-back": "may buy back",
        "crystal": "Crystal",
        "structure": "Structure",
        "beginner": "beginners",
        "experienced": "experienced players",
        "veteran": "veterans",
        "war-party": "Trog War Party",
        "nest": "Trog Nest",
        "air-support": "Air Support",
        "control": "Region Control",
        "attrition": "Attrition",
        **STRUCTURES,
        **SKILLS,
        "ready": "ready",
        "exhausted": "exhausted",
        "own": "own deck",
        "solo": "solo variant",
        "scouts": "Scouts",
        # the steps of each phase (vocabulary.yaml)
        "resolve-events": "Resolve Events",
        "update-initiative": "Update Initiative",
        "refresh-skills": "Refresh Skills",
        "draw": "Draw cards",
        "before-action": "before an action",
        "during-action": "during an action",
        "after-action": "after an action",
        "add-crystal": "Add a Crystal",
        "place-units": "Place Units",
        "play-tactics": "Play Tactics cards",
        "resolve-objectives": "Resolve the objectives",
        "return-survivors": "Return survivors",
        "remove-token": "Remove the Battle token",
        "score-prisoners": "Score Prisoners",
        "buy-back": "Buy back Prisoners",
    }.items()
}


def nouns() -> list[str]:
    """The names a sentence may decline (their case forms are catalog entries, havoc.language.grammar)."""
    return [
        *KNOWN_REGIONS.values(),
        EXAMPLE_REGION,
        *FACTIONS.values(),
        *STRUCTURES.values(),
        EXAMPLE_STRUCTURE,
        *SKILLS.values(),
        EXAMPLE_SKILL,
        *PHASES.values(),
        *STEPS.values(),
        *TERRAINS.values(),
        *DECKS.values(),
        *EXPERIENCE.values(),
        *ITEMS.values(),
        *TROG_TOKENS.values(),
    ]


def values() -> dict[str, str]:
    """Every value's words: each question kind's label (its one place), then the values above."""
    from havoc.games.cry_havoc import kind as registry

    return {**registry.labels(), **VALUES}


def site_words() -> dict[str, dict[str, str]]:
    """The site's words of positions and questions; ``ui``: those the ``havoc`` catalog translates
    (each question kind's label, declared and translated once with the kind), not copied to site.po."""
    from havoc.games.cry_havoc import kind as registry

    own = {*KNOWN_REGIONS.values(), *KEYS.values(), *VALUES.values()}
    borrowed = {name: text for name, text in registry.labels().items() if text not in own}
    return {"regions": KNOWN_REGIONS, "keys": KEYS, "values": values(), "ui": borrowed}
